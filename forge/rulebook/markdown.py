"""Markdown stage: the rendered template, parsed by markdown-it-py, becomes ReportLab flowables.

Inline text is typeset for the language (`forge.text.typography.typeset`) before inline parsing,
so quotes pair up across bold and italic runs; every text run then gets soft hyphens (pyphen) and
XML escaping. Ragged (not justified) paragraphs break lines by the fill rule of
`forge.text.hyphenation` (`forge.text.ragged`); justified ones take every break that fills a line,
which keeps their word spaces even. In table cells names stay whole: a capitalised word, and
any word of a table's first column (the name column of every table the games print), gets no
soft hyphens. Paragraphs are `Para`s, which measure their longest unbreakable piece against the
width they get and record it when it does not fit (ReportLab would cut it without a hyphen).
A printed value's card markup (bold, italic, icons) arrives as marks (`forge.rulebook.inline`):
emphasis becomes tags after escaping, each icon a box of its own in the paragraph.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, Callable

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.tree import SyntaxTreeNode
from reportlab.lib import colors
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (Flowable, HRFlowable, KeepTogether, Paragraph,
                                Spacer, Table, TableStyle)

from ..render.fonts import BOLD, REGULAR, missing_glyphs
from ..render.icons import BUILT_IN, IconSet
from ..text.typography import SHY, escape, typeset
from . import inline as marks
from .context import Block, Rendered
from ..text.hyphenation import hyphenate
from ..text.ragged import held
from .styles import HEAD_FILL, RULE, TINT, Styles

inline_object = "\ufffc"  # an inline icon in a piece's text
_BLOCK = re.compile(r"^@@forge-block-\d+@@$")
_ANY_BLOCK = re.compile(r"@@forge-block-\d+@@")
_BREAKS = re.compile(r"[ \t\n\r]+")
_TINY = 0.5  # points of tolerance when comparing widths


@dataclass(frozen=True)
class Overfull:
    """A piece of text that cannot be broken and is wider than the column it is set in."""

    word: str
    width: float
    available: float


@dataclass
class Sink:
    """Where flowables report overfull pieces (deduplicated; layouts wrap paragraphs twice)."""

    items: dict[str, Overfull] = field(default_factory=dict)
    #: character the font cannot draw -> (font, a bit of the text around it)
    glyphs: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: card id -> (why the card renderer could not draw it, template file, line); a placeholder
    #: stands in for the picture
    pictures: dict[str, tuple[str, str, int]] = field(default_factory=dict)
    #: blocks (a card picture, a scenario) that share a paragraph with text, so they cannot
    #: be drawn: (file, line) of the call
    stray: list[tuple[str, int]] = field(default_factory=list)

    def add(self, item: Overfull) -> None:
        self.items.setdefault(item.word, item)

    def check_glyphs(self, frags) -> None:
        """Record characters a fragment's font lacks (they would print as empty boxes)."""
        for frag in frags:
            text = getattr(frag, "text", "")
            if text and hasattr(frag, "fontName"):
                for ch in missing_glyphs(text, frag.fontName):
                    at = text.index(ch)
                    self.glyphs.setdefault(ch, (frag.fontName, text[max(at - 15, 0):at + 15]))


class Para(Paragraph):
    """A Paragraph that reports its unbreakable pieces wider than the width it is given."""

    sink: Sink | None = None

    def wrap(self, availWidth, availHeight):
        sink = self.__dict__.get("sink")
        if sink is not None and not self.__dict__.get("_measured"):
            self._measured = True
            room = availWidth - self.style.leftIndent - self.style.rightIndent
            for word, width in widest_pieces(self.frags):
                if width > room + _TINY:
                    sink.add(Overfull(word, width, room))
            sink.check_glyphs(self.frags)
        return super().wrap(availWidth, availHeight)

    def breakLines(self, width):
        if self.style.alignment == TA_JUSTIFY:  # justified: hyphens keep the word spaces even
            return super().breakLines(width)
        with held():  # ragged: hyphenated only when a line would be left short
            return super().breakLines(width)

    def split(self, availWidth, availHeight):
        """ReportLab's split, a line earlier while the last line left on this page or column
        ends in a broken word: a reader does not turn the page mid-word (кла-/діть)."""
        parts = super().split(availWidth, availHeight)
        while len(parts) == 2 and _broken(parts[0].blPara.lines[-1]):
            availHeight -= self.style.leading
            parts = super().split(availWidth, availHeight)
        if len(parts) == 2:
            parts[1]._rest = True  # a floated picture is not placed before it (`OutlinedDoc`)
        return parts


