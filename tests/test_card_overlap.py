"""Text a layout places over its art or past the card's edge is a `text-over-art` finding at
`check` (`forge.render.overlap`), and the built-in layouts place none (the Love Formula promo
cards once printed «Замінює: Парк» over their art)."""
from __future__ import annotations

import shutil

from conftest import CARDS, ROOT
from forge.check import check_game
from forge.model import load_game
from forge.render import front
from forge.scaffold import scaffold


def test_text_a_layout_puts_over_the_art_or_off_the_card_is_a_finding(tmp_path):
    scaffold(tmp_path, "mygame", ("uk", "en"), ("spell",))
    layout = tmp_path / "templates" / "mygame" / "cards" / "spell.yaml.j2"
    source = layout.read_text(encoding="utf-8")
    layout.write_text(source.replace("p.body(5.5, 49.5,", "p.body(5.5, 30,")  # into the art (20..47)
                      + "{{ el('label', x=W - 4, y=H - 3, text='Edition', size=7, what='stamp') }}\n",
                      encoding="utf-8")
    _, findings = check_game(tmp_path / "cards" / "mygame")
    said = {(f.card, f.code, f.message) for f in findings}
    assert said and all(code == "text-over-art" for _, code, _ in said), said
    # every card, each fault once (a place holds one finding: the first language's)
    assert {card for card, _, _ in said} == {c.id for c in load_game(tmp_path / "cards" / "mygame")[0].cards}
    assert {m for _, _, m in said} == {"rules text (uk) prints over the art (5, 20 mm, 53x27 mm)",
                                       "stamp (uk) prints past the card's edge (63x88 mm)"}, said


def test_the_promo_cards_replacement_line_is_caught_under_the_old_layout_and_clear_of_the_art(tmp_path):
    ids = ("park_promo", "valentines_day_promo")
    game, _ = load_game(CARDS / "love_formula")
    for card in ids:
        for lang in ("uk", "en"):
            assert front(game, game.by_id[card], lang).problems == []
    game_dir = tmp_path / "cards" / "love_formula"
    shutil.copytree(CARDS / "love_formula", game_dir)
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    layout = tmp_path / "templates" / "love_formula" / "cards" / "preparation.yaml.j2"
    # the layout before the fix: a preparation with no effects got the tall art, whatever it printed
    layout.write_text(layout.read_text(encoding="utf-8").replace(
        "true if card.effects or card.replaces else false", "card.effects|length > 0"), encoding="utf-8")
    game, _ = load_game(game_dir)
    for card in ids:
        (problem,) = front(game, game.by_id[card], "uk").problems
        assert problem.code == "text-over-art" and "rules text (uk) prints over the art" in problem.message
