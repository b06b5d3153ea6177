"""Products made of card faces: PnP sheets, the print-shop files and per-card PNGs.

Every distinct face (a card's front, a deck's back, a token's side) is laid out once and drawn
once per PDF as a Form XObject, clipped to the bleed that PDF uses; copies and pages only place
that form. This keeps files small and the A4 build of a game well under a second.

PnP sheets keep everything that must print (crop marks, trim lines, cut lines, the footer) at
least `SAFE` = 6 mm from the paper's edge, where most printers cannot print; only the outer
bleed of the outermost cards may reach into that margin (it is cut away anyway). Print-shop
files have one side per page with the bleed, file split and page order of the preset
(`forge.render.presets`: 3 mm in one file by default); they are DeviceCMYK (see
`forge.render.draw.cmyk_of`) with an OutputIntent naming FOGRA39; `BuildOptions.rgb` makes an
RGB version for screens instead.

Products report progress through `BuildOptions.advance`, a step per card and token (the PnP
sheets report a sheet's worth at a time, the print-shop files one at a time) and per PNG.
"""
from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFString
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from .. import raster
from ..products import BuildOptions, product
from ..errors import ForgeError
from . import fonts, layout, presets, tokens
from .draw import art_path, color, draw_face, use_cmyk
from .icons import game_icons
from .forms import end_form
from .layout import PT

PAPERS = {"a4": A4, "letter": LETTER}
#: PnP bleed per axis, best first: the full 3 mm, else 2.5 mm on the axis where 3 mm costs a
#: column (Letter: four poker cards across fit only with 2.5 mm). Either survives a back printed
#: 2 mm off its front.
PNP_BLEEDS = (3.0, 2.5)
SAFE = 6.0  # mm, the printer margin: nothing that must print lies closer to the paper's edge
GAP = 0.8  # mm between a crop mark and the bleed (or trim) it points at
MARK = 3.5  # mm, longest crop mark
MIN_MARK = 2.0  # mm, shortest crop mark worth drawing
FOOTER = 5.5  # mm above the printer margin: the footer's two lines (note, scale bar, page label)
SCALE_BAR = 50.0  # mm, exactly
TOKEN_BLEED = 3.0  # mm around each token on PnP sheets
HOME_TOKEN_BLEED = 1.0  # mm in home mode: a little colour beyond the cut line, for scissors
#: The printing condition the print-shop files' CMYK is meant for: a characterisation of the
#: ICC registry, named, not embedded (no profile file ships with forge).
OUTPUT_INTENT = {
    "OutputConditionIdentifier": "FOGRA39",
    "OutputCondition": "Offset printing on coated paper, ISO 12647-2:2004/Amd 1 (FOGRA39)",
    "RegistryName": "http://www.color.org",
    "Info": "Coated FOGRA39 (ISO 12647-2:2004)",
}

_WORDS = {
    "uk": {"print": "Друкуйте в масштабі 100 % (без «припасувати до сторінки»)",
           "margin": "Поле принтера 6 мм: мітки й лінії різу в нього не заходять",
           "bar": "{n} мм", "fronts": "лицьовий бік", "backs": "зворот", "page": "аркуш {n} з {of}",
           "align": "Тестова сторінка суміщення: надрукуйте двобічно й подивіться на світло. "
                    "Якщо хрестики не збігаються, виміряйте зсув і задайте --back-offset X,Y (мм).",
           "align_back": "Зворот тестової сторінки",
           "pnp": "друк удома ({paper})", "printshop": "файл для друкарні",
           "subject": "карти гри «{title}» для друку, українською"},
    "en": {"print": "Print at 100% (no “fit to page”)",
           "margin": "Printer margin 6 mm: no mark or cut line lies in it", "bar": "{n} mm",
           "fronts": "fronts", "backs": "backs", "page": "sheet {n} of {of}",
           "align": "Alignment test: print duplex and hold to the light. If the crosses do not "
                    "meet, measure the shift and pass --back-offset X,Y (mm).",
           "align_back": "Alignment test, back",
           "pnp": "print and play ({paper})", "printshop": "print shop",
           "subject": "the cards of {title} for printing, in English"},
}


def words(lang: str) -> dict[str, str]:
    return _WORDS.get(lang, _WORDS["en"])