def _broken(line) -> bool:
    """Whether a line of a broken paragraph ends in a hyphen after a letter (a word split at a
    soft or a hard hyphen). A line is (extra space, [words]) for one-font paragraphs, an object
    with `.words` of fragments otherwise."""
    words = line.words if hasattr(line, "words") else line[1]
    texts = [t for t in ((getattr(w, "text", w) or "").rstrip() for w in words) if t]
    text = texts[-1] if texts else ""     # a line may end in an empty fragment (a closing tag)
    return len(text) > 1 and text.endswith("-") and text[-2].isalpha()


#: The width of one character in a font at a size (points): the same as ReportLab's
#: `stringWidth`, kept, since pieces and cells are measured character by character.
char_width = lru_cache(maxsize=1 << 16)(stringWidth)


def widest_pieces(frags) -> list[tuple[str, float]]:
    """Every unbreakable piece of a paragraph's fragments with its width (a soft-hyphen break
    counts the hyphen it draws; an inline icon its advance). No-break spaces join; spaces and
    soft hyphens break."""
    pieces: list[tuple[str, float]] = []
    word, width = "", 0.0
    for frag in frags:
        icon = marks.icon_width(frag)
        if icon is not None:  # a glyph of the word it stands in
            word, width = word + inline_object, width + icon
            continue
        text = getattr(frag, "text", "")
        if not text:
            continue
        font, size = frag.fontName, frag.fontSize
        for ch in text:
            if ch in " \t\n\r":
                if word:
                    pieces.append((word, width))
                word, width = "", 0.0
            elif ch == SHY:
                if word:
                    pieces.append((word + "-", width + char_width("-", font, size)))
                word, width = "", 0.0
            else:
                word += ch
                width += char_width(ch, font, size)
    if word:
        pieces.append((word, width))
    return pieces


@cache
def parser() -> MarkdownIt:
    """The one Markdown parser (made once: making one costs more than parsing a paragraph with
    it, and a layout parses each paragraph's text on its own; parsing keeps no state in it)."""
    return MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


# A one-page sheet is laid out at several sizes from the same text, and `check` and `build` set
# the same texts: their parsing and markup, which depend on the text alone, are made once.
@lru_cache(maxsize=256)
def parsed(markdown: str) -> SyntaxTreeNode:
    """The Markdown's syntax tree (read, never changed, by the converters): a template's, or a
    quoted scenario's story."""
    return SyntaxTreeNode(parser().parse(markdown))


def inline_tokens(content: str, lang: str) -> list[Token]:
    """The inline tokens of a block's text, typeset for `lang` first (see the module doc)."""
    return parser().parseInline(typeset(content, lang))[0].children or []


@lru_cache(maxsize=4096)
def inline_markup(content: str, lang: str, names: bool | str = False) -> str:
    """A block's inline Markdown as Paragraph markup: its text runs (`inline_tokens`) each as
    `text_markup`."""
    out = []
    for child in inline_tokens(content, lang):
        kind = child.type
        if kind in _INLINE_MARKUP:
            out.append(_INLINE_MARKUP[kind])
        elif kind == "code_inline":
            out.append(f"<font face='{BOLD}'>{text_markup(child.content, lang, names)}</font>")
        elif kind not in ("link_open", "link_close", "image"):  # links print as their text
            out.append(text_markup(child.content, lang, names))
    return _SPACE_BEFORE_TAG.sub(r"\2\1", "".join(out))


@lru_cache(maxsize=4096)
def text_markup(raw: str, lang: str, names: bool | str = False) -> str:
    """Plain text run to Paragraph markup: typography, soft hyphens, then XML escaping.
    `names`: hyphenate no capitalised word, nor any word when `names` is "all"."""
    raw = typeset(raw, lang)
    if names != "all":
        raw = hyphenate(raw, lang, names=bool(names))
    return marks.tags(_SPACE_BEFORE_ENTITY.sub(r"\1<font>\2\3</font>", escape(raw)))


class Row(Flowable):
    """Flowables side by side, centred, with a gap; height of the tallest."""

    def __init__(self, items: list[Flowable], gap: float = 3 * mm):
        super().__init__()
        self.items, self.gap = items, gap
        self._sizes: list[tuple[float, float]] = []

    def wrap(self, availWidth, availHeight):
        self._sizes = [item.wrap(availWidth, availHeight) for item in self.items]
        self.width = availWidth
        self.height = max((h for _, h in self._sizes), default=0)
        self._avail = availWidth
        return availWidth, self.height

    def draw(self):
        total = sum(w for w, _ in self._sizes) + self.gap * (len(self.items) - 1)
        x = max((self._avail - total) / 2, 0)
        for item, (w, h) in zip(self.items, self._sizes):
            item.drawOn(self.canv, x, self.height - h)
            x += w + self.gap


