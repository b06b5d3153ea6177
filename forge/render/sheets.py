"""Products made of card faces: PnP sheets, the print-shop file and per-card PNGs.

Every distinct face (a card's front, a deck's back) is laid out once and drawn once per PDF as
a Form XObject, clipped to the bleed that PDF uses; copies and pages only place that form. This
keeps files small and the A4 build of a game well under a second.
"""
from __future__ import annotations

import io
import math
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..build import BuildOptions, product
from ..errors import ForgeError
from . import fonts, layout
from .draw import art_path, color, draw_face
from .forms import end_form
from .layout import PT

PAPERS = {"a4": A4, "letter": LETTER}
BLEED = 3.0  # mm, print-shop and the most a PnP sheet gives
MARK = 3.5  # mm, crop-mark length
MARGIN = 4.0  # mm, least room kept outside the bleed for crop marks
FOOTER = 6.0  # mm, least room below the grid for the 100 % line and scale bar
SCALE_BAR = 50.0  # mm
#: Print-on-demand pixel sizes for a trim size (mm): The Game Crafter poker cards.
PNG_PRESETS = {(63.0, 88.0): (825, 1125), (63.5, 88.9): (825, 1125)}

_WORDS = {
    "uk": {"print": "Друкуйте в масштабі 100 % (без «припасувати до сторінки»)",
           "bar": "{n} мм", "fronts": "лицьовий бік", "backs": "зворот", "page": "аркуш {n} з {of}",
           "align": "Тестова сторінка суміщення: надрукуйте двобічно й подивіться на світло. "
                    "Якщо хрестики не збігаються, виміряйте зсув і задайте --back-offset X,Y (мм).",
           "align_back": "Зворот тестової сторінки"},
    "en": {"print": "Print at 100% (no “fit to page”)", "bar": "{n} mm", "fronts": "fronts",
           "backs": "backs", "page": "sheet {n} of {of}",
           "align": "Alignment test: print duplex and hold to the light. If the crosses do not "
                    "meet, measure the shift and pass --back-offset X,Y (mm).",
           "align_back": "Alignment test, back"},
}


def words(lang: str) -> dict[str, str]:
    return _WORDS.get(lang, _WORDS["en"])


def new_canvas(buf: io.BytesIO, pagesize: tuple[float, float], game: Any, what: str, lang: str) -> Canvas:
    """A deterministic canvas whose only font is our embedded Roboto (no base-14 reference)."""
    fonts.register()  # (and binary streams for every document: see `fonts.register`)
    c = Canvas(buf, pagesize=pagesize, invariant=1, initialFontName=fonts.REGULAR,
               initialFontSize=8, pageCompression=1)
    c.setTitle(f"{game.manifest.title[lang]}: {what}")
    c.setAuthor("Card Forge")
    c.setCreator("Card Forge")
    c.setSubject(f"{game.id} {lang}")
    return c


class Faces:
    """Forms for the faces used in one PDF, each drawn once and clipped to (bx, by) of bleed.
    Every face of `cards` is laid out (`layout.lay_out`) before the first is drawn."""

    def __init__(self, c: Canvas, game: Any, lang: str, bx: float, by: float, cards: list[Any]):
        self.c, self.game, self.lang, self.bx, self.by = c, game, lang, bx, by
        self.names: dict[tuple, str] = {}
        layout.lay_out(game, cards, lang)

    def _form(self, key: tuple, face: layout.Face, art: Path | None) -> str:
        name = self.names.get(key)
        if name is None:
            name = f"F{len(self.names)}"
            c = self.c
            c.beginForm(name, lowerx=-self.bx * PT, lowery=-self.by * PT,
                        upperx=(face.width + self.bx) * PT, uppery=(face.height + self.by) * PT)
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

    def place(self, name: str, x_mm: float, y_mm: float) -> None:
        """Place a form with its trim's lower-left corner at (x, y) mm on the page."""
        c = self.c
        c.addLiteral(f"q 1 0 0 1 {x_mm * PT:.3f} {y_mm * PT:.3f} cm")
        c.doForm(name)
        c.addLiteral("Q")


