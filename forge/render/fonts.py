"""Fonts: Roboto from the `font-roboto` package, registered once, embedded in every PDF.

ReportLab embeds TrueType outlines only and never synthesises bold or italic, so the whole
family is registered (`<b>`, `<i>` map to real files). Text must be checked with `missing_glyphs`
before drawing: a glyph the font lacks prints as an empty box and extracts as NUL.

The package is imported when a font is first needed, not with this module, so a missing
`font-roboto` fails only the commands that draw or measure text, with a message saying so
(`forge --help` and `forge schema` still work).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ..errors import ForgeError, PathError

FAMILY = "Roboto"
#: ReportLab name -> file; the four faces of the family plus the weights layouts may ask for.
FACES = {
    "Roboto": "Roboto-Regular.ttf",
    "Roboto-Bold": "Roboto-Bold.ttf",
    "Roboto-Italic": "Roboto-Italic.ttf",
    "Roboto-BoldItalic": "Roboto-BoldItalic.ttf",
    "Roboto-Medium": "Roboto-Medium.ttf",
    "Roboto-Light": "Roboto-Light.ttf",
    "Roboto-Black": "Roboto-Black.ttf",
}
REGULAR, BOLD, ITALIC, BOLD_ITALIC = "Roboto", "Roboto-Bold", "Roboto-Italic", "Roboto-BoldItalic"
#: Characters that are not drawn and so need no glyph.
_INVISIBLE = set("\n\r\t\u00ad\u200b\u2060")


def font_folder() -> Path:
    """Where the `font-roboto` package keeps its TTF files."""
    try:
        import font_roboto
    except ImportError:
        raise ForgeError("the font-roboto package is not installed (pip install font-roboto)") from None
    return Path(font_roboto.__file__).parent / "files"


@lru_cache(maxsize=None)
def register() -> str:
    """Register the family with ReportLab (idempotent); returns the regular face's name.

    Every PDF forge makes registers the fonts before its first page, so this is also where
    ReportLab's one process-wide output setting forge changes is made: binary streams, no
    ASCII85 (ASCII85 in pure Python costs more than the drawing). Set once, before any document,
    it gives every product the same bytes whichever products run in the process, and in what order."""
    rl_config.useA85 = 0
    folder = font_folder()
    for name, file in FACES.items():
        path = folder / file
        try:
            font = TTFont(name, str(path))
        except Exception:  # noqa: BLE001 - ReportLab's parser raises anything on a corrupt file
            reason = "not a readable TrueType font" if path.is_file() else "no such file"
            raise PathError(f"cannot load the font {path}: {reason} (reinstall font-roboto)") from None
        pdfmetrics.registerFont(font)
    pdfmetrics.registerFontFamily(FAMILY, normal=REGULAR, bold=BOLD, italic=ITALIC, boldItalic=BOLD_ITALIC)
    for bold, italic, face in ((0, 0, REGULAR), (1, 0, BOLD), (0, 1, ITALIC), (1, 1, BOLD_ITALIC)):
        addMapping(FAMILY, bold, italic, face)
    return REGULAR


@lru_cache(maxsize=None)
def _coverage(face: str) -> frozenset[int]:
    register()
    return frozenset(pdfmetrics.getFont(face).face.charToGlyph)


class _Advances(dict):
    """A face's advance widths (1/1000 em) by character, the face's default for the rest."""

    def __init__(self, face: str):
        register()
        metrics = pdfmetrics.getFont(face).face
        super().__init__({chr(code): w for code, w in metrics.charWidths.items()})
        self.default = metrics.defaultWidth

    def __missing__(self, ch: str) -> float:
        return self.default


@lru_cache(maxsize=None)
def _advances(face: str) -> _Advances:
    return _Advances(face)


@lru_cache(maxsize=65536)
def unit_width(text: str, face: str) -> float:
    """Width of `text` in `face` at 1 pt: ReportLab's `stringWidth` to the last bit (the same
    widths summed in the same order), without its per-character Python loop; the text fitter
    measures every word of every card with it."""
    return 0.001 * sum(map(_advances(face).__getitem__, text))


def missing_glyphs(text: str, face: str = REGULAR) -> list[str]:
    """Characters of `text` that `face` cannot draw, in order of first appearance."""
    have = _coverage(face)
    seen: dict[str, None] = {}
    for ch in text:
        if ch not in _INVISIBLE and not ch.isspace() and ord(ch) not in have:
            seen.setdefault(ch)
    return list(seen)
