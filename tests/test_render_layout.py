"""The generic renderer: sheet geometry, hyphenation, text fitting, the rulebook's flowable."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from reportlab.platypus import SimpleDocTemplate

from forge.model import load_game
from forge.render import card_flowable, front
from forge.render.layout import SHY, fit_text, hyphenate
from forge.render.sheets import grid, png_size

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_cards_fit_three_by_three_with_bleed_and_room_for_marks(paper):
    g = grid(paper, 63, 88, home=False)
    assert (g.cols, g.rows) == (3, 3)
    assert 0 < g.bx <= 3 and 0 < g.by <= 3
    left = g.x0 - g.bx
    right = g.x0 + 3 * g.w + 5 * g.bx
    assert left >= 4 - 1e-6 and g.paper[0] - right >= 4 - 1e-6


def test_home_mode_has_no_bleed_and_backs_mirror_for_long_and_short_edges():
    g = grid("a4", 63, 88, home=True)
    assert g.bx == g.by == 0
    x, y = g.slot(0)
    bx, by = g.mirrored(0, "long", (0, 0))
    assert bx == pytest.approx(g.paper[0] - x - g.w) and by == y
    sx, sy = g.mirrored(0, "short", (1.5, -2))
    assert sx == pytest.approx(x + 1.5) and sy == pytest.approx(g.paper[1] - y - g.h - 2)


def test_ukrainian_words_get_soft_hyphens_apostrophes_kept_whole():
    text = hyphenate("Перетасуйте відбій карт і найміть пʼятьох персонажів", "uk")
    assert SHY in text
    assert text.replace(SHY, "") == "Перетасуйте відбій карт і найміть пʼятьох персонажів"


def test_text_shrinks_to_fit_and_reports_when_the_minimum_is_not_enough():
    el = {"kind": "text", "x": 0, "y": 0, "w": 40, "h": 10, "text": "слово " * 12, "size": 10, "min": 6}
    _, size, ok = fit_text(el, "uk")
    assert ok and 6 <= size < 10
    el["text"] = "слово " * 90
    _, size, ok = fit_text(el, "uk")
    assert not ok and size == 6


def test_every_card_face_of_every_game_fits_and_has_every_glyph():
    for name in ("love_formula", "rules_does_not_exist", "anima_shadow_of_omega"):
        game, _ = load_game(ROOT / "cards" / name)
        for card in game.cards:
            for lang in game.manifest.locales:
                assert front(game, card, lang).problems == [], (card.id, lang)


def test_card_flowable_draws_in_a_document_at_the_requested_width():
    game, _ = load_game(ROOT / "cards" / "rules_does_not_exist")
    flow = card_flowable(game, game.cards[0], "uk", 40)
    w, h = flow.wrap(500, 800)
    assert w == pytest.approx(40 * 72 / 25.4) and h == pytest.approx(w * 88 / 63)
    buf = io.BytesIO()
    SimpleDocTemplate(buf, invariant=1).build([flow])
    from pypdf import PdfReader
    assert game.cards[0].name["uk"] in PdfReader(buf).pages[0].extract_text()


def test_png_size_is_the_print_on_demand_preset_or_300_dpi_with_bleed():
    assert png_size(63, 88) == (825, 1125)
    assert png_size(70, 120) == (898, 1488)
