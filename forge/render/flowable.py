"""A card as a ReportLab Flowable, for rulebooks and cheat sheets (`forge.render.card_flowable`).

Its own module so that drawing cards on a canvas (`forge preview`, the card products) does not
import ReportLab's platypus, which documents alone need.
"""
from __future__ import annotations

from typing import Any

from reportlab.platypus import Flowable

from . import draw_card
from .layout import PT


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
