"""Drawing fitted faces (`layout.Face`) on a ReportLab canvas; nothing here knows any game."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.rl_accel import escapePDF
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, PATH_OPS, Canvas

from ..art import open_art
from ..model.cards import art_file
from . import fonts, inline, layout
from .forms import end_form
from .icons import ICONS, IconSet, icon_code
from .fonts import unit_width
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


def _n(v: float) -> str:
    """A coordinate for the content stream (ReportLab's own formatter costs more than drawing)."""
    return f"{v:.2f}"


# --------------------------------------------------------------------------------------------
# Colour: layouts give #rrggbb; a PDF is drawn either in RGB (screens, home printers) or in
# DeviceCMYK (the print-shop file). The conversion is a plain formula, not ICC colour
# management, chosen for what a press needs from text and rules:
#
# - a grey (the channels within `NEUTRAL` of each other), and any dark colour used for text,
#   icons or lines (no channel above `DARK_INK`), prints in black ink alone, K = 1 - luminance:
#   small type never depends on four plates meeting;
# - a near-black *area* (a fill whose smaller side is at least `AREA` mm, K >= 0.9) prints as
#   the stated rich black `RICH_BLACK` (C60 M40 Y40 K100, 240 % ink);
# - any other colour: full grey-component replacement, K = 1 - max(R, G, B), and C, M, Y from
#   what remains. At least one of C, M, Y is then 0, so the total ink stays below 300 %.

NEUTRAL = 0.06
DARK_INK = 0.25
AREA = 10.0  # mm
RICH_BLACK = (0.6, 0.4, 0.4, 1.0)


@lru_cache(maxsize=2048)
def cmyk_of(value: Any, role: str = "ink") -> tuple[float, float, float, float]:
    """The CMYK (0..1) a layout colour prints with; `role` is "ink" (text, icons, lines, small
    fills) or "area" (large fills)."""
    col = color(value) if not isinstance(value, colors.Color) else value
    if isinstance(col, colors.CMYKColor):
        return (col.cyan, col.magenta, col.yellow, col.black)
    return _cmyk(col.red, col.green, col.blue, role)


def _cmyk(r: float, g: float, b: float, role: str) -> tuple[float, float, float, float]:
    hi, lo = max(r, g, b), min(r, g, b)
    if hi - lo <= NEUTRAL or (role == "ink" and hi <= DARK_INK):
        k = round(min(1.0, max(0.0, 1 - (0.299 * r + 0.587 * g + 0.114 * b))), 4)
        if role == "area" and k >= 0.9:
            return RICH_BLACK
        return (0.0, 0.0, 0.0, k)
    k = 1 - hi
    return tuple(round((1 - v - k) / (1 - k), 4) for v in (r, g, b)) + (round(k, 4),)  # type: ignore[return-value]


def _cmyk_colour(col: colors.Color) -> colors.CMYKColor:
    """A colour of a game's SVG icon as it prints in a CMYK file (the formula of `cmyk_of`)."""
    if isinstance(col, colors.CMYKColor):
        return col
    return colors.CMYKColor(*_cmyk(col.red, col.green, col.blue, "ink"))


def ink(value: Any, cmyk: bool, role: str = "ink"):
    """A ReportLab colour object for `value` in the PDF's colour model (for canvas calls)."""
    if not cmyk:
        return color(value) if not isinstance(value, colors.Color) else value
    return colors.CMYKColor(*cmyk_of(value, role))


def is_cmyk(c: Canvas) -> bool:
    """Whether this canvas draws in DeviceCMYK (set by `use_cmyk`)."""
    return c.__dict__.get("_forge_cmyk", False)


def use_cmyk(c: Canvas, on: bool = True) -> None:
    c._forge_cmyk = on


@lru_cache(maxsize=2048)
def _paint(value: Any, op: str, cmyk: bool = False, role: str = "ink") -> str:
    """`r g b rg` (fill) or `RG` (stroke) for a layout colour; in CMYK `c m y k k` / `K`."""
    if cmyk:
        c, m, y, k = cmyk_of(value, role)
        return f"{c:.4g} {m:.4g} {y:.4g} {k:.4g} {'k' if op == 'rg' else 'K'}"
    col = color(value) if not isinstance(value, colors.Color) else value
    return f"{col.red:.4g} {col.green:.4g} {col.blue:.4g} {op}"


def _round_rect(x: float, y: float, w: float, h: float, r: float) -> str:
    """A rounded rectangle path (points), the same curves as ReportLab's roundRect."""
    r = min(r, w / 2, h / 2)
    t = 0.4472 * r
    x1, y1 = x + w, y + h
    return (f"{x + r:.2f} {y:.2f} m {x1 - r:.2f} {y:.2f} l "
            f"{x1 - t:.2f} {y:.2f} {x1:.2f} {y + t:.2f} {x1:.2f} {y + r:.2f} c {x1:.2f} {y1 - r:.2f} l "
            f"{x1:.2f} {y1 - t:.2f} {x1 - t:.2f} {y1:.2f} {x1 - r:.2f} {y1:.2f} c {x + r:.2f} {y1:.2f} l "
            f"{x + t:.2f} {y1:.2f} {x:.2f} {y1 - t:.2f} {x:.2f} {y1 - r:.2f} c {x:.2f} {y + r:.2f} l "
            f"{x:.2f} {y + t:.2f} {x + t:.2f} {y:.2f} {x + r:.2f} {y:.2f} c h")


_K = 0.5522847498  # circle as four Béziers


def _circle(cx: float, cy: float, r: float) -> str:
    k = _K * r
    return (f"{cx + r:.2f} {cy:.2f} m {cx + r:.2f} {cy + k:.2f} {cx + k:.2f} {cy + r:.2f} {cx:.2f} {cy + r:.2f} c "
            f"{cx - k:.2f} {cy + r:.2f} {cx - r:.2f} {cy + k:.2f} {cx - r:.2f} {cy:.2f} c "
            f"{cx - r:.2f} {cy - k:.2f} {cx - k:.2f} {cy - r:.2f} {cx:.2f} {cy - r:.2f} c "
            f"{cx + k:.2f} {cy - r:.2f} {cx + r:.2f} {cy - k:.2f} {cx + r:.2f} {cy:.2f} c h")


def _op(stroke: bool, fill: bool) -> str:
    return PATH_OPS[int(stroke), int(fill), FILL_EVEN_ODD]


def draw_face(c: Canvas, face: Face, art: Path | None = None) -> None:
    """Draw `face` in points with (0, 0) at the trim's lower-left corner (the caller
    translates and clips to the bleed it wants). Vector elements are written as content-stream
    operators directly; text goes through ReportLab's text objects (font subsets)."""
    H = face.height
    out = c._code  # the canvas's content stream (what addLiteral appends to)
    cmyk = is_cmyk(c)
    static = layout.STATIC
    groups = face.groups
    skip = 0
    for i, el in enumerate(face.elements):
        if skip:
            skip -= 1
            continue
        if groups and i in groups and _place_group(c, face, i, groups[i], art):
            skip = len(groups[i]) - 1
            continue
        if id(el) in static and el.get("name") not in face.icons.svg:  # a game's icon: per face
            ops = _STATIC_OPS.get((id(el), H, face.width, cmyk))
            if ops is not None:
                out.append(ops)
                continue
            if el["kind"] in _VECTOR:
                n = len(out)
                draw_face(c, Face(face.width, H, [dict(el)], icons=face.icons))
                _STATIC_OPS[(id(el), H, face.width, cmyk)] = out[n] if len(out) == n + 1 else " ".join(out[n:])
                continue
        kind = el["kind"]
        fill, stroke = el.get("fill"), el.get("stroke")
        fill = None if fill in (None, "none") else fill
        stroke = None if stroke in (None, "none") else stroke
        lw = float(el.get("width", 0.5))
        head = "q"
        if fill is not None:
            head += " " + _paint(fill, "rg", cmyk, _role(el) if cmyk else "ink")
        if stroke is not None:
            head += f" {_paint(stroke, 'RG', cmyk)} {lw:.3g} w"
        if kind == "rect":
            x, y, w, h = _grow(el, face)
            r = float(el.get("radius", 0)) * PT
            X, Y, Wp, Hp = x * PT, (H - y - h) * PT, w * PT, h * PT
            path = _round_rect(X, Y, Wp, Hp, r) if r else f"{_n(X)} {_n(Y)} {_n(Wp)} {_n(Hp)} re"
            out.append(f"{head} {path} {_op(stroke is not None, fill is not None)} Q")
        elif kind == "circle":
            path = _circle(float(el["cx"]) * PT, (H - float(el["cy"])) * PT, float(el["r"]) * PT)
            out.append(f"{head} {path} {_op(stroke is not None, fill is not None)} Q")
        elif kind == "line":
            dash = ""
            if el.get("dash"):
                dash = "[" + " ".join(f"{float(d):.3g}" for d in el["dash"]) + "] 0 d "
            out.append(f"q {_paint(stroke or '#000000', 'RG', cmyk)} {lw:.3g} w {dash}"
                       f"{_n(float(el['x1']) * PT)} {_n((H - float(el['y1'])) * PT)} m "
                       f"{_n(float(el['x2']) * PT)} {_n((H - float(el['y2'])) * PT)} l S Q")
        elif kind == "poly":
            pts = [(float(px) * PT, (H - float(py)) * PT) for px, py in el["points"]]
            path = f"{_n(pts[0][0])} {_n(pts[0][1])} m " + " ".join(
                f"{_n(px)} {_n(py)} l" for px, py in pts[1:]) + " h"
            out.append(f"{head} {path} {_op(stroke is not None, fill is not None)} Q")
        elif kind == "stripes":
            out.append("q")
            _stripes(c, face, el)
            out.append("Q")
        elif kind == "icon":
            s = float(el["size"])
            ink_ = fill if fill is not None else (None if stroke is not None else "#000000")
            icon_ops(out, face.icons, el["name"], float(el["x"]) * PT, (H - float(el["y"]) - s) * PT, s * PT, ink_,
                     stroke, lw if stroke is not None else 0, cmyk)
        elif kind == "label":
            _label(c, face, el)
        elif kind == "text":
            _text(c, face, el)
        elif kind in ("art", "table"):  # each sets its own paint (`fill` is the placeholder's)
            c.saveState()
            if kind == "art":
                _art(c, face, el, art)
            else:
                _table(c, face, el)
            c.restoreState()
        else:
            raise LayoutError(f"unknown layout element kind {kind!r}")


def _role(el: dict) -> str:
    """"area" for a fill large enough to be printed as one (see `cmyk_of`), else "ink"."""
    kind = el["kind"]
    if kind == "rect":
        side = min(float(el.get("w", 0)), float(el.get("h", 0)))
    elif kind == "circle":
        side = 2 * float(el.get("r", 0))
    elif kind == "poly" and el.get("points"):
        xs = [float(p[0]) for p in el["points"]]
        ys = [float(p[1]) for p in el["points"]]
        side = min(max(xs) - min(xs), max(ys) - min(ys))
    else:
        return "ink"
    return "area" if side >= AREA else "ink"


def _place_group(c: Canvas, face: Face, i: int, group: tuple, art: Path | None) -> bool:
    """Place the `once` group starting at element i as a form drawn once per document (its
    elements depend only on what the group's key holds, so every face passing the same key
    draws the same thing): one `Do` per face instead of the group's operators, which are then
    also compressed once per document. A group holding the card's own art stays per face."""
    if art is not None and any(e["kind"] == "art" for e in group) and art.is_file():
        return False
    doc = c._doc
    names = doc.__dict__.get("_forge_groups")
    if names is None:
        names = doc._forge_groups = {}
    key = (id(group), face.width, face.height)
    name = names.get(key)
    if name is None:
        name = names[key] = f"G{len(names)}"
        m = (MAX_BLEED + 2) * PT
        c.beginForm(name, lowerx=-m, lowery=-m, upperx=face.width * PT + m, uppery=face.height * PT + m)
        draw_face(c, Face(face.width, face.height, face.elements[i:i + len(group)], icons=face.icons), None)
        end_form(c)
    c.doForm(name)
    return True


#: Kinds drawn as plain operators that depend on nothing but the element and the card size.
_VECTOR = {"rect", "circle", "line", "poly", "icon"}
#: Their operators for elements shared by faces (`layout.once`), by (id, card height, width).
_STATIC_OPS: dict[tuple, str] = {}


def icon_ops(out: list, icons: IconSet, name: str, x: float, y: float, size: float, fill: Any, stroke: Any,
             line_width: float, cmyk: bool = False) -> None:
    """Icon `name` of `icons` in the square (x, y, size) points: its unit-square path, scaled by
    `cm`, appended to `out`. A game's SVG icon keeps its own colours, `currentColor` taking `fill`
    (else `stroke`); one whose file is broken draws nothing (`forge check` reports the file)."""
    svg = icons.svg.get(name)
    if svg is not None:
        code = svg.code(fill or stroke or "#000000", _cmyk_colour if cmyk else None)
        out.append(f"q {size:.3f} 0 0 {size:.3f} {_n(x)} {_n(y)} cm {code} Q")
        return
    if name not in ICONS:
        if name in icons:
            return
        raise LayoutError(f"unknown icon {name!r} (known: {', '.join(icons.known)})")
    parts = ["q"]
    if fill is not None:
        parts.append(_paint(fill, "rg", cmyk))
    do_stroke = stroke is not None and line_width > 0
    if stroke is not None:
        parts.append(f"{_paint(stroke, 'RG', cmyk)} {line_width / size if size else 0:.4g} w")
    parts.append(f"{size:.3f} 0 0 {size:.3f} {_n(x)} {_n(y)} cm {icon_code(name)} "
                 f"{_op(do_stroke, fill is not None)} Q")
    out.append(" ".join(parts))


#: PDF string escapes of each byte, as ReportLab's escapePDF writes them (str.translate is C).
_ESCAPE = {i: escapePDF(bytes([i])) for i in range(256)}


def _show(c: Canvas, face_name: str, size: float, text: str) -> str:
    """Text-showing operators for `text` in a TrueType face: ReportLab's subsets and escaping,
    without a text object per string. A character's subset code never changes once ReportLab
    has assigned it in a document, so each face keeps a table from assigned characters of the
    first subset to their escaped byte: a string made only of those is one `str.translate`;
    any other goes through ReportLab's `splitString`, which assigns the new codes."""
    if not text:
        return ""
    doc = c._doc
    codes = doc.__dict__.get("_forge_codes")
    if codes is None:
        codes = doc._forge_codes = {}
    known = codes.get(face_name)  # (characters, their escaped bytes by ordinal, subset 0's name)
    if known is not None and known[0].issuperset(text):
        return f"{known[2]} {size:.2f} Tf ({text.translate(known[1])}) Tj"
    font = getFont(face_name)
    pairs = font.splitString(text, doc)
    out = " ".join(f"{font.getSubsetInternalName(subset, doc)} {size:.2f} Tf "
                   f"({chunk.decode('latin-1').translate(_ESCAPE)}) Tj" for subset, chunk in pairs)
    if known is None and any(subset == 0 for subset, _ in pairs):
        known = codes[face_name] = (set(), {}, font.getSubsetInternalName(0, doc))
    if known is not None:
        assigned = font.state[doc].assignments
        for ch in set(text):
            n = assigned.get(32 if ch == "\xa0" else ord(ch))
            if n is not None and n < 256:
                known[0].add(ch)
                known[1][ord(ch)] = _ESCAPE[n]
    return out


def _label(c: Canvas, face: Face, el: dict) -> None:
    size = el["_size"]
    x, y = float(el["x"]) * PT, (face.height - float(el["y"])) * PT
    # y is the baseline; `box: true` makes y the top of a box of the nominal size instead.
    text = str(el.get("text", ""))
    align = el.get("align", "left")
    w = float(el.get("w", 0)) * PT
    track = float(el.get("tracking", 0))
    runs = el.get("_runs")  # a label with inline icons or emphasis (`inline`)
    if runs is None:
        width = unit_width(text, el["_face"]) * size + track * max(len(text) - 1, 0)
    else:
        width = (sum(unit_width(t, f) for f, t in runs) * size
                 + track * max(sum(len(t) for _, t in runs) - 1, 0))
    if align == "center":
        x = (x + w / 2 if w else x) - width / 2
    elif align == "right":
        x = (x + w if w else x) - width
    tc = f"{track:.3g} Tc " if track else ""
    colour = el.get("color", "#000000")
    head = f"q {_paint(colour, 'rg', is_cmyk(c))} BT {tc}1 0 0 1 {_n(x)} {_n(y)} Tm "
    if runs is None:
        c.addLiteral(f"{head}{_show(c, el['_face'], size, text)} ET Q")
        return
    out: list[str] = []
    icons: list[str] = []
    _inline_line(c, face, runs, x, y, size, colour, out, icons, is_cmyk(c), track)
    c.addLiteral(" ".join([head + " ".join(out), "ET Q", *icons]))


def _text(c: Canvas, face: Face, el: dict) -> None:
    """The lines fitted by `layout.fit_text`, in one text block per element."""
    paras = el["_paras"]
    gap = float(el.get("gap", 0.4)) * el["_size"]
    total = sum(p.height for p in paras) + gap * max(len(paras) - 1, 0)
    top = (face.height - float(el["y"])) * PT
    h = float(el["h"]) * PT
    valign = el.get("valign", "top")
    if valign == "middle":
        top -= max(h - total, 0) / 2
    elif valign == "bottom":
        top -= max(h - total, 0)
    x, w = float(el["x"]) * PT, float(el["w"]) * PT
    out = ["q BT"]
    icons: list[str] = []  # inline icons: paths, which a text object cannot hold, drawn after it
    cmyk = is_cmyk(c)
    for n, para in enumerate(paras):
        if n:
            top -= gap
        out.append(_paint(para.color, "rg", cmyk))
        base = top - para.size
        for lw, frags in para.lines:
            if para.align == "center":
                lx = x + (w - lw) / 2
            elif para.align == "right":
                lx = x + w - lw
            else:
                lx = x
            out.append(f"1 0 0 1 {_n(lx)} {_n(base)} Tm")
            if any(inline.is_icon(fname) for fname, _ in frags):
                _inline_line(c, face, frags, lx, base, para.size, para.color, out, icons, cmyk)
            else:
                out.extend(_show(c, fname, para.size, text) for fname, text in frags)
            base -= para.leading
        top -= para.height
    out.append("ET Q")
    c.addLiteral(" ".join(out + icons))


def _inline_line(c: Canvas, face: Face, frags: list, x: float, base: float, size: float, colour: Any,
                 out: list, icons: list, cmyk: bool, track: float = 0.0) -> None:
    """A line holding inline icons: its text runs, each placed after the icons before it, and
    each icon (`inline.SIDE` em square, `inline.DROP` em below the baseline, in the text's
    colour) appended to `icons`; `track`: the extra space after every character (a label's)."""
    side = inline.SIDE * size
    for fname, text in frags:
        if inline.is_icon(fname):
            name = fname[len(inline.ICON):]
            for _ in text:
                icon_ops(icons, face.icons, name, x + (inline.ADVANCE * size - side) / 2,
                         base - inline.DROP * size, side, colour, None, 0, cmyk)
                x += inline.ADVANCE * size + track
            out.append(f"1 0 0 1 {_n(x)} {_n(base)} Tm")
            continue
        out.append(_show(c, fname, size, text))
        x += unit_width(text, fname) * size + track * len(text)


def _stripes(c: Canvas, face: Face, el: dict) -> None:
    x, y, w, h = _grow(el, face)
    X, Y, Wp, Hp = x * PT, (face.height - y - h) * PT, w * PT, h * PT
    step = float(el.get("step", 3)) * PT
    c._code.append(f"{_paint(el.get('stroke', '#000000'), 'RG', is_cmyk(c))} {float(el.get('width', 0.5)):.3g} w")
    _hatch(c, X, Y, Wp, Hp, step)


def _hatch(c: Canvas, X: float, Y: float, Wp: float, Hp: float, step: float) -> None:
    """Diagonal lines over the box (X, Y, Wp, Hp) points, in the current stroke colour and
    width. The lines (hundreds of segments) are a form drawn once per document for each box
    size and step, whose BBox clips them to the box; a face only places it. Every card of a
    type repeats the same frame and art box, so the hatching costs one `Do` per face instead of
    a path that ReportLab would encode and compress again for every face."""
    name = f"hatch{step:.2f}x{Wp:.2f}x{Hp:.2f}"
    if not c._doc.hasForm(name):
        c.beginForm(name, 0, 0, Wp, Hp)
        c._code.append(" ".join(f"{i * step - Hp:.2f} 0 m {i * step:.2f} {Hp:.2f} l"
                                for i in range(int((Wp + Hp) / step) + 2)) + " S")
        end_form(c)
    c._code.append(f"q 1 0 0 1 {_n(X)} {_n(Y)} cm")
    c.doForm(name)
    c._code.append("Q")


def _art(c: Canvas, face: Face, el: dict, art: Path | None) -> None:
    x, y, w, h = (float(el[k]) for k in ("x", "y", "w", "h"))
    X, Y, Wp, Hp = x * PT, (face.height - y - h) * PT, w * PT, h * PT
    r = float(el.get("radius", 0)) * PT
    clip = _round_rect(X, Y, Wp, Hp, r) if r else f"{_n(X)} {_n(Y)} {_n(Wp)} {_n(Hp)} re"
    cmyk = is_cmyk(c)
    img = _image(art, cmyk) if art is not None else None
    if img is not None:
        c.addLiteral(f"{clip} W n")
        iw, ih = img.getSize()
        scale = max(Wp / iw, Hp / ih)  # cover the box, centred
        c.drawImage(img, X + (Wp - iw * scale) / 2, Y + (Hp - ih * scale) / 2, iw * scale, ih * scale)
        return
    # The designed placeholder: a tinted field, fine diagonal hatching, a ring and the icon.
    fill, ink = el.get("fill", "#eeeeee"), el.get("ink", "#999999")
    role = "area" if min(w, h) >= AREA else "ink"
    c.addLiteral(f"{clip} W n {_paint(fill, 'rg', cmyk, role)} {_n(X)} {_n(Y)} {_n(Wp)} {_n(Hp)} re f "
                 f"{_paint(mix(ink, fill, 0.75), 'RG', cmyk)} 0.4 w")
    _hatch(c, X, Y, Wp, Hp, 2.2 * PT)
    s = min(Wp, Hp) * 0.62
    cx, cy = X + Wp / 2, Y + Hp / 2
    c.addLiteral(f"{_paint(fill, 'rg', cmyk)} {_paint(ink, 'RG', cmyk)} 0.8 w {_circle(cx, cy, s / 2)} B*")
    icon = el.get("icon")
    if icon is not None:
        icon_ops(c._code, face.icons, icon, cx - s * 0.3, cy - s * 0.3, s * 0.6, ink, None, 0, cmyk)


@lru_cache(maxsize=1)
def _cmyk_lut():
    """Pictures to CMYK by the same formula as layout colours (greys in K alone, full grey
    component replacement otherwise), as a 17-point 3D table Pillow interpolates."""
    from PIL import ImageFilter
    return ImageFilter.Color3DLUT.generate(17, lambda r, g, b: _cmyk(r, g, b, "image"),
                                           channels=4, target_mode="CMYK")


class _ArtReader(ImageReader):
    """ReportLab's image reader, decoding only what `forge.art.open_art` decodes (a JPEG's
    bytes still go into the PDF as they are)."""

    def _read_image(self, fp):
        return open_art(fp)


def _image(path: Path, cmyk: bool = False) -> ImageReader | None:
    """The art at `path` decoded (as `drawImage` would decode it), or None when it cannot be:
    the face then shows the placeholder instead of failing half-drawn. `check` reports why.
    For a CMYK PDF the picture is converted to CMYK (`_cmyk_lut`, no ICC profile), so the file
    holds no RGB image either."""
    try:
        img = _ArtReader(str(path))
        if cmyk:
            pil = img._image
            if pil.mode != "CMYK":
                pil = pil.convert("RGB").filter(_cmyk_lut())
            img = ImageReader(pil)
        img.getRGBData()  # kept by the reader for drawImage
        return img
    except Exception:  # `ArtError` (ReportLab re-raises it annotated), a file gone since `check`
        return None


def _table(c: Canvas, face: Face, el: dict) -> None:
    x0, y0, w = float(el["x"]), float(el["y"]), float(el["w"])
    row_h = float(el.get("row", 4.2))
    cols = [float(v) for v in el.get("cols", [])] or None
    size = float(el.get("size", 7))
    face_name = FACES.get(el.get("font", "regular"), fonts.REGULAR)
    cmyk = is_cmyk(c)
    rule = ink(el.get("rule", "#999999"), cmyk) if color(el.get("rule", "#999999")) is not None else None
    stripe = ink(el.get("stripe"), cmyk) if el.get("stripe") else None
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
            runs = spec.get("_runs")  # a cell with inline icons or emphasis (`layout._table_floor`)
            avail = (cw - 1.6) * PT
            tw = stringWidth(text, fname, s) if runs is None else sum(unit_width(t, f) for f, t in runs) * s
            if tw > avail > 0:
                s, tw = s * avail / tw, avail
            colour = spec.get("color", el.get("color", "#000000"))
            base = (H - top - row_h / 2) * PT - s * 0.35
            align = spec.get("align", "left")
            if runs is not None:
                left = {"center": (x + cw / 2) * PT - tw / 2, "right": (x + cw - 0.8) * PT - tw}.get(
                    align, (x + 0.8) * PT)
                out: list[str] = []
                icons: list[str] = []
                _inline_line(c, face, runs, left, base, s, colour, out, icons, cmyk)
                c.addLiteral(" ".join([f"q {_paint(colour, 'rg', cmyk)} BT 1 0 0 1 {_n(left)} {_n(base)} Tm",
                                       *out, "ET Q", *icons]))
                x += cw
                continue
            c.setFont(fname, s)
            c.setFillColor(ink(colour, cmyk))
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
    """The card's art file, only if it lies inside the game folder (`model.cards.art_file`); else
    None, and the placeholder is drawn: nothing outside the folder is read, even without `check`."""
    return art_file(card, game.root) if card is not None else None


def round_clip(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    p = c.beginPath()
    p.rect(x, y, w, h)
    c.clipPath(p, stroke=0, fill=0)


__all__ = ["art_path", "cmyk_of", "color", "draw_face", "ink", "is_cmyk", "round_clip", "use_cmyk"]
