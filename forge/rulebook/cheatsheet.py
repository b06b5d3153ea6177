"""One-page sheets: the cheat sheet (`cheatsheet.<lang>.md.j2`) and the ultra-short rules
summary (`summary.<lang>.md.j2`), each one landscape page in columns under a title band.

The layout fills the page: for each candidate number of columns it finds the largest body size
(in steps of `STEP`) at which the sheet fits one page, and keeps the largest size of all (a
column count other than the sheet's first must win by `PREFER`; ties: the fuller page). A
column count is tried only at sizes that give its lines a readable measure (`MEASURE`
characters), and a layout with a word or table wider than its column does not count as fitting. If nothing fits at `MIN_SIZE`, the PDF is still made (at `MIN_SIZE`) and
a `cheatsheet-overflow` finding says so: text is never set below the minimum size to make it
fit, so the build refuses such a sheet.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import cached_property

from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import PageTemplate

from ..errors import Finding, UsageError
from ..model import Game
from ..render.fonts import BOLD, REGULAR, register
from .context import Rendered, render_template
from .document import (Built, FloatsEnd, OutlinedDoc, Placement, column_frames, converted,
                       overfull_findings)
from .markdown import Converter
from .scenarios import failing_examples
from .styles import ACCENT, INK, RULE, make_styles

MIN_SIZE, STEP = 6.0, 0.1
#: Shortest and longest line, in average characters, a column count may give.
MEASURE = (40, 95)
#: A column count after the sheet's first must set the text this much larger to be chosen
#: (a tenth of a point is not worth narrower columns and more broken table cells).
PREFER = 0.3
PAPERS = {"a4": landscape(A4), "letter": landscape(LETTER)}
MARGIN, GAP, BAND = 9 * mm, 6 * mm, 13 * mm


@dataclass(frozen=True)
class Sheet:
    """A kind of one-page sheet: its template, the label at the band's right, the largest body
    size and the column counts it may be set in."""

    kind: str
    label: dict[str, str]
    max_size: float
    columns: tuple[int, ...] = (3, 2, 4)
    picture_mm: float = 22.0


CHEATSHEET = Sheet("cheatsheet", {"uk": "пам\u02bcятка", "en": "quick reference"}, 12.0)
SUMMARY = Sheet("summary", {"uk": "ультракороткі правила", "en": "rules at a glance"}, 20.0,
                (2, 3, 4, 1))
SHEETS = {s.kind: s for s in (CHEATSHEET, SUMMARY)}
MAX_SIZE = CHEATSHEET.max_size


def _em_per_char() -> float:
    """Average width of a letter of the body font, in ems (the measure's unit)."""
    register()
    sample = "абвгґдеєжзиіїйклмнопрстуфхцчшщьюяabcdefghijklmnopqrstuvwxyz     "
    return stringWidth(sample, REGULAR, 1) / len(sample)


@dataclass
class Layout:
    """A sheet laid out at one body size in one column count. Its PDF is written only when
    asked for: `fit` throws most layouts away."""

    doc: OutlinedDoc
    conv: Converter
    size: float
    columns: int
    placements: list[Placement] = field(default_factory=list)

    @property
    def pages(self) -> int:
        return self.doc.page

    @cached_property
    def pdf(self) -> bytes:
        self.doc.canv.save()
        return self.doc.filename.getvalue()

    @property
    def overfull(self) -> bool:
        return bool(self.conv.sink.items or self.conv.wide_tables)

    @property
    def fits(self) -> bool:
        """One page, with no word or table wider than its column."""
        return self.pages == 1 and not self.overfull

    @property
    def fill(self) -> float:
        """How far down the page the text reaches, averaged over the columns (1.0: every
        column to its foot)."""
        return sheet_fill(self.placements, self.columns)

    @property
    def demand(self) -> float:
        """How many pages' columns the text takes: the share of each column it reaches down,
        on every page, over the columns of a page (`fill` when it fits one page)."""
        return sum(sheet_fill(self.placements, self.columns, page) for page in range(1, self.pages + 1))


def sheet_fill(placements: list[Placement], columns: int, page: int = 1) -> float:
    lowest: dict[str, float] = {}
    top = bottom = 0.0
    for p in placements:
        if p.page != page:
            continue
        lowest[p.frame] = min(lowest.get(p.frame, p.frame_top), p.bottom)
        top, bottom = p.frame_top, p.frame_bottom
    if top <= bottom:
        return 0.0
    return sum((top - y) / (top - bottom) for y in lowest.values()) / columns


def _band(title: str, label: str, page: tuple[float, float], columns: int):
    column = (page[0] - 2 * MARGIN - GAP * (columns - 1)) / columns

    def draw(canvas, doc):
        canvas.saveState()
        w, h = page
        canvas.setFillColor(ACCENT)
        canvas.setFont(BOLD, 15)
        canvas.drawString(MARGIN, h - MARGIN - 10, title)
        canvas.setFont(REGULAR, 10)
        canvas.setFillColor(INK)
        canvas.drawRightString(w - MARGIN, h - MARGIN - 10, label)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.6)
        canvas.line(MARGIN, h - MARGIN - BAND + 4 * mm, w - MARGIN, h - MARGIN - BAND + 4 * mm)
        for i in range(1, columns):
            x = MARGIN + i * (column + GAP) - GAP / 2
            canvas.setLineWidth(0.3)
            canvas.line(x, MARGIN, x, h - MARGIN - BAND)
        canvas.restoreState()
    return draw


