"""Cheat sheets: one page per game and language, numbers from the data, odds computed exactly."""
from __future__ import annotations

import io
import re
import shutil
from fractions import Fraction

import pytest
from pypdf import PdfReader

from conftest import CARDS, GAMES, ROOT
from forge.model import load_game
from forge.rulebook import build_cheatsheet, d6_battle, d6_odds
from forge.rulebook.cheatsheet import MIN_SIZE
from pdfread import assert_fonts_embedded
from test_rulebook import normalised


@pytest.mark.parametrize("lang", ["uk", "en"])
@pytest.mark.parametrize("game_id", GAMES)
def test_one_page_with_embedded_fonts(products, game_id, lang):
    game = products.game(game_id)
    built = products.once(build_cheatsheet, game_id, lang)
    assert [str(f) for f in built.findings] == []
    reader = PdfReader(io.BytesIO(built.pdf))
    assert len(reader.pages) == 1
    assert_fonts_embedded(reader)
    text = normalised(reader.pages[0].extract_text())
    assert game.manifest.title[lang] in text


def test_rave_monster_table_comes_from_the_data(products):
    game = products.game("rules_does_not_exist")
    built = products.once(build_cheatsheet, game.id, "uk")
    text = normalised(PdfReader(io.BytesIO(built.pdf)).pages[0].extract_text())
    for monster in game.cards_of("monster"):
        first = monster.name["uk"].split()[0]
        assert first in text, monster.id


def test_d6_odds_are_exact():
    assert [str(d6_odds(n)) for n in range(0, 8)] == ["6/6", "6/6", "5/6", "4/6", "3/6", "2/6", "1/6", "0/6"]
    assert d6_odds(5).percent == 33
    # Two opposed d6: equal strength, a tie goes to you against a monster: 21/36.
    assert d6_battle(0).win_tie.fraction == Fraction(21, 36)
    assert d6_battle(0).win_decided.fraction == Fraction(1, 2)
    assert d6_battle(0).lose_by(5).fraction == Fraction(1, 36)
    assert d6_battle(-6).win_tie.num == 0 and d6_battle(5).win_tie.num == 36
    for diff in range(-7, 8):
        b = d6_battle(diff)
        assert b.win.num + b.tie.num + b.lose_by(1).num == 36


def test_anima_odds_in_print_match_the_computation(products):
    built = products.once(build_cheatsheet, "anima_shadow_of_omega", "en")
    text = normalised(PdfReader(io.BytesIO(built.pdf)).pages[0].extract_text())
    assert " ".join(str(d6_odds(n)) for n in range(1, 8)) in text
    row = re.search(r"\+2 (\d+) % (\d+) % (\d+) %", text)
    assert row and int(row.group(1)) == d6_battle(2).win_tie.percent == 83


def test_too_long_a_sheet_is_a_finding(tmp_path):
    shutil.copytree(CARDS / "rules_does_not_exist", tmp_path / "cards" / "rules_does_not_exist")
    folder = tmp_path / "templates" / "rules_does_not_exist"
    folder.mkdir(parents=True)
    paragraph = "Довгий текст, що ніяк не вміститься на одній сторінці пам'ятки. " * 12
    (folder / "cheatsheet.uk.md.j2").write_text(
        "# Забагато\n\n" + "\n\n".join([paragraph] * 40) + "\n", encoding="utf-8")
    game, _ = load_game(tmp_path / "cards" / "rules_does_not_exist")
    built = build_cheatsheet(game, "uk")
    codes = [f.code for f in built.findings]
    assert "cheatsheet-overflow" in codes
    assert str(MIN_SIZE).rstrip("0").rstrip(".") in " ".join(f.message for f in built.findings)
