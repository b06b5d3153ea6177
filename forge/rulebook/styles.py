"""Paragraph and table styles for rulebooks and cheat sheets, all in Roboto, sized from one number.

Every style is set explicitly (fonts, leading, hyphenation off) so ReportLab settings files and
`RL_*` variables cannot change the output, and nothing falls back to Helvetica.
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT
from reportlab.lib.styles import ParagraphStyle

from ..render.fonts import BOLD, FAMILY, ITALIC, REGULAR, register

INK = colors.HexColor("#1d1d1f")
ACCENT = colors.HexColor("#8a2346")
TINT = colors.HexColor("#f6eef1")
RULE = colors.HexColor("#c9aeb8")
HEAD_FILL = colors.HexColor("#ead9df")


@dataclass(frozen=True)
class Styles:
    size: float
    body: ParagraphStyle
    h: tuple[ParagraphStyle, ParagraphStyle, ParagraphStyle]
    cell: ParagraphStyle
    head_cell: ParagraphStyle
    quote: ParagraphStyle
    title: ParagraphStyle
    subtitle: ParagraphStyle
    small: ParagraphStyle
    toc: tuple[ParagraphStyle, ParagraphStyle]

    def indented(self, style: ParagraphStyle, indent: float, bullet: bool) -> ParagraphStyle:
        """A copy of `style` for a list item at `indent` points (bullet hanging in the margin)."""
        return ParagraphStyle(f"{style.name}-{indent}-{bullet}", parent=style,
                              leftIndent=style.leftIndent + indent,
                              bulletIndent=style.leftIndent + indent - self.size * 1.1,
                              spaceBefore=0, spaceAfter=self.size * 0.25, firstLineIndent=0)


def make_styles(size: float = 9.5, justify: bool = True, compact: bool = False) -> Styles:
    """The style sheet for body text of `size` points; `compact` tightens spacing (cheat sheets)."""
    register()
    lead = size * (1.25 if compact else 1.32)
    gap = size * (0.3 if compact else 0.55)
    common = dict(fontName=REGULAR, textColor=INK, bulletFontName=REGULAR, hyphenationLang="",
                  embeddedHyphenation=0, uriWasteReduce=0, splitLongWords=1, allowWidows=0,
                  allowOrphans=0)
    body = ParagraphStyle("body", fontSize=size, leading=lead, spaceAfter=gap,
                          alignment=TA_JUSTIFY if justify else TA_LEFT, bulletFontSize=size, **common)

    # Headings do not use ReportLab's keepWithNext (it moves a heading and everything after it
    # to the next column whenever the two do not fit whole, leaving the column's foot empty):
    # the document keeps a heading with the start of what follows (document.OutlinedDoc).
    def head(level: int, scale: float, before: float, after: float, color=ACCENT) -> ParagraphStyle:
        return ParagraphStyle(f"h{level}", parent=body, fontName=BOLD, fontSize=size * scale,
                              leading=size * scale * 1.2, spaceBefore=size * before,
                              spaceAfter=size * after, alignment=TA_LEFT, textColor=color,
                              keepWithNext=0)

    if compact:
        h = (head(1, 1.3, 0.5, 0.25), head(2, 1.1, 0.35, 0.15), head(3, 1.0, 0.25, 0.1, INK))
    else:
        h = (head(1, 1.75, 0.4, 0.8), head(2, 1.3, 1.0, 0.4), head(3, 1.1, 0.8, 0.3, INK))
    cell = ParagraphStyle("cell", parent=body, fontSize=size * 0.92, leading=size * 0.92 * 1.2,
                          spaceAfter=0, alignment=TA_LEFT)
    head_cell = ParagraphStyle("head-cell", parent=cell, fontName=BOLD)
    quote = ParagraphStyle("quote", parent=body, fontSize=size * 0.95, leading=lead * 0.95,
                           alignment=TA_LEFT)
    title = ParagraphStyle("title", parent=body, fontName=BOLD, fontSize=size * 3, leading=size * 3.4,
                           alignment=TA_CENTER, textColor=ACCENT, spaceAfter=size * 1.5)
    subtitle = ParagraphStyle("subtitle", parent=body, fontSize=size * 1.2, leading=size * 1.6,
                              alignment=TA_CENTER, spaceAfter=size)
    small = ParagraphStyle("small", parent=body, fontSize=size * 0.85, leading=size * 1.05,
                           alignment=TA_LEFT, spaceAfter=0)
    toc = (ParagraphStyle("toc1", parent=body, fontName=BOLD, alignment=TA_LEFT, leftIndent=0,
                          firstLineIndent=0, spaceBefore=size * 0.4, spaceAfter=0),
           ParagraphStyle("toc2", parent=body, alignment=TA_LEFT, leftIndent=size * 1.5,
                          firstLineIndent=0, spaceAfter=0))
    return Styles(size, body, h, cell, head_cell, quote, title, subtitle, small, toc)


__all__ = ["ACCENT", "FAMILY", "HEAD_FILL", "INK", "ITALIC", "RULE", "Styles", "TINT", "make_styles"]
