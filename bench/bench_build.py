"""Benchmark: the A4 PnP build of every game vs. plain ReportLab drawing as many cards.

The baseline draws, for each physical card, a frame, a title (drawString) and one Paragraph, 9
cards per A4 page, with an embedded TrueType font, on an invariant canvas. The issue's budget is
at most 3x the baseline. Run: `python bench/bench_build.py`.
"""
from __future__ import annotations

import io
import sys
import time
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from forge.build import BuildOptions  # noqa: E402
from forge.model import load_game  # noqa: E402
from forge.render import fonts  # noqa: E402
from forge.render.layout import _face_cached  # noqa: E402
from forge.render.sheets import pnp_pdf  # noqa: E402

GAMES = ["love_formula", "rules_does_not_exist", "anima_shadow_of_omega"]
MM = 72 / 25.4


def baseline(cards: list[tuple[str, str]]) -> bytes:
    fonts.register()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1, initialFontName=fonts.REGULAR)
    style = ParagraphStyle("p", fontName=fonts.REGULAR, fontSize=8, leading=9.5)
    w, h = 63 * MM, 88 * MM
    for i, (title, text) in enumerate(cards):
        slot = i % 9
        if i and slot == 0:
            c.showPage()
        x = (12 + (slot % 3) * 63) * MM
        y = (20 + (2 - slot // 3) * 88) * MM
        c.rect(x, y, w, h)
        c.setFont(fonts.BOLD, 10)
        c.drawCentredString(x + w / 2, y + h - 10 * MM, title)
        p = Paragraph(text, style)
        p.wrap(w - 10 * MM, h)
        p.drawOn(c, x + 5 * MM, y + h / 2)
    c.showPage()
    c.save()
    return buf.getvalue()


def main() -> None:
    from forge.text import effect_text
    games = [load_game(ROOT / "cards" / g)[0] for g in GAMES]
    cards = [(card.name["uk"], effect_text(g.manifest, card, "uk") or card.name["uk"])
             for g in games for card in g.cards for _ in range(card.copies)]
    t0 = time.perf_counter()
    baseline(cards)
    base = time.perf_counter() - t0
    _face_cached.cache_clear()
    t0 = time.perf_counter()
    for g in games:
        pnp_pdf(g, BuildOptions(lang="uk"), "a4")
    ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    for g in games:
        pnp_pdf(g, BuildOptions(lang="uk"), "a4")
    warm = time.perf_counter() - t0
    print(f"cards: {len(cards)} (3 games)")
    print(f"plain ReportLab (frame + title + paragraph per card): {base:.2f} s")
    print(f"forge A4 PnP build, layouts from templates, cold cache: {ours:.2f} s")
    print(f"forge A4 PnP build again, layouts cached (drawing only): {warm:.2f} s")
    print(f"ratio: {ours / base:.2f}x cold, {warm / base:.2f}x warm (budget 3x)")


if __name__ == "__main__":
    main()
