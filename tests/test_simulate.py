"""forge simulate: determinism, JSON fields, dead cards, violations, report, CLI."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from forge.cli.app import app
from forge.model import load_game
from forge.rules import simulate
from forge.rules.simulate import without_timings, wilson
from pdfread import assert_fonts_embedded

ROOT = Path(__file__).resolve().parents[1] / "cards" / "love_formula"


@pytest.fixture(scope="module")
def game():
    return load_game(ROOT)[0]


@pytest.fixture(scope="module")
def run300(game):
    return simulate(game, games=300, players=4, seed=5)


def test_same_seed_same_result_with_any_jobs(game, run300):
    again = simulate(game, games=300, players=4, seed=5, jobs=2)
    assert without_timings(again) == without_timings(run300)
    other = simulate(game, games=300, players=4, seed=6)
    assert without_timings(other) != without_timings(run300)


def test_summary_fields(run300):
    r = run300
    assert r["games"] == 300 and r["violations"] == []
    assert len(r["seat_win_rate"]) == 4
    assert abs(sum(x["win_rate"] for x in r["seat_win_rate"]) - 1) < 0.01
    for x in r["seat_win_rate"]:
        assert x["ci95"][0] <= x["win_rate"] <= x["ci95"][1]
    assert r["mean_decisions_per_game"] > 100
    assert r["dead_cards"] == []
    assert "kiss" in r["cards"] and 0 < r["cards"]["kiss"]["play_share"] <= 1


def test_a_broken_rule_is_reported_with_the_seed_and_actions_that_reproduce_it(game, monkeypatch):
    """Sabotage «draw» so a drawn card vanishes: the invariant check must catch it, and the
    reported seed and actions must replay to the same broken state."""
    from forge.rules import love_formula
    from forge.rules.core import InvariantViolation, Rolled, actions_from_json, replay

    def leaky_draw(self, ctx, count, who):
        for s in (yield from self._who(ctx, who)):
            for _ in range(count):
                if self._draw_one() < 0:
                    break
    monkeypatch.setitem(love_formula.OPS, "draw", leaky_draw)
    r = simulate(game, games=30, players=4, seed=9)
    assert r["violations"], "the lost card went unnoticed"
    v = r["violations"][0]
    assert "not conserved" in v["message"] and v["actions"]
    # the reported actions hold the choices and the chance outcomes: replayed, they break the
    # same rule at the same decision
    fresh = love_formula.prepare(game, love_formula.Config()).new(v["players"], v["seed"], deal=False)
    with pytest.raises(InvariantViolation, match="not conserved"):
        replay(fresh, actions_from_json(v["actions"]))
        fresh.check_invariants()
    assert sum(1 for a in fresh.actions if not isinstance(a, Rolled)) == v["decision_index"]


def test_greedy_beats_random(game):
    r = simulate(game, games=150, players=2, seed=1, agents=("greedy", "random"))
    assert r["seat_win_rate"][0]["win_rate"] > 0.7


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60


def test_cli_json_and_report(tmp_path):
    pdf = tmp_path / "report.pdf"
    res = CliRunner().invoke(app, ["simulate", str(ROOT), "--games", "40", "--players", "3",
                                   "--seed", "2", "--sets", "chance,goals,promo",
                                   "--agents", "random,greedy", "--format", "json",
                                   "--report", str(pdf)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["games"] == 40 and data["agents"] == ["random", "greedy"]
    reader = PdfReader(str(pdf))
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Звіт про баланс" in text and "40 партій, 3 гравці" in text
    assert "\x00" not in text, "a glyph the font lacks (it prints as an empty box)"
    assert_fonts_embedded(reader)


def test_cli_rejects_unknown_set():
    res = CliRunner().invoke(app, ["simulate", str(ROOT), "--sets", "nope", "--games", "1"])
    assert res.exit_code != 0


def test_engine_options_and_the_old_flags_are_the_same_thing():
    """Love Formula's `--goals-variant`/`--promo-*` flags are its engine options under their
    old names: `--option name=value` gives the same games."""
    base = ["simulate", str(ROOT), "--games", "20", "--players", "2", "--seed", "3",
            "--sets", "chance,goals,promo", "--format", "json"]
    old = CliRunner().invoke(app, base + ["--goals-variant", "same", "--goals-value", "4",
                                          "--promo-jobs", "replace", "--promo-cards", "replace"])
    new = CliRunner().invoke(app, base + ["--option", "goals_variant=same", "--option",
                                          "goals_same_value=4", "--option", "promo_jobs=replace",
                                          "--option", "promo_cards=replace"])
    assert old.exit_code == 0 and new.exit_code == 0, old.output + new.output
    assert without_timings(json.loads(old.output)) == without_timings(json.loads(new.output))
    listed = CliRunner().invoke(app, ["simulate", str(ROOT), "--help-options"])
    assert listed.exit_code == 0
    for name in ("goals_variant", "goals_same_value", "promo_jobs", "promo_cards", "promo_replace"):
        assert name in listed.output
    assert "agents: random, greedy" in listed.output
    bad = CliRunner().invoke(app, ["simulate", str(ROOT), "--games", "1", "--option", "goals_variant=wild"])
    from forge.errors import UsageError
    assert isinstance(bad.exception, UsageError) and "goals_variant" in str(bad.exception)
