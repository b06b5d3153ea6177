"""A small library of vector icons, drawn into a square box; layouts name them (`icon: heart`).

Icons are generic shapes, not game pieces: a game's templates decide what a heart or a bolt
means. Each function draws into the unit square (0..1, y up) on a path; `icon_code` turns one into
PDF path operators once per process, which the renderer places, scaled, with its own paint.
"""
from __future__ import annotations

import math
from typing import Callable

from reportlab.pdfgen.canvas import Canvas

IconFn = Callable[[Canvas], object]


def _poly(c: Canvas, pts: list[tuple[float, float]]):
    p = c.beginPath()
    p.moveTo(*pts[0])
    for pt in pts[1:]:
        p.lineTo(*pt)
    p.close()
    return p


def _star(c: Canvas, points: int = 5, inner: float = 0.42):
    pts = []
    for i in range(points * 2):
        r = 0.5 if i % 2 == 0 else 0.5 * inner
        a = math.pi / 2 + i * math.pi / points
        pts.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    return _poly(c, pts)


def _heart(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.5, 0.08)
    p.curveTo(0.25, 0.3, 0.02, 0.45, 0.05, 0.7)
    p.curveTo(0.08, 0.95, 0.42, 1.0, 0.5, 0.76)
    p.curveTo(0.58, 1.0, 0.92, 0.95, 0.95, 0.7)
    p.curveTo(0.98, 0.45, 0.75, 0.3, 0.5, 0.08)
    p.close()
    return p


def _circle(c: Canvas):
    p = c.beginPath()
    p.circle(0.5, 0.5, 0.46)
    return p


def _diamond(c: Canvas):
    return _poly(c, [(0.5, 0.02), (0.92, 0.5), (0.5, 0.98), (0.08, 0.5)])


def _hexagon(c: Canvas):
    return _poly(c, [(0.5 + 0.48 * math.cos(math.pi / 6 + i * math.pi / 3),
                      0.5 + 0.48 * math.sin(math.pi / 6 + i * math.pi / 3)) for i in range(6)])


def _shield(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.5, 0.02)
    p.curveTo(0.2, 0.15, 0.1, 0.4, 0.1, 0.85)
    p.lineTo(0.5, 0.98)
    p.lineTo(0.9, 0.85)
    p.curveTo(0.9, 0.4, 0.8, 0.15, 0.5, 0.02)
    p.close()
    return p


def _bolt(c: Canvas):
    return _poly(c, [(0.58, 0.98), (0.18, 0.44), (0.46, 0.44), (0.36, 0.02), (0.82, 0.58),
                     (0.53, 0.58)])


def _sword(c: Canvas):
    p = _poly(c, [(0.45, 0.3), (0.45, 0.88), (0.5, 0.98), (0.55, 0.88), (0.55, 0.3)])
    p.rect(0.28, 0.24, 0.44, 0.07)
    p.rect(0.46, 0.04, 0.08, 0.2)
    p.circle(0.5, 0.04, 0.05)
    return p


def _boot(c: Canvas):  # speed: three chevrons
    p = c.beginPath()
    for dx in (0.0, 0.3):
        p.moveTo(0.08 + dx, 0.12)
        p.lineTo(0.36 + dx, 0.5)
        p.lineTo(0.08 + dx, 0.88)
        p.lineTo(0.26 + dx, 0.88)
        p.lineTo(0.54 + dx, 0.5)
        p.lineTo(0.26 + dx, 0.12)
        p.close()
    return p


def _note(c: Canvas):
    p = c.beginPath()
    p.ellipse(0.1, 0.06, 0.42, 0.3)
    p.rect(0.42, 0.2, 0.09, 0.72)
    p.moveTo(0.42, 0.92)
    p.curveTo(0.62, 0.86, 0.92, 0.74, 0.82, 0.44)
    p.curveTo(0.82, 0.64, 0.66, 0.7, 0.51, 0.72)
    p.close()
    return p


def _clock(c: Canvas):
    p = c.beginPath()
    p.circle(0.5, 0.5, 0.46)
    p.circle(0.5, 0.5, 0.36)
    p.rect(0.46, 0.46, 0.08, 0.36)
    p.rect(0.46, 0.46, 0.28, 0.08)
    return p


