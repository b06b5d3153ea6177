"""The layout element vocabulary: every kind's parameters and what each may hold.

Layouts come with a shared game, so an element is checked where a template makes it (`el()`,
or each mapping of a layout written as YAML) rather than trusted until drawing fails: a
misspelt parameter, a text where a number belongs, an infinite size, a zero hatching step or
an unknown colour is a `LayoutError` at the template line that made it, never a crash or a
hang while drawing. Lengths are millimetres, sizes points, both bounded to what a card can use.
"""
from __future__ import annotations

import math
import re
from typing import Any, Callable

from reportlab.lib import colors

from .icons import ICONS

#: The largest length (mm) or size (pt) a layout may give: far beyond any card.
LIMIT = 10_000.0
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


def one_of(*choices: str) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        if value not in choices:
            raise Invalid(f"{value!r} is not one of {', '.join(choices)}")
    return check


def icon(value: Any) -> None:
    if value not in ICONS:
        raise Invalid(f"{value!r} is not an icon (known: {', '.join(ICONS)})")


def anything(value: Any) -> None:
    """Flags and labels that are only read as true/false or shown in messages."""


def _list(item: Callable[[Any], None], least: int = 0) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        if not isinstance(value, (list, tuple)) or len(value) < least:
            raise Invalid(f"{value!r} is not a list" + (f" of at least {least}" if least else ""))
        for v in value:
            item(v)
    return check


def _point(value: Any) -> None:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise Invalid(f"{value!r} is not a point [x, y]")
    length(value[0])
    length(value[1])


_ALIGN = one_of("left", "center", "right")
_PARA = {"text": text, "markup": text, "font": one_of(*FONTS), "scale": positive, "color": colour,
         "align": _ALIGN, "hyphenate": anything}
_CELL = {"text": text, "font": one_of(*FONTS), "size": positive, "color": colour, "align": _ALIGN}


def _mapping_of(spec: dict[str, Callable[[Any], None]], what: str) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return
        if not isinstance(value, dict):
            raise Invalid(f"{value!r} is not a text or a {what} mapping")
        for key, v in value.items():
            if key not in spec:
                raise Invalid(f"a {what} has no parameter {key!r} (known: {', '.join(spec)})")
            spec[key](v)
    return check


#: Every parameter any element may take, and its check.
PARAMS: dict[str, Callable[[Any], None]] = {
    **{k: length for k in ("x", "y", "cx", "cy", "x1", "y1", "x2", "y2", "tracking")},
    **{k: extent for k in ("w", "h", "r", "radius", "width", "gap")},
    **{k: positive for k in ("size", "min", "step", "row", "leading")},
    **{k: colour for k in ("fill", "stroke", "color", "ink", "rule", "stripe")},
    "font": one_of(*FONTS), "align": _ALIGN, "valign": one_of("top", "middle", "bottom"),
    "name": icon, "icon": icon, "text": text, "markup": text,
    "paras": _list(_mapping_of(_PARA, "paragraph")),
    "rows": _list(_list(_mapping_of(_CELL, "cell"))), "cols": _list(extent),
    "points": _list(_point, least=2), "dash": _list(positive),
    "what": text, "field": text, "bleed": anything, "localised": anything, "hyphenate": anything,
}
#: What each kind of element must have; every other parameter of PARAMS is optional.
KINDS: dict[str, tuple[str, ...]] = {
    "rect": ("x", "y", "w", "h"), "circle": ("cx", "cy", "r"), "line": ("x1", "y1", "x2", "y2"),
    "poly": ("points",), "stripes": ("x", "y", "w", "h"), "icon": ("name", "x", "y", "size"),
    "label": ("x", "y", "text"), "text": ("x", "y", "w", "h"), "art": ("x", "y", "w", "h"),
    "table": ("x", "y", "w", "rows"),
}


#: The bounds of the numeric parameters, so that `validate` checks a plain number inline
#: (a layout makes thousands of elements a build).
_RANGES = {key: (-LIMIT, LIMIT) if check is length else (0.0, LIMIT) if check is extent else (1e-9, LIMIT)
           for key, check in PARAMS.items() if check in (length, extent, positive)}
_REAL = (int, float)
_GOOD_COLOURS: set[str] = set()


def numbers(params: dict[str, Any]) -> dict[str, float]:
    """The numeric parameters that a layout written as YAML gives as strings (`w: '{{ W }}'`),
    as numbers; a string that is no number is left for `validate` to report."""
    out = {}
    for key, value in params.items():
        if key in _RANGES and isinstance(value, str):
            try:
                out[key] = float(value)
            except ValueError:
                pass
    return out


def validate(kind: Any, params: dict[str, Any]) -> None:
    """Raise `Invalid` unless `params` make a drawable element of `kind`."""
    need = KINDS.get(kind)  # type: ignore[arg-type]
    if need is None:
        raise Invalid(f"unknown element kind {kind!r} (known: {', '.join(KINDS)})")
    for key in need:
        if key not in params:
            raise Invalid(f"{kind} needs {', '.join(k for k in need if k not in params)}")
    for key, value in params.items():
        bounds = _RANGES.get(key)
        if bounds is not None and type(value) in _REAL and bounds[0] <= value <= bounds[1]:
            continue  # a number in range (NaN and infinities fail the comparison)
        check = PARAMS.get(key)
        if check is colour and value in _GOOD_COLOURS:
            continue
        if check is None:
            raise Invalid(f"{kind} has no parameter {key!r}")
        try:
            check(value)
        except Invalid as exc:
            raise Invalid(f"{kind} {key}: {exc}") from None
        if check is colour and isinstance(value, str):
            _GOOD_COLOURS.add(value)
