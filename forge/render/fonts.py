"""Fonts: Roboto from the `font-roboto` package, registered once, embedded in every PDF.

ReportLab embeds TrueType outlines only and never synthesises bold or italic, so the whole
family is registered (`<b>`, `<i>` map to real files), each face loaded on first use (parsed
once, then read back from the cache: `forge.render.fontfile`). Text must be checked with
`missing_glyphs` before drawing: a glyph the font lacks prints as an empty box and extracts
as NUL.

The package is imported when a font is first needed, not with this module, so a missing
`font-roboto` fails only the commands that draw or measure text, with a message saying so
(`forge --help` and `forge schema` still work).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ..errors import ForgeError, PathError
from . import fontfile

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
#: Inline icons (`forge.render.inline`) are measured as glyphs of a face of their own, named
#: `ICON` + the icon's name: each character of such a run is one icon, `ICON_ADVANCE` em wide.
ICON, ICON_ADVANCE = "icon:", 1.0
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
    """Make the family known to ReportLab (idempotent); returns the regular face's name.

    A face is loaded when ReportLab first asks for it (`_load`), not here: a card uses three to
    five of the seven faces, and `forge preview` draws one card.
    The PDF is the same either way: ReportLab names and embeds a font by first use in each
    document, never by the order fonts were registered in.

    Every PDF forge makes calls this before its first page, so this is also where ReportLab's
    one process-wide output setting forge changes is made: binary streams, no ASCII85 (ASCII85
    in pure Python costs more than the drawing). Set once, before any document, it gives every
    product the same bytes whichever products run in the process, and in what order."""
    rl_config.useA85 = 0
    font_folder()  # a missing font-roboto is said before any drawing starts
    pdfmetrics.findFontAndRegister = _find_font
    for name in FACES:  # what `registerFont` does for each face (see `_map_family`)
        pdfmetrics.registerFontFamily(name)
    _map_family()
    return REGULAR


def _map_family() -> None:
    """Map `<b>`, `<i>` of the family to its faces. ReportLab's `registerFont` maps a TrueType
    face as a family of its own, which overrides this for the regular face's name ("Roboto" is
    both): so it is made again after each face is loaded, and the maps are the same whatever
    faces were loaded, and in what order."""
    pdfmetrics.registerFontFamily(FAMILY, normal=REGULAR, bold=BOLD, italic=ITALIC, boldItalic=BOLD_ITALIC)


#: ReportLab's own search for a font it has not been given (its standard Type 1 fonts).
_reportlab_find = pdfmetrics.findFontAndRegister


def _find_font(name: str) -> object:
    """ReportLab's `getFont` calls this for a name it has no font for (its one hook for fonts
    made on demand): one of our faces is loaded, any other name goes to ReportLab's own search."""
    return _load(name) if name in FACES else _reportlab_find(name)


def _load(name: str) -> TTFont:
    path = font_folder() / FACES[name]
    try:
        font = fontfile.load(name, path)
    except Exception:  # noqa: BLE001 - ReportLab's parser raises anything on a corrupt file
        reason = "not a readable TrueType font" if path.is_file() else "no such file"
        raise PathError(f"cannot load the font {path}: {reason} (reinstall font-roboto)") from None
    pdfmetrics.registerFont(font)
    _map_family()
    return font


@lru_cache(maxsize=None)
def _coverage(face: str) -> frozenset[str]:
    register()
    return frozenset(map(chr, pdfmetrics.getFont(face).face.charToGlyph))


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
    if face.startswith(ICON):
        return ICON_ADVANCE * len(text)
    return 0.001 * sum(map(_advances(face).__getitem__, text))


def missing_glyphs(text: str, face: str = REGULAR) -> list[str]:
    """Characters of `text` that `face` cannot draw, in order of first appearance."""
    have = _coverage(face)
    if have.issuperset(text):  # most texts: one pass in C
        return []
    seen: dict[str, None] = {}
    for ch in text:
        if ch not in _INVISIBLE and not ch.isspace() and ch not in have:
            seen.setdefault(ch)
    return list(seen)
