"""`forge check` does each piece of work once (issue 23), counted, never timed: a game is loaded
once, each scenario file its rulebooks quote is read once, and the operation texts of a
manifest it has checked before are not parsed again."""
from __future__ import annotations

import jinja2
import pytest

import forge.rulebook.context as context
import forge.rules.scenario as scenario
from conftest import CARDS, GAMES
from forge.check import check_game


@pytest.mark.parametrize("game", GAMES)
def test_a_check_loads_its_game_and_each_quoted_scenario_once(game, monkeypatch):
    monkeypatch.setattr(scenario, "_GAMES", {})  # nothing loaded by an earlier test
    reloaded, quoted = [], []
    monkeypatch.setattr(scenario, "load_game", lambda root: reloaded.append(root) or (None, []))
    real = context.load_scenario
    monkeypatch.setattr(context, "load_scenario", lambda path, loaded=None: quoted.append(path) or real(path, loaded))
    _, findings = check_game(CARDS / game)
    assert not findings
    assert reloaded == [], "the scenarios are checked against the game check loaded"
    assert quoted and len(quoted) == len(set(quoted)), "each scenario file is loaded once"


def test_operation_texts_checked_before_are_not_parsed_again(monkeypatch):
    check_game(CARDS / "love_formula")  # the run's cache now holds what parsing them found
    parsed = []
    real = jinja2.Environment.parse
    monkeypatch.setattr(jinja2.Environment, "parse", lambda env, source, *a, **k: parsed.append(source)
                        or real(env, source, *a, **k))
    _, findings = check_game(CARDS / "love_formula")  # a new game object: nothing kept in memory
    assert not findings
    assert parsed == []
