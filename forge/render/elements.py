"""The layout element vocabulary: every kind, its parameters and what each may hold.

Layouts come with a shared game, so an element is checked where a template makes it (`el()`,
or each mapping of a layout written as YAML) rather than trusted until drawing fails: an unknown
kind, a missing or misspelt parameter, a text where a number belongs, an infinite size, a
hatching step so fine it would draw more than `MAX_LINES` lines, an unknown colour or icon is a
problem at the template line that made it, never a crash or a hang while drawing. Lengths are
millimetres, sizes points, both bounded to what a card can use.

`KINDS` is the one table of the vocabulary: `validate` checks against it, and the parameter
tables of docs/layouts.md state it (a test compares the two, and checks that leaving a parameter
out draws what its stated default draws).
"""
from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Container

from reportlab.lib import colors

from .icons import ICONS
from .inline import unsupported_tags

#: The largest length (mm) or size (pt) a layout may give: far beyond any card.
LIMIT = 10_000.0
#: The most lines one `stripes` hatching may draw: a fine hatching over a whole card draws 300.
MAX_LINES = 10_000
#: The most elements one face may have, and the most items (points, cells, paragraphs, dashes)
#: one element may list: a template's loops and `*` could ask for millions, each to draw.
MAX_PARTS = 10_000
FONTS = ("regular", "bold", "italic", "bolditalic", "medium", "light", "black")
_HEX = re.compile(r"#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")


class Invalid(ValueError):
    """A parameter that does not hold what its element needs; the message says what."""


