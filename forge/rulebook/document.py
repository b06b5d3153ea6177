"""The rulebook PDF: title page from the manifest, table of contents, the template's Markdown,
page numbers, and a PDF outline entry per heading (`#` top level, `##`/`###` children).

A5 pages by default, A4 (two columns) on request. Built with `multiBuild` (the table of contents
needs a second pass) and `invariant=1`, so the same input gives the same bytes.

Layout rules (docs/rulebooks.md, "Layout rules"), shared with the cheat sheets:
- a heading never ends a column: it moves to the next column unless it fits together with the
  start of what follows it (two lines of a paragraph, a table's header and two rows, a whole
  picture); a short paragraph under it is kept whole, and with what it leads to: the start of
  the next section when it is a section's whole introduction, the start of what follows when it
  ends in a colon (a lead-in);
- a lead-in (a paragraph ending in a colon) never ends a column without the start of what it
  introduces, and the text a card picture ends its section with never stays behind when the
  picture moves to the next column: the paragraph's last two lines (all of a short one) go
  along;
- a worked example breaks across columns only with at least about three lines on either side;
- a table breaks only between rows, repeats its header, and each part holds at least two rows;
  column widths come from the cells' text (`content_widths`);
- a card picture that does not fit the rest of a column floats to the top of the next one while
  the text after it fills the column (never past a heading, never into a paragraph, table or
  list that continues from the column before: it is placed after it);
- the table of contents is as deep as fits one page; a short one shares the title page, a tiny
  one (fewer than three lines) is left out (`contents_plan`).
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field, replace
from pathlib import Path

from reportlab.lib.pagesizes import A4, A5
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (BaseDocTemplate, Frame, KeepTogether, NextPageTemplate,
                                PageBreak, PageTemplate, Paragraph, Spacer, Table, TableStyle)
from reportlab.platypus.doctemplate import ActionFlowable, FrameBreak
from reportlab.platypus.tableofcontents import TableOfContents

from ..errors import Finding, UsageError, display_path
from ..model import Game
from ..render import card_flowable, front
from ..render.fonts import REGULAR, register
from ..render.icons import game_icons
from ..text import plural
from .context import Rendered, render_template
from .inline import IconCanvas, icon_width
from ..text.typography import SHY, escape
from .markdown import Converter, Para, Row, Sink, _broken, char_width, widest_pieces
from .scenarios import failing_examples
from .styles import ACCENT, INK, RULE, Styles, make_styles

PAPERS = {"a5": A5, "a4": A4}
_WORDS = {
    "uk": {"rules": "Правила гри", "contents": "Зміст", "players": ("гравець", "гравці", "гравців")},
    "en": {"rules": "Rules of play", "contents": "Contents", "players": ("player", "players")},
}


def words(lang: str) -> dict:
    return _WORDS.get(lang, _WORDS["en"])


class Heading(Para):
    """A Markdown heading: an outline entry (and a table-of-contents line for levels 1-2)."""

    def __init__(self, text, style, bulletText=None, frags=None, caseSensitive=1, encoding="utf8",
                 level: int = 1, plain: str = "", key: str = ""):
        super().__init__(text, style, bulletText=bulletText, frags=frags,
                         caseSensitive=caseSensitive, encoding=encoding)
        self.level, self.plain, self.key = level, plain, key


#: A card picture floats to the next column only when at least this share of the column is
#: left for the text after it (a smaller gap is left empty: the picture stays by its text).
FLOAT_ROOM = 0.12
#: Lines of a paragraph (rows of a table) that must fit below a heading in the same column.
KEEP_LINES = 2
#: Height of a callout (a worked example) that must fit below a heading: about three lines.
CALLOUT_START = 36.0
_BIG = 1e6
_TINY = 0.5  # points of tolerance when comparing widths


@dataclass(frozen=True)
class Placement:
    """Where a flowable was drawn (points from the page's bottom); recorded for tests and for
    measuring how full a sheet is. `rows` is the number of body rows of a table part."""

    page: int
    frame: str
    kind: str
    top: float
    bottom: float
    frame_top: float
    frame_bottom: float
    rows: int = -1
    #: a table's header row, as text
    head: str = ""


class HeaderTable(Table):
    """A table that breaks only between rows, repeats its header rows on the next part, and never
    leaves a part with fewer than `KEEP_LINES` body rows (a short table does not break at all)."""

    def split(self, availWidth, availHeight):
        head = self.repeatRows if isinstance(self.repeatRows, int) else len(self.repeatRows)
        rows = len(self._cellvalues)
        # ReportLab splits before row n only when lo <= n <= hi: the first part keeps the header
        # and KEEP_LINES rows, the second gets at least KEEP_LINES rows.
        self._rowSplitRange = (head + KEEP_LINES, rows - KEEP_LINES)
        parts = super().split(availWidth, availHeight)
        if len(parts) > 1:
            for part in parts:
                part._part = True
            for part in parts[1:]:
                part._rest = True
        return parts

    def header_text(self) -> str:
        head = self.repeatRows if isinstance(self.repeatRows, int) else len(self.repeatRows)
        return " | ".join(c.getPlainText().replace(SHY, "") for row in self._cellvalues[:head]
                          for c in row if hasattr(c, "getPlainText"))


def is_picture(flowable) -> bool:
    """A card picture or row of pictures (`Converter.cards`): a KeepTogether holding a `Row`."""
    return isinstance(flowable, KeepTogether) and any(isinstance(f, Row) for f in flowable._content)


def _space(flowable, before: bool = True) -> float:
    get = flowable.getSpaceBefore if before else flowable.getSpaceAfter
    try:
        return float(get() or 0)
    except Exception:
        return 0.0


def _wrap(f, canv, width: float, height: float = _BIG) -> tuple[float, float]:
    """`f` wrapped (on `canv` during a build: some flowables measure with it)."""
    return f.wrapOn(canv, width, height) if canv is not None else f.wrap(width, height)


def leads_in(flowable) -> bool:
    """Whether a paragraph introduces what follows it: its text ends in a colon."""
    return (isinstance(flowable, Paragraph) and not isinstance(flowable, Heading)
            and flowable.getPlainText().rstrip().endswith(":"))


def _next(flowables: list, i: int) -> int:
    """Index of the first flowable from `i` on that is not a bare Spacer."""
    while i < len(flowables) and type(flowables[i]) is Spacer:
        i += 1
    return i


def section_rest(flowables: list, i: int, width: float, limit: float, canv=None) -> float:
    """Height of what follows flowables[i] in its section (up to the next heading), counted
    until it exceeds `limit`; the last one's space after is not counted (a column foot drops it)."""
    total = after = 0.0
    for f in flowables[i + 1:]:
        if isinstance(f, (Heading, ActionFlowable)) or total > limit:
            break
        total += after + _wrap(f, canv, width)[1] + _space(f)
        after = _space(f, False)
    return total


def stays_in_section(flowables: list, i: int, width: float, room: float, canv=None) -> bool:
    """Whether flowables[i] is a card picture that could not float: the rest of its section
    fits in `room` (0: it ends its section), so a picture floated to the next column would
    land on the next section's heading."""
    if i >= len(flowables) or not is_picture(flowables[i]):
        return False
    return section_rest(flowables, i, width, room, canv) <= room


def heading_height(flowables: list, width: float, most: float, canv=None, room: float = 0.0) -> float:
    """Height the headings starting `flowables` need at a column foot with `room` left: theirs
    and the start of what follows them (`start_height`, a short introduction with the next
    section's start)."""
    need, i = 0.0, 0
    while i < len(flowables) and isinstance(flowables[i], Heading):
        _, h = _wrap(flowables[i], canv, width)
        need += h + _space(flowables[i]) + _space(flowables[i], False)
        i += 1
    level = flowables[i - 1].level if i else 0
    return min(need + start_height(flowables[i:], width, most, canv, intro=level, room=room - need), most)


def start_height(flowables: list, width: float, most: float, canv=None, intro: int = 0,
                 room: float = 0.0) -> float:
    """Height the first flowable of `flowables` needs at a column foot for what comes before it
    to stay with it: the first KEEP_LINES lines of a paragraph (all of a paragraph too short to
    break, and then the start of what it leads in to, or of the first subsection when it is the
    whole introduction of a section whose heading has level `intro`, or the picture that ends its section), a table's
    header and KEEP_LINES rows, all of anything that cannot break. Spacers are added to what
    follows them; at most `most`. `room`: what is left of the column (`carried`)."""
    total = 0.0
    for n, f in enumerate(flowables):
        if isinstance(f, ActionFlowable):
            return total
        if type(f) is Spacer:
            total += f.height
            continue
        before = _space(f)
        if isinstance(f, Paragraph):
            _, h = _wrap(f, canv, width)
            lines = len(getattr(f.blPara, "lines", []) or [])
            if lines > 2 * KEEP_LINES - 1:
                keep = KEEP_LINES  # and the next line, while a kept one ends in a broken word,
                while keep < lines and _broken(f.blPara.lines[keep - 1]):
                    keep += 1      # which `Para.split` never leaves at a column foot
                h = keep * f.style.leading
            else:
                h += _space(f, False)
                h += carried(flowables, n + 1, width, most, canv, intro, max(room - total - before - h, 0))
            return min(total + before + h, most)
        if isinstance(f, Table):
            _, h = _wrap(f, canv, width)
            heights = list(getattr(f, "_rowHeights", []) or [])
            if isinstance(f, HeaderTable):
                head = f.repeatRows if isinstance(f.repeatRows, int) else len(f.repeatRows)
                h = sum(heights[:head + KEEP_LINES])
            elif len(heights) == 1 and getattr(f, "splitInRow", 0):  # a callout: its first lines
                h = min(h, CALLOUT_START)
            return min(total + before + h, most)
        if isinstance(f, KeepTogether):
            _wrap(f, canv, width)
            return min(total + before + getattr(f, "_H", 0), most)
        _, h = _wrap(f, canv, width)
        return min(total + before + h, most)
    return total


def carried(flowables: list, i: int, width: float, most: float, canv=None, intro: int = 0,
            room: float = 0.0) -> float:
    """Height of what must share a column with the paragraph before flowables[i]: the start of
    what a lead-in introduces, the card picture after it when the rest of its section would
    fit in `room` (0: the picture ends its section; see `stays_in_section`), and (for the
    whole introduction of a section whose heading has level `intro`) the heading and start of
    its first subsection; else 0."""
    j = _next(flowables, i)
    if j >= len(flowables) or isinstance(flowables[j], ActionFlowable):
        return 0.0
    rest = flowables[i:]
    if i and leads_in(flowables[i - 1]):
        return start_height(rest, width, most, canv)
    if stays_in_section(flowables, j, width, room, canv):
        _wrap(flowables[j], canv, width)
        return min(sum(f.height for f in flowables[i:j]) + _space(flowables[j]) + flowables[j]._H, most)
    if intro and isinstance(flowables[j], Heading) and flowables[j].level > intro:
        return min(sum(f.height for f in flowables[i:j]) + heading_height(flowables[j:], width, most, canv), most)
    return 0.0


class OutlinedDoc(BaseDocTemplate):
    """A doc template that turns `Heading`s into bookmarks, outline entries and TOC entries, and
    applies the layout rules of this module: headings kept with what follows, card pictures
    floated to the next column rather than leaving a hole, every placement recorded."""

    toc_levels = 2

    def __init__(self, buf, *, title: str, subject: str, lang: str, **layout):
        super().__init__(buf, invariant=1, initialFontName=REGULAR, title=title, author="Card Forge",
                         creator="Card Forge", subject=subject, lang=lang, **layout)

    def build(self, flowables, **kwargs):
        super().build(flowables, canvasmaker=IconCanvas, **kwargs)  # draws inline icons

    def beforeDocument(self):
        self._outline_level = -1
        self._keys: set[str] = set()
        self.placements: list[Placement] = []
        self._floats: list = []
        self._placing: set[int] = set()
        self._last = None  # the flowable drawn last in this column

    # --- layout rules ---------------------------------------------------------------------
    def filterFlowables(self, flowables):
        frame = getattr(self, "frame", None)
        if not flowables or flowables[0] is None or frame is None or flowables is self._hanging:
            return  # (the doc's own page-begin actions pass here too: not story)
        f = flowables[0]
        if self._floats and (frame._atTop or isinstance(f, (Heading, ActionFlowable))):
            # a floated picture goes at the top of the next column, or before the next heading;
            # after the rest of a paragraph or table that continues from the column before, and
            # after the rest of a list it would otherwise cut in two
            self._placing.update(id(x) for x in self._floats)
            at = 1 if frame._atTop and getattr(f, "_rest", False) else 0
            while at < len(flowables) and getattr(flowables[at], "_in_list", False):
                at += 1
            flowables[at:at] = self._floats
            self._floats = []
            return
        if frame._atTop:
            return
        width = frame._getAvailableWidth()
        room = frame._y - frame._y1p
        if is_picture(f) and id(f) not in self._placing:
            if self._floats:  # pictures keep their order
                self._floats.append(flowables.pop(0))
                return
            _wrap(f, self.canv, width, room)
            follows = flowables[1] if len(flowables) > 1 else None
            if (_space(f) + f._H > room and room >= FLOAT_ROOM * frame._height
                    and follows is not None and not isinstance(follows, (Heading, ActionFlowable))
                    and not is_picture(follows) and not stays_in_section(flowables, 0, width, room, self.canv)):
                self._floats.append(flowables.pop(0))
            return
        if isinstance(f, Heading):
            need = heading_height(flowables, width, frame._height, self.canv, room)
            if need > room + 0.01 and need <= frame._height:
                flowables.insert(0, FrameBreak())
        elif not isinstance(f, ActionFlowable) and type(f) is not Spacer and not is_picture(f):
            self._keep_with_next(flowables, width, room, frame._height)

    def _keep_with_next(self, flowables: list, width: float, room: float, column: float) -> None:
        """What fits here but not with what must follow it in the same column (a lead-in's
        list, the picture that ends its section, `carried`) goes to the next column with it: a
        paragraph's last KEEP_LINES lines, all of a paragraph too short to break or of a block
        (an example, a table) at most a third of a column, unless a heading just above it kept
        it here (`heading_height`)."""
        f = flowables[0]
        _, h = _wrap(f, self.canv, width)
        h += _space(f)  # (the space after it is dropped at a column foot)
        after = _space(f, False) + carried(flowables, 1, width, column, self.canv,
                                           room=max(room - h - _space(f, False), 0))
        if after == _space(f, False) or h > room + 0.01 or h + after <= room + 0.01:
            return
        if isinstance(f, Paragraph):
            lines = len(getattr(f.blPara, "lines", []) or [])
            if lines >= 2 * KEEP_LINES:  # its first lines stay, at least KEEP_LINES of them
                parts = f.split(width, (lines - KEEP_LINES) * f.style.leading + _space(f) + _TINY)
                if len(parts) == 2:
                    flowables[0:1] = [parts[0], FrameBreak(), parts[1]]
                    return
        elif h > column / 3:
            return
        if h + after <= column and not isinstance(self._last, Heading):
            flowables.insert(0, FrameBreak())

    def afterFlowable(self, flowable):
        self._placing.discard(id(flowable))
        if not isinstance(flowable, ActionFlowable):
            self._last = flowable
        frame = getattr(self, "frame", None)
        height = getattr(flowable, "height", None) or getattr(flowable, "_height", None)
        if frame is not None and height and not isinstance(flowable, ActionFlowable):
            bottom = frame._y + _space(flowable, False)
            rows, head = -1, ""
            kind = "heading" if isinstance(flowable, Heading) else type(flowable).__name__
            if isinstance(flowable, HeaderTable):
                n = flowable.repeatRows if isinstance(flowable.repeatRows, int) else len(flowable.repeatRows)
                rows, head = len(flowable._cellvalues) - n, flowable.header_text()
                if getattr(flowable, "_part", False):
                    kind += "/part"
            elif kind != "Spacer" and getattr(flowable, "_in_list", False):
                kind += "/list"  # a list's item after its first
            self.placements.append(Placement(self.page, frame.id, kind, bottom + height, bottom,
                                             frame._y1 + frame._height, frame._y1, rows, head))
        if not isinstance(flowable, Heading) or not flowable.key or flowable.key in self._keys:
            return
        self._keys.add(flowable.key)
        # Outline levels may not skip (ReportLab refuses a jump of two): clamp to one deeper.
        level = min(flowable.level - 1, self._outline_level + 1)
        self._outline_level = level
        text = flowable.plain.replace(SHY, "").replace("\u00a0", " ")  # bookmarks are plain text
        self.canv.bookmarkPage(flowable.key)
        self.canv.addOutlineEntry(text, flowable.key, level=level, closed=level > 0)
        if flowable.level <= self.toc_levels:
            self.notify("TOCEntry", (flowable.level - 1, escape(text), self.page, flowable.key))


class FloatsEnd(ActionFlowable):
    """The end of the story: pictures still floating are placed before it."""

    def apply(self, doc):
        pass


@dataclass
class Built:
    """A built PDF and what was found while building it."""

    pdf: bytes
    findings: list[Finding] = field(default_factory=list)
    pages: int = 0
    #: where every flowable was drawn (the last pass), for tests and fill measurements
    placements: list[Placement] = field(default_factory=list)
    #: the template it was made from, rendered (`typeset` keeps the layout's findings by it)
    rendered: Rendered | None = None


def card_factory(game: Game, lang: str):
    """Card pictures drawn by the card renderer (`forge.render.card_flowable`).

    The card's face is laid out first, so a layout that fails raises here (the converter then
    draws a placeholder and reports it) rather than in the middle of drawing the page.
    """
    def make(card, width_mm: float):
        front(game, card, lang)
        return card_flowable(game, card, lang, width_mm)
    return make


@dataclass(frozen=True)
class CellText:
    """What the column widths are chosen from, per cell (points, without padding): the text set
    on one line, its longest word, its longest piece between break points (soft hyphens
    included: the narrowest the cell can be without cutting a word); each word's width and a
    space's, to count the lines the words fill (`_lines`), when known."""

    natural: float
    word: float
    piece: float
    words: tuple[float, ...] = ()
    space: float = 0.0


#: A line's share that word wrapping fills on average (the rest is lost at line ends).
_FILL = 0.9
#: Cost, in lines, of a word that must be hyphenated because its column is narrower than it.
_HYPHEN_COST = 1.5
#: Cost of each line of each cell, beside the table's height: of two splits equally tall, the
#: one with fewer broken cells (a name kept on one line in a row that wraps anyway).
_EACH_LINE = 0.1


def _lines(cell: CellText, inner: float) -> float:
    """Lines of `cell` in a column with `inner` points of room (its words set one after the
    other, as wrapping without hyphens sets them; estimated from its width when its words are
    not known), plus the cost of a word split by a hyphen."""
    if inner <= 0:
        return _BIG
    if cell.natural <= inner + 0.5:
        n = 1
    elif cell.words:
        n, line = 1, -cell.space
        for w in cell.words:
            if line + cell.space + w > inner + 0.5 and line > 0:
                n, line = n + 1, w
            else:
                line += cell.space + w
    else:
        n = -(-cell.natural // (inner * _FILL))
    return n + (_HYPHEN_COST if cell.word > inner + 0.5 else 0)


def content_widths(cells: list[list[CellText]], total: float, pad: float) -> list[float]:
    """Column widths from the cells' text, for a table at most `total` points wide whose cells
    have `pad` points of padding.

    A table whose lines all fit is as wide as its text. Otherwise every column starts at its
    longest word (at its longest piece when the words do not fit side by side) and the width
    left is handed out greedily, each time to the column (or the set of columns, for a row whose
    every cell wraps) whose widening saves the most estimated table height per point (`_lines`:
    lines of each row's tallest cell, a word split by a hyphen costing more than a line, and a
    little for every line of every cell), so that short columns such as names are not broken
    to make room for long text that wraps anyway. Width that saves nothing goes to the columns
    still short of their text, in proportion to what they lack."""
    n = max((len(r) for r in cells), default=0)
    rows = [r + [CellText(0, 0, 0)] * (n - len(r)) for r in cells]
    want = [max((r[i].natural for r in rows), default=0) + pad for i in range(n)]
    if sum(want) <= total or n == 0:
        return want
    word = [max((r[i].word for r in rows), default=0) + pad for i in range(n)]
    piece = [max((r[i].piece for r in rows), default=0) + pad for i in range(n)]
    if sum(word) <= total:
        widths = [min(w, x) for w, x in zip(word, want)]
    elif sum(piece) <= total:
        widths = [min(p, x) for p, x in zip(piece, want)]
    else:
        return piece  # too narrow whatever the split: the overfull pieces are reported
    spare = total - sum(widths)

    # Each round asks again about the same cells at the same widths: every answer is kept.
    counted: dict[tuple[int, float], float] = {}
    needs: dict[tuple[int, int], float] = {}
    widest: dict[tuple[int, int], float] = {}

    def lines_in(c: CellText, inner: float) -> float:
        key = (id(c), inner)
        if key not in counted:
            counted[key] = _lines(c, inner)
        return counted[key]

    def need(c: CellText, k: int) -> float:  # the width at which `c` takes at most k lines
        key = (id(c), k)
        if key in needs:
            return needs[key]
        least = max(c.word, c.natural if k == 1 else c.natural / (k * _FILL))
        if c.words and k > 1:  # the narrowest its words fill k lines at, within half a point
            lo, hi = c.word, max(c.natural, c.word)
            while hi - lo > 0.5:
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if _lines(c, mid) <= k else (mid, hi)
            least = hi
        needs[key] = least + pad + 0.01
        return needs[key]

    def column_need(i: int, k: int) -> float:  # the width at which column i takes at most k lines
        if (i, k) not in widest:
            widest[i, k] = max((need(r[i], k) for r in rows), default=0)
        return widest[i, k]

    def height(ws: list[float]) -> float:
        cells = [[lines_in(r[i], ws[i] - pad) for i in range(n)] for r in rows]
        return sum(max(line) + _EACH_LINE * sum(line) for line in cells)

    lines = [[lines_in(r[i], widths[i] - pad) for i in range(n)] for r in rows]
    while spare > 0.5:
        best = None  # ((saving per point, -width added), new widths)
        now_total = sum(max(line) + _EACH_LINE * sum(line) for line in lines)
        for i in range(n):  # widen one column
            if widths[i] >= want[i] - 0.01:
                continue
            others = [max((line[j] for j in range(n) if j != i), default=0) for line in lines]
            now = sum(max(o, line[i]) + _EACH_LINE * line[i] for o, line in zip(others, lines))
            top = min(widths[i] + spare, want[i])
            # the widths at which some cell of the column needs one line fewer, or stops
            # splitting a word
            marks = {top}
            for r, line in zip(rows, lines):
                c = r[i]
                if c.word + pad > widths[i]:
                    marks.add(c.word + pad)
                k = int(line[i] - (_HYPHEN_COST if c.word + pad > widths[i] + 0.5 else 0))
                for fewer in range(max(k - 1, 1), max(k - 4, 0), -1):
                    marks.add(need(c, fewer))
            for mark in sorted(m for m in marks if widths[i] + 0.01 < m <= top):
                then = 0.0
                for o, r in zip(others, rows):
                    k = lines_in(r[i], mark - pad)
                    then += max(o, k) + _EACH_LINE * k
                key = ((now - then) / (mark - widths[i]), -(mark - widths[i]))
                if key[0] > 0 and (best is None or key > best[0]):
                    best = (key, [*widths[:i], mark, *widths[i + 1:]])
        # widen every column at once so that no cell takes more than k lines (a header row
        # whose every cell wraps shrinks only this way)
        tallest = int(max((max(line) for line in lines), default=1))
        for k in range(tallest - 1, 0, -1):
            ws = [max(widths[i], min(want[i], column_need(i, k))) for i in range(n)]
            added = sum(ws) - sum(widths)
            if added <= 0.01 or added > spare:
                continue
            key = ((now_total - height(ws)) / added, -added)
            if key[0] > 0 and (best is None or key > best[0]):
                best = (key, ws)
        if best is None:
            break
        spare -= sum(best[1]) - sum(widths)
        widths = best[1]
        lines = [[lines_in(r[i], widths[i] - pad) for i in range(n)] for r in rows]
    lack = [max(x - w, 0) for x, w in zip(want, widths)]
    if spare > 0.5 and sum(lack) > 0:
        share = min(spare / sum(lack), 1.0)
        widths = [w + lk * share for w, lk in zip(widths, lack)]
    return widths


def natural_width(para) -> float:
    """Width of a cell's text set on one line (soft hyphens not drawn, inline icons are)."""
    return sum(stringWidth(getattr(f, "text", "").replace(SHY, ""), f.fontName, f.fontSize)
               for f in para.frags if getattr(f, "text", "") and hasattr(f, "fontName")) + sum(
        icon_width(f) or 0 for f in para.frags)


def word_widths(para) -> list[float]:
    """Width of each word of a cell: no-break spaces and soft hyphens do not break one."""
    words, width = [], 0.0
    for frag in para.frags:
        icon = icon_width(frag)
        if icon is not None:  # a glyph of its word
            width += icon
            continue
        text = getattr(frag, "text", "")
        if not text or not hasattr(frag, "fontName"):
            continue
        for ch in text:
            if ch in " \t\n\r":
                if width:
                    words.append(width)
                width = 0.0
            elif ch != SHY:
                width += char_width(ch, frag.fontName, frag.fontSize)
    return words + [width] if width else words


def cell_text(para) -> CellText:
    words = word_widths(para)
    return CellText(natural_width(para), max(words, default=0.0),
                    max((w for _, w in widest_pieces(para.frags)), default=0.0), tuple(words),
                    stringWidth(" ", para.style.fontName, para.style.fontSize))


#: A table wider than its column with its words whole is set at these fractions of its size,
#: the first that fits (never smaller: then it is a `rulebook-overfull` finding).
TABLE_SCALES = (0.95, 0.9, 0.85)


def scaled_cells(styles: Styles, scale: float) -> Styles:
    """`styles` with table cells (text and padding) at `scale` of their size."""
    def smaller(style: ParagraphStyle) -> ParagraphStyle:
        return ParagraphStyle(f"{style.name}-{scale:g}", parent=style, fontSize=style.fontSize * scale,
                              leading=style.leading * scale)
    return replace(styles, size=styles.size * scale, cell=smaller(styles.cell),
                   head_cell=smaller(styles.head_cell))


@dataclass
class LayoutConverter(Converter):
    """The Markdown converter with this module's table rules: tables break between rows with
    their header repeated (`HeaderTable`), never kept whole at the cost of an empty column foot,
    and their column widths come from their text (`content_widths`). A table wider than its
    column even with every cell at its narrowest is recorded in `wide_tables`."""

    #: (the table's header row as text, its width, the column's width), points
    wide_tables: list[tuple[str, float, float]] = field(default_factory=list)

    def node(self, node, indent, style=None):
        if node.type == "table":
            table = self.table(node)
            styles = self.styles
            for scale in TABLE_SCALES:  # too wide with whole words: a smaller size, within limits
                if sum(table._argW) <= self.column + _TINY:
                    break
                self.styles = scaled_cells(styles, scale)
                try:
                    table = self.table(node)
                finally:
                    self.styles = styles
            table.__class__ = HeaderTable  # same data and style; only how it breaks differs
            width = sum(table._argW)
            if width > self.column + _TINY:
                head = " | ".join(c.getPlainText().replace(SHY, "") for c in table._cellvalues[0])
                self.wide_tables.append((head, width, self.column))
            return [table]
        return super().node(node, indent, style)

    def column_widths(self, rows, n):
        pad = self.styles.size * 0.6 + 1  # left and right cell padding, and a point to spare
        return content_widths([[cell_text(c) for c in r[:n]] for r in rows], self.column, pad)


def converted(game: Game, rendered: Rendered, lang: str, styles: Styles, column: float,
              picture_height: float, pictures: bool) -> tuple[Converter, list]:
    """The rendered Markdown as flowables for a column, headings keyed for the outline."""
    ratio = game.manifest.card_size.height / game.manifest.card_size.width
    conv = LayoutConverter(rendered, styles, column, card_factory(game, lang) if pictures else None,
                           picture_height, ratio, icons=game_icons(game), game=game)
    story = conv.convert()
    for number, heading in enumerate(conv.headings, 1):
        heading.key = f"s{number}"
    return conv, story


def column_frames(left: float, bottom: float, width: float, height: float, columns: int,
                  gap: float) -> list[Frame]:
    """`columns` frames side by side across `width`, without padding."""
    column = (width - gap * (columns - 1)) / columns
    return [Frame(left + i * (column + gap), bottom, column, height, id=f"c{i}", leftPadding=0,
                  rightPadding=0, topPadding=0, bottomPadding=0) for i in range(columns)]


def overfull_findings(rendered: Rendered, sink: Sink, wide_tables=()) -> list[Finding]:
    out = []
    for head, width, available in wide_tables:
        out.append(Finding(rendered.template, rendered.line_of(head.split(" | ")[0]), 0,
                           "rulebook-overfull",
                           f"the table headed {head!r} is {width:.0f} pt wide at its narrowest "
                           f"but its column has {available:.0f} pt: it would run off the page",
                           "give it fewer or shorter columns"))
    for item in sink.items.values():
        word = item.word.replace(SHY, "").rstrip("-")
        out.append(Finding(rendered.template, rendered.line_of(word), 0, "rulebook-overfull",
                           f"{word!r} is {item.width:.0f} pt wide but its column has "
                           f"{item.available:.0f} pt: it would be cut without a hyphen",
                           "shorten it or give it a break point (a space or a hyphen)"))
    for card_id, (problem, file, line) in sink.pictures.items():
        where = display_path(Path(file)) if file else rendered.template
        out.append(Finding(where, line, 1 if line else 0, "rulebook-picture",
                           f"card {card_id!r} cannot be drawn: {problem}", card=card_id))
    for file, line in sink.stray:
        where = display_path(Path(file)) if file else rendered.template
        out.append(Finding(where, line, 1 if line else 0, "rulebook-block",
                           "a card picture or scenario shares its paragraph with text, so it "
                           "cannot be drawn", "put a blank line before and after the call"))
    for ch, (font, around) in sink.glyphs.items():
        around = around.replace(SHY, "").strip()
        out.append(Finding(rendered.template, rendered.line_of(ch), 0, "rulebook-glyph",
                           f"{font} has no glyph for {ch!r} (U+{ord(ch):04X}) in {around!r}: "
                           "it would print as an empty box", "use another character"))
    return out


def title_page(game: Game, lang: str, styles: Styles, conv: Converter) -> list:
    m, w = game.manifest, words(lang)
    text = conv.text
    lo, hi = m.players.min, m.players.max
    span = f"{lo}–{hi}" if lo != hi else f"{lo}"
    players = f"{span}\u00a0{plural(hi, w['players'], lang)}"
    out = [Spacer(1, 18 * mm), Paragraph(text(m.title[lang]), styles.title),
           Paragraph(text(w["rules"]), styles.subtitle), Paragraph(players, styles.subtitle),
           Spacer(1, 10 * mm)]
    return out


def _footer(title: str, size: float):
    def draw(canvas, doc):
        canvas.saveState()
        canvas.setFont(REGULAR, size)
        canvas.setFillColor(INK)
        width = doc.pagesize[0]
        canvas.drawCentredString(width / 2, 9 * mm, str(doc.page))
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        canvas.line(doc.leftMargin, 12.5 * mm, width - doc.rightMargin, 12.5 * mm)
        canvas.setFont(REGULAR, size * 0.85)
        canvas.setFillColor(ACCENT)
        canvas.drawString(doc.leftMargin, 9 * mm, title)
        canvas.restoreState()
    return draw


@dataclass(frozen=True)
class ContentsPlan:
    """Where the table of contents goes: `levels` deep (1: `#` only, 2: `#` and `##`), on the
    title page or on a page of its own; `levels == 0`: no table of contents."""

    levels: int
    on_title_page: bool = False


#: Fewer lines than this: no table of contents (the PDF outline is enough).
MIN_CONTENTS = 3


def _toc_style(styles: Styles) -> TableStyle:
    pad = styles.size * 0.12
    return TableStyle([("FONT", (0, 0), (-1, -1), REGULAR, styles.size),
                       ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                       ("TOPPADDING", (0, 0), (-1, -1), pad), ("BOTTOMPADDING", (0, 0), (-1, -1), pad),
                       ("VALIGN", (0, 0), (-1, -1), "TOP")])


def _toc_levels(styles: Styles, levels: int) -> list[ParagraphStyle]:
    """Contents styles: a `#` entry is set apart from the one before only in a two-level list."""
    if levels >= 2:
        return list(styles.toc)
    return [ParagraphStyle("toc1-flat", parent=styles.toc[0], spaceBefore=0), *styles.toc[1:]]


def stack_height(flowables: list, width: float) -> float:
    """Height of flowables set one under the other in a column of `width`."""
    return sum(f.wrap(width, _BIG)[1] + _space(f) + _space(f, False) for f in flowables)


def contents_height(headings: list, levels: int, styles: Styles, width: float) -> float:
    """Height of the table of contents `levels` deep, measured as `TableOfContents` sets it
    (one table row per entry, a spacer row before a spaced entry), a three-digit page number
    and its dots counted on each line."""
    rows, level_styles = [], _toc_levels(styles, levels)
    for h in headings:
        if h.level > levels:
            continue
        style = level_styles[min(h.level, len(level_styles)) - 1]
        if style.spaceBefore:
            rows.append([Spacer(1, style.spaceBefore)])
        rows.append([Paragraph(f"{escape(h.plain)} . . . 999", style)])
    if not rows:
        return 0.0
    return Table(rows, colWidths=(width,), style=_toc_style(styles)).wrap(width, _BIG)[1]


def contents_plan(headings: list, styles: Styles, width: float, title_room: float,
                  page_room: float) -> ContentsPlan:
    """The deepest table of contents that fits one page (levels 2, then 1): on the title page
    when it fits in the room left there (`title_room`), else on a page of its own
    (`page_room`); none when it would hold fewer than `MIN_CONTENTS` lines. A contents list
    that fits nowhere in one page is set one level deep on pages of its own."""
    if sum(1 for h in headings if h.level <= 2) < MIN_CONTENTS:
        return ContentsPlan(0)
    head = stack_height([Paragraph("Contents", styles.h[1])], width)
    for levels in (2, 1):
        height = contents_height(headings, levels, styles, width)
        if head + height <= title_room:
            return ContentsPlan(levels, True)
        if head + height <= page_room:
            return ContentsPlan(levels, False)
    return ContentsPlan(1, False)


#: The width of a card picture in a rulebook.
PICTURE = 38 * mm


def _page(paper: str) -> tuple[int, float, float, float, Styles]:
    """A rulebook page on `paper`: its columns, margin, the gap between columns, a column's
    width (points) and the styles."""
    columns = 1 if paper == "a5" else 2
    margin, gap = (13 * mm, 0) if paper == "a5" else (17 * mm, 7 * mm)
    column = (PAPERS[paper][0] - 2 * margin - gap * (columns - 1)) / columns
    return columns, margin, gap, column, make_styles(9.0 if paper == "a5" else 9.5)


def overfull_in(game: Game, rendered: Rendered, lang: str, paper: str = "a5") -> list[Finding]:
    """What a rulebook's layout finds in its text, without paginating it: every paragraph,
    table and example set at the column's width (pictures as placeholders), each word wider
    than its column, each table wider than the page, each glyph the fonts lack."""
    register()
    _, _, _, column, styles = _page(paper)
    conv, body = converted(game, rendered, lang, styles, column, PICTURE, False)
    canvas = IconCanvas(io.BytesIO())
    for flowable in body:
        flowable.wrapOn(canvas, column, _BIG)
    return overfull_findings(rendered, conv.sink, conv.wide_tables)


def build_rulebook(game: Game, lang: str, paper: str = "a5", pictures: bool = True) -> Built:
    """The rulebook of `game` in `lang` as PDF bytes, with findings (missing cards, overfull ...).

    `pictures=False` draws card pictures as same-sized placeholders (a faster layout for checks).
    """
    register()
    if paper not in PAPERS:
        raise UsageError(f"unknown rulebook paper {paper!r} (known: {', '.join(PAPERS)})")
    rendered = render_template(game, "rulebook", lang)
    size = PAPERS[paper]
    columns, margin, gap, column, styles = _page(paper)
    top, bottom = 14 * mm, 17 * mm
    conv, body = converted(game, rendered, lang, styles, column, PICTURE, pictures)

    title = game.manifest.title[lang]
    buf = io.BytesIO()
    doc = OutlinedDoc(buf, title=title, subject=words(lang)["rules"], lang=lang, pagesize=size,
                      leftMargin=margin, rightMargin=margin, topMargin=top, bottomMargin=bottom)
    width, height = size[0] - 2 * margin, size[1] - top - bottom
    doc.addPageTemplates([PageTemplate("title", column_frames(margin, bottom, width, height, 1, 0)),
                          PageTemplate("body", column_frames(margin, bottom, width, height, columns, gap),
                                       onPage=_footer(title, 8))])

    story = title_page(game, lang, styles, conv)
    # a line to spare on each page: page numbers may grow between the passes
    spare = styles.body.leading
    plan = contents_plan(conv.headings, styles, width if columns == 1 else column,
                         height - stack_height(story, width) - spare,
                         (height - spare) * columns)
    doc.toc_levels = plan.levels
    contents = []
    if plan.levels:
        toc = TableOfContents(levelStyles=_toc_levels(styles, plan.levels), dotsMinLevel=0,
                              tableStyle=_toc_style(styles))
        heading = Paragraph(conv.text(words(lang)["contents"]), styles.h[1 if plan.on_title_page else 0])
        contents = [heading, toc]
    if plan.on_title_page:
        story += contents
        contents = []
    story += [NextPageTemplate("body"), PageBreak()]
    if contents:
        story += contents + [PageBreak()]
    while body and type(body[-1]) is Spacer:  # space after the last block must not start a page
        body.pop()
    story += body + [FloatsEnd()]
    if plan.levels:
        doc.multiBuild(story)
    else:
        doc.build(story)
    findings = [*rendered.findings, *overfull_findings(rendered, conv.sink, conv.wide_tables),
                *failing_examples(game, rendered)]
    return Built(buf.getvalue(), findings, doc.page, list(doc.placements), rendered)


__all__ = ["Built", "CellText", "ContentsPlan", "FloatsEnd", "HeaderTable", "Heading", "LayoutConverter",
           "OutlinedDoc", "PAPERS", "Placement", "build_rulebook", "card_factory", "content_widths",
           "contents_plan"]
