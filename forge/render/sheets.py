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

from reportlab import rl_config
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen.canvas import Canvas

from ..build import BuildOptions, product
from ..errors import ForgeError
from . import fonts, layout
from .draw import art_path, color, draw_face
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
    fonts.register()
    rl_config.useA85 = 0  # binary streams: ASCII85 in pure Python costs more than the drawing
    c = Canvas(buf, pagesize=pagesize, invariant=1, initialFontName=fonts.REGULAR,
               initialFontSize=8, pageCompression=1)
    c.setTitle(f"{game.manifest.title[lang]}: {what}")
    c.setAuthor("Card Forge")
    c.setCreator("Card Forge")
    c.setSubject(f"{game.id} {lang}")
    return c


class Faces:
    """Forms for the faces used in one PDF, each drawn once and clipped to (bx, by) of bleed."""

    def __init__(self, c: Canvas, game: Any, lang: str, bx: float, by: float):
        self.c, self.game, self.lang, self.bx, self.by = c, game, lang, bx, by
        self.names: dict[tuple, str] = {}

    def _form(self, key: tuple, face: layout.Face, art: Path | None) -> str:
        name = self.names.get(key)
        if name is None:
            name = f"F{len(self.names)}"
            c = self.c
            c.beginForm(name, lowerx=-self.bx * PT, lowery=-self.by * PT,
                        upperx=(face.width + self.bx) * PT, uppery=(face.height + self.by) * PT)
            draw_face(c, face, art)
            c.endForm()
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
        c.saveState()
        c.translate(x_mm * PT, y_mm * PT)
        c.doForm(name)
        c.restoreState()


def copies(game: Any) -> list[Any]:
    """Every physical card, copies included, in data order."""
    return [card for card in game.cards for _ in range(card.copies)]


# --------------------------------------------------------------------------------------------
# PnP sheets


@dataclass(frozen=True)
class Grid:
    paper: tuple[float, float]  # mm
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

    def slot(self, i: int) -> tuple[float, float]:
        """Lower-left trim corner of slot i (row-major from the top-left)."""
        r, col = divmod(i, self.cols)
        x = self.x0 + col * (self.w + 2 * self.bx)
        y = self.y0 + (self.rows - 1 - r) * (self.h + 2 * self.by)
        return x, y

    def mirrored(self, i: int, duplex: str, offset: tuple[float, float]) -> tuple[float, float]:
        """Where the back of slot i goes so it meets its front when printed duplex."""
        x, y = self.slot(i)
        pw, ph = self.paper
        if duplex == "short":
            y = ph - y - self.h
        else:
            x = pw - x - self.w
        return x + offset[0], y + offset[1]

    def xs(self) -> list[float]:
        return sorted({x for i in range(self.cols) for x in (self.slot(i)[0], self.slot(i)[0] + self.w)})

    def ys(self) -> list[float]:
        return sorted({y for i in range(0, self.per_page, self.cols)
                       for y in (self.slot(i)[1], self.slot(i)[1] + self.h)})


