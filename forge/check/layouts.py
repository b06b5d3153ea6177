"""What layouts may use, checked: their elements against the vocabulary, and the game's icons.

- A layout whose elements break the vocabulary (`forge.render.elements`: an unknown kind, a
  missing or misspelt parameter, a value of the wrong type or range, an unknown icon) fails
  every face it draws; `layout_findings` turns the failure into one finding per bad element, at
  the template line that made it, naming the card. Preflight renders the faces and calls it, so
  nothing is rendered twice.
- Each SVG file of the game's `icons/` folder is read and drawn once (`forge.render.icons`): a
  file that is not a self-contained vector drawing is a finding at its own file and line.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from jinja2.exceptions import SecurityError

from ..errors import Finding, display_path
from ..model import Game
from ..render.icons import game_icons
from ..render.layout import LayoutError
from ..templating import COMMON

#: Where a designer finds the element kinds and their parameters.
_REFERENCE = "see docs/layouts.md for the element kinds, their parameters and the icons"


def layout_findings(exc: LayoutError, at_data: Finding) -> Iterator[Finding]:
    """A failing layout, reported at the template's file and line when they are known and the
    game's (the template is what to fix), naming the card; else at the data that fed it
    (`at_data`: the card, or the manifest's `backs` entry), as when forge's own shared template
    (`templating.COMMON`) draws a back whose icon the manifest misspells."""
    if exc.problems:
        for problem in exc.problems:
            if problem.file and not _forges(problem.file):
                yield Finding(display_path(Path(problem.file)), problem.line, 1 if problem.line else 0,
                              "layout-element", problem.message, _REFERENCE, at_data.card)
            else:
                yield Finding(at_data.file, at_data.line, at_data.col, "layout-element",
                              problem.message, _REFERENCE, at_data.card)
        return
    if not exc.file or _forges(exc.file):
        yield at_data
        return
    code = "unsafe-template" if isinstance(exc.__cause__, SecurityError) else "layout"
    where = display_path(Path(exc.file))
    message = str(exc).removeprefix(f"{where}:{exc.line}: ")  # said once, as the finding's place
    yield Finding(where, exc.line, 1 if exc.line else 0, code, message, at_data.fix, at_data.card)


def _forges(file: str) -> bool:
    """Whether `file` is one of forge's own shared templates, which a designer does not edit."""
    return Path(file).resolve().is_relative_to(COMMON.resolve())


def check_icons(game: Game) -> Iterator[Finding]:
    """Every SVG file of the game's `icons/` folder can be drawn."""
    for broken in game_icons(game).problems:
        yield Finding(display_path(broken.path), broken.line, 1 if broken.line else 0, broken.code,
                      broken.message, broken.fix)