def copies(game: Any) -> list[Any]:
    """Every physical card, copies included, in data order."""
    return [card for card in game.cards for _ in range(card.copies)]


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


#: Least room between the printed area and the paper's edge (mm) with full bleed.
EDGE = 1.0
#: Room a crop mark needs outside the printed area (gap + mark).
MARK_ROOM = 0.8 + MARK


def grid(paper: str, w: float, h: float, home: bool) -> Grid:
    """The sheet layout. Home mode: no bleed, cards abut, as many as fit with room for marks and
    the footer. Otherwise every card keeps its full 3 mm bleed on every side, cards (with bleed)
    abut, and the orientation holding the most cards wins (portrait on a tie): A4 takes 3x3 poker
    cards (207 x 282 mm), Letter 4x2 in landscape."""
    pw, ph = (v / PT for v in PAPERS[paper])
    if home:
        cols = int((pw - 2 * MARGIN) // w)
        rows = int((ph - MARGIN - FOOTER) // h)
        if cols < 1 or rows < 1:
            raise ForgeError(f"a {w}x{h} mm card does not fit on {paper} paper")
        slack = ph - MARGIN - FOOTER - rows * h
        return Grid((pw, ph), cols, rows, 0.0, 0.0, (pw - cols * w) / 2, FOOTER + slack / 2, w, h)
    cw, ch = w + 2 * BLEED, h + 2 * BLEED
    best = None
    for PW, PH in ((pw, ph), (ph, pw)):
        cols = int((PW - 2 * EDGE) // cw)
        rows = int((PH - 2 * EDGE - FOOTER) // ch)
        if cols >= 1 and rows >= 1 and (best is None or cols * rows > best[2] * best[3]):
            best = (PW, PH, cols, rows)
    if best is None:
        raise ForgeError(f"a {w}x{h} mm card with {BLEED} mm bleed does not fit on {paper} paper")
    PW, PH, cols, rows = best
    spare = PH - rows * ch
    bottom = max(spare * 0.6, min(spare - EDGE, FOOTER + MARK_ROOM / 2))  # the footer's side
    x0 = (PW - cols * cw) / 2 + BLEED
    return Grid((PW, PH), cols, rows, BLEED, BLEED, x0, bottom + BLEED, w, h)


def mark_segments(g: Grid) -> list[tuple[float, float, float, float]]:
    """Crop marks (x1, y1, x2, y2 mm), none touching any card's trim: every cut line gets a mark
    at both ends in the page margin where the margin has room for one, else short marks in the
    gutters between neighbouring cards, where only bleed lies (cut away)."""
    x0, y0, x1, y1 = g.outer
    pw, ph = g.paper
    gap = 0.8
    room = {"left": x0 - EDGE, "right": pw - x1 - EDGE, "bottom": y0 - EDGE, "top": ph - y1 - EDGE}
    segs: list[tuple[float, float, float, float]] = []

    def length(side: str) -> float:
        return min(MARK, room[side] - gap)

    # Vertical cut lines (x = a trim edge): marks above and below the printed area ...
    vertical_outside = room["top"] >= gap + 2 and room["bottom"] >= gap + 2
    for x in g.xs():
        if vertical_outside:
            segs.append((x, y1 + gap, x, y1 + gap + length("top")))
            segs.append((x, y0 - gap, x, y0 - gap - length("bottom")))
    # ... horizontal cut lines (y = a trim edge): marks left and right of it.
    horizontal_outside = room["left"] >= gap + 2 and room["right"] >= gap + 2
    for y in g.ys():
        if horizontal_outside:
            segs.append((x0 - gap, y, x0 - gap - length("left"), y))
            segs.append((x1 + gap, y, x1 + gap + length("right"), y))
    # Gutter marks: between neighbouring cards, 1 mm clear of either trim.
    inset = 1.0
    if not horizontal_outside or g.bx == 0:
        for col in range(g.cols - 1):
            left = g.slot(col)[0] + g.w
            right = g.slot(col + 1)[0]
            if right - left >= 2 * inset + 1:
                for y in g.ys():
                    segs.append((left + inset, y, right - inset, y))
    if not vertical_outside or g.by == 0:
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


def _fit_font(text: str, size: float, width: float) -> float:
    tw = stringWidth(text, fonts.REGULAR, size)
    return size if tw <= width else size * width / tw


def _footer(c: Canvas, g: Grid, lang: str, page_label: str, title: str) -> None:
    """The 100 % reminder, a measured scale bar and the page label in the bottom margin, each
    within one column's span (between the crop marks), clear of the marks' ends. The reminder
    and the bar are the same on every page: a form drawn once per document, placed per page."""
    w = words(lang)
    x0, y0, _, _ = g.outer
    base = max(EDGE + 1.2, y0 - 0.8 - MARK + 0.4)  # baseline level with the marks' lower half
    cols = [g.slot(i)[0] for i in range(g.cols)]
    span = g.w - 3  # usable width under a column
    mid = lambda i: (cols[min(i, len(cols) - 1)] + g.w / 2) * PT  # noqa: E731
    name = f"footer{base:.3f}"
    if not c._doc.hasForm(name):
        c.beginForm(name, 0, 0, g.paper[0] * PT, g.paper[1] * PT)
        c.setFillColor(color("#222222"))
        c.setFont(fonts.REGULAR, _fit_font(w["print"], 6, span * PT))
        c.drawCentredString(mid(0), base * PT, w["print"])
        # Scale bar: SCALE_BAR mm with a tick every 10 mm, measured on the printout.
        c.setFont(fonts.REGULAR, 6)
        bar = min(SCALE_BAR, g.w - 14)
        sx = cols[min(1, len(cols) - 1)] + (g.w - bar - 9) / 2
        c.setStrokeColor(color("#222222"))
        c.setLineWidth(0.35)
        c.line(sx * PT, (base + 0.6) * PT, (sx + bar) * PT, (base + 0.6) * PT)
        for k in range(int(bar // 10) + 1):
            x = sx + k * 10
            c.line(x * PT, (base - 0.2) * PT, x * PT, (base + (1.6 if k % 5 == 0 else 1.1)) * PT)
        c.drawString((sx + bar + 1.2) * PT, base * PT, w["bar"].format(n=int(bar)))
        end_form(c)
    c.doForm(name)
    c.saveState()
    c.setFillColor(color("#222222"))
    label = f"{title} · {page_label}"
    c.setFont(fonts.REGULAR, _fit_font(label, 6, span * PT))
    c.drawCentredString(mid(2), base * PT, label)
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
    """Fronts and backs on interleaved pages, backs mirrored for duplex."""
    size = game.manifest.card_size
    g = grid(paper, size.width, size.height, opts.home)
    buf = io.BytesIO()
    c = new_canvas(buf, g.pagesize, game, f"print and play ({paper.upper()})", opts.lang)
    cards = copies(game)
    faces = Faces(c, game, opts.lang, g.bx, g.by, cards)
    w = words(opts.lang)
    title = game.manifest.title[opts.lang]
    if opts.alignment_page:
        _alignment(c, g, opts.lang, opts.duplex, opts.back_offset)
    sheets = math.ceil(len(cards) / g.per_page)
    for s in range(sheets):
        chunk = cards[s * g.per_page:(s + 1) * g.per_page]
        for i, card in enumerate(chunk):
            faces.place(faces.front(card), *g.slot(i))
        _crop_marks(c, g)
        _footer(c, g, opts.lang, f"{w['page'].format(n=s + 1, of=sheets)} · {w['fronts']}", title)
        c.showPage()
        for i, card in enumerate(chunk):
            faces.place(faces.back(card), *g.mirrored(i, opts.duplex, opts.back_offset))
        c.setFont(fonts.REGULAR, 5)
        c.setFillColor(color("#888888"))
        c.drawCentredString(g.paper[0] / 2 * PT, 1.5 * PT,
                            f"{title} · {w['page'].format(n=s + 1, of=sheets)} · {w['backs']}")
        c.showPage()
    c.save()
    return buf.getvalue()


@product("pnp")
def pnp(game: Any, opts: BuildOptions) -> dict[str, bytes]:
    return {f"pnp-{paper}.pdf": pnp_pdf(game, opts, paper) for paper in opts.paper}


# --------------------------------------------------------------------------------------------
# Print shop


def printshop_pdf(game: Any, opts: BuildOptions) -> bytes:
    """One side per page at trim + 3 mm bleed, TrimBox and BleedBox set; front/back pairs."""
    size = game.manifest.card_size
    pw, ph = size.width + 2 * BLEED, size.height + 2 * BLEED
    buf = io.BytesIO()
    c = new_canvas(buf, (pw * PT, ph * PT), game, "print shop", opts.lang)
    c.setTrimBox((BLEED * PT, BLEED * PT, (BLEED + size.width) * PT, (BLEED + size.height) * PT))
    c.setBleedBox((0, 0, pw * PT, ph * PT))
    cards = copies(game)
    faces = Faces(c, game, opts.lang, BLEED, BLEED, cards)
    for card in cards:
        sides = (faces.front(card), faces.back(card))
        for name in (reversed(sides) if opts.backs_first else sides):
            faces.place(name, BLEED, BLEED)
            c.showPage()
    c.save()
    return buf.getvalue()


@product("printshop")
def printshop(game: Any, opts: BuildOptions) -> dict[str, bytes]:
    return {"printshop.pdf": printshop_pdf(game, opts)}


# --------------------------------------------------------------------------------------------
# PNG per card


def png_size(w: float, h: float) -> tuple[int, int]:
    """Pixels at 300 dpi for trim + 3 mm bleed, or the print-on-demand preset for the size."""
    preset = PNG_PRESETS.get((float(w), float(h)))
    if preset:
        return preset
    return round((w + 2 * BLEED) / 25.4 * 300), round((h + 2 * BLEED) / 25.4 * 300)


def _png_faces(game: Any) -> Iterator[tuple[str, str, Any]]:
    seen = set()
    for card in game.cards:
        yield f"{card.id}.png", "front", card
        key = layout.back_key(game, card)
        if key not in seen:
            seen.add(key)
            yield f"back-{key.replace('/', '-')}.png", "back", card


@product("png", default=False)
def png(game: Any, opts: BuildOptions) -> dict[str, bytes]:
    """Each design's front and each deck's back as a 300 dpi PNG with bleed (poppler's pdftoppm)."""
    exe = shutil.which("pdftoppm")
    if exe is None:
        raise ForgeError("the png product needs pdftoppm (poppler-utils) on the PATH")
    size = game.manifest.card_size
    px, py = png_size(size.width, size.height)
    pw, ph = px / 300 * 25.4, py / 300 * 25.4
    bx, by = (pw - size.width) / 2, (ph - size.height) / 2
    buf = io.BytesIO()
    c = new_canvas(buf, (pw * PT, ph * PT), game, "png", opts.lang)
    faces = Faces(c, game, opts.lang, bx, by, game.cards)
    names = []
    for file_name, side, card in _png_faces(game):
        faces.place(faces.front(card) if side == "front" else faces.back(card), bx, by)
        c.showPage()
        names.append(file_name)
    c.save()
    out: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "cards.pdf"
        pdf.write_bytes(buf.getvalue())
        subprocess.run([exe, "-png", "-r", "300", "-scale-to-x", str(px), "-scale-to-y", str(py),
                        str(pdf), str(Path(tmp) / "p")], check=True, capture_output=True)
        pages = sorted(Path(tmp).glob("p-*.png"), key=lambda p: int(p.stem.split("-")[-1]))
        for file_name, page in zip(names, pages):
            out[f"png/{file_name}"] = page.read_bytes()
    return out