def grid(paper: str, w: float, h: float, home: bool) -> Grid:
    """As many cards as fit with room for marks and footer; then as much bleed as fits (<= 3 mm)."""
    pw, ph = (v / PT for v in PAPERS[paper])
    cols = int((pw - 2 * MARGIN) // w)
    rows = int((ph - MARGIN - FOOTER) // h)
    if cols < 1 or rows < 1:
        raise ForgeError(f"a {w}x{h} mm card does not fit on {paper} paper")
    if home:
        bx = by = 0.0
    else:
        bx = max(0.0, min(BLEED, (pw - 2 * MARGIN - cols * w) / (2 * cols)))
        by = max(0.0, min(BLEED, (ph - MARGIN - FOOTER - rows * h) / (2 * rows)))
    gw = cols * w + 2 * bx * cols
    gh = rows * h + 2 * by * rows
    x0 = (pw - gw) / 2 + bx
    slack = ph - MARGIN - FOOTER - gh
    y0 = FOOTER + slack / 2 + by
    return Grid((pw, ph), cols, rows, bx, by, x0, y0, w, h)


def _crop_marks(c: Canvas, g: Grid) -> None:
    """Short hairlines outside the printed area, in line with every trim edge."""
    c.saveState()
    c.setStrokeColor(color("#000000"))
    c.setLineWidth(0.25)
    left, right = g.x0 - g.bx, g.x0 - g.bx + g.cols * (g.w + 2 * g.bx)
    bottom, top = g.y0 - g.by, g.y0 - g.by + g.rows * (g.h + 2 * g.by)
    for x in g.xs():
        c.line(x * PT, (top + 0.8) * PT, x * PT, (top + 0.8 + MARK) * PT)
        c.line(x * PT, (bottom - 0.8) * PT, x * PT, (bottom - 0.8 - MARK) * PT)
    for y in g.ys():
        c.line((left - 0.8) * PT, y * PT, (left - 0.8 - MARK) * PT, y * PT)
        c.line((right + 0.8) * PT, y * PT, (right + 0.8 + MARK) * PT, y * PT)
    c.restoreState()


def _footer(c: Canvas, g: Grid, lang: str, page_label: str, title: str) -> None:
    """The 100 % reminder, a measured scale bar and the page label, between the crop marks."""
    w = words(lang)
    bottom = g.y0 - g.by
    base = max(1.2, bottom - 0.8 - MARK - 0.2 - 2.2)  # baseline below the marks when there is room
    base = min(base, bottom - 2.6)
    cols = [g.slot(i)[0] for i in range(g.cols)]
    c.saveState()
    c.setFillColor(color("#222222"))
    c.setFont(fonts.REGULAR, 6)
    mid = lambda i: (cols[min(i, len(cols) - 1)] + g.w / 2) * PT  # noqa: E731
    c.drawCentredString(mid(0), base * PT, w["print"])
    # Scale bar: SCALE_BAR mm with a tick every 10 mm, measured on the printout.
    bar = min(SCALE_BAR, g.w - 14)
    sx = cols[min(1, len(cols) - 1)] + (g.w - bar - 9) / 2
    c.setStrokeColor(color("#222222"))
    c.setLineWidth(0.35)
    c.line(sx * PT, (base + 0.6) * PT, (sx + bar) * PT, (base + 0.6) * PT)
    for k in range(int(bar // 10) + 1):
        x = sx + k * 10
        c.line(x * PT, (base - 0.2) * PT, x * PT, (base + (1.6 if k % 5 == 0 else 1.1)) * PT)
    c.drawString((sx + bar + 1.2) * PT, base * PT, w["bar"].format(n=int(bar)))
    c.drawCentredString(mid(2), base * PT, f"{title} · {page_label}")
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
            for line in _wrap(w["align"], 70):
                text.textLine(line)
            c.drawText(text)
        else:
            c.setFont(fonts.REGULAR, 7)
            x, y = g.mirrored(0, duplex, offset)
            c.drawString((x + 2) * PT, (y + g.h - 4) * PT, w["align_back"])
        c.showPage()


def _wrap(text: str, n: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > n:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + [line] if line else lines


def pnp_pdf(game: Any, opts: BuildOptions, paper: str) -> bytes:
    """Fronts and backs on interleaved pages, backs mirrored for duplex."""
    size = game.manifest.card_size
    g = grid(paper, size.width, size.height, opts.home)
    buf = io.BytesIO()
    c = new_canvas(buf, PAPERS[paper], game, f"print and play ({paper.upper()})", opts.lang)
    faces = Faces(c, game, opts.lang, g.bx, g.by)
    w = words(opts.lang)
    title = game.manifest.title[opts.lang]
    if opts.alignment_page:
        _alignment(c, g, opts.lang, opts.duplex, opts.back_offset)
    cards = copies(game)
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
    faces = Faces(c, game, opts.lang, BLEED, BLEED)
    for card in copies(game):
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
    faces = Faces(c, game, opts.lang, bx, by)
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
