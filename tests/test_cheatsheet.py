"""Cheat sheets: one page per game and language, numbers from the data, odds computed exactly."""
from __future__ import annotations

import io
import itertools
import re
import shutil
from fractions import Fraction
from types import SimpleNamespace

import pytest
from pypdf import PdfReader

from conftest import CARDS, GAMES, ROOT
from forge.model import load_game
from forge.rulebook import build_cheatsheet, d6_battle, d6_odds
from forge.rulebook.cheatsheet import (CHEATSHEET, MIN_SIZE, PAPERS, STEP, Layout, fit,
                                       largest_fitting)
from forge.rulebook.context import render_template
from forge.rulebook.document import Placement
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


def test_a_fit_lays_the_sheet_out_a_few_times(products):
    """Love Formula's cheat sheet is fitted in 4 layouts (a binary search on the size took 7):
    each size tried is the one the last layout predicts. The size kept fits, and the next
    size in its column count was laid out and does not (the search's bracket)."""
    game = products.game("love_formula")
    best, tried = fit(game, render_template(game, "cheatsheet", "uk"), "uk", CHEATSHEET, PAPERS["a4"],
                      pictures=False)
    assert len(tried) <= 5, [(t.columns, t.size, t.fits) for t in tried]
    assert best.fits and best.pages == 1
    larger = [t for t in tried if t.columns == best.columns and round((t.size - best.size) / STEP) == 1]
    assert larger and not larger[0].fits


def test_the_size_search_finds_the_largest_fitting_size_in_fewer_layouts_than_halving():
    """Stand-in sheets of sizes 6 to 12 pt whose text fits one page up to a size `limit`, where
    it takes `full` of the page (real sheets: 0.91 to 0.98), and grows as the size to the power
    `growth` (real sheets: 1.3 to 2.4): the search returns the largest size that fits, as a
    binary search does, trying no size twice, 4.6 layouts a search on average where a binary
    search takes 6, and never more than 8."""
    counts = []
    sheets = itertools.product(range(59, 125), (0.9, 0.94, 0.97, 1.0), (1.3, 1.6, 2.0, 2.4))
    for limit, full, growth in sheets:
        laid: list[int] = []

        def lay(tenths: int):
            laid.append(tenths)
            return SimpleNamespace(size=tenths * STEP, demand=full * (tenths / limit) ** growth,
                                   fits=tenths <= limit, overfull=False)

        found = largest_fitting(60, 120, 90, lay)
        largest = min(limit, 120) if limit >= 60 else None  # 59: none fits
        assert (round(found.size / STEP) if found else None) == largest
        assert len(laid) == len(set(laid)), laid
        counts.append(len(laid))
    assert sum(counts) / len(counts) < 5 and max(counts) <= 8


@pytest.mark.parametrize("limit", [64, 80, 100])
def test_a_layout_too_wide_whatever_its_length_does_not_slow_the_search(limit):
    """From `limit` up a word is wider than its column (the page has room to spare): the
    search still finds the largest size that fits, halving the sizes left rather than trying
    them one by one."""
    laid: list[int] = []

    def lay(tenths: int):
        laid.append(tenths)
        return SimpleNamespace(size=tenths * STEP, demand=0.5 * (tenths / 90) ** 2,
                               fits=tenths < limit, overfull=tenths >= limit)

    found = largest_fitting(60, 120, 90, lay)
    assert found is not None and round(found.size / STEP) == limit - 1
    assert len(laid) <= 7, laid


def test_a_layout_of_two_pages_demands_more_than_one():
    """What the search predicts from: a layout whose text runs on to a second page demands the
    columns it fills on both (3 full columns and half of one: 3.5 / 3), not just the first."""
    def column(page: int, frame: str, bottom: float) -> Placement:
        return Placement(page, frame, "Para", 500, bottom, 500, 100)

    placed = [column(1, f"c{i}", 100) for i in range(3)] + [column(2, "c0", 300)]
    layout = Layout(SimpleNamespace(page=2), None, 9.0, 3, placed)
    assert layout.fill == pytest.approx(1.0)
    assert layout.demand == pytest.approx(3.5 / 3)
