"""Every file that card data names lies inside the game folder and is an image forge can draw,
and the folders the game's templates and scenarios are read from are its own.

The rule for where a path may lead is `forge.paths.data_path`, shared with rendering; this
check turns its refusals into findings at the card's `art:` line, then opens each image that
passes, so a broken file is a finding here rather than a failed build. A templates or scenarios
folder that is a link, or leads out through one, or cannot be read, is a finding at the link or
the folder: rendering refuses it too, but would report it once per template it looks for.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

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
        if not card.art:
            continue
        try:
            path = data_path(game.root, card.art, "art")
        except DataPathError as exc:
            yield card.finding(("art",), exc.code, exc.message, exc.fix)
            continue
        problem = image_problem(path)
        if problem:
            yield card.finding(("art",), "art-unreadable", f"art {card.art!r} is not an image "
                               f"forge can read: {problem}", "save it again as PNG or JPEG")


#: The most pixels an art file may have: far above print resolution, far below what would
#: take gigabytes to decode.
MAX_ART_PIXELS = 50_000_000


def image_problem(path: Path) -> str:
    """Why the image at `path` cannot be drawn, or "" when it can.

    Cheap, as `check` runs often: a PNG's structure and every chunk's checksum are verified
    without inflating its pixels; other formats are decoded, JPEG at an eighth of its size.
    (Rendering still falls back to the placeholder for whatever gets past this.)"""
    from PIL import Image, UnidentifiedImageError  # ReportLab's own image library

    try:
        with Image.open(path) as image:
            width, height = image.size
            if width * height > MAX_ART_PIXELS:
                return (f"it has {width}x{height} pixels, more than the {MAX_ART_PIXELS // 10**6} million "
                        "forge draws (a poker card at 600 dpi needs about 3.6 million)")
            if image.format == "PNG":
                image.verify()
            else:
                image.draft(None, (64, 64))
                image.load()
    except UnidentifiedImageError:
        return "it is not a PNG, JPEG or other image file"
    except Exception as exc:  # Pillow raises many types (OSError, SyntaxError, zlib.error ...)
        return f"it is broken or truncated ({exc})"
    return ""