def _layout(game: Game, rendered: Rendered, lang: str, sheet: Sheet, size: float, columns: int,
            page: tuple[float, float], pictures: bool = True) -> Layout:
    column = (page[0] - 2 * MARGIN - GAP * (columns - 1)) / columns
    styles = make_styles(size, justify=False, compact=True)
    conv, story = converted(game, rendered, lang, styles, column, sheet.picture_mm * mm, pictures)
    buf = io.BytesIO()
    title = game.manifest.title[lang]
    label = sheet.label.get(lang, sheet.label["en"])
    doc = OutlinedDoc(buf, title=title, subject=label, lang=lang, pagesize=page, leftMargin=MARGIN,
                      rightMargin=MARGIN, topMargin=MARGIN, bottomMargin=MARGIN)
    frames = column_frames(MARGIN, MARGIN, page[0] - 2 * MARGIN, page[1] - 2 * MARGIN - BAND,
                           columns, GAP)
    doc.addPageTemplates([PageTemplate("sheet", frames, onPage=_band(title, label, page, columns))])
    doc._doSave = 0  # (ReportLab's switch: `Layout.pdf` saves it)
    doc.build(story + [FloatsEnd()])
    return Layout(doc, conv, size, columns, list(doc.placements))


def size_range(sheet: Sheet, columns: int, page: tuple[float, float]) -> tuple[float, float]:
    """Body sizes at which `columns` columns hold lines of `MEASURE` characters (within the
    sheet's sizes); empty (low > high) when none does."""
    column = (page[0] - 2 * MARGIN - GAP * (columns - 1)) / columns
    em = _em_per_char()
    low = max(MIN_SIZE, column / (em * MEASURE[1]))
    high = min(sheet.max_size, column / (em * MEASURE[0]))
    return low, high


def fit(game: Game, rendered: Rendered, lang: str, sheet: Sheet, page: tuple[float, float],
        pictures: bool = True) -> tuple[Layout | None, list[Layout]]:
    """The layout with the largest body size that fits one page (ties: the fuller page), and
    every layout tried. Sizes are searched in `STEP`s for each column count (`largest_fitting`);
    a column count that cannot beat the best size so far by `PREFER` is tried only at that
    size, and costs one layout."""
    tried: list[Layout] = []

    def at(tenths: int, columns: int) -> Layout:
        layout = _layout(game, rendered, lang, sheet, round(tenths * STEP, 1), columns, page, pictures)
        tried.append(layout)
        return layout

    best: Layout | None = None
    for columns in sheet.columns:
        low, high = size_range(sheet, columns, page)
        lo, hi = int(round(low / STEP + 0.4999)), int(high / STEP + 1e-9)
        first = (lo + hi) // 2
        if best is not None:  # only a size larger than the best so far (by PREFER) can win
            lo = first = max(lo, int(round((best.size + PREFER) / STEP)))
        found = largest_fitting(lo, hi, first, lambda tenths: at(tenths, columns))
        if found is not None and best is None:
            best = found
        elif found is not None and (found.size, found.fill) > (best.size + PREFER, best.fill):
            best = found
    return best, tried


