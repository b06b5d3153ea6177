"""Rendering: card faces from Jinja layout templates, drawn with ReportLab; PnP and print-shop.

Public API:

- `card_flowable(game, card, lang, width_mm)`: a Flowable drawing a card's front scaled to a
  width, for rulebooks and cheat sheets.
- `draw_card(canvas, game, card, lang, x, y, ...)`: draw a card side at (x, y) points.
- `front(game, card, lang)` / `back(...)`: the fitted `Face` (elements and problems), used by
  `forge check`'s preflight.

The drawing modules (`draw`, `sheets`, `tts`) are imported when first used: `forge check` lays
faces out but never draws them. `forge.products.CATALOGUE` imports `sheets` and `tts`, which
register the `pnp`, `printshop`, `png` and `tts` products, when a build asks for one.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .layout import PT, Face, LayoutError, back, front

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Flowable

__all__ = ["Face", "LayoutError", "back", "card_flowable", "draw_card", "front"]


def draw_card(canvas: Canvas, game: Any, card: Any, lang: str, x: float, y: float,
              side: str = "front", width: float | None = None, bleed: float = 0.0) -> None:
    """Draw a card side with its trim's lower-left corner at (x, y) points.

    `width` (points) scales the card (default: its real size); `bleed` (mm) shows that much of
    the bleed around the trim (default none: the card as it looks once cut).
    """
    from .draw import art_path, draw_face

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


def card_flowable(game: Any, card: Any, lang: str, width_mm: float) -> Flowable:
    """A ReportLab Flowable that draws `card`'s front scaled to `width_mm` millimetres."""
    from .flowable import CardFlowable  # platypus costs ~0.1 s to import: only documents need it

    return CardFlowable(game, card, lang, width_mm)