def new_canvas(buf: io.BytesIO, pagesize: tuple[float, float], game: Any, what: str, lang: str,
               cmyk: bool = False) -> Canvas:
    """A deterministic canvas whose only font is our embedded Roboto (no base-14 reference).
    `cmyk`: every colour is written as DeviceCMYK and the document names its OutputIntent."""
    fonts.register()  # (and binary streams for every document: see `fonts.register`)
    title = game.manifest.title[lang]
    c = Canvas(buf, pagesize=pagesize, invariant=1, initialFontName=fonts.REGULAR,
               initialFontSize=8, pageCompression=1, lang=lang)
    c.setTitle(f"{title}: {what}")
    c.setAuthor("Card Forge")
    c.setCreator("Card Forge")
    c.setSubject(words(lang)["subject"].format(title=title))
    if cmyk:
        use_cmyk(c)
        _output_intent(c)
    return c


def _output_intent(c: Canvas) -> None:
    """Add `/OutputIntents` to the document catalog (ReportLab has no call for it): one
    GTS_PDFX intent naming `OUTPUT_INTENT`. It states the printing condition; it does not make
    the file PDF/X (no GTS_PDFXVersion is written, and no validator has passed it)."""
    catalog = c._doc.Catalog
    intent = {"Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX")}
    intent.update({k: PDFString(v) for k, v in OUTPUT_INTENT.items()})
    catalog.OutputIntents = PDFArray([PDFDictionary(intent)])
    catalog.__NoDefault__ = list(type(catalog).__NoDefault__) + ["OutputIntents"]


class Faces:
    """Forms for the faces used in one PDF, each drawn once and clipped to (bx, by) of bleed.
    Every face of `cards` is laid out (`layout.lay_out`) before the first is drawn."""

    def __init__(self, c: Canvas, game: Any, lang: str, bx: float, by: float, cards: list[Any]):
        self.c, self.game, self.lang, self.bx, self.by = c, game, lang, bx, by
        self.names: dict[tuple, str] = {}
        if cards:
            layout.lay_out(game, cards, lang)

    def _form(self, key: tuple, face: layout.Face, art: Path | None,
              bleed: tuple[float, float] | None = None) -> str:
        name = self.names.get(key)
        if name is None:
            name = f"F{len(self.names)}"
            bx, by = bleed if bleed is not None else (self.bx, self.by)
            c = self.c
            c.beginForm(name, lowerx=-bx * PT, lowery=-by * PT,
                        upperx=(face.width + bx) * PT, uppery=(face.height + by) * PT)
            draw_face(c, face, art)
            end_form(c)
            self.names[key] = name
        return name

    def front(self, card: Any) -> str:
        return self._form(("front", card.id), layout.front(self.game, card, self.lang),
                          art_path(self.game, card))

    def back(self, card: Any) -> str:
        key = layout.back_key(self.game, card)
        return self._form(("back", key), layout.back(self.game, card, self.lang), None)

    def token(self, comp: Any, design: int, which: str, bleed: float) -> str:
        """A component's side (`front` or `back`) of design `design`, with `bleed` mm around."""
        return self._form(("token", comp.id, design, which), tokens.face(comp, design, which, self.lang, game_icons(self.game)),
                          None, (bleed, bleed))

    def place(self, name: str, x_mm: float, y_mm: float) -> None:
        """Place a form with its trim's lower-left corner at (x, y) mm on the page."""
        c = self.c
        c.addLiteral(f"q 1 0 0 1 {x_mm * PT:.3f} {y_mm * PT:.3f} cm")
        c.doForm(name)
        c.addLiteral("Q")


def copies(game: Any) -> list[Any]:
    """Every physical card, copies included, in data order."""
    return [card for card in game.cards for _ in range(card.copies)]


def pieces(game: Any) -> int:
    """Every physical card and printed component piece: the steps of a PnP sheet or of the
    print-shop files."""
    return len(copies(game)) + sum(comp.count for comp in tokens.printed_components(game))


def deck_name(game: Any, card: Any) -> str:
    """The name of a card's deck in file names: the back it wears (`layout.back_key`)."""
    return layout.back_key(game, card).replace("/", "-")


def _proof_id(c: Canvas, text: str, x: float, y: float, w: float) -> None:
    """`--proof`: the card's id in small type on a white slip at the bottom of the trim
    (x, y: the trim's lower-left corner, mm). Never drawn otherwise: ids are not card text."""
    size = 5.0
    tw = stringWidth(text, fonts.REGULAR, size) / PT
    cx = x + w / 2
    c.saveState()
    c.setFillColor(color("#ffffff"))
    c.rect((cx - tw / 2 - 0.8) * PT, (y + 0.8) * PT, (tw + 1.6) * PT, 2.6 * PT, stroke=0, fill=1)
    c.setFillColor(color("#000000"))
    c.setFont(fonts.REGULAR, size)
    c.drawCentredString(cx * PT, (y + 1.5) * PT, text)
    c.restoreState()


