"""`forge cards`: the built-in sets hold exactly what their rulebooks state."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from conftest import GAMES, forge_in_process


def records(game: str) -> list[dict]:
    result = forge_in_process("cards", game, "--format", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def counts(cards: list[dict], key) -> Counter:
    out: Counter = Counter()
    for card in cards:
        out[key(card)] += card["copies"]
    return out


@pytest.fixture(scope="module")
def love_formula():
    return records("love_formula")


def test_love_formula_base_matches_the_rulebook(love_formula):
    base = [c for c in love_formula if c["set"] == "base"]
    assert sum(c["copies"] for c in base) == 136
    assert counts(base, lambda c: c["type"]) == {
        "preparation": 57, "pair": 28, "obstacle": 18, "reaction": 8, "connection": 8, "action": 17}
    assert counts(base, lambda c: (c["type"], c["subtype"]))[("action", "job")] == 4
    assert {c["subtype"] for c in base if c["type"] == "preparation"} == {"event", "location", "item"}
    assert {c["subtype"] for c in base if c["type"] == "obstacle"} == {"rival", "plot"}


def test_love_formula_expansions_match_the_rulebook(love_formula):
    per_set = counts(love_formula, lambda c: c["set"])
    assert per_set == {"base": 136, "chance": 28, "goals": 44, "promo": 24}
    promo = [c for c in love_formula if c["set"] == "promo"]
    assert counts(promo, lambda c: c["type"]) == {"preparation": 14, "pair": 4, "obstacle": 2, "action": 4}
    assert all(c["subtype"] == "job" for c in promo if c["type"] == "action")
    goals = [c for c in love_formula if c["set"] == "goals"]
    assert set(counts(goals, lambda c: c["type"])) == {"goal", "vp"}
    assert {c["subtype"] for c in goals if c["type"] == "goal"} == {"first", "end"}


def test_love_formula_named_cards_say_what_the_rulebook_says(love_formula):
    by_name = {c["name"]["uk"]: c for c in love_formula if c["set"] == "base"}
    ids = {c["id"]: c for c in love_formula}
    name_of = lambda card_id: ids[card_id]["name"]["uk"]
    assert by_name["Поцілунок"]["effects"] == [{"draw": {"count": 3, "who": "you"}}]
    daisuke = by_name["Дайсуке та Чі"]
    assert sorted(map(name_of, daisuke["requires"])) == ["Аптечка", "Дім"] and daisuke["vp_perfect"] == 4
    kazuo = by_name["Кадзуо та Томіко"]
    assert sorted(map(name_of, kazuo["requires"])) == ["Смаколики", "Фестиваль"] and kazuo["vp_perfect"] == 4
    eiji = by_name["Еідзі та Кійоко"]
    assert "Парк" in map(name_of, eiji["requires"]) and len(eiji["requires"]) >= 2
    distance = by_name["Велика відстань"]
    assert distance["type"] == "obstacle" and distance["duration"] == 3
    assert {"end_pair_after": {"rounds": 3}} in distance["effects"]
    # The priority example: Аптечка, then Йошіро та Натсуко, then Мʼяка іграшка before Поцілунок.
    order = sorted(["Поцілунок", "Мʼяка іграшка", "Йошіро та Натсуко", "Аптечка"],
                   key=lambda n: (by_name[n]["priority"], by_name[n]["tiebreak"]), reverse=True)
    assert order == ["Аптечка", "Йошіро та Натсуко", "Мʼяка іграшка", "Поцілунок"]
    assert by_name["Мʼяка іграшка"]["priority"] == by_name["Поцілунок"]["priority"]
    assert by_name["Амнезія"]["priority"] > by_name["Велика відстань"]["priority"]
    for name in ("Пляж", "Різдвяна листівка", "Хадзіме та Каеде", "Йошіро та Натсуко"):
        assert name in by_name
    everything = {c["name"]["uk"] for c in love_formula}
    assert {"Сенпай мене помітив!", "#ВибачМеніНеШкода", "#Купідон"} <= everything


def test_love_formula_promo_replacements(love_formula):
    ids = {c["id"]: c for c in love_formula}
    promo_pairs = [c for c in love_formula if c["set"] == "promo" and c["type"] == "pair"]
    replaced = sorted(ids[c["replaces"]]["name"]["uk"] for c in promo_pairs)
    assert replaced == sorted(["Фуміо та Емі", "Хісао та Юкі", "Тамотсу та Нао", "Тсутомо та Каміко"])
    for card in promo_pairs:
        assert sorted(card["requires"]) == sorted(ids[card["replaces"]]["requires"])
    for name in ("Парк", "День Святого Валентина"):
        promo = [c for c in love_formula if c["set"] == "promo" and c["replaces"]
                 and ids[c["replaces"]]["name"]["uk"] == name]
        assert sum(c["copies"] for c in promo) == 3
        assert all(c["priority"] == ids[c["replaces"]]["priority"] for c in promo)


def test_anima_totals():
    cards = records("anima_shadow_of_omega")
    assert sum(c["copies"] for c in cards) == 110
    assert counts(cards, lambda c: c["type"])["location"] == 14
    assert counts(cards, lambda c: (c["type"], c["subtype"]))[("mission", "final")] == 3
    assert set(counts(cards, lambda c: c["type"])) == {"character", "location", "event", "mission", "bonus"}


def test_rave_game_types():
    cards = records("rules_does_not_exist")
    assert set(counts(cards, lambda c: c["type"])) == {"sound", "monster", "class", "mercenary"}
    monsters = [c for c in cards if c["type"] == "monster"]
    assert any({"reset": {}} in m["failure"] for m in monsters)


@pytest.mark.parametrize("game", GAMES)
def test_every_card_has_both_names(game):
    for card in records(game):
        assert set(card["name"]) == {"uk", "en"}
        assert card["name"]["uk"].strip() and card["name"]["en"].strip()
        assert card["id"].isascii()


def test_text_listing_shows_ukrainian_names():
    result = forge_in_process("cards", "love_formula")
    assert result.returncode == 0 and "Дайсуке та Чі" in result.stdout