#: What `predicted` aims at: the `demand` of a sheet set as large as fits one page is 0.91 to
#: 0.98 in the built-in games (columns end short of their foot where a heading or a table
#: moves on to the next one), and grows about as the size to this power (1.3 to 2.4: the
#: text's area grows with its square, pictures and rules do not grow).
AIM, GROWTH = 0.97, 1.6
#: A layout that does not fit with less `demand` than this fails for another reason than its length.
ROOM = 0.9


def predicted(layout: Layout) -> int:
    """The largest size, in `STEP`s, at which the text of `layout` is expected to fit one page."""
    return int(layout.size * (AIM / max(layout.demand, 1e-3)) ** (1 / GROWTH) / STEP)


def largest_fitting(lo: int, hi: int, first: int, lay) -> Layout | None:
    """The layout at the largest size from `lo` to `hi` (in `STEP`s) that fits one page, laid
    out by `lay(size)`, first at size `first`; None when none does.

    As for a binary search, the sizes that fit are taken to be those up to some size, and the
    answer is the size that fits next to one that does not (or `hi`). Each next size tried is
    the one the last layout predicts (`predicted`), within the sizes not yet known to fit or
    not. Once a layout does not fit with room to spare (a word wider than its column, a block
    moved to the next page), its length is not what limits the size: the search halves the
    sizes left from then on."""
    fit_at, fail_at = lo - 1, hi + 1  # largest size known to fit, smallest known not to
    found, size, halve = None, first, False
    while fail_at - fit_at > 1:
        layout = lay(size)
        if layout.fits:
            found, fit_at = layout, size
        else:
            fail_at = size
            halve = halve or layout.overfull or layout.demand < ROOM
        guess = (fit_at + fail_at) // 2 if halve else predicted(layout)
        size = min(max(guess, fit_at + 1), fail_at - 1)
    return found


def build_sheet(game: Game, lang: str, sheet: Sheet = CHEATSHEET, pictures: bool = True,
                paper: str = "a4") -> Built:
    """The one-page `sheet` of `game` in `lang`, set as large as fits (see the module doc).

    `pictures=False` draws card pictures as same-sized placeholders (a faster layout for checks).
    """
    register()
    if paper not in PAPERS:
        raise UsageError(f"unknown sheet paper {paper!r} (known: {', '.join(PAPERS)})")
    page = PAPERS[paper]
    rendered = render_template(game, sheet.kind, lang)
    if rendered.findings and not rendered.markdown:
        return Built(b"", list(rendered.findings), 0)
    best, tried = fit(game, rendered, lang, sheet, page, pictures)
    findings = list(rendered.findings)
    if best is None:
        columns = max(sheet.columns)
        best = next((t for t in tried if t.size == MIN_SIZE and t.columns == columns), None) \
            or _layout(game, rendered, lang, sheet, MIN_SIZE, columns, page, pictures)
        if best.pages > 1:
            findings.append(Finding(rendered.template, 0, 0, "cheatsheet-overflow",
                                    f"the {sheet.kind} needs {best.pages} pages even at "
                                    f"{MIN_SIZE:g} pt in {columns} columns",
                                    f"shorten the template: a {sheet.kind} is one page"))
    findings += overfull_findings(rendered, best.conv.sink, best.conv.wide_tables)
    findings += failing_examples(game, rendered)
    return Built(best.pdf, findings, best.pages, best.placements, rendered)


def build_cheatsheet(game: Game, lang: str, pictures: bool = True, paper: str = "a4") -> Built:
    """The one-page cheat sheet of `game` in `lang` (`cheatsheet.<lang>.md.j2`)."""
    return build_sheet(game, lang, CHEATSHEET, pictures, paper)


def build_summary(game: Game, lang: str, pictures: bool = True, paper: str = "a4") -> Built:
    """The one-page ultra-short rules of `game` in `lang` (`summary.<lang>.md.j2`): a turn at
    a glance, set larger than the cheat sheet."""
    return build_sheet(game, lang, SUMMARY, pictures, paper)


__all__ = ["CHEATSHEET", "MAX_SIZE", "MIN_SIZE", "SHEETS", "SUMMARY", "Sheet", "build_cheatsheet",
           "build_sheet", "build_summary", "sheet_fill"]
