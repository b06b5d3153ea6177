"""Text that a fitted card face would print over its art or off the card.

A text's box can fit (`text-overflow` is about that) and still be placed badly: a line a layout
puts inside the art field prints over the picture, one placed past the trim is cut off. This
module measures where each fitted `label` and `text` element puts ink (the glyphs' ascent to
descent, its lines' widths as drawn) and compares that with the face's `art` boxes and its trim,
so `forge check` reports it before anything is printed.
"""
from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import getAscentDescent

from .fonts import unit_width

PT = 72 / 25.4  # points per millimetre
#: How far ink may reach into art or past the trim (mm) before it is a finding: an accent's
#: overshoot or a rounding is not one.
SLACK = 0.3


def _ascent_descent(face: str, size: float) -> tuple[float, float]:
    """(ascent, descent) in mm of `face` at `size` pt, both positive."""
    ascent, descent = getAscentDescent(face, size)
    return ascent / PT, -descent / PT


def _label_box(el: dict) -> tuple[float, float, float, float]:
    size, face = el["_size"], el["_face"]
    runs = el.get("_runs") or [(face, str(el.get("text", "")))]
    text_len = sum(len(t) for _, t in runs)
    width = (sum(unit_width(t, f) for f, t in runs) * size
             + float(el.get("tracking", 0)) * max(text_len - 1, 0)) / PT
    x, w, y = float(el["x"]), float(el.get("w", 0) or 0), float(el["y"])
    align = el.get("align", "left")
    if align == "center":
        x = (x + w / 2 if w else x) - width / 2
    elif align == "right":
        x = (x + w if w else x) - width
    ascent, descent = _ascent_descent(face, size)
    return x, y - ascent, x + width, y + descent


def _text_box(el: dict) -> tuple[float, float, float, float] | None:
    paras = [p for p in el["_paras"] if p.lines]
    if not paras:
        return None
    gap = float(el.get("gap", 0.4)) * el["_size"] / PT
    total = sum(p.height for p in el["_paras"]) / PT + gap * max(len(el["_paras"]) - 1, 0)
    x, w, y, h = (float(el[k]) for k in ("x", "w", "y", "h"))
    valign = el.get("valign", "top")
    if valign == "middle":
        y += max(h - total, 0) / 2
    elif valign == "bottom":
        y += max(h - total, 0)
    first, last = paras[0], paras[-1]
    ascent, _ = _ascent_descent("Roboto", first.size)
    top = y + first.size / PT - ascent
    bottom = y + total - last.leading / PT + last.size / PT + _ascent_descent("Roboto", last.size)[1]
    widest = max(lw for p in paras for lw, _ in p.lines) / PT
    left = {"center": x + (w - widest) / 2, "right": x + w - widest}.get(paras[0].align, x)
    return left, top, left + widest, bottom


def ink_box(el: dict) -> tuple[float, float, float, float] | None:
    """Where a fitted `label` or `text` element puts ink: (left, top, right, bottom) in mm from
    the card's top-left trim corner; None for other elements and empty texts."""
    if el["kind"] == "label" and el.get("text"):
        return _label_box(el)
    if el["kind"] == "text":
        return _text_box(el)
    return None


def misplaced(elements: list[dict], width: float, height: float) -> list[tuple[dict, str]]:
    """Each text element whose ink lies over an `art` box or past the trim, with why."""
    arts = [tuple(float(a[k]) for k in ("x", "y", "w", "h")) for a in elements if a["kind"] == "art"]
    found = []
    for el in elements:
        box = ink_box(el)
        if box is None:
            continue
        left, top, right, bottom = box
        for x, y, w, h in arts:
            if min(right, x + w) - max(left, x) > SLACK and min(bottom, y + h) - max(top, y) > SLACK:
                found.append((el, f"prints over the art ({x:g}, {y:g} mm, {w:g}x{h:g} mm)"))
                break
        else:
            if left < -SLACK or top < -SLACK or right > width + SLACK or bottom > height + SLACK:
                found.append((el, f"prints past the card's edge ({width:g}x{height:g} mm)"))
    return found