# --------------------------------------------------------------------------------------------
# PnP sheets


@dataclass(frozen=True)
class Grid:
    paper: tuple[float, float]  # mm, as laid out (landscape when wider than tall)
    cols: int
    rows: int
    bx: float  # bleed printed around each card (mm), per axis
    by: float
    x0: float  # lower-left trim corner of the bottom-left card (mm)
    y0: float
    w: float
    h: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def pagesize(self) -> tuple[float, float]:
        return self.paper[0] * PT, self.paper[1] * PT

    @property
    def landscape(self) -> bool:
        return self.paper[0] > self.paper[1]

    def slot(self, i: int) -> tuple[float, float]:
        """Lower-left trim corner of slot i (row-major from the top-left)."""
        r, col = divmod(i, self.cols)
        x = self.x0 + col * (self.w + 2 * self.bx)
        y = self.y0 + (self.rows - 1 - r) * (self.h + 2 * self.by)
        return x, y

    def mirrored(self, i: int, duplex: str, offset: tuple[float, float]) -> tuple[float, float]:
        """Where the back of slot i goes so it meets its front when printed duplex: turned over
        the sheet's long edge (`long`) or its short edge (`short`). On a portrait page the long
        edge is vertical, so the back is mirrored left-right; on a landscape page, top-bottom."""
        x, y = self.slot(i)
        pw, ph = self.paper
        if (duplex == "short") != self.landscape:
            y = ph - y - self.h
        else:
            x = pw - x - self.w
        return x + offset[0], y + offset[1]

    def trims(self) -> list[tuple[float, float, float, float]]:
        """Every slot's trim rectangle (x0, y0, x1, y1) mm."""
        return [(x, y, x + self.w, y + self.h) for x, y in map(self.slot, range(self.per_page))]

    def xs(self) -> list[float]:
        return sorted({x for i in range(self.cols) for x in (self.slot(i)[0], self.slot(i)[0] + self.w)})

    def ys(self) -> list[float]:
        return sorted({y for i in range(0, self.per_page, self.cols)
                       for y in (self.slot(i)[1], self.slot(i)[1] + self.h)})

    @property
    def outer(self) -> tuple[float, float, float, float]:
        """The printed area: every card with its bleed (x0, y0, x1, y1) mm."""
        return (self.x0 - self.bx, self.y0 - self.by,
                self.x0 - self.bx + self.cols * (self.w + 2 * self.bx),
                self.y0 - self.by + self.rows * (self.h + 2 * self.by))


