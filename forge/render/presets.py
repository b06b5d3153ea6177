"""Print-on-demand presets (`forge build --preset`): what each vendor asks of card files.

A preset is data: the bleed around the trim, the exact image size of the vendor's own card
sizes, how the files are split, and the page order of the print-shop PDF where the vendor takes
one. The png and printshop products (`forge.render.sheets`) read it; `BuildOptions.preset`
names it. The print-shop files get the preset's bleed (TrimBox inside BleedBox by exactly that
much), one file per deck for a vendor, and the vendor's page order.

Sizes: a game whose card is one of the vendor's sizes (`Preset.sizes`, trim in mm) gets exactly
the vendor's pixels, its own trim centred and the difference given to the bleed (a 63 x 88 mm
card as a 2.5 x 3.5 in poker card at The Game Crafter: 825 x 1125 px). Any other card size is
scaled the same way the vendor's card is made: trim plus the preset's bleed on every side at
the preset's dpi (a 70 x 120 mm card with 1/8 in bleed at 300 dpi: 902 x 1492 px). The vendor
may not print that size at all: check its product list.

Sources, read for this table (each preset's `sources`; docs/print-presets.md says more):

- tgc, The Game Crafter: poker cards are uploaded as 825 x 1125 px PNG or JPG (2.5 x 3.5 in with
  1/8 in bleed at 300 dpi), one back image per deck, RGB only.
  https://help.thegamecrafter.com/article/391-bleed
  https://help.thegamecrafter.com/article/33-dpi-dots-per-inch
- mpc, MakePlayingCards: a poker card image is 822 x 1122 px at 300 dpi (750 x 1050 px trim and
  36 px, about 3 mm, of bleed each side).
  https://www.makeplayingcards.com/pops/faq-photo.html
- dtc, DriveThruCards: 1/8 in bleed on every side (a 2.5 x 3.5 in poker card is laid out at
  2.75 x 3.75 in, 825 x 1125 px; a 63 x 88 mm card gets the same pages, padded like The Game
  Crafter's and MakePlayingCards' images), 300 dpi, one PDF per deck (PDF/X-1a:2003, CMYK, at
  most 240 % ink) whose first page is the back of card 1, the second its front, then the back
  of card 2 and so on.
  https://onebookshelfpublisherservice.zendesk.com/hc/en-us/articles/227867607-Common-Card-Prep-Issues-Solutions
  https://help.drivethrupartners.com/hc/de/articles/12780748203543-Spezifikationen-f%C3%BCr-gedruckte-Karten
- generic: forge's own choice before presets existed: 3 mm bleed at 300 dpi, a poker card as
  The Game Crafter's 825 x 1125 px, files in one folder.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError

INCH = 25.4  # mm
POKER = (63.5, 88.9)  # 2.5 x 3.5 in: the US poker card
EURO_POKER = (63.0, 88.0)  # the poker card in millimetres, as the built-in games have it


@dataclass(frozen=True)
class Preset:
    name: str
    vendor: str
    bleed: float  # mm on each side: print-shop pages, and PNGs of card sizes not in `sizes`
    #: The vendor's exact image (px) for the trim sizes (mm) it prints.
    sizes: dict[tuple[float, float], tuple[int, int]]
    #: Files per deck, as vendors that sell a deck with one back ask: PNGs in a folder per
    #: deck (`<deck>/back.png`, the fronts and `cards.csv` with each front's copies), a
    #: print-shop PDF per deck. Else one folder of PNGs and one print-shop PDF of every card.
    per_deck: bool
    #: The vendor asks for each card's back before its front in the print-shop PDF; else
    #: `--backs-first` decides (each front, then its back, by default).
    backs_first: bool = False
    sources: tuple[str, ...] = field(default=())
    dpi: int = 300
    #: The vendor takes the print-shop PDF (not the images): a card of one of its `sizes` gets
    #: pages of that exact size too, the trim centred and padded by bleed (`card_bleed`).
    exact_pages: bool = False
    #: The most ink (total area coverage, C + M + Y + K, 1.0 = 100 %) the vendor prints; a build
    #: with the preset warns about colours and art above it (`forge.render.ink`).
    ink_limit: float | None = None

    def pixels(self, width: float, height: float) -> tuple[int, int]:
        """Image size (px) of a card of trim `width` x `height` mm, bleed included."""
        exact = self.sizes.get((float(width), float(height)))
        if exact is not None:
            return exact
        return (round((width + 2 * self.bleed) / INCH * self.dpi),
                round((height + 2 * self.bleed) / INCH * self.dpi))

    def card_bleed(self, width: float, height: float) -> tuple[float, float]:
        """The bleed (mm, across and down) around a card of trim `width` x `height` mm on a
        print-shop page: the preset's, or what pads it to the vendor's exact size."""
        if self.exact_pages and (float(width), float(height)) in self.sizes:
            _, _, bx, by = bleed_page(width, height, self.pixels(width, height), self.dpi)
            return bx, by
        return self.bleed, self.bleed

    @property
    def folder(self) -> str:
        """The output folder of its PNGs: `png` for generic, `png-<name>` for a vendor, so
        builds for several vendors sit side by side."""
        return "png" if self.name == GENERIC else f"png-{self.name}"

    @property
    def shop_stem(self) -> str:
        """How its print-shop files' names begin: `printshop` for generic, `printshop-<name>`
        for a vendor (the same rule as `folder`)."""
        return "printshop" if self.name == GENERIC else f"printshop-{self.name}"


GENERIC = "generic"

PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("generic", "forge's default", bleed=3.0,
           sizes={POKER: (825, 1125), EURO_POKER: (825, 1125)},
           per_deck=False),
    Preset("tgc", "The Game Crafter", bleed=INCH / 8,
           sizes={POKER: (825, 1125), EURO_POKER: (825, 1125)},
           per_deck=True,
           sources=("https://help.thegamecrafter.com/article/391-bleed",
                    "https://help.thegamecrafter.com/article/33-dpi-dots-per-inch")),
    Preset("mpc", "MakePlayingCards", bleed=36 / 300 * INCH,
           sizes={POKER: (822, 1122), EURO_POKER: (822, 1122)},
           per_deck=True,
           sources=("https://www.makeplayingcards.com/pops/faq-photo.html",)),
    Preset("dtc", "DriveThruCards", bleed=INCH / 8,
           sizes={POKER: (825, 1125), EURO_POKER: (825, 1125)},
           per_deck=True, backs_first=True, exact_pages=True, ink_limit=2.4,
           sources=("https://onebookshelfpublisherservice.zendesk.com/hc/en-us/articles/"
                    "227867607-Common-Card-Prep-Issues-Solutions",
                    "https://help.drivethrupartners.com/hc/de/articles/12780748203543-"
                    "Spezifikationen-f%C3%BCr-gedruckte-Karten")),
)}


def preset(name: str) -> Preset:
    """The preset called `name`; an unknown name is a usage error listing the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UsageError(f"unknown preset {name!r} (use {', '.join(PRESETS)})") from None


def png_size(width: float, height: float) -> tuple[int, int]:
    """The generic preset's image size: 300 dpi with 3 mm bleed, a poker card 825 x 1125 px
    (what `forge preview` draws)."""
    return PRESETS[GENERIC].pixels(width, height)


def bleed_page(width: float, height: float, size_px: tuple[int, int],
               dpi: float = 300) -> tuple[float, float, float, float]:
    """(page width, page height, bleed x, bleed y), mm, of an image of ``size_px`` pixels at
    ``dpi`` holding a ``width`` x ``height`` mm card centred, the rest of the page its bleed."""
    pw, ph = size_px[0] / dpi * 25.4, size_px[1] / dpi * 25.4
    return pw, ph, (pw - width) / 2, (ph - height) / 2
