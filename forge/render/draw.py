"""Drawing fitted faces (`layout.Face`) on a ReportLab canvas; nothing here knows any game."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from . import fonts
from .icons import ICONS, draw_icon
from .layout import FACES, PT, Face, LayoutError

#: How far `bleed: true` elements reach beyond the trim (mm); frames clip to the bleed in use.
MAX_BLEED = 6.0


@lru_cache(maxsize=512)
def color(value: Any):
    if value is None or value == "none":
        return None
    if isinstance(value, str):
        if value.startswith("#"):
            return colors.HexColor(value)
        found = getattr(colors, value, None)
        if found is None:
            raise LayoutError(f"unknown colour {value!r} (use #rrggbb)")
        return found
    raise LayoutError(f"unknown colour {value!r} (use #rrggbb)")


def mix(a: Any, b: Any, t: float):
    """Colour `a` moved a fraction `t` towards `b` (transparency without ExtGState: forms
    drawn once and reused cannot carry ReportLab's alpha states)."""
    ca, cb = color(a), color(b)
    return colors.Color(ca.red + (cb.red - ca.red) * t, ca.green + (cb.green - ca.green) * t,
                        ca.blue + (cb.blue - ca.blue) * t)


def _grow(el: dict, face: Face) -> tuple[float, float, float, float]:
    """x, y, w, h in mm (y down), extended into the bleed for `bleed: true` elements."""
    x, y, w, h = (float(el.get(k, 0)) for k in ("x", "y", "w", "h"))
    if el.get("bleed"):
        e = MAX_BLEED
        if x <= 0.01:
            x, w = x - e, w + e
        if y <= 0.01:
            y, h = y - e, h + e
        if x + w >= face.width - 0.01:
            w += e
        if y + h >= face.height - 0.01:
            h += e
    return x, y, w, h


def draw_face(c: Canvas, face: Face, art: Path | None = None) -> None:
    """Draw `face` in points with (0, 0) at the trim's lower-left corner (the caller
    translates and clips to the bleed it wants)."""
    H = face.height
    for el in face.elements:
        kind = el["kind"]
        c.saveState()
        fill, stroke = color(el.get("fill")), color(el.get("stroke"))
        lw = float(el.get("width", 0.5))
        if fill is not None:
            c.setFillColor(fill)
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(lw)
        if kind == "rect":
            x, y, w, h = _grow(el, face)
            r = float(el.get("radius", 0)) * PT
            if r:
                c.roundRect(x * PT, (H - y - h) * PT, w * PT, h * PT, r,
                            stroke=int(stroke is not None), fill=int(fill is not None))
            else:
                c.rect(x * PT, (H - y - h) * PT, w * PT, h * PT,
                       stroke=int(stroke is not None), fill=int(fill is not None))
        elif kind == "circle":
            c.circle(float(el["cx"]) * PT, (H - float(el["cy"])) * PT, float(el["r"]) * PT,
                     stroke=int(stroke is not None), fill=int(fill is not None))
        elif kind == "line":
            c.setStrokeColor(stroke or colors.black)
            c.setLineWidth(lw)
            if el.get("dash"):
                c.setDash(*[float(d) for d in el["dash"]])
            c.line(float(el["x1"]) * PT, (H - float(el["y1"])) * PT,
                   float(el["x2"]) * PT, (H - float(el["y2"])) * PT)
        elif kind == "poly":
            pts = [(float(px) * PT, (H - float(py)) * PT) for px, py in el["points"]]
            p = c.beginPath()
            p.moveTo(*pts[0])
            for pt in pts[1:]:
                p.lineTo(*pt)
            p.close()
            c.drawPath(p, stroke=int(stroke is not None), fill=int(fill is not None))
        elif kind == "stripes":
            _stripes(c, face, el)
        elif kind == "icon":
            name = el["name"]
            if name not in ICONS:
                raise LayoutError(f"unknown icon {name!r} (known: {', '.join(ICONS)})")
            s = float(el["size"])
            draw_icon(c, name, float(el["x"]) * PT, (H - float(el["y"]) - s) * PT, s * PT,
                      fill=fill if fill is not None else (None if stroke is not None else colors.black),
                      stroke=stroke, line_width=lw if stroke is not None else 0)
        elif kind == "label":
            _label(c, face, el)
        elif kind == "text":
            _text(c, face, el)
        elif kind == "art":
            _art(c, face, el, art)
        elif kind == "table":
            _table(c, face, el)
        else:
            raise LayoutError(f"unknown layout element kind {kind!r}")
        c.restoreState()


def _label(c: Canvas, face: Face, el: dict) -> None:
    size = el["_size"]
    c.setFont(el["_face"], size)
    c.setFillColor(color(el.get("color", "#000000")))
    x, y = float(el["x"]) * PT, (face.height - float(el["y"])) * PT
    # y is the baseline; `box: true` makes y the top of a box of the nominal size instead.
    text = str(el.get("text", ""))
    align = el.get("align", "left")
    w = float(el.get("w", 0)) * PT
    track = float(el.get("tracking", 0))
    width = stringWidth(text, el["_face"], size) + track * max(len(text) - 1, 0)
    if align == "center":
        x = (x + w / 2 if w else x) - width / 2
    elif align == "right":
        x = (x + w if w else x) - width
    if track:
        t = c.beginText(x, y)
        t.setFont(el["_face"], size)
        t.setCharSpace(track)
        t.textOut(text)
        c.drawText(t)
    else:
        c.drawString(x, y, text)


def _text(c: Canvas, face: Face, el: dict) -> None:
    paras = el["_paras"]
    gap = float(el.get("gap", 0.4)) * el["_size"]
    total = sum(ph for _, _, ph in paras) + gap * max(len(paras) - 1, 0)
    top = (face.height - float(el["y"])) * PT
    h = float(el["h"]) * PT
    valign = el.get("valign", "top")
    if valign == "middle":
        top -= max(h - total, 0) / 2
    elif valign == "bottom":
        top -= max(h - total, 0)
    x = float(el["x"]) * PT
    for n, (para, _, ph) in enumerate(paras):
        if n:
            top -= gap
        para.drawOn(c, x, top - ph)
        top -= ph


def _stripes(c: Canvas, face: Face, el: dict) -> None:
    x, y, w, h = _grow(el, face)
    X, Y, Wp, Hp = x * PT, (face.height - y - h) * PT, w * PT, h * PT
    p = c.beginPath()
    p.rect(X, Y, Wp, Hp)
    c.clipPath(p, stroke=0, fill=0)
    step = float(el.get("step", 3)) * PT
    c.setStrokeColor(color(el.get("stroke", "#000000")))
    c.setLineWidth(float(el.get("width", 0.5)))
    _hatch(c, X, Y, Wp, Hp, step)


def _hatch(c: Canvas, X: float, Y: float, Wp: float, Hp: float, step: float) -> None:
    """Diagonal lines over a clipped box, written as one path: hatching has hundreds of
    segments per card, and ReportLab's per-number formatting would dominate the build."""
    ops = [f"{X + i * step - Hp:.2f} {Y:.2f} m {X + i * step:.2f} {Y + Hp:.2f} l"
           for i in range(int((Wp + Hp) / step) + 2)]
    c.addLiteral(" ".join(ops) + " S")


def _art(c: Canvas, face: Face, el: dict, art: Path | None) -> None:
    x, y, w, h = (float(el[k]) for k in ("x", "y", "w", "h"))
    X, Y, Wp, Hp = x * PT, (face.height - y - h) * PT, w * PT, h * PT
    r = float(el.get("radius", 0)) * PT
    p = c.beginPath()
    if r:
        p.roundRect(X, Y, Wp, Hp, r)
    else:
        p.rect(X, Y, Wp, Hp)
    c.clipPath(p, stroke=0, fill=0)
    if art is not None and art.is_file():
        img = ImageReader(str(art))
        iw, ih = img.getSize()
        scale = max(Wp / iw, Hp / ih)  # cover the box, centred
        c.drawImage(img, X + (Wp - iw * scale) / 2, Y + (Hp - ih * scale) / 2, iw * scale, ih * scale)
        return
    # The designed placeholder: a tinted field, fine diagonal hatching, a ring and the icon.
    bg, ink = color(el.get("fill", "#eeeeee")), color(el.get("ink", "#999999"))
    c.setFillColor(bg)
    c.rect(X, Y, Wp, Hp, stroke=0, fill=1)
    c.setStrokeColor(mix(el.get("ink", "#999999"), el.get("fill", "#eeeeee"), 0.75))
    c.setLineWidth(0.4)
    step = 2.2 * PT
    _hatch(c, X, Y, Wp, Hp, step)
    s = min(Wp, Hp) * 0.62
    cx, cy = X + Wp / 2, Y + Hp / 2
    c.setFillColor(bg)
    c.setStrokeColor(ink)
    c.setLineWidth(0.8)
    c.circle(cx, cy, s / 2, stroke=1, fill=1)
    icon = el.get("icon")
    if icon in ICONS:
        draw_icon(c, icon, cx - s * 0.3, cy - s * 0.3, s * 0.6, fill=ink)


def _table(c: Canvas, face: Face, el: dict) -> None:
    x0, y0, w = float(el["x"]), float(el["y"]), float(el["w"])
    row_h = float(el.get("row", 4.2))
    cols = [float(v) for v in el.get("cols", [])] or None
    size = float(el.get("size", 7))
    face_name = FACES.get(el.get("font", "regular"), fonts.REGULAR)
    rule = color(el.get("rule", "#999999"))
    stripe = color(el.get("stripe")) if el.get("stripe") else None
    H = face.height
    for r, row in enumerate(el.get("rows", [])):
        top = y0 + r * row_h
        if stripe is not None and r % 2 == 0:
            c.setFillColor(stripe)
            c.rect(x0 * PT, (H - top - row_h) * PT, w * PT, row_h * PT, stroke=0, fill=1)
        widths = cols or [w / len(row)] * len(row)
        x = x0
        for cell, cw in zip(row, widths):
            spec = cell if isinstance(cell, dict) else {"text": str(cell)}
            fname = FACES.get(spec.get("font", el.get("font", "regular")), face_name)
            s = float(spec.get("size", size))
            text = str(spec.get("text", ""))
            avail = (cw - 1.6) * PT
            tw = stringWidth(text, fname, s)
            if tw > avail > 0:
                s = s * avail / tw
            c.setFont(fname, s)
            c.setFillColor(color(spec.get("color", el.get("color", "#000000"))))
            base = (H - top - row_h / 2) * PT - s * 0.35
            align = spec.get("align", "left")
            if align == "center":
                c.drawCentredString((x + cw / 2) * PT, base, text)
            elif align == "right":
                c.drawRightString((x + cw - 0.8) * PT, base, text)
            else:
                c.drawString((x + 0.8) * PT, base, text)
            x += cw
        if rule is not None and r < len(el.get("rows", [])) - 1:
            c.setStrokeColor(rule)
            c.setLineWidth(0.3)
            c.line(x0 * PT, (H - top - row_h) * PT, (x0 + w) * PT, (H - top - row_h) * PT)


def art_path(game: Any, card: Any | None) -> Path | None:
    if card is None or not card.art:
        return None
    return Path(game.root) / card.art


def round_clip(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    p = c.beginPath()
    p.rect(x, y, w, h)
    c.clipPath(p, stroke=0, fill=0)


__all__ = ["art_path", "color", "draw_face", "round_clip"]
