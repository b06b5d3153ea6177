"""Every file that card data names lies inside the game folder and is an image forge can draw.

The rule for where a path may lead is `forge.paths.data_path`, shared with rendering; this
check turns its refusals into findings at the card's `art:` line, then opens each image that
passes, so a broken file is a finding here rather than a failed build.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from ..errors import Finding
from ..model import Game
from ..paths import DataPathError, data_path


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