def _skull(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.3, 0.08)
    p.lineTo(0.3, 0.3)
    p.curveTo(0.05, 0.38, 0.06, 0.95, 0.5, 0.95)
    p.curveTo(0.94, 0.95, 0.95, 0.38, 0.7, 0.3)
    p.lineTo(0.7, 0.08)
    p.close()
    p.circle(0.35, 0.58, 0.11)
    p.circle(0.65, 0.58, 0.11)
    p.moveTo(0.5, 0.44)
    p.lineTo(0.44, 0.32)
    p.lineTo(0.56, 0.32)
    p.close()
    return p


def _die(c: Canvas):
    p = c.beginPath()
    p.roundRect(0.06, 0.06, 0.88, 0.88, 0.16)
    for x, y in ((0.3, 0.3), (0.5, 0.5), (0.7, 0.7), (0.3, 0.7), (0.7, 0.3)):
        p.circle(x, y, 0.075)
    return p


def _eye(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.02, 0.5)
    p.curveTo(0.3, 0.9, 0.7, 0.9, 0.98, 0.5)
    p.curveTo(0.7, 0.1, 0.3, 0.1, 0.02, 0.5)
    p.close()
    p.circle(0.5, 0.5, 0.16)
    return p


def _crown(c: Canvas):
    return _poly(c, [(0.08, 0.15), (0.92, 0.15), (0.98, 0.8), (0.72, 0.5), (0.5, 0.9),
                     (0.28, 0.5), (0.02, 0.8)])


def _flame(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.5, 0.02)
    p.curveTo(0.15, 0.02, 0.08, 0.35, 0.25, 0.6)
    p.curveTo(0.3, 0.45, 0.38, 0.42, 0.4, 0.45)
    p.curveTo(0.35, 0.7, 0.5, 0.9, 0.62, 0.98)
    p.curveTo(0.6, 0.78, 0.95, 0.6, 0.88, 0.3)
    p.curveTo(0.82, 0.1, 0.68, 0.02, 0.5, 0.02)
    p.close()
    return p


def _moon(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.62, 0.96)
    p.curveTo(0.1, 0.98, -0.05, 0.3, 0.4, 0.06)
    p.curveTo(0.7, -0.06, 0.95, 0.14, 0.98, 0.3)
    p.curveTo(0.6, 0.16, 0.3, 0.45, 0.42, 0.72)
    p.curveTo(0.48, 0.86, 0.56, 0.92, 0.62, 0.96)
    p.close()
    return p


def _fist(c: Canvas):  # ki: a spiral-ish swirl as concentric rings
    p = c.beginPath()
    p.circle(0.5, 0.5, 0.46)
    p.circle(0.5, 0.5, 0.3)
    p.circle(0.5, 0.5, 0.13)
    return p


def _mask(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.02, 0.7)
    p.curveTo(0.3, 0.82, 0.7, 0.82, 0.98, 0.7)
    p.curveTo(0.98, 0.3, 0.7, 0.2, 0.5, 0.4)
    p.curveTo(0.3, 0.2, 0.02, 0.3, 0.02, 0.7)
    p.close()
    p.ellipse(0.18, 0.46, 0.22, 0.16)  # x, y, width, height: the eye holes
    p.ellipse(0.6, 0.46, 0.22, 0.16)
    return p


def _sparkle(c: Canvas):
    return _star(c, 4, 0.3)


def _map(c: Canvas):
    return _poly(c, [(0.04, 0.12), (0.34, 0.04), (0.66, 0.16), (0.96, 0.08), (0.96, 0.88),
                     (0.66, 0.96), (0.34, 0.84), (0.04, 0.92)])


def _scroll(c: Canvas):
    p = c.beginPath()
    p.roundRect(0.14, 0.08, 0.72, 0.84, 0.1)
    p.rect(0.26, 0.66, 0.48, 0.06)
    p.rect(0.26, 0.5, 0.48, 0.06)
    p.rect(0.26, 0.34, 0.34, 0.06)
    return p


