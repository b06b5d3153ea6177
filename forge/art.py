"""Art files: the one place forge decodes a picture that came with a game.

A game folder is shared, so its art is untrusted input. `open_art` opens it by content as PNG
or JPEG only, never by letting Pillow try every format it knows: an EPS file named `art.png`
would have Pillow run Ghostscript on the game's PostScript, and the other plugins are parsers
forge has no use for. It decodes the picture completely (a file that opens but does not decode
is refused here, not drawn as a placeholder without a word), bounds its pixels, and keeps
Pillow's warnings off the user's terminal. `art_finding` is the verdict on a card's art for
`check` and `preview`; drawing shows the placeholder instead (`forge.render.draw`).
"""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import IO, TYPE_CHECKING

from .paths import DataPathError, data_path

if TYPE_CHECKING:
    from PIL.Image import Image

    from .errors import Finding
    from .model import Card, Game

#: The formats art may be in (Pillow's names), as docs/data-format.md promises.
ART_FORMATS = ("PNG", "JPEG")

#: The most pixels an art file may have: far above print resolution, far below what would
#: take gigabytes to decode (and below Pillow's own decompression-bomb warning).
MAX_ART_PIXELS = 50_000_000

#: Modes ReportLab draws as they are (others are converted, here rather than at drawing).
_DRAWN_MODES = ("L", "LA", "RGB", "RGBA", "CMYK")


class ArtError(ValueError):
    """Why an art file cannot be drawn, in words that follow "art 'x.png' is not an image
    forge can read:"."""


def art_finding(game: "Game", card: "Card") -> "Finding | None":
    """What is wrong with `card`'s art, at its `art:` line, or None (no art, or art that
    draws): where it leads (`data_path`), then whether it decodes (`open_art`)."""
    if not card.art:
        return None
    try:
        path = data_path(game.root, card.art, "art")
    except DataPathError as exc:
        return card.finding(("art",), exc.code, exc.message, exc.fix)
    try:
        open_art(path, check=True).close()
    except ArtError as exc:
        return card.finding(("art",), "art-unreadable", f"art {card.art!r} is not an image forge "
                            f"can read: {exc}", "save it again as PNG or JPEG")
    return None


def open_art(source: Path | IO[bytes], *, check: bool = False) -> "Image":
    """The picture in `source` (a path or a binary file), decoded, in a mode ReportLab draws;
    `ArtError` says why it cannot be.

    With `check` (for `forge check`, which keeps no pixels) a PNG also has every chunk's
    checksum verified to its end, so a file cut short after its last row is refused too, and a
    JPEG is decoded at an eighth of its size, which reads every byte of its data (so meets the
    same faults) for a fraction of the work. Pillow's warnings are silenced: the one that
    matters, a decompression bomb, is a refusal here by `MAX_ART_PIXELS`; the others (a
    malformed APNG or MPO header, palette transparency given as bytes) change nothing drawn."""
    from PIL import Image, UnidentifiedImageError  # ReportLab's own image library

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if check:
                _verify(source)
            with _open(source) as image:  # closes the file, keeps the pixels
                if check and image.format == "JPEG":
                    image.draft(None, (1, 1))  # the smallest libjpeg makes
                image.load()
            if image.mode not in _DRAWN_MODES:  # palette, bilevel, 16-bit grey
                image = image.convert("RGBA" if "transparency" in image.info else "RGB")
            return image
    except UnidentifiedImageError:
        raise ArtError(f"it is not a {' or '.join(ART_FORMATS)} file, the only formats forge "
                       "reads art in") from None
    except Image.DecompressionBombError:
        raise ArtError(_too_many(f"over {2 * Image.MAX_IMAGE_PIXELS:,}")) from None
    except ArtError:
        raise
    except Exception as exc:  # Pillow raises many types (OSError, SyntaxError, zlib.error ...)
        raise ArtError(f"it is broken or truncated ({exc})") from None


def _verify(source: Path | IO[bytes]) -> None:
    """A PNG's chunks and their checksums, to its end: a file cut short after its last row
    decodes, but is damaged all the same."""
    with _open(source) as image:
        if image.format == "PNG":
            image.verify()


def _open(source: Path | IO[bytes]) -> "Image":
    """`source` opened by content as one of `ART_FORMATS` (no other plugin is tried), within
    `MAX_ART_PIXELS`; not yet decoded."""
    from PIL import Image

    if not isinstance(source, (str, Path)):
        source.seek(0)
    image = Image.open(source, formats=ART_FORMATS)
    width, height = image.size
    if width * height > MAX_ART_PIXELS:
        image.close()
        raise ArtError(_too_many(f"{width}x{height}"))
    return image


def _too_many(pixels: str) -> str:
    return (f"it has {pixels} pixels, more than the {MAX_ART_PIXELS // 10**6} million forge "
            "draws (a poker card at 600 dpi needs about 3.6 million)")