def _count(avail: float, size: float, gutter: float) -> int:
    """How many items of `size` with `gutter` between them fit in `avail` (mm)."""
    return int((avail + gutter + 1e-6) // (size + gutter)) if avail >= size else 0


def _place(PW: float, PH: float, cols: int, rows: int, w: float, h: float, bx: float, by: float,
           bottom: float) -> Grid:
    """Centre the cols x rows block on the page, its bottom trim at least `bottom` mm up."""
    span_x = cols * w + (cols - 1) * 2 * bx
    span_y = rows * h + (rows - 1) * 2 * by
    y0 = min(max((PH - span_y) / 2, bottom), PH - SAFE - span_y)
    return Grid((PW, PH), cols, rows, bx, by, (PW - span_x) / 2, y0, w, h)


def _orientations(paper: str, landscape: bool | None) -> list[tuple[float, float]]:
    pw, ph = (v / PT for v in PAPERS[paper])
    both = [(pw, ph), (ph, pw)]
    return both if landscape is None else [both[1] if landscape else both[0]]


def grid(paper: str, w: float, h: float, home: bool, landscape: bool | None = None) -> Grid:
    """The card sheet layout: as many cards as fit with every trim at least `SAFE` mm from the
    paper's edge and the footer below them. With bleed (the default), cards keep `PNP_BLEEDS`
    on every side and their bleeds abut: A4 takes 4x2 poker cards in landscape (3 mm bleed),
    Letter 4x2 in landscape (3 mm above and below, 2.5 mm left and right). Home mode: no
    bleed, cards abut, with room for crop marks on every side: 3x3 on A4 portrait, 4x2 on
    Letter landscape. Most cards wins, then more bleed, then portrait."""
    best = None
    for n, (PW, PH) in enumerate(_orientations(paper, landscape)):
        edge = SAFE + (GAP + MIN_MARK if home else 0)
        for bx in ((0.0,) if home else PNP_BLEEDS):
            for by in ((0.0,) if home else PNP_BLEEDS):
                cols = _count(PW - 2 * edge, w, 2 * bx)
                bottom = SAFE + FOOTER + by + (GAP + MARK if cols < 3 else 0)
                rows = _count(PH - edge - bottom, h, 2 * by)
                key = (cols * rows, min(bx, by), bx + by, -n)
                if cols and rows and (best is None or key > best[0]):
                    best = (key, _place(PW, PH, cols, rows, w, h, bx, by, bottom))
    if best is None:
        raise ForgeError(f"a {w:g} x {h:g} mm card does not fit on {paper} paper inside the "
                         f"{SAFE:g} mm printer margin")
    return best[1]


def token_grid(paper: tuple[float, float], comp: Any, bleed: float, paper_name: str) -> Grid:
    """Tokens of one component on a page of the card sheets' size and orientation: their
    bleeds abut, every cut line stays `SAFE` mm inside the paper, and a component that needs
    less than a page gets a block just big enough for it, centred."""
    PW, PH = paper
    w, h = comp.size.width, comp.size.height
    bottom = SAFE + FOOTER + bleed
    cols = _count(PW - 2 * SAFE, w, 2 * bleed)
    rows = _count(PH - SAFE - bottom, h, 2 * bleed)
    if not cols or not rows:
        raise ForgeError(f"component {comp.id!r}: {w:g} x {h:g} mm does not fit on {paper_name} "
                         f"paper inside the {SAFE:g} mm printer margin")
    cols = min(cols, comp.count)
    rows = min(rows, math.ceil(comp.count / cols))
    cols = min(cols, math.ceil(comp.count / rows))  # as even a block as the rows allow
    return _place(PW, PH, cols, rows, w, h, bleed, bleed, bottom)


def _mark_room(g: Grid) -> dict[str, float]:
    """Length of the crop marks each side of the printed area can hold (0: none)."""
    x0, y0, x1, y1 = g.outer
    pw, ph = g.paper
    floor = SAFE if g.cols >= 3 else SAFE + FOOTER  # under fewer columns the footer is one piece
    room = {"left": x0 - GAP - SAFE, "right": pw - x1 - GAP - SAFE,
            "bottom": y0 - GAP - floor, "top": ph - y1 - GAP - SAFE}
    return {side: (min(MARK, r) if r >= MIN_MARK else 0.0) for side, r in room.items()}


def mark_segments(g: Grid) -> list[tuple[float, float, float, float]]:
    """Crop marks (x1, y1, x2, y2 mm), none touching any card's trim and none within `SAFE` mm
    of the paper's edge: every cut line gets a mark at each end where the margin outside the
    printed area has room for one; where one end has none, short marks in the gutters between
    neighbouring cards (where only bleed lies, cut away) guide the cut instead."""
    x0, y0, x1, y1 = g.outer
    room = _mark_room(g)
    segs: list[tuple[float, float, float, float]] = []
    # Vertical cut lines (x = a trim edge): marks above and below the printed area ...
    for x in g.xs():
        if room["top"]:
            segs.append((x, y1 + GAP, x, y1 + GAP + room["top"]))
        if room["bottom"]:
            segs.append((x, y0 - GAP, x, y0 - GAP - room["bottom"]))
    # ... horizontal cut lines (y = a trim edge): marks left and right of it.
    for y in g.ys():
        if room["left"]:
            segs.append((x0 - GAP, y, x0 - GAP - room["left"], y))
        if room["right"]:
            segs.append((x1 + GAP, y, x1 + GAP + room["right"], y))
    # Gutter marks: between neighbouring cards, 1 mm clear of either trim.
    inset = 1.0
    if not (room["left"] and room["right"]):
        for col in range(g.cols - 1):
            left = g.slot(col)[0] + g.w
            right = g.slot(col + 1)[0]
            if right - left >= 2 * inset + 1:
                for y in g.ys():
                    segs.append((left + inset, y, right - inset, y))
    if not (room["top"] and room["bottom"]):
        for row in range(g.rows - 1):
            top = g.slot(row * g.cols)[1]
            below = g.slot((row + 1) * g.cols)[1] + g.h
            if top - below >= 2 * inset + 1:
                for x in g.xs():
                    segs.append((x, below + inset, x, top - inset))
    return segs


def _crop_marks(c: Canvas, g: Grid) -> None:
    """The marks of `mark_segments`: a white line under a black hairline, so marks that fall on
    a card's dark bleed stay visible."""
    segs = mark_segments(g)
    path = " ".join(f"{a * PT:.2f} {b * PT:.2f} m {x * PT:.2f} {y * PT:.2f} l" for a, b, x, y in segs)
    c.addLiteral(f"q 0 J 1 1 1 RG 0.9 w {path} S 0 0 0 RG 0.25 w {path} S Q")


def _cut_lines(c: Canvas, paths: list[str]) -> None:
    """Tokens' cut lines (their shapes' outlines), white under a black hairline like the marks."""
    path = " ".join(paths)
    c.addLiteral(f"q 1 1 1 RG 0.9 w {path} S 0 0 0 RG 0.3 w {path} S Q")


def _fit_font(text: str, size: float, width: float, least: float = 5.0) -> float:
    tw = stringWidth(text, fonts.REGULAR, size)
    return size if tw <= width else max(least, size * width / tw)


def footer_spans(g: Grid | None, paper: tuple[float, float]) -> list[tuple[float, float]]:
    """Stretches (x0, x1 mm) of the footer band free of crop marks: under each column when
    marks come down between the columns, else the page's width inside the margin."""
    if g is None or g.cols < 3 or not _mark_room(g)["bottom"]:
        return [(SAFE, paper[0] - SAFE)]
    return [(g.slot(i)[0] + 1.5, g.slot(i)[0] + g.w - 1.5) for i in range(g.cols)]


def _lines(text: str, width: float, size: float) -> list[str]:
    """`text` in at most two lines no wider than `width` points (the second may shrink)."""
    if stringWidth(text, fonts.REGULAR, size) <= width:
        return [text]
    lines = _wrap(text, width, size)
    return lines if len(lines) <= 2 else [lines[0], " ".join(lines[1:])]


def _footer(c: Canvas, spans: list[tuple[float, float]], paper: tuple[float, float], lang: str,
            page_label: str, title: str) -> None:
    """The footer in the band from `SAFE` to `SAFE + FOOTER` mm, items inside `spans`: the
    100 % reminder and the printer margin (first span), the 50 mm scale bar (second; centre of a
    single span) and the page label (last span). All but the page label is a form drawn once
    per document and placed on every front page."""
    w = words(lang)
    low, high = SAFE + 0.6, SAFE + 3.0  # the two baselines, mm
    size = 6.0
    single = len(spans) == 1
    name = "footer" + "_".join(f"{a:.2f}-{b:.2f}" for a, b in spans)
    if not c._doc.hasForm(name):
        c.beginForm(name, 0, 0, paper[0] * PT, paper[1] * PT)
        c.setFillColor(color("#222222"))
        a, b = spans[0]
        width = ((b - a) if not single else (b - a) / 3 - 2) * PT
        for text, base in ((w["print"], high), (w["margin"], low)):
            c.setFont(fonts.REGULAR, _fit_font(text, size, width))
            c.drawString(a * PT, base * PT, text)
        # Scale bar: exactly SCALE_BAR mm, a tick every 10 mm, its length written beside it.
        label = w["bar"].format(n=f"{SCALE_BAR:g}")
        label_w = stringWidth(label, fonts.REGULAR, size) / PT
        a, b = spans[1] if len(spans) > 1 else (paper[0] / 2 - 30, paper[0] / 2 + 30)
        sx = (a + b - SCALE_BAR - 1.2 - label_w) / 2
        bar_y = SAFE + 2.2
        c.setStrokeColor(color("#000000"))
        c.setLineWidth(0.35)
        c.line(sx * PT, bar_y * PT, (sx + SCALE_BAR) * PT, bar_y * PT)
        for k in range(int(SCALE_BAR // 10) + 1):
            x = sx + k * 10
            c.line(x * PT, (bar_y - 1.0) * PT, x * PT, (bar_y + (2.0 if k % 5 == 0 else 1.2)) * PT)
        c.setFont(fonts.REGULAR, size)
        c.drawString((sx + SCALE_BAR + 1.2) * PT, (bar_y - 0.7) * PT, label)
        end_form(c)
    c.doForm(name)
    c.saveState()
    c.setFillColor(color("#222222"))
    a, b = spans[-1]
    width = ((b - a) if not single else (b - a) / 3 - 2) * PT
    first, second = f"{title}", page_label
    for text, base in ((first, high), (second, low)):
        c.setFont(fonts.REGULAR, _fit_font(text, size, width))
        c.drawRightString(b * PT, base * PT, text)
    c.restoreState()


def _back_label(c: Canvas, g: Grid, text: str, duplex: str, offset: tuple[float, float]) -> None:
    """A back page's label, in whichever of the bottom or top margin the backs leave free."""
    pw, ph = g.paper
    ys = [g.mirrored(i, duplex, offset)[1] for i in range(g.per_page)]
    low, high = min(ys) - g.by, max(ys) + g.h + g.by
    base = SAFE + 0.6 if low - SAFE >= 2.6 else (ph - SAFE - 2.0 if ph - high - SAFE >= 2.6 else SAFE + 0.6)
    c.saveState()
    c.setFont(fonts.REGULAR, 5)
    c.setFillColor(color("#888888"))
    c.drawCentredString(pw / 2 * PT, base * PT, text)
    c.restoreState()


def _alignment(c: Canvas, g: Grid, lang: str, duplex: str, offset: tuple[float, float]) -> None:
    """A front/back pair of pages with trim frames and crosses at the card centres."""
    w = words(lang)
    for side in ("front", "back"):
        c.setStrokeColor(color("#000000"))
        c.setLineWidth(0.3)
        for i in range(g.per_page):
            x, y = g.slot(i) if side == "front" else g.mirrored(i, duplex, offset)
            c.rect(x * PT, y * PT, g.w * PT, g.h * PT, stroke=1, fill=0)
            cx, cy = x + g.w / 2, y + g.h / 2
            for r in (10, 5):
                c.circle(cx * PT, cy * PT, r * PT, stroke=1, fill=0)
            c.line((cx - 14) * PT, cy * PT, (cx + 14) * PT, cy * PT)
            c.line(cx * PT, (cy - 14) * PT, cx * PT, (cy + 14) * PT)
        if side == "front":
            _crop_marks(c, g)
            c.setFont(fonts.REGULAR, 7)
            text = c.beginText((g.x0 + 2) * PT, (g.slot(0)[1] + g.h - 4) * PT)
            text.setFont(fonts.REGULAR, 6.5)
            for line in _wrap(w["align"], (g.w - 4) * PT, 6.5):
                text.textLine(line)
            c.drawText(text)
        else:
            c.setFont(fonts.REGULAR, 7)
            x, y = g.mirrored(0, duplex, offset)
            c.drawString((x + 2) * PT, (y + g.h - 4) * PT, w["align_back"])
        c.showPage()


def _wrap(text: str, width: float, size: float) -> list[str]:
    """Greedy lines of `text` no wider than `width` points at `size` in the regular face."""
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if line and stringWidth(candidate, fonts.REGULAR, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return lines + [line] if line else lines


def pnp_pdf(game: Any, opts: BuildOptions, paper: str) -> bytes:
    """Fronts and backs on interleaved pages, backs mirrored for duplex; then the printed
    components (tokens, counters, boards), each on sheets of its own, fronts and backs alike."""
    size = game.manifest.card_size
    g = grid(paper, size.width, size.height, opts.home)
    buf = io.BytesIO()
    c = new_canvas(buf, g.pagesize, game, words(opts.lang)["pnp"].format(paper=paper.upper()), opts.lang)
    cards = copies(game)
    faces = Faces(c, game, opts.lang, g.bx, g.by, cards)
    w = words(opts.lang)
    title = game.manifest.title[opts.lang]
    comps = tokens.printed_components(game)
    token_bleed = HOME_TOKEN_BLEED if opts.home else TOKEN_BLEED
    grids = [token_grid(g.paper, comp, token_bleed, paper) for comp in comps]
    sheets = math.ceil(len(cards) / g.per_page) + sum(
        math.ceil(comp.count / tg.per_page) for comp, tg in zip(comps, grids))
    if opts.alignment_page:
        _alignment(c, g, opts.lang, opts.duplex, opts.back_offset)
    spans = footer_spans(g, g.paper)
    n = 0
    for s in range(math.ceil(len(cards) / g.per_page)):
        n += 1
        chunk = cards[s * g.per_page:(s + 1) * g.per_page]
        for i, card in enumerate(chunk):
            faces.place(faces.front(card), *g.slot(i))
            if opts.proof:
                _proof_id(c, card.id, *g.slot(i), g.w)
        _crop_marks(c, g)
        _footer(c, spans, g.paper, opts.lang, f"{w['page'].format(n=n, of=sheets)} · {w['fronts']}", title)
        c.showPage()
        for i, card in enumerate(chunk):
            faces.place(faces.back(card), *g.mirrored(i, opts.duplex, opts.back_offset))
        _back_label(c, g, f"{title} · {w['page'].format(n=n, of=sheets)} · {w['backs']}",
                    opts.duplex, opts.back_offset)
        c.showPage()
        opts.advance(len(chunk))
    for comp, tg in zip(comps, grids):
        made = list(tokens.copies(comp))
        name = comp.name[opts.lang]
        tspans = footer_spans(None, tg.paper)
        for s in range(math.ceil(len(made) / tg.per_page)):
            n += 1
            chunk = made[s * tg.per_page:(s + 1) * tg.per_page]
            outlines = []
            for i, design in enumerate(chunk):
                faces.place(faces.token(comp, design, "front", token_bleed), *tg.slot(i))
                outlines.append(tokens.outline(comp, *tg.slot(i)))
            _cut_lines(c, outlines)
            label = f"{name} ×{comp.count} · {w['page'].format(n=n, of=sheets)} · {w['fronts']}"
            _footer(c, tspans, tg.paper, opts.lang, label, title)
            c.showPage()
            for i, design in enumerate(chunk):
                faces.place(faces.token(comp, design, "back", token_bleed),
                            *tg.mirrored(i, opts.duplex, opts.back_offset))
            _back_label(c, tg, f"{title} · {name} · {w['page'].format(n=n, of=sheets)} · {w['backs']}",
                        opts.duplex, opts.back_offset)
            c.showPage()
            opts.advance(len(chunk))
    c.save()
    return buf.getvalue()


@product("pnp", steps=lambda game, opts: len(opts.paper) * pieces(game))
def pnp(game: Any, opts: BuildOptions) -> dict[str, bytes]:
    """`pnp-a4.pdf`, `pnp-letter.pdf`; in home mode `pnp-home-a4.pdf` ... (a home sheet has no
    bleed: a file of its own, never one that replaces the sheet with bleed)."""
    stem = "pnp-home" if opts.home else "pnp"
    return {f"{stem}-{paper}.pdf": pnp_pdf(game, opts, paper) for paper in opts.paper}


# --------------------------------------------------------------------------------------------
# Print shop


def _boxed_canvas(buf: io.BytesIO, game: Any, opts: BuildOptions, w: float, h: float, bleed: float,
                  what: str, bleed_y: float | None = None) -> Canvas:
    """A print-shop canvas: pages of trim w x h mm plus `bleed` mm on the left and right and
    `bleed_y` (default: the same) above and below, with the TrimBox that much inside the
    BleedBox (= the page)."""
    by = bleed if bleed_y is None else bleed_y
    pw, ph = w + 2 * bleed, h + 2 * by
    c = new_canvas(buf, (pw * PT, ph * PT), game, what, opts.lang, cmyk=not opts.rgb)
    c.setTrimBox((bleed * PT, by * PT, (bleed + w) * PT, (by + h) * PT))
    c.setBleedBox((0, 0, pw * PT, ph * PT))
    return c


def _in_order(front: Any, back: Any, opts: BuildOptions) -> tuple[Any, Any]:
    """A front and its back in print-shop page order: the back first where the preset's vendor
    asks for it (DriveThruCards) or `--backs-first` does."""
    backs_first = opts.backs_first or presets.preset(opts.preset).backs_first
    return (back, front) if backs_first else (front, back)


def printshop_pdf(game: Any, opts: BuildOptions, cards: list[Any], what: str = "") -> bytes:
    """`cards` one side per page at trim + the preset's bleed (`Preset.card_bleed`), TrimBox and BleedBox set, each
    card's front and back together in the preset's order. DeviceCMYK with a FOGRA39
    OutputIntent, or RGB with `opts.rgb`."""
    size = game.manifest.card_size
    bx, by = presets.preset(opts.preset).card_bleed(size.width, size.height)
    buf = io.BytesIO()
    c = _boxed_canvas(buf, game, opts, size.width, size.height, bx, what or words(opts.lang)["printshop"], by)
    faces = Faces(c, game, opts.lang, bx, by, cards)
    for card in cards:
        for name, proof in _in_order((faces.front(card), card.id), (faces.back(card), None), opts):
            faces.place(name, bx, by)
            if proof and opts.proof:
                _proof_id(c, proof, bx, by, size.width)
            c.showPage()
        opts.advance()
    c.save()
    return buf.getvalue()


def component_pdf(game: Any, comp: Any, opts: BuildOptions) -> bytes:
    """A printed component's print-shop file: one side of one copy per page at trim + the
    preset's bleed (the shape's bounding box is the TrimBox; its shape and count are in the
    subject)."""
    bleed = presets.preset(opts.preset).bleed
    buf = io.BytesIO()
    c = _boxed_canvas(buf, game, opts, comp.size.width, comp.size.height, bleed,
                      f"{words(opts.lang)['printshop']}: {comp.name[opts.lang]}")
    c.setSubject(tokens.describe(comp, opts.lang))
    faces = Faces(c, game, opts.lang, bleed, bleed, [])
    for design in tokens.copies(comp):
        for name in _in_order(faces.token(comp, design, "front", bleed),
                              faces.token(comp, design, "back", bleed), opts):
            faces.place(name, bleed, bleed)
            c.showPage()
        opts.advance()
    c.save()
    return buf.getvalue()


@product("printshop", steps=lambda game, opts: pieces(game))
def printshop(game: Any, opts: BuildOptions) -> dict[str, bytes]:
    """`printshop.pdf` (every card) and `printshop-<kind>-<id>.pdf` per printed component; with
    a vendor's preset, `printshop-<preset>-deck-<deck>.pdf` per deck (its cards, copies
    included) and `printshop-<preset>-<kind>-<id>.pdf`, so presets never replace each other's
    files; `-rgb` before `.pdf` for the screen version."""
    chosen = presets.preset(opts.preset)
    stem, tail = chosen.shop_stem, ("-rgb.pdf" if opts.rgb else ".pdf")
    if chosen.per_deck:
        decks: dict[str, list[Any]] = {}
        for card in copies(game):
            decks.setdefault(deck_name(game, card), []).append(card)
        files = {f"{stem}-deck-{deck}{tail}": printshop_pdf(game, opts, cards, f"{words(opts.lang)['printshop']}: {deck}")
                 for deck, cards in decks.items()}
    else:
        files = {f"{stem}{tail}": printshop_pdf(game, opts, copies(game))}
    for comp in tokens.printed_components(game):
        files[f"{stem}-{comp.kind}-{comp.id}{tail}"] = component_pdf(game, comp, opts)
    return files


# --------------------------------------------------------------------------------------------
# PNG per card


def png_faces(game: Any, per_deck: bool) -> Iterator[tuple[str, str, Any]]:
    """(file name, side, card) of each design's front and each deck's back: `<id>.png` and
    `back-<deck>.png` in one folder, or `<deck>/<id>.png` and `<deck>/back.png`."""
    seen = set()
    for card in game.cards:
        deck = deck_name(game, card)
        yield (f"{deck}/{card.id}.png" if per_deck else f"{card.id}.png"), "front", card
        if deck not in seen:
            seen.add(deck)
            yield (f"{deck}/back.png" if per_deck else f"back-{deck}.png"), "back", card


def _copies_csv(game: Any, lang: str) -> dict[str, bytes]:
    """Per deck folder, `cards.csv`: each front's file, copies and name, for the vendor's
    upload form (which asks how many of each face to print)."""
    rows: dict[str, list[list[str]]] = {}
    for card in game.cards:
        rows.setdefault(deck_name(game, card), [["file", "copies", "name"]]).append(
            [f"{card.id}.png", str(card.copies), card.name[lang]])
    files = {}
    for deck, table in rows.items():
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(table)
        files[f"{deck}/cards.csv"] = buf.getvalue().encode("utf-8")
    return files


def png_pdf(game: Any, lang: str, size_px: tuple[int, int], names: list[tuple[str, str, Any]],
            dpi: float = 300) -> bytes:
    """One page per (file, side, card) of `names`: the face at trim size, centred on a page of
    `size_px` pixels at `dpi`, the rest of the page its bleed."""
    size = game.manifest.card_size
    pw, ph, bx, by = presets.bleed_page(size.width, size.height, size_px, dpi)
    buf = io.BytesIO()
    c = new_canvas(buf, (pw * PT, ph * PT), game, "png", lang)
    faces = Faces(c, game, lang, bx, by, game.cards)
    for _, side, card in names:
        faces.place(faces.front(card) if side == "front" else faces.back(card), bx, by)
        c.showPage()
    c.save()
    return buf.getvalue()


@product("png", steps=lambda game, opts: len(list(png_faces(game, False))))
def png(game: Any, opts: BuildOptions) -> dict[str, bytes]:
    """Each design's front and each deck's back as a PNG of the preset's exact size with bleed,
    rasterised by PDFium (`forge.raster`): no other program needed, a step of progress each.
    Files go to `png/` (generic) or `png-<preset>/`, one folder per deck with `cards.csv` where
    the vendor wants that."""
    chosen = presets.preset(opts.preset)
    size = game.manifest.card_size
    px = chosen.pixels(size.width, size.height)
    names = list(png_faces(game, chosen.per_deck))
    pdf = png_pdf(game, opts.lang, px, names, chosen.dpi)
    files: dict[str, bytes] = {}
    for (name, _, _), data in zip(names, raster.png_pages(pdf, px, compress=raster.FAST)):
        files[name] = data
        opts.advance()
    if chosen.per_deck:
        files.update(_copies_csv(game, opts.lang))
    return {f"{chosen.folder}/{name}": data for name, data in files.items()}