def _flag(c: Canvas):
    p = _poly(c, [(0.16, 0.02), (0.16, 0.98), (0.9, 0.78), (0.24, 0.58), (0.24, 0.02)])
    return p


def _coin(c: Canvas):
    p = c.beginPath()
    p.circle(0.5, 0.5, 0.46)
    p.circle(0.5, 0.5, 0.34)
    return p


def _ring(c: Canvas):
    p = c.beginPath()
    p.circle(0.5, 0.42, 0.36)
    p.circle(0.5, 0.42, 0.26)
    p.moveTo(0.36, 0.76)
    p.lineTo(0.5, 0.98)
    p.lineTo(0.64, 0.76)
    p.close()
    return p


def _house(c: Canvas):
    return _poly(c, [(0.12, 0.06), (0.12, 0.56), (0.02, 0.56), (0.5, 0.96), (0.98, 0.56),
                     (0.88, 0.56), (0.88, 0.06), (0.6, 0.06), (0.6, 0.34), (0.4, 0.34),
                     (0.4, 0.06)])


def _gift(c: Canvas):
    p = c.beginPath()
    p.rect(0.1, 0.06, 0.8, 0.56)
    p.rect(0.04, 0.62, 0.92, 0.16)
    p.moveTo(0.5, 0.78)
    p.curveTo(0.3, 1.0, 0.12, 0.9, 0.3, 0.78)
    p.close()
    p.moveTo(0.5, 0.78)
    p.curveTo(0.7, 1.0, 0.88, 0.9, 0.7, 0.78)
    p.close()
    return p


def _calendar(c: Canvas):
    p = c.beginPath()
    p.roundRect(0.06, 0.06, 0.88, 0.8, 0.08)
    p.rect(0.24, 0.8, 0.08, 0.16)
    p.rect(0.68, 0.8, 0.08, 0.16)
    return p


def _pin(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.5, 0.02)
    p.curveTo(0.3, 0.3, 0.14, 0.48, 0.14, 0.64)
    p.curveTo(0.14, 0.86, 0.32, 0.98, 0.5, 0.98)
    p.curveTo(0.68, 0.98, 0.86, 0.86, 0.86, 0.64)
    p.curveTo(0.86, 0.48, 0.7, 0.3, 0.5, 0.02)
    p.close()
    p.circle(0.5, 0.66, 0.14)
    return p


def _arrows(c: Canvas):  # a cycle: reaction / swap
    p = c.beginPath()
    p.moveTo(0.1, 0.6)
    p.lineTo(0.7, 0.6)
    p.lineTo(0.7, 0.8)
    p.lineTo(0.98, 0.5)
    p.lineTo(0.7, 0.2)
    p.lineTo(0.7, 0.4)
    p.lineTo(0.1, 0.4)
    p.close()
    return p


ICONS: dict[str, IconFn] = {
    "heart": _heart, "star": _star, "circle": _circle, "diamond": _diamond, "hexagon": _hexagon,
    "shield": _shield, "bolt": _bolt, "sword": _sword, "speed": _boot, "note": _note,
    "clock": _clock, "skull": _skull, "die": _die, "eye": _eye, "crown": _crown,
    "flame": _flame, "moon": _moon, "rings": _fist, "mask": _mask, "sparkle": _sparkle,
    "map": _map, "scroll": _scroll, "flag": _flag, "coin": _coin, "ring": _ring,
    "house": _house, "gift": _gift, "calendar": _calendar, "pin": _pin, "arrow": _arrows,
}


class _PathMaker:
    """Stands in for a canvas when an icon's path is built once, outside any document."""

    @staticmethod
    def beginPath():
        from reportlab.pdfgen.pathobject import PDFPathObject
        return PDFPathObject()


_CODES: dict[str, str] = {}


def icon_code(name: str) -> str:
    """The PDF path operators of icon `name` in the unit square (built once per process)."""
    code = _CODES.get(name)
    if code is None:
        code = _CODES[name] = ICONS[name](_PathMaker()).getCode()  # type: ignore[arg-type]
    return code