class CardPlaceholder(Flowable):
    """A framed box with the card's name, standing in until the card renderer draws cards."""

    def __init__(self, name: str, width: float, height: float, size: float):
        super().__init__()
        self.name, self.width, self.height, self.size = name, width, height, size

    def wrap(self, availWidth, availHeight):
        return self.width, self.height

    def draw(self):
        c = self.canv
        c.setStrokeColor(RULE)
        c.setFillColor(TINT)
        c.roundRect(0, 0, self.width, self.height, 2 * mm, stroke=1, fill=1)
        para = Paragraph(escape(self.name), _placeholder_style(self.size))
        w, h = para.wrap(self.width - 4 * mm, self.height)
        para.drawOn(c, 2 * mm, (self.height - h) / 2)


def _placeholder_style(size: float):
    from reportlab.lib.enums import TA_CENTER
    from reportlab.lib.styles import ParagraphStyle
    return ParagraphStyle("placeholder", fontName=BOLD, fontSize=size, leading=size * 1.2,
                          alignment=TA_CENTER, hyphenationLang="")


#: ReportLab drops the space between a word holding soft hyphens and an opening tag
#: ("на\u00adзи\u00adва\u00adєть\u00adся <b>Хостом</b>" prints «називаєтьсяХостом»); inside the tag
#: the space survives.
_SPACE_BEFORE_TAG = re.compile(r"([ \u00a0]+)(<(?:b|i|font[^>]*)>)")
#: Likewise before an escaped character, which ReportLab keeps as a fragment of its own
#: ("Ha\u00adji\u00adme &amp; Kaede" prints «Hajime& Kaede»); inside a tag the space survives.
_SPACE_BEFORE_ENTITY = re.compile(r"(\u00ad[^\s<]*)( +)(&(?:amp|lt|gt);)")
#: Inline Markdown tokens that map straight to ReportLab paragraph markup.
_INLINE_MARKUP = {"strong_open": "<b>", "strong_close": "</b>", "em_open": "<i>", "em_close": "</i>",
                  "softbreak": " ", "hardbreak": "<br/>"}


class Callout(Table):
    """A tinted box around a worked example: split across columns or pages only when at least
    `min_part` of it (about three lines) is left on either side, so no sliver of the box is left
    at a page foot or overleaf."""

    min_part: float = 0.0

    def split(self, availWidth, availHeight):
        while availHeight >= self.min_part:
            parts = super().split(availWidth, availHeight)
            if len(parts) < 2:
                return parts
            first, rest = (part.wrap(availWidth, 1e6)[1] for part in parts)
            if first < self.min_part:
                return []
            if rest >= self.min_part:
                for part in parts:
                    part.min_part = self.min_part
                parts[1]._rest = True  # a floated picture is not placed before it (`OutlinedDoc`)
                return parts
            availHeight -= self.min_part - rest  # leave enough for the part overleaf
        return []


