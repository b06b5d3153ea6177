"""The generic renderer: sheet geometry, hyphenation, text fitting, the rulebook's flowable."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.platypus import SimpleDocTemplate

from forge.model import load_game
from forge.render import card_flowable, front
from forge.render import layout
from forge.render.layout import fit_text
from forge.text.hyphenation import hyphenate
from forge.text.typography import SHY
from forge.render.presets import png_size
from forge.render.sheets import SAFE, grid, mark_segments

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("paper, layout, bleed", [("a4", (4, 2, True), (3, 3)), ("letter", (4, 2, True), (2.5, 3))])
def test_poker_cards_keep_their_bleed_and_every_trim_stays_6_mm_inside(paper, layout, bleed):
    g = grid(paper, 63, 88, home=False)
    assert (g.cols, g.rows, g.landscape) == layout
    assert (g.bx, g.by) == bleed  # Letter: 2.5 mm left and right, or only three cards fit across
    x0, y0, x1, y1 = g.outer
    assert x1 - x0 == pytest.approx(g.cols * (63 + 2 * g.bx)) and y1 - y0 == pytest.approx(g.rows * 94)
    for tx0, ty0, tx1, ty1 in g.trims():
        assert min(tx0, ty0, g.paper[0] - tx1, g.paper[1] - ty1) >= SAFE - 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("home", [False, True])
def test_crop_marks_mark_every_cut_line_and_never_touch_a_trim(paper, home):
    g = grid(paper, 63, 88, home=home)
    segs = mark_segments(g)
    for ax0, ay0, ax1, ay1 in segs:
        for tx0, ty0, tx1, ty1 in g.trims():
            assert not (max(ax0, ax1) >= tx0 and min(ax0, ax1) <= tx1
                        and max(ay0, ay1) >= ty0 and min(ay0, ay1) <= ty1)
        assert SAFE - 1e-6 <= min(ax0, ax1) and max(ax0, ax1) <= g.paper[0] - SAFE + 1e-6
        assert SAFE - 1e-6 <= min(ay0, ay1) and max(ay0, ay1) <= g.paper[1] - SAFE + 1e-6
    assert all(any(a == c == x for a, _, c, _ in segs) for x in g.xs())
    assert all(any(b == d == y for _, b, _, d in segs) for y in g.ys())


def test_letter_backs_of_a_landscape_sheet_flip_top_to_bottom_on_the_long_edge():
    g = grid("letter", 63, 88, home=False)
    x, y = g.slot(0)
    assert g.mirrored(0, "long", (0, 0)) == pytest.approx((x, g.paper[1] - y - g.h))
    assert g.mirrored(0, "short", (0, 0)) == pytest.approx((g.paper[0] - x - g.w, y))


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


_HYPHENATE = ("import sys; from forge.text.hyphenation import hyphenate; "
              "sys.stdout.write(hyphenate('перевірка незалежності перемістити', 'uk'))")


def test_hyphenation_is_the_same_from_the_pattern_cache_and_a_broken_cache_is_parsed_again(tmp_path):
    env = dict(os.environ, FORGE_CACHE=str(tmp_path))
    run = lambda: subprocess.run([sys.executable, "-c", _HYPHENATE], env=env, capture_output=True,  # noqa: E731
                                 text=True, check=True).stdout
    first = run()
    assert first.count(SHY) >= 5
    (copy,) = (tmp_path / "hyphenation").iterdir()
    assert run() == first  # read back from the cache
    copy.write_bytes(b"\x00garbage")
    assert run() == first
    assert copy.read_bytes() != b"\x00garbage"  # parsed again and rewritten

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


def test_once_blocks_list_everything_that_differs_between_cards(monkeypatch):
    """Elements made in `{% call once(...) %}` are reused by every card passing the same
    arguments: every card's layout must be the same with and without that reuse."""
    games = [load_game(ROOT / "cards" / g)[0]
             for g in ("love_formula", "rules_does_not_exist", "anima_shadow_of_omega")]

    def every_layout():
        return [layout.layout_elements(g, c, lang) for g in games for lang in ("uk", "en") for c in g.cards]

    shared = every_layout()
    assert every_layout() == shared
    monkeypatch.setattr(layout, "ONCE", False)
    assert every_layout() == shared


