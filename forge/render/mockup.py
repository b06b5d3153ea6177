"""Mock-ups (`forge build --what mockup`): pictures of the cards for a crowdfunding page or a
playtest invite, per deck (the cards that wear one back, as for the print shop and TTS):

- `mockup/<deck>-hand.png`: a fanned hand of the deck's first `HAND` designs, on a transparent
  background with a soft shadow under each card;
- `mockup/<deck>-sheet.png`: a contact sheet of every design of the deck, in data order, on
  `BACKGROUND`, as many columns as make the sheet about square (at most `MAX_COLUMNS`).

Cards are drawn as cut (trim, no bleed) at `DPI` with rounded corners, through the png
product's pages (`sheets.png_pdf`) and PDFium: what the printed card shows.
"""
from __future__ import annotations

import io
import math
from typing import Any

from PIL import Image, ImageDraw, ImageFilter

from .. import raster
from ..products import BuildOptions, product
from .sheets import deck_name, png_pdf

DPI = 150
HAND = 5
#: The fan: degrees between two cards of the hand, and the distance from the cards' centre to
#: the point they turn about, in card heights.
FAN_STEP, FAN_RADIUS = 9.0, 1.7
CORNER = 3.0  # mm, the cut card's corner radius
GAP = 0.06  # of a card's width, between cards of a contact sheet and around it
MAX_COLUMNS = 12
BACKGROUND = "#e9ecef"


def _decks(game: Any) -> dict[str, list[Any]]:
    """Each deck's designs in data order, by the deck's file-name form."""
    out: dict[str, list[Any]] = {}
    for card in game.cards:
        out.setdefault(deck_name(game, card), []).append(card)
    return out


def _rounded(image: Image.Image, radius: int) -> Image.Image:
    """The card with its corners cut round (RGBA)."""
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, image.width - 1, image.height - 1), radius, fill=255)
    card = image.convert("RGBA")
    card.putalpha(mask)
    return card


def hand(cards: list[Image.Image]) -> Image.Image:
    """The cards fanned about a point below them, the first on the left and below the next."""
    w, h = cards[0].size
    radius = FAN_RADIUS * h
    spread = FAN_STEP * (len(cards) - 1)
    size = (int(2 * (radius + h) * math.sin(math.radians(spread / 2 + 10)) + 2 * h), int(1.6 * h + radius * 0.3))
    out = Image.new("RGBA", size, (0, 0, 0, 0))
    pivot = (size[0] / 2, radius + h * 0.8)
    blur = max(2, w // 40)
    for n, card in enumerate(cards):
        angle = -spread / 2 + n * FAN_STEP
        turned = card.rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True)
        cx = pivot[0] + radius * math.sin(math.radians(angle))
        cy = pivot[1] - radius * math.cos(math.radians(angle))
        at = (round(cx - turned.width / 2), round(cy - turned.height / 2))
        shadow = Image.new("RGBA", turned.size, (0, 0, 0, 0))
        shadow.putalpha(turned.getchannel("A").point(lambda a: a * 45 // 100).filter(ImageFilter.GaussianBlur(blur)))
        out.alpha_composite(shadow, (at[0] + blur, at[1] + blur))
        out.alpha_composite(turned, at)
    return out.crop(out.getbbox())


def sheet(cards: list[Image.Image]) -> Image.Image:
    """The cards in rows on `BACKGROUND`, about as wide as high."""
    w, h = cards[0].size
    cols = max(1, min(len(cards), MAX_COLUMNS, math.ceil(math.sqrt(len(cards) * h / w))))
    rows = math.ceil(len(cards) / cols)
    gap = round(GAP * w)
    out = Image.new("RGBA", (cols * (w + gap) + gap, rows * (h + gap) + gap), BACKGROUND)
    for n, card in enumerate(cards):
        row, col = divmod(n, cols)
        out.alpha_composite(card, (gap + col * (w + gap), gap + row * (h + gap)))
    return out.convert("RGB")


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


@product("mockup", steps=lambda game, opts: len(_decks(game)))
def mockup(game: Any, opts: BuildOptions) -> dict[str, bytes]:
    """`mockup/<deck>-hand.png` and `mockup/<deck>-sheet.png` per deck; a step per deck."""
    size = game.manifest.card_size
    cell = (round(size.width / 25.4 * DPI), round(size.height / 25.4 * DPI))
    decks = _decks(game)
    pdf = png_pdf(game, opts.lang, cell, [(deck, "front", card) for deck, cards in decks.items() for card in cards],
                  dpi=DPI)
    drawn = raster.images(pdf, cell)
    radius = round(CORNER / 25.4 * DPI)
    files = {}
    try:
        for deck, cards in decks.items():
            faces = [_rounded(next(drawn), radius) for _ in cards]
            files[f"mockup/{deck}-hand.png"] = _png(hand(faces[:HAND]))
            files[f"mockup/{deck}-sheet.png"] = _png(sheet(faces))
            opts.advance()
    finally:
        drawn.close()  # the PDF document, kept open while pages are drawn
    return files