def _number(value: Any, low: float = -LIMIT, positive: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise Invalid(f"{value!r} is not a number")
    if not low <= value <= LIMIT or (positive and value <= 0):
        raise Invalid(f"{value!r} is out of range ({'above 0' if positive else f'{low:g}'} to {LIMIT:g})")


def length(value: Any) -> None:
    _number(value)


def extent(value: Any) -> None:
    _number(value, low=0.0)


def positive(value: Any) -> None:
    _number(value, low=0.0, positive=True)


def colour(value: Any) -> None:
    if value is None or value == "none" or (isinstance(value, str) and _HEX.fullmatch(value)):
        return
    if not (isinstance(value, str) and isinstance(getattr(colors, value, None), colors.Color)):
        raise Invalid(f"{value!r} is not a colour (use #rrggbb, a colour name or none)")


def text(value: Any) -> None:
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise Invalid(f"{value!r} is not a text")


def markup(value: Any) -> None:
    """A text with the tags drawing knows (`forge.render.inline`): any other would be dropped."""
    text(value)
    bad = unsupported_tags(str(value))
    if bad:
        raise Invalid(f"{', '.join(bad)} cannot be drawn (markup takes <b>, <i>, <strong>, <em> and "
                      f"<br/>, **bold**, *italic* and :icon:); write the text without it, or escape "
                      f"card data with |x")


def one_of(*choices: str) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        if value not in choices:
            raise Invalid(f"{value!r} is not one of {', '.join(choices)}")
    return check


def icon(value: Any) -> None:
    """An icon name; `validate` checks it against the game's icons (see `icon_problem`)."""


def icon_problem(value: Any, icons: Container[str]) -> str:
    """Why `value` names no icon of `icons` (a game's `IconSet` or the built-in names), or ""."""
    if isinstance(value, str) and value in icons:
        return ""
    known = list(getattr(icons, "known", icons))
    near = difflib.get_close_matches(value, known, n=1) if isinstance(value, str) else []
    hint = f"; did you mean {near[0]!r}?" if near else ""
    return (f"{value!r} is neither a built-in icon nor an SVG file in the game's icons/ folder{hint} "
            f"(known: {', '.join(known)})")


def anything(value: Any) -> None:
    """Flags and labels that are only read as true/false or shown in messages."""


def _list(item: Callable[[Any], None], least: int = 0) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        if not isinstance(value, (list, tuple)) or len(value) < least:
            raise Invalid(f"{value!r} is not a list" + (f" of at least {least}" if least else ""))
        if len(value) > MAX_PARTS:
            raise Invalid(f"a list of {len(value):,} items; an element lists at most {MAX_PARTS:,}")
        for v in value:
            item(v)
    return check


def _point(value: Any) -> None:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise Invalid(f"{value!r} is not a point [x, y]")
    length(value[0])
    length(value[1])


_ALIGN = one_of("left", "center", "right")
_FONT = one_of(*FONTS)


@dataclass(frozen=True)
class Param:
    """One parameter of an element kind: its check, its type as docs/layouts.md states it, and
    what the renderer does without it: `default` (a value the parameter may also be given),
    `REQUIRED`, or `derived`, a default that depends on other parameters."""

    check: Callable[[Any], None]
    type: str
    default: Any = None
    derived: str = ""

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


#: The `default` of a parameter every element of its kind must give.
REQUIRED = object()


def _paragraph_or_cell(spec: dict[str, Param], what: str) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return
        if not isinstance(value, dict):
            raise Invalid(f"{value!r} is not a text or a {what} mapping")
        for key, v in value.items():
            if key not in spec:
                raise Invalid(f"a {what} has no parameter {key!r} (known: {', '.join(spec)})")
            spec[key].check(v)
    return check


def _p(check: Callable[[Any], None], type_: str, default: Any = None, derived: str = "") -> Param:
    return Param(check, type_, default, derived)


MM, MM0, MM1 = (length, "mm"), (extent, "mm ≥ 0"), (positive, "mm > 0")
PT0, PT1 = (extent, "pt ≥ 0"), (positive, "pt > 0")
COLOUR = (colour, "colour")
FLAG = (anything, "true / false")
TEXT = (text, "text")
_REQ = REQUIRED

#: A paragraph of a `text` element (`paras`), and a cell of a `table` (`rows`): a text, or a
#: mapping of these.
PARAGRAPH: dict[str, Param] = {
    "text": _p(*TEXT), "markup": _p(markup, "markup"),
    "font": _p(_FONT, "font", derived="the element's"), "scale": _p(positive, "× size > 0", 1),
    "color": _p(colour, "colour", derived="the element's"),
    "align": _p(_ALIGN, "left / center / right", derived="the element's"),
    "hyphenate": _p(*FLAG, True),
}
CELL: dict[str, Param] = {
    "text": _p(*TEXT), "font": _p(_FONT, "font", derived="the table's"),
    "size": _p(positive, "pt > 0", derived="the table's"), "color": _p(colour, "colour", derived="the table's"),
    "align": _p(_ALIGN, "left / center / right", "left"),
}
_MESSAGES = {  # where a text comes from, for findings about it
    "what": _p(text, "text", derived="the kind's name"), "field": _p(text, "field path"),
    "localised": _p(*FLAG, True),
}
_PAINT = {"fill": _p(*COLOUR), "stroke": _p(*COLOUR), "width": _p(*PT0, 0.5)}

#: Every kind of element and its parameters, required ones first.
KINDS: dict[str, dict[str, Param]] = {
    "rect": {"x": _p(*MM, _REQ), "y": _p(*MM, _REQ), "w": _p(*MM0, _REQ), "h": _p(*MM0, _REQ),
             **_PAINT, "radius": _p(*MM0, 0), "bleed": _p(*FLAG, False)},
    "circle": {"cx": _p(*MM, _REQ), "cy": _p(*MM, _REQ), "r": _p(*MM0, _REQ), **_PAINT},
    "line": {"x1": _p(*MM, _REQ), "y1": _p(*MM, _REQ), "x2": _p(*MM, _REQ), "y2": _p(*MM, _REQ),
             "stroke": _p(*COLOUR, "#000000"), "width": _p(*PT0, 0.5),
             "dash": _p(_list(positive), "list of pt > 0")},
    "poly": {"points": _p(_list(_point, least=2), "list of [x, y] mm", _REQ), **_PAINT},
    "stripes": {"x": _p(*MM, _REQ), "y": _p(*MM, _REQ), "w": _p(*MM0, _REQ), "h": _p(*MM0, _REQ),
                "step": _p(*MM1, 3), "stroke": _p(*COLOUR, "#000000"), "width": _p(*PT0, 0.5),
                "bleed": _p(*FLAG, False)},
    "icon": {"name": _p(icon, "icon", _REQ), "x": _p(*MM, _REQ), "y": _p(*MM, _REQ),
             "size": _p(*MM1, _REQ), "fill": _p(*COLOUR, derived="`#000000`; none if only `stroke` is given"),
             "stroke": _p(*COLOUR), "width": _p(*PT0, 0.5)},
    "label": {"x": _p(*MM, _REQ), "y": _p(*MM, _REQ), "text": _p(*TEXT, _REQ), "w": _p(*MM0, 0),
              "size": _p(*PT1, 8), "min": _p(*PT1, derived="= `size`"), "font": _p(_FONT, "font", "regular"),
              "color": _p(*COLOUR, "#000000"), "align": _p(_ALIGN, "left / center / right", "left"),
              "tracking": _p(length, "pt", 0), **_MESSAGES},
    "text": {"x": _p(*MM, _REQ), "y": _p(*MM, _REQ), "w": _p(*MM0, _REQ), "h": _p(*MM0, _REQ),
             "text": _p(*TEXT), "markup": _p(markup, "markup"),
             "paras": _p(_list(_paragraph_or_cell(PARAGRAPH, "paragraph")), "list of paragraphs"),
             "size": _p(*PT1, 8), "min": _p(*PT1, 6), "leading": _p(positive, "× size > 0", 1.18),
             "gap": _p(extent, "× size ≥ 0", 0.4), "hyphenate": _p(*FLAG, True),
             "font": _p(_FONT, "font", "regular"), "color": _p(*COLOUR, "#000000"),
             "align": _p(_ALIGN, "left / center / right", "left"),
             "valign": _p(one_of("top", "middle", "bottom"), "top / middle / bottom", "top"), **_MESSAGES},
    "art": {"x": _p(*MM, _REQ), "y": _p(*MM, _REQ), "w": _p(*MM0, _REQ), "h": _p(*MM0, _REQ),
            "radius": _p(*MM0, 0), "fill": _p(*COLOUR, "#eeeeee"), "ink": _p(*COLOUR, "#999999"),
            "icon": _p(icon, "icon")},
    "table": {"x": _p(*MM, _REQ), "y": _p(*MM, _REQ), "w": _p(*MM0, _REQ),
              "rows": _p(_list(_list(_paragraph_or_cell(CELL, "cell"))), "list of rows of cells", _REQ),
              "cols": _p(_list(extent), "list of mm ≥ 0", derived="equal widths"), "row": _p(*MM1, 4.2),
              "size": _p(*PT1, 7), "font": _p(_FONT, "font", "regular"), "color": _p(*COLOUR, "#000000"),
              "rule": _p(*COLOUR, "#999999"), "stripe": _p(*COLOUR),
              **_MESSAGES, "what": _p(text, "text", derived="`table cell`")},
}
#: What each kind must have.
NEEDS: dict[str, tuple[str, ...]] = {kind: tuple(k for k, p in params.items() if p.required)
                                     for kind, params in KINDS.items()}
#: The texts of a `text` element: it takes at most one of them.
_TEXTS = ("text", "markup", "paras")

#: The bounds of the numeric parameters, so that `validate` checks a plain number inline
#: (a layout makes thousands of elements a build).
_BOUNDS = {length: (-LIMIT, LIMIT), extent: (0.0, LIMIT), positive: (1e-9, LIMIT)}
_RANGES = {kind: {key: _BOUNDS[p.check] for key, p in params.items() if p.check in _BOUNDS}
           for kind, params in KINDS.items()}
_REAL = (int, float)
_GOOD_COLOURS: set[str] = set()


def numbers(kind: Any, params: dict[str, Any]) -> dict[str, float]:
    """The numeric parameters that a layout written as YAML gives as strings (`w: '{{ W }}'`),
    as numbers; a string that is no number is left for `validate` to report."""
    ranges = _RANGES.get(kind, {})
    out = {}
    for key, value in params.items():
        if key in ranges and isinstance(value, str):
            try:
                out[key] = float(value)
            except ValueError:
                pass
    return out


def _cells(rows: Any) -> None:
    """A table's cells are counted before each is checked."""
    if isinstance(rows, (list, tuple)) and len(rows) <= MAX_PARTS:
        cells = sum(len(row) for row in rows if isinstance(row, (list, tuple)))
        if cells > MAX_PARTS:
            raise Invalid(f"table rows: {cells:,} cells; a table has at most {MAX_PARTS:,}")


def validate(kind: Any, params: dict[str, Any], icons: Container[str] = ICONS) -> None:
    """Raise `Invalid` unless `params` make a drawable element of `kind` whose icons are among
    `icons` (a game's `IconSet`; the built-in names by default)."""
    spec = KINDS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        near = difflib.get_close_matches(str(kind), KINDS, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise Invalid(f"unknown element kind {kind!r}{hint} (known: {', '.join(KINDS)})")
    need = NEEDS[kind]
    for key in need:
        if key not in params:
            raise Invalid(f"{kind} needs {', '.join(k for k in need if k not in params)}")
    if kind == "table":
        _cells(params["rows"])
    ranges = _RANGES[kind]
    for key, value in params.items():
        bounds = ranges.get(key)
        if bounds is not None and type(value) in _REAL and bounds[0] <= value <= bounds[1]:
            continue  # a number in range (NaN and infinities fail the comparison)
        param = spec.get(key)
        if param is None:
            near = difflib.get_close_matches(str(key), spec, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise Invalid(f"{kind} has no parameter {key!r}{hint} (it takes {', '.join(spec)})")
        check = param.check
        if check is colour and type(value) is str and value in _GOOD_COLOURS:
            continue
        if check is icon:
            problem = icon_problem(value, icons)
            if problem:
                raise Invalid(f"{kind} {key}: {problem}")
            continue
        try:
            check(value)
        except Invalid as exc:
            raise Invalid(f"{kind} {key}: {exc}") from None
        if check is colour and isinstance(value, str):
            _GOOD_COLOURS.add(value)
    if kind == "stripes":
        lines = (params["w"] + params["h"]) / params.get("step", KINDS["stripes"]["step"].default)
        if lines > MAX_LINES:
            many = f"{lines:,.0f}" if lines < 1e12 else f"{lines:.1e}"
            raise Invalid(f"stripes step: {params.get('step')!r} mm would draw {many} lines over a "
                          f"{params['w']:g} x {params['h']:g} mm box; a hatching draws at most {MAX_LINES:,}")
    if kind == "text" and sum(k in params for k in _TEXTS) > 1:
        raise Invalid(f"text takes one of {', '.join(_TEXTS)}, not {' and '.join(k for k in _TEXTS if k in params)}")
