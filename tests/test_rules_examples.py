"""The proof games of rules as data under examples/ besides «Скидачка» (tests/test_rules_data.py):
«Смаколики», a pick-and-pass draft with set collection, and «Чумаки», a market game with cards
that last some rounds. Each checks clean, passes its scenarios (every action, the simultaneous
reveal, passing, refill, durations, each scoring rule, the ends, the tiebreakers) and plays
seeded games clean and alike twice, with no Python of its own."""
from __future__ import annotations

import json

import pytest

from conftest import ROOT, forge_in_process

EXAMPLES = ROOT / "examples"
GAMES = {"smakolyky": 5, "chumaky": 4}          # game -> players in the seeded simulate
SCENARIOS = [p for g in GAMES for p in sorted((EXAMPLES / "tests" / "scenarios" / g).glob("*.yaml"))]


@pytest.mark.parametrize("game", GAMES)
def test_the_game_checks_clean_with_at_least_ten_scenarios(game):
    done = forge_in_process("check", str(EXAMPLES / "cards" / game))
    assert done.returncode == 0, done.stderr
    assert "0 findings" in done.stderr, done.stderr
    assert len([p for p in SCENARIOS if p.parent.name == game]) >= 10


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_scenario_passes(path, monkeypatch):
    from forge.scenario import run_scenario
    monkeypatch.setenv("FORGE_CARDS", str(EXAMPLES / "cards"))
    res = run_scenario(path)
    assert res.passed, res.failures


@pytest.mark.parametrize("game, players", GAMES.items())
def test_seeded_games_are_clean_and_alike_twice(game, players):
    from forge.rules.simulate import without_timings
    reports = []
    for _ in range(2):
        done = forge_in_process("simulate", str(EXAMPLES / "cards" / game), "--games", "100",
                                "--players", str(players), "--seed", "7", "--format", "json")
        assert done.returncode == 0, done.stderr
        reports.append(without_timings(json.loads(done.stdout)))
    assert reports[0] == reports[1]
    report = reports[0]
    assert report["violations"] == [] and report["engine"]["timeouts"] == 0
    assert report["dead_cards"] == []                 # every card is offered by some rule
    rounds = report["engine"]["rounds_per_game"]      # the draft is three rounds; the fair
    assert rounds == 3 if game == "smakolyky" else 5 < rounds < 49    # closes with the deck
    assert min(report["mean_score"]) > 0              # every seat scores something on average


@pytest.mark.parametrize("game", GAMES)
def test_its_rulebook_builds(game, tmp_path):
    """The rulebook (examples/templates/<game>/) builds, quoting the scenarios beside the game
    (examples/tests/scenarios/<game>/) from the repository's root, where no game has its id."""
    done = forge_in_process("build", str(EXAMPLES / "cards" / game), "--what", "rulebook",
                            "--lang", "en", "--out", str(tmp_path), "--format", "json")
    assert done.returncode == 0, done.stderr
    written, = json.loads(done.stdout)
    assert written["product"] == "rulebook" and written["bytes"] > 10_000


@pytest.mark.parametrize("game", GAMES)
def test_its_rulebook_and_cheat_sheet_print_the_setup_turn_and_end_from_its_rules(game):
    """Every line of the played setup, turn and end is in the rulebook, and the turn and end in
    the cheat sheet, in each language: the printed turn is the simulated one."""
    from forge.model import load_game
    from forge.rulebook.context import render_template
    from forge.rulebook.played import played_rules
    loaded, _ = load_game(EXAMPLES / "cards" / game)
    for lang in ("uk", "en"):
        played = played_rules(loaded, lang)
        assert played and played.defs, "the words file names what the score is made of"
        for kind, sections in (("rulebook", ("setup", "turn", "end")), ("cheatsheet", ("turn", "end"))):
            out = render_template(loaded, kind, lang)
            assert not out.findings, out.findings
            for line in (ln for sec in sections for ln in getattr(played, sec)):
                assert (f"**{line.head}**" if line.head else line.text) in out.markdown, (kind, lang, line)
