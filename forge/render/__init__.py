"""Rendering: card faces from Jinja layout templates, drawn with ReportLab; PnP and print-shop.

Public API:

- `card_flowable(game, card, lang, width_mm)`: a Flowable drawing a card's front scaled to a
  width, for rulebooks and cheat sheets.
- `draw_card(canvas, game, card, lang, x, y, ...)`: draw a card side at (x, y) points.
- `front(game, card, lang)` / `back(...)`: the fitted `Face` (elements and problems), used by
  `forge check`'s preflight.

Importing this package registers the `pnp`, `printshop` and `png` products of `forge.build`.
"""
from __future__ import annotations

from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from . import fonts, sheets  # noqa: F401  (sheets registers the products)
from .draw import art_path, draw_face
from .layout import PT, Face, LayoutError, back, front

__all__ = ["Face", "LayoutError", "back", "card_flowable", "draw_card", "front"]


def draw_card(canvas: Canvas, game: Any, card: Any, lang: str, x: float, y: float,
              side: str = "front", width: float | None = None, bleed: float = 0.0) -> None:
    """Draw a card side with its trim's lower-left corner at (x, y) points.

    `width` (points) scales the card (default: its real size); `bleed` (mm) shows that much of
    the bleed around the trim (default none: the card as it looks once cut).
    """
    face = front(game, card, lang) if side == "front" else back(game, card, lang)
    scale = width / (face.width * PT) if width else 1.0
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(scale, scale)
    p = canvas.beginPath()
    p.rect(-bleed * PT, -bleed * PT, (face.width + 2 * bleed) * PT, (face.height + 2 * bleed) * PT)
    canvas.clipPath(p, stroke=0, fill=0)
    draw_face(canvas, face, art_path(game, card) if side == "front" else None)
    canvas.restoreState()


class CardFlowable(Flowable):
    """A card front scaled to `width_mm`, with a hairline at the trim."""

    def __init__(self, game: Any, card: Any, lang: str, width_mm: float, side: str = "front"):
        super().__init__()
        self.game, self.card, self.lang, self.side = game, card, lang, side
        size = game.manifest.card_size
        self.width = width_mm * PT
        self.height = width_mm * size.height / size.width * PT

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        draw_card(c, self.game, self.card, self.lang, 0, 0, self.side, width=self.width)
        c.saveState()
        c.setLineWidth(0.25)
        c.setStrokeGray(0.6)
        c.rect(0, 0, self.width, self.height, stroke=1, fill=0)
        c.restoreState()


def card_flowable(game: Any, card: Any, lang: str, width_mm: float) -> Flowable:
    """A ReportLab Flowable that draws `card`'s front scaled to `width_mm` millimetres."""
    return CardFlowable(game, card, lang, width_mm)