def test_once_blocks_may_hold_only_elements(tmp_path, monkeypatch):
    game = load_game(ROOT / "cards" / "love_formula")[0]
    root = tmp_path / "templates"
    (root / "_common" / "cards").mkdir(parents=True)
    (root / "_common" / "cards" / "default.yaml.j2").write_text(
        "{% call once() %}- {kind: rect, x: 0, y: 0, w: 1, h: 1}\n{% endcall %}\n", encoding="utf-8")
    monkeypatch.setenv("FORGE_TEMPLATES", str(root))
    with pytest.raises(layout.LayoutError, match="only el"):
        layout.layout_elements(game, game.cards[0], "uk")


@pytest.mark.parametrize("source, error", [
    ("- {kind: rect, x: 0, y: 0, w: '{{ W }}', h: 2}\n", None),
    ("{{ el('rect', x=0, y=0, w=W, h=2) }}\n", None),
    ("{{ el('rect', x=0, y=0, w=W, h=2) }}\n- {kind: rect, x: 0, y: 0, w: 1, h: 1}\n", "both"),
])
def test_a_layout_writes_its_elements_with_el_or_as_yaml_but_not_both(tmp_path, monkeypatch, source, error):
    game = load_game(ROOT / "cards" / "love_formula")[0]
    root = tmp_path / "templates"
    (root / "_common" / "cards").mkdir(parents=True)
    (root / "_common" / "cards" / "default.yaml.j2").write_text(source, encoding="utf-8")
    monkeypatch.setenv("FORGE_TEMPLATES", str(root))
    if error:
        with pytest.raises(layout.LayoutError, match=error):
            layout.layout_elements(game, game.cards[0], "uk")
        return
    (rect,) = layout.layout_elements(game, game.cards[0], "uk")
    assert rect["kind"] == "rect" and float(rect["w"]) == 63 and rect["h"] == 2


def test_card_flowable_draws_in_a_document_at_the_requested_width():
    game, _ = load_game(ROOT / "cards" / "rules_does_not_exist")
    flow = card_flowable(game, game.cards[0], "uk", 40)
    w, h = flow.wrap(500, 800)
    assert w == pytest.approx(40 * 72 / 25.4) and h == pytest.approx(w * 88 / 63)
    buf = io.BytesIO()
    SimpleDocTemplate(buf, invariant=1).build([flow])
    from pypdf import PdfReader
    # the name may wrap onto two lines: compare with whitespace normalised
    assert game.cards[0].name["uk"] in " ".join(PdfReader(buf).pages[0].extract_text().split())


def test_png_size_is_the_print_on_demand_preset_or_300_dpi_with_bleed():
    assert png_size(63, 88) == (825, 1125)
    assert png_size(70, 120) == (898, 1488)


def test_once_groups_are_one_form_per_document_unless_they_hold_the_cards_art(tmp_path):
    """A face places each `once` group as a form drawn once per document; a group holding
    the art box draws the card's own art file per face."""
    from PIL import Image
    from reportlab.pdfgen.canvas import Canvas

    from forge.render.draw import draw_face
    game = load_game(ROOT / "cards" / "love_formula")[0]
    first = game.cards[0]
    same = [c for c in game.cards if (c.type, c.subtype) == (first.type, first.subtype)][:2]
    assert len(same) == 2
    faces = [front(game, card, "uk") for card in same]
    assert faces[0].groups and [id(g) for g in faces[0].groups.values()] == [id(g) for g in faces[1].groups.values()]
    c = Canvas(io.BytesIO(), pageCompression=1)

    def placed(face, art=None):
        n = len(c._code)
        draw_face(c, face, art)
        return sum(s.count("/FormXob.G") for s in c._code[n:])

    assert placed(faces[0]) == placed(faces[1]) == len(faces[0].groups)
    assert len(c._doc._forge_groups) == len({id(g) for g in faces[0].groups.values()})
    art = tmp_path / "art.png"
    Image.new("RGB", (8, 8), "red").save(art)
    with_art = sum(any(e["kind"] == "art" for e in g) for g in faces[0].groups.values())
    assert with_art
    assert placed(faces[0], art) == len(faces[0].groups) - with_art


def test_the_template_line_of_a_code_line_is_the_one_jinja_finds():
    """`templating.template_line` reads a template's line table once (Jinja's own
    `get_corresponding_lineno` parses it again on every call); the answer is the same."""
    from forge.templating import template_line

    checked = 0
    for name in ("love_formula", "rules_does_not_exist", "anima_shadow_of_omega"):
        game = load_game(ROOT / "cards" / name)[0]
        for template in {layout.template_for(game, card) for card in game.cards}:
            code_lines = max(code for _, code in template.debug_info) + 2
            for line in range(code_lines):
                assert template_line(template, line) == template.get_corresponding_lineno(line)
                checked += 1
    assert checked > 1000
