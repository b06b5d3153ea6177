"""Every file that card data names lies inside the game folder and is an image forge can draw,
and the folders the game's templates and scenarios are read from are its own.

The rule for where a path may lead is `forge.paths.data_path`, shared with rendering; the rule
for what a picture may be is `forge.art.open_art`, shared with drawing. `forge.art.art_finding`
applies both to a card, so a refusal is a finding at its `art:` line rather than a placeholder
in the build. A templates or scenarios folder that is a link, or leads out through one, or
cannot be read, is a finding at the link or the folder: rendering refuses it too, but would
report it once per template it looks for.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

from ..art import art_finding
from ..errors import Finding, display_path
from ..model import Game
from ..paths import DataPathError, data_path, real_folder


def check_folders(game: Game) -> Iterator[Finding]:
    """The game's templates folder and scenarios folder are real folders of its project, and
    its layout folders in the templates folder lie inside it and can be read."""
    from ..rulebook.context import scenarios_dir
    from ..templating import templates_root

    root = templates_root(game)
    try:
        real_folder(root, "templates folder")
    except DataPathError as exc:
        yield _at_folder(exc, root)
    else:
        for name in (game.id, f"{game.id}/cards", "_common", "_common/cards"):
            try:
                data_path(root, name, "folder", "the templates folder", kind="folder")
            except DataPathError as exc:
                if exc.code != "path-missing" or os.path.lexists(root / name):
                    yield _at_folder(exc, root / name)
    scenarios = scenarios_dir(game)
    try:
        real_folder(scenarios, "scenarios folder")
    except DataPathError as exc:
        yield _at_folder(exc, scenarios)


def _at_folder(exc: DataPathError, folder: Path) -> Finding:
    return Finding(display_path(exc.at or folder), 0, 0, exc.code, exc.message, exc.fix)


def check_paths(game: Game) -> Iterator[Finding]:
    for card in game.cards:
        finding = art_finding(game, card)
        if finding is not None:
            yield finding
