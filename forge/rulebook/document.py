"""The rulebook PDF: title page from the manifest, table of contents, the template's Markdown,
page numbers, and a PDF outline entry per heading (`#` top level, `##`/`###` children).

A5 pages by default, A4 (two columns) on request. Built with `multiBuild` (the table of contents
needs a second pass) and `invariant=1`, so the same input gives the same bytes.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib.pagesizes import A4, A5
from reportlab.lib.units import mm
from reportlab.platypus import (BaseDocTemplate, Frame, NextPageTemplate,
                                PageBreak, PageTemplate, Paragraph, Spacer, TableStyle)
from reportlab.platypus.tableofcontents import TableOfContents

from ..errors import Finding, UsageError, display_path
from ..model import Game
from ..render import card_flowable, front
from ..render.fonts import REGULAR, register
from ..text import plural
from .context import Rendered, render_template
from ..text.typography import SHY
from .markdown import Converter, Para, Sink
from .scenarios import failing_examples
from .styles import ACCENT, INK, RULE, Styles, make_styles

PAPERS = {"a5": A5, "a4": A4}
_WORDS = {
    "uk": {"rules": "Правила гри", "contents": "Зміст", "players": ("гравець", "гравці", "гравців"),
           "box": "Уміст коробки", "cards": ("карта", "карти", "карт"), "incl": "з них"},
    "en": {"rules": "Rules of play", "contents": "Contents", "players": ("player", "players"),
           "box": "In the box", "cards": ("card", "cards"), "incl": "of which"},
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


class OutlinedDoc(BaseDocTemplate):
    """A doc template that turns `Heading`s into bookmarks, outline entries and TOC entries."""

    toc_levels = 2

    def __init__(self, buf, *, title: str, subject: str, lang: str, **layout):
        super().__init__(buf, invariant=1, initialFontName=REGULAR, title=title, author="Card Forge",
                         creator="Card Forge", subject=subject, lang=lang, **layout)

    def beforeDocument(self):
        self._outline_level = -1
        self._keys: set[str] = set()

    def afterFlowable(self, flowable):
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


@dataclass
class Built:
    """A built PDF and what was found while building it."""

    pdf: bytes
    findings: list[Finding] = field(default_factory=list)
    pages: int = 0


def card_factory(game: Game, lang: str):
    """Card pictures drawn by the card renderer (`forge.render.card_flowable`).

    The card's face is laid out first, so a layout that fails raises here (the converter then
    draws a placeholder and reports it) rather than in the middle of drawing the page.
    """
    def make(card, width_mm: float):
        front(game, card, lang)
        return card_flowable(game, card, lang, width_mm)
    return make


def converted(game: Game, rendered: Rendered, lang: str, styles: Styles, column: float,
              picture_height: float, pictures: bool) -> tuple[Converter, list]:
    """The rendered Markdown as flowables for a column, headings keyed for the outline."""
    ratio = game.manifest.card_size.height / game.manifest.card_size.width
    conv = Converter(rendered, styles, column, card_factory(game, lang) if pictures else None,
                     picture_height, ratio)
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


def overfull_findings(rendered: Rendered, sink: Sink) -> list[Finding]:
    out = []
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


def box_contents(game: Game, lang: str, styles: Styles, text) -> list:
    """One paragraph per set: its card count, the count per card type (with subtypes) and its
    other components, every number counted from the card data."""
    w, m = words(lang), game.manifest
    out = [Paragraph(f"<b>{text(w['box'])}</b>", styles.h[2])]

    def n_cards(n: int) -> str:
        return f"{n}\u00a0{plural(n, w['cards'], lang)}"

    for set_id, spec in m.sets.items():
        total = sum(c.copies for c in game.cards if c.set == set_id)
        lines = [f"<b>{text(spec.name[lang])}</b>: {n_cards(total)}"]
        for type_id, type_spec in m.card_types.items():
            n = game.count(type_id, set_id)
            if not n:
                continue
            line = f"{text(type_spec.name[lang])}: {n_cards(n)}"
            subs = [f"{text(sub[lang])}: {n_cards(game.count(type_id, set_id, sub_id))}"
                    for sub_id, sub in type_spec.subtypes.items() if game.count(type_id, set_id, sub_id)]
            if subs:
                line += f" ({w['incl']} " + ", ".join(subs) + ")"
            lines.append("• " + line)
        for comp in spec.components:
            lines.append(f"• {text(comp.name[lang])}: {comp.count}")
        out.append(Paragraph("<br/>".join(lines), styles.small))
        out.append(Spacer(1, styles.size * 0.6))
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
    out += box_contents(game, lang, styles, text)
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


def build_rulebook(game: Game, lang: str, paper: str = "a5", pictures: bool = True) -> Built:
    """The rulebook of `game` in `lang` as PDF bytes, with findings (missing cards, overfull ...).

    `pictures=False` draws card pictures as same-sized placeholders (a faster layout for checks).
    """
    register()
    if paper not in PAPERS:
        raise UsageError(f"unknown rulebook paper {paper!r} (known: {', '.join(PAPERS)})")
    rendered = render_template(game, "rulebook", lang)
    size = PAPERS[paper]
    columns = 1 if paper == "a5" else 2
    margin, gap = (13 * mm, 0) if paper == "a5" else (17 * mm, 7 * mm)
    top, bottom = 14 * mm, 17 * mm
    column = (size[0] - 2 * margin - gap * (columns - 1)) / columns
    styles = make_styles(9.0 if paper == "a5" else 9.5)
    conv, body = converted(game, rendered, lang, styles, column, 38 * mm, pictures)

    title = game.manifest.title[lang]
    buf = io.BytesIO()
    doc = OutlinedDoc(buf, title=title, subject=words(lang)["rules"], lang=lang, pagesize=size,
                      leftMargin=margin, rightMargin=margin, topMargin=top, bottomMargin=bottom)
    width, height = size[0] - 2 * margin, size[1] - top - bottom
    doc.addPageTemplates([PageTemplate("title", column_frames(margin, bottom, width, height, 1, 0)),
                          PageTemplate("body", column_frames(margin, bottom, width, height, columns, gap),
                                       onPage=_footer(title, 8))])

    toc = TableOfContents(levelStyles=list(styles.toc), dotsMinLevel=0,
                          tableStyle=TableStyle([("FONT", (0, 0), (-1, -1), REGULAR, styles.size),
                                                 ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                                 ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                                                 ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    story = title_page(game, lang, styles, conv)
    story += [NextPageTemplate("body"), PageBreak(),
              Paragraph(conv.text(words(lang)["contents"]), styles.h[0]), toc, PageBreak()]
    story += body
    doc.multiBuild(story)
    findings = [*rendered.findings, *overfull_findings(rendered, conv.sink),
                *failing_examples(game, rendered)]
    return Built(buf.getvalue(), findings, doc.page)


__all__ = ["Built", "Heading", "OutlinedDoc", "PAPERS", "build_rulebook", "card_factory"]