@dataclass
class Converter:
    """Turns one rendered template into flowables with a given style sheet and column width."""

    rendered: Rendered
    styles: Styles
    column: float  # width of the text column, points
    card_factory: Callable | None = None  # (card, width_mm) -> Flowable
    card_width: float = 38 * mm
    card_ratio: float = 88 / 63  # height / width
    sink: Sink = field(default_factory=Sink)
    headings: list = field(default_factory=list)
    #: The game's icons, which the rendered values' icon marks name.
    icons: IconSet = BUILT_IN
    #: The game it sets, as loaded: its quoted scenarios are read against it, not loaded again.
    game: Any = None

    @property
    def lang(self) -> str:
        return self.rendered.lang

    # --- inline --------------------------------------------------------------------------
    def text(self, raw: str, names: bool | str = False) -> str:
        """Plain text run to Paragraph markup (`text_markup`)."""
        return text_markup(raw, self.lang, names)

    def children(self, token: Token) -> list[Token]:
        """The inline tokens of a block's text (`inline_tokens`)."""
        return inline_tokens(token.content, self.lang)

    def inline(self, token: Token, names: bool | str = False) -> str:
        for mark in _ANY_BLOCK.findall(token.content):
            block = self.rendered.blocks.get(mark)
            where = (block.file, block.line) if block else ("", 0)
            if where not in self.sink.stray:
                self.sink.stray.append(where)
        return inline_markup(token.content, self.lang, names)

    def para(self, markup: str, style, bulletText: str | None = None, kind: type = Para, **more) -> Para:
        """A paragraph (`kind`) of `markup`, its icon marks as icons, reporting to the sink."""
        p = kind(markup, style, bulletText=bulletText, **more)
        p.frags = marks.icon_frags(p.frags, self.rendered.icons, self.icons)
        p.sink = self.sink
        return p

    # --- blocks --------------------------------------------------------------------------
    def convert(self, markdown: str | None = None) -> list[Flowable]:
        text = markdown if markdown is not None else self.rendered.markdown
        return self.nodes(parsed(text).children, 0)

    def nodes(self, nodes, indent: float, style=None) -> list[Flowable]:
        out: list[Flowable] = []
        for node in nodes:
            out.extend(self.node(node, indent, style))
        return out

    def node(self, node: SyntaxTreeNode, indent: float, style=None) -> list[Flowable]:
        s = self.styles
        kind = node.type
        if kind == "heading":
            level = int(node.tag[1])
            return [self.heading(node.children[0].token if node.children else None, level)]
        if kind == "paragraph":
            inline = node.children[0].token if node.children else None
            if inline is None:
                return []
            if _BLOCK.match(inline.content.strip()):
                return self.block(self.rendered.blocks.get(inline.content.strip()))
            base = style or s.body
            if indent:
                base = s.indented(base, indent, False)
            return [self.para(self.inline(inline), base)]
        if kind in ("bullet_list", "ordered_list"):
            return self.listing(node, indent, style)
        if kind == "blockquote":
            return [self.callout(self.nodes(node.children, 0, s.quote))]
        if kind == "table":
            table = self.table(node)
            # Short tables stay in one piece (a column or page break would cut a few rows off).
            return [KeepTogether([table]) if len(table._cellvalues) <= 18 else table]
        if kind == "hr":
            return [HRFlowable(width="100%", thickness=0.6, color=RULE, spaceBefore=s.size * 0.4,
                               spaceAfter=s.size * 0.6)]
        if kind in ("code_block", "fence"):
            return [self.para(self.text(node.content).replace("\n", "<br/>"), style or s.body)]
        return self.nodes(node.children, indent, style)

    def heading(self, inline: Token | None, level: int) -> Flowable:
        from .document import Heading
        markup = self.inline(inline) if inline is not None else ""
        # the outline's plain text: the parsed text, so escaped characters print as themselves
        plain = "".join(" " if c.type.endswith("break") else c.content for c in self.children(inline)
                        if c.type in ("text", "code_inline", "softbreak", "hardbreak")) if inline else ""
        style = self.styles.h[min(level, 3) - 1]
        h = self.para(markup, style, kind=Heading, level=level, plain=marks.plain(plain))
        self.headings.append(h)
        return h

    def listing(self, node: SyntaxTreeNode, indent: float, style) -> list[Flowable]:
        s = self.styles
        step = s.size * 1.4
        ordered = node.type == "ordered_list"
        start = int(node.attrs.get("start", 1)) if ordered else 1
        out: list[Flowable] = []
        for number, item in enumerate(node.children, start):
            bullet = f"{number}." if ordered else "•"
            first = True
            for child in item.children:
                if child.type == "paragraph" and child.children and not _BLOCK.match(
                        child.children[0].token.content.strip()):
                    item_style = s.indented(style or s.body, indent + step, True)
                    out.append(self.para(self.inline(child.children[0].token), item_style,
                                         bullet if first else None))
                else:
                    out.extend(self.node(child, indent + step, style))
                first = False
        if out and not indent:
            out.append(Spacer(1, s.size * 0.35))
        for f in out[1:]:
            f._in_list = True  # a floated picture is not placed inside the list (`OutlinedDoc`)
        return out

    def callout(self, inner: list[Flowable]) -> Flowable:
        s = self.styles
        table = Callout([[inner]], colWidths=[self.column], splitInRow=1, style=TableStyle([
            ("FONT", (0, 0), (-1, -1), REGULAR, s.size),
            ("BACKGROUND", (0, 0), (-1, -1), TINT),
            ("LINEBEFORE", (0, 0), (0, -1), 2, RULE),
            ("LEFTPADDING", (0, 0), (-1, -1), s.size * 0.8),
            ("RIGHTPADDING", (0, 0), (-1, -1), s.size * 0.8),
            ("TOPPADDING", (0, 0), (-1, -1), s.size * 0.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), s.size * 0.1),
        ]))
        table.spaceBefore = s.size * 0.2
        table.spaceAfter = s.size * 0.7
        table.min_part = s.size * 5      # about three lines of text and the box's padding
        return table

    def table(self, node: SyntaxTreeNode) -> Flowable:
        s = self.styles
        rows: list[list[Para]] = []
        aligns: list[str] = []
        header_rows = 0
        for section in node.children:
            for tr in section.children:
                cells = []
                for i, cell in enumerate(tr.children):
                    header = cell.type == "th"
                    style = s.head_cell if header else s.cell
                    align = (cell.attrs.get("style") or "").replace("text-align:", "").strip()
                    if len(aligns) <= i:
                        aligns.append(align)
                    inline = cell.children[0].token if cell.children else None
                    names = "all" if i == 0 else True  # names stay whole (see the module doc)
                    cells.append(self.para(self.inline(inline, names) if inline else "", style))
                rows.append(cells)
                if section.type == "thead":
                    header_rows += 1
        width = max(len(r) for r in rows)
        for r in rows:
            r.extend(self.para("", s.cell) for _ in range(width - len(r)))
        widths = self.column_widths(rows, width)
        commands = [
            ("FONT", (0, 0), (-1, -1), REGULAR, s.size),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, RULE),
            ("LEFTPADDING", (0, 0), (-1, -1), s.size * 0.3),
            ("RIGHTPADDING", (0, 0), (-1, -1), s.size * 0.3),
            ("TOPPADDING", (0, 0), (-1, -1), s.size * 0.2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), s.size * 0.25),
        ]
        if header_rows:
            commands.append(("BACKGROUND", (0, 0), (-1, header_rows - 1), HEAD_FILL))
        for i, align in enumerate(aligns):
            if align in ("right", "center"):
                for r in rows:
                    r[i].style = _aligned(r[i].style, align)
        table = Table(rows, colWidths=widths, repeatRows=header_rows, style=TableStyle(commands),
                      hAlign="LEFT")
        table.spaceBefore = s.size * 0.2
        table.spaceAfter = s.size * 0.8
        return table

    def column_widths(self, rows: list[list[Para]], n: int) -> list[float]:
        """Widths from the content: each column gets at least its longest word, the rest of the
        column width is shared in proportion to the text each column holds."""
        pad = self.styles.size * 0.6
        least, want = [pad] * n, [pad] * n
        for r in rows:
            for i, cell in enumerate(r[:n]):
                pieces = widest_pieces(cell.frags)
                least[i] = max(least[i], max((w for _, w in pieces), default=0) + pad)
                want[i] = max(want[i], sum(w for _, w in pieces) + pad
                              + stringWidth(" ", REGULAR, self.styles.size) * len(pieces))
        if sum(want) <= self.column:
            return want
        spare = max(self.column - sum(least), 0)
        extra = [max(w - m, 0) for w, m in zip(want, least)]
        total = sum(extra) or 1
        return [m + spare * e / total for m, e in zip(least, extra)]

    def block(self, block: Block | None) -> list[Flowable]:
        if block is None:
            return []
        if block.kind == "cards":
            self._block = block
            return [self.cards(block.cards)] if block.cards else []
        if block.kind == "scenario" and block.scenario:
            from .scenarios import scenario_flowables
            return [self.callout(scenario_flowables(self, block.scenario))]
        return []

    def cards(self, cards) -> Flowable:
        n = len(cards)
        gap = 3 * mm
        width = min(self.card_width, (self.column - gap * (n - 1)) / n)
        items = [self.card(card, width) for card in cards]
        row = Row(items, gap)
        return KeepTogether([Spacer(1, self.styles.size * 0.3), row,
                             Spacer(1, self.styles.size * 0.8)])

    def card(self, card, width: float) -> Flowable:
        if self.card_factory is not None:
            try:
                return self.card_factory(card, width / mm)
            except Exception as exc:  # the renderer's problem, reported; a placeholder stands in
                block = getattr(self, "_block", None)
                self.sink.pictures.setdefault(card.id, (
                    f"{type(exc).__name__}: {exc}".split("\n")[0],
                    block.file if block else "", block.line if block else 0))
        height = width * self.card_ratio
        return CardPlaceholder(card.name[self.lang], width, height, self.styles.size * 0.9)


def _aligned(style, align: str):
    from reportlab.lib.enums import TA_CENTER, TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle
    return ParagraphStyle(f"{style.name}-{align}", parent=style,
                          alignment=TA_RIGHT if align == "right" else TA_CENTER)


__all__ = ["Converter", "Overfull", "Para", "Row", "Sink", "char_width", "parser", "widest_pieces"]
