"""The balance report PDF reads as a report in its reader's language: the summary on page 1,
the long tables after it with their headers and figures as the language writes numbers, every
decision and option named, and no word of the other language."""
from __future__ import annotations

import io
import re

import pytest
from babel.numbers import format_decimal
from pypdf import PdfReader

from forge.rules import ENGINES, simulate
from forge.rules.agents import agent_name
from forge.rules.figures import FigureTable
from forge.rules.report import TEXT, write_report
from forge.text.typography import typeset

GAMES = ("love_formula", "rules_does_not_exist", "anima_shadow_of_omega")


def _run(game, players: int) -> dict:
    return simulate(game, games=12, players=players, seed=3)


def _pages(pdf) -> list[str]:
    """Each page's text, runs of white space (no-break spaces too) as one space."""
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf.read_bytes())).pages]


def _words(text: str, lang: str) -> str:
    """``text`` as the report prints it (typeset) and reads back (spaces as one)."""
    return " ".join(typeset(text, lang).split())


def _latin(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_]{3,}", text))


@pytest.mark.parametrize("lang", ["uk", "en"])
@pytest.mark.parametrize("game_id", GAMES)
def test_the_report_reads_in_its_language(products, tmp_path, game_id, lang):
    game = products.game(game_id)
    engine = ENGINES[game.manifest.engine]
    result = products.once(_run, game_id, 3)
    t = TEXT[lang]
    pages = _pages(write_report(result, tmp_path / "r.pdf", lang, game))
    first, rest = pages[0], " ".join(pages[1:])
    # page 1: the summary, the agents named in the reader's language; the long tables after it
    for head in (t["balance"], t["length"], t["look"], t["seat"], t["win"]):
        assert _words(head, lang) in first, head
    assert all(agent_name(engine, a, lang) in first for a in result["agents"])
    assert _words(t["kinds"], lang) not in first and _words(t["kinds"], lang) in rest
    # every kind of decision and every option's verb is named in both languages
    for named, seen in ((engine.kind_names, result["decision_kinds"]),
                        (engine.verb_names, result["option_verbs"])):
        assert all(lang in named.get(k, {}) for k in seen), set(seen) - set(named)
    # a known figure: the kind asked most, by its name, with its count as the language writes it
    kind, k = max(result["decision_kinds"].items(), key=lambda kv: kv[1]["decisions"])
    count = _words(format_decimal(k["decisions"], "#,##0", locale=lang), lang)
    assert f"{t['asked']} {t['asked_games']}" in rest
    assert f"{_words(engine.kind_names[kind][lang], lang)} {count}" in rest
    # the game's own figures as tables: title, header, a row's name and first count
    if engine.report_tables is not None:
        names = {c.id: c.name[lang] for c in game.cards}
        tables = engine.report_tables(result["engine"], result["games"], names.__getitem__, lang)
        for table in tables:
            assert isinstance(table, FigureTable)
            assert _words(table.title, lang) in rest
            assert _words(" ".join(c.title for c in table.columns), lang) in rest
            kinds = [c.kind for c in table.columns]
            for j in range(len(kinds) - 1):
                if kinds[j:j + 2] == ["text", "count"] and isinstance(table.rows[0][j + 1], int):
                    name, count = table.rows[0][j], table.rows[0][j + 1]
                    assert _words(f"{name} {format_decimal(count, '#,##0', locale=lang)}", lang) in rest
        if any(c.kind == "share" for t in tables if t.rows for c in t.columns):
            assert re.search(r"\d,\d %" if lang == "uk" else r"\d\.\d%", rest)
    text = " ".join(pages)
    if lang == "uk":    # Latin only in the game's own names (a title, a card called «VHS»)
        own = " ".join([game.manifest.title["uk"], *(s.name["uk"] for s in game.manifest.sets.values()),
                        *(c.name["uk"] for c in game.cards)])
        assert _latin(text) <= _latin(own), _latin(text) - _latin(own)
    else:
        assert not re.search(r"[А-Яа-яІіЇїЄєҐґ]", text)


def test_a_game_whose_rules_are_data_prints_its_length_as_a_table(tmp_path):
    """The rules-as-data engine's figures (length, timeouts) are a table too, in uk numbers."""
    from conftest import ROOT
    from forge.model import load_game
    game = load_game(ROOT / "examples" / "cards" / "skydachka")[0]
    result = simulate(game, games=5, players=3, seed=1)
    rest = " ".join(_pages(write_report(result, tmp_path / "r.pdf", "uk", game))[1:])
    turns = format_decimal(result["engine"]["turns_per_game"], "#,##0.00", locale="uk")
    assert f"Тривалість партії Ходів за партію Зупинено межею, партій {turns} 0" in rest


def test_cards_of_one_name_are_told_apart_by_their_sets(products):
    """A promo card and the card it replaces share a name: the report's rows say whose is whose."""
    from forge.rules.report import _card_names
    game = products.game("love_formula")
    sets = {s: spec.name["uk"] for s, spec in game.manifest.sets.items()}
    names = _card_names(game, "uk", sets)
    assert (names["park"], names["park_promo"]) == ("Парк (Базова гра)", "Парк (Промокарти)")
    assert names["kiss"] == "Поцілунок"


def test_tables_sort_in_the_language_s_alphabetical_order():
    """Code points put є, і, ї, ґ after я; a typeset name's no-break space is a space."""
    from forge.text.typography import collation_key
    uk = ["Провідник", "Підкріплення", "Ґава", "Яра", "Єва", "Ігор", "Їжак", "Абатство"]
    assert sorted(uk, key=lambda s: collation_key(s, "uk")) == [
        "Абатство", "Ґава", "Єва", "Ігор", "Їжак", "Підкріплення", "Провідник", "Яра"]
    en = [typeset(s, "en") for s in ("Aquarium", "A Promise", "amnesia")]
    assert [s.split()[0] for s in sorted(en, key=lambda s: collation_key(s, "en"))] == \
        ["A", "amnesia", "Aquarium"]
