"""`check`: everything that can be known about a game without playing it.

`check_game()` loads a game folder and runs every static check over it, in one pass: a file
that does not load stops only what depends on it, so a designer sees every finding at once. A
check is a function `(game) -> iterable of Finding`, listed in one of three tiers:

- `DATA_CHECKS` look at the data itself (ids, references, subtype fields, operation texts, the
  files it names, the folders its templates and scenarios come from, its SVG icons) and always run;
- `FACE_CHECKS` lay out every card face (glyphs, fit, layout elements, every field shown or
  declared hidden) and the printed components. They run on the cards the data checks found
  nothing wrong with, unless a data finding is about the game as a whole (an operation's text,
  an icon, a folder), which every face would report again;
- `DECK_CHECKS` compare cards with each other (counts, uniqueness), match the data to its rules
  engine and render the rulebook templates (and lay them out, `typeset`: `forge build` skips
  that, as it lays out the documents it makes and refuses them on what it finds). They need the
  whole deck: they run only when every file loaded and the data checks found nothing, so one
  typo is reported once, not again as a wrong count.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from ..errors import Finding
from ..model import Game, load_game
from .counts import check_counts
from .engine import check_engine
from .fields import check_shown_fields
from .identity import check_ids, check_unique
from .layouts import check_icons
from .paths import check_folders, check_paths
from .preflight import check_components, check_glyphs_and_fit
from .references import check_references
from .rulebook import check_rulebooks
from .subtypes import check_subtype_fields
from .texts import check_texts

DATA_CHECKS = (check_ids, check_references, check_subtype_fields, check_texts, check_paths,
               check_folders, check_icons)
FACE_CHECKS = (check_glyphs_and_fit, check_components, check_shown_fields)
DECK_CHECKS = (check_counts, check_unique, check_engine, check_rulebooks)


def check_game(root: Path, typeset: bool = True) -> tuple[Game | None, list[Finding]]:
    """Load and check one game folder; the findings come sorted by file and line."""
    game, findings = load_game(root)
    if game is not None:
        data, rest = run_checks(game, complete=not findings, typeset=typeset)
        findings += data + rest
    return game, ordered(findings)


def run_checks(game: Game, complete: bool, typeset: bool = True) -> tuple[list[Finding], list[Finding]]:
    """The findings of the data checks, and of the face and deck checks, over a loaded game;
    `complete`: every file loaded and every card in it validated (the deck checks need them);
    `typeset`: the rulebooks and sheets are laid out too (`check_rulebooks`)."""
    found = [finding for check in DATA_CHECKS for finding in check(game)]
    if not any(not f.card for f in found):
        faulty = {f.card for f in found}
        clean = game if not faulty else dataclasses.replace(  # the same object: its faces are kept
            game, cards=tuple(c for c in game.cards if c.id not in faulty))
        rest = [finding for check in FACE_CHECKS for finding in check(clean)]
    else:
        rest = []
    if complete and not found:
        rest += [finding for check in DECK_CHECKS
                 for finding in (check(game, typeset) if check is check_rulebooks else check(game))]
    return found, rest


def ordered(findings: list[Finding]) -> list[Finding]:
    """Findings without repeats, sorted by file, line and column. A repeat is of the same kind
    at the same place (a layout's text checked in each language): findings of two kinds at one
    place (an unknown icon in a text that also overflows) are both kept, though `Finding`s
    compare by place alone."""
    unique = {(f.file, f.line, f.col, f.code): f for f in reversed(findings)}
    return sorted(unique.values(), key=lambda f: (f.file, f.line, f.col, f.code, f.message))


__all__ = ["DATA_CHECKS", "DECK_CHECKS", "FACE_CHECKS", "check_game", "ordered", "run_checks"]
