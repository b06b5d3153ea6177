"""ReportLab's parsed TrueType fonts, kept in the `forge.cache` directory between runs.

ReportLab parses a font file in Python, ~12 ms a Roboto face (3,359 glyphs), and every
process that draws pays it for each face it uses (`forge preview` five, a build all seven);
reading the parsed font back costs ~3 ms. An entry is the font object as pickled right after
parsing, keyed by the file's bytes, ReportLab's version and this format (`cache.remembered`),
so it holds exactly what parsing that file gives. Two parts of it pickle does not take: the
per-document state (empty before the first document) and the unit scale, a lambda, which is
kept as the multiplication it is, once checked against the original; if either is not what
this expects, the font is not kept and is parsed on every run.

The entry is unpickled, so the cache directory must be as trusted as Python's own
`__pycache__`: it is the user's own, and forge writes there only what it made.
"""
from __future__ import annotations

import functools
import io
import operator
import pickle
import weakref
from pathlib import Path
from typing import Any

import reportlab
from reportlab.pdfbase.ttfonts import TTFont

from .. import cache

#: Bumped when the form of an entry changes.
_FORMAT = 1
#: Font units the unit scale is checked on: every value a font's tables hold, and more.
_UNITS = range(-32768, 65536, 7)


def load(name: str, path: Path) -> TTFont:
    """The font `name` from `path`, from the cache when it has it (raises what parsing raises)."""
    if cache.directory("fonts") is None:  # nothing to keep it in: not worth pickling
        return TTFont(name, str(path))
    data = path.read_bytes()
    parsed: list[TTFont] = []

    def parse() -> bytes:
        parsed.append(TTFont(name, str(path)))
        return _pickled(parsed[0])

    source = b"%d:%s:%s:" % (_FORMAT, reportlab.Version.encode(), name.encode()) + data
    kept = cache.remembered("fonts", source, parse, lambda v: isinstance(v, bytes) and v != b"")
    if parsed:
        return parsed[0]
    try:
        font = pickle.loads(kept)
    except Exception:  # noqa: BLE001 (an entry this ReportLab cannot read back: parse)
        font = None
    return font if isinstance(font, TTFont) and font.fontName == name else TTFont(name, str(path))


def _pickled(font: TTFont) -> bytes:
    """The font as pickle bytes, or b"" (nothing kept) when it holds what `_Pickler` cannot keep."""
    out = io.BytesIO()
    try:
        _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(font)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError):
        return b""
    return out.getvalue()


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is weakref.WeakKeyDictionary:
            if len(obj):
                raise pickle.PicklingError("a font already used in a document")
            return weakref.WeakKeyDictionary, ()
        if type(obj) is type(_pickled) and obj.__name__ == "<lambda>":
            return _stand_in(obj)
        return NotImplemented


def _stand_in(scale: Any) -> tuple:
    """`scale` (ReportLab's `lambda x: x * (1000 / unitsPerEm)`, or `lambda x: x` when that
    is 1) as a reduction pickle can keep, used only if it gives the same result everywhere."""
    cells = scale.__closure__ or ()
    factor = cells[0].cell_contents if len(cells) == 1 else 1
    if not isinstance(factor, (int, float)) or any(scale(u) != u * factor for u in _UNITS):
        raise pickle.PicklingError("a unit scale that is not a multiplication")
    return functools.partial, (operator.mul, factor)
