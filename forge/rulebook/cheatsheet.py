"""The cheat sheet: one landscape A4 page in three columns, from `cheatsheet.<lang>.md.j2`.

Shrink to fit: the sheet is laid out at the largest body size from `MAX_SIZE` down to `MIN_SIZE`
(steps of `STEP`) that fits one page. If even `MIN_SIZE` needs a second page, the PDF is still
made (at `MIN_SIZE`) and a `cheatsheet-overflow` finding says so: text is never set below the
minimum size to make it fit.
"""
from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.platypus import PageTemplate

from ..errors import Finding
from ..model import Game
from ..render.fonts import BOLD, REGULAR, register
from .context import render_template
from .document import Built, OutlinedDoc, column_frames, converted, overfull_findings
from .markdown import Converter
from .scenarios import failing_examples
from .styles import ACCENT, INK, RULE, make_styles

MAX_SIZE, MIN_SIZE, STEP = 9.0, 6.0, 0.25
COLUMNS = 3
PAGE = landscape(A4)
MARGIN, GAP, BAND = 9 * mm, 6 * mm, 13 * mm
COLUMN = (PAGE[0] - 2 * MARGIN - GAP * (COLUMNS - 1)) / COLUMNS
_NAME = {"uk": "пам\u02bcятка", "en": "quick reference"}


def _band(title: str, lang: str):
    def draw(canvas, doc):
        canvas.saveState()
        w, h = PAGE
        canvas.setFillColor(ACCENT)
        canvas.setFont(BOLD, 15)
        canvas.drawString(MARGIN, h - MARGIN - 10, title)
        canvas.setFont(REGULAR, 10)
        canvas.setFillColor(INK)
        canvas.drawRightString(w - MARGIN, h - MARGIN - 10, _NAME.get(lang, _NAME["en"]))
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.6)
        canvas.line(MARGIN, h - MARGIN - BAND + 4 * mm, w - MARGIN, h - MARGIN - BAND + 4 * mm)
        for i in range(1, COLUMNS):
            x = MARGIN + i * (COLUMN + GAP) - GAP / 2
            canvas.setLineWidth(0.3)
            canvas.line(x, MARGIN, x, h - MARGIN - BAND)
        canvas.restoreState()
    return draw


def _layout(game: Game, rendered, lang: str, size: float, pictures: bool = True) -> tuple[bytes, int, Converter]:
    styles = make_styles(size, justify=False, compact=True)
    conv, story = converted(game, rendered, lang, styles, COLUMN, 22 * mm, pictures)
    buf = io.BytesIO()
    title = game.manifest.title[lang]
    doc = OutlinedDoc(buf, title=title, subject=_NAME.get(lang, _NAME["en"]), lang=lang,
                      pagesize=PAGE, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                      bottomMargin=MARGIN)
    frames = column_frames(MARGIN, MARGIN, PAGE[0] - 2 * MARGIN, PAGE[1] - 2 * MARGIN - BAND, COLUMNS, GAP)
    doc.addPageTemplates([PageTemplate("sheet", frames, onPage=_band(title, lang))])
    doc.build(story)
    return buf.getvalue(), doc.page, conv


def build_cheatsheet(game: Game, lang: str, pictures: bool = True) -> Built:
    """The one-page cheat sheet of `game` in `lang`, set as large as fits (see module doc).

    `pictures=False` draws card pictures as same-sized placeholders (a faster layout for checks).
    """
    register()
    rendered = render_template(game, "cheatsheet", lang)
    if rendered.findings and not rendered.markdown:
        return Built(b"", list(rendered.findings), 0)
    sizes = []
    size = MAX_SIZE
    while size >= MIN_SIZE - 1e-9:
        sizes.append(round(size, 2))
        size -= STEP
    # Binary search over the sizes (descending): the largest that fits one page.
    lo, hi, best = 0, len(sizes) - 1, None
    while lo <= hi:
        mid = (lo + hi) // 2
        result = _layout(game, rendered, lang, sizes[mid], pictures)
        if result[1] == 1:
            best, hi = (sizes[mid], result), mid - 1
        else:
            lo = mid + 1
    findings = list(rendered.findings)
    if best is None:
        pdf, pages, conv = _layout(game, rendered, lang, MIN_SIZE, pictures)
        findings.append(Finding(rendered.template, 0, 0, "cheatsheet-overflow",
                                f"the cheat sheet needs {pages} pages even at {MIN_SIZE:g} pt",
                                "shorten the template: a cheat sheet is one page"))
    else:
        pdf, pages, conv = best[1]
    findings += overfull_findings(rendered, conv.sink) + failing_examples(game, rendered)
    return Built(pdf, findings, pages)


__all__ = ["MAX_SIZE", "MIN_SIZE", "build_cheatsheet"]
