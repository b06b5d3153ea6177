"""Scenarios: every Love Formula scenario passes, and a wrong expectation fails."""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.scenario import ScenarioError, load_scenario, run_scenario

HERE = Path(__file__).resolve().parent / "scenarios" / "love_formula"
FILES = sorted(HERE.glob("*.yaml"))


def test_there_are_enough_scenarios():
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario_passes(path):
    res = run_scenario(path)
    assert res.passed, str(res)


def test_load_gives_localised_title_and_story():
    sc = load_scenario(HERE / "priority_example.yaml")
    assert sc.title["uk"] and sc.title["en"] and "Аптечка" in sc.story["uk"]


def test_a_wrong_expectation_fails(tmp_path):
    text = (HERE / "scoring_11vp.yaml").read_text(encoding="utf-8").replace("A: 11", "A: 12")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    res = run_scenario(bad)
    assert not res.passed and any("expected 12, got 11" in f for f in res.failures)


def test_an_illegal_scripted_action_is_reported(tmp_path):
    text = (HERE / "move_preparation.yaml").read_text(encoding="utf-8").replace(
        "move beach yoshiro_natsuko", "move beach daisuke_chi")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    res = run_scenario(bad)
    assert not res.passed and any("never legal" in f for f in res.failures)


def test_there_is_a_scenario_per_audited_rule():
    names = {p.stem for p in FILES}
    for want in ("jobs_dealt_and_kept", "draft_phase1_clockwise", "draft_phase2_counterclockwise",
                 "ten_rounds", "hidden_choice", "pair_only_own_zone", "obstacle_only_opponents",
                 "connection_only_own", "reaction_no_move", "tiebreak_preparations",
                 "tiebreak_pairs", "tiebreak_obstacles", "tiebreak_hand", "chance_revealer_left",
                 "chance_reshuffle", "goals_x_plus_one", "goals_same_vp", "goals_open_vp",
                 "goals_hidden_vp", "goals_planned", "promo_jobs_replace", "promo_jobs_mix",
                 "promo_park_valentine_partial", "promo_pairs_replace"):
        assert want in names


def _variant(tmp_path, name, old, new):
    text = (HERE / name).read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / name
    bad.write_text(text.replace(old, new), encoding="utf-8")
    return run_scenario(bad)


def test_a_failing_legality_check_is_reported(tmp_path):
    res = _variant(tmp_path, "obstacle_only_opponents.yaml",
                   "illegal: [target daisuke_chi]", "illegal: [target kazuo_tomiko]")
    assert not res.passed and any("should not be offered" in f for f in res.failures)
    res = _variant(tmp_path, "obstacle_only_opponents.yaml",
                   "legal: [target kazuo_tomiko, target haruto_sakura]", "legal: [target daisuke_chi]")
    assert not res.passed and any("should be legal" in f for f in res.failures)
    res = _variant(tmp_path, "connection_only_own.yaml",
                   "illegal: [target kazuo_tomiko]", "illegal: [target ryo_kanon]")
    assert not res.passed and any("should not be offered" in f for f in res.failures)


def test_together_and_asked_are_checked(tmp_path):
    res = _variant(tmp_path, "hidden_choice.yaml", "together: [A, B, C]", "together: [A]")
    assert not res.passed and any("together" in f for f in res.failures)
    res = _variant(tmp_path, "reaction_no_move.yaml", "B: [react]", "B: [react, move]")
    assert not res.passed and any("was asked" in f for f in res.failures)


def test_a_check_never_reached_fails(tmp_path):
    res = _variant(tmp_path, "reaction_no_move.yaml", "  - B: react not_today\n",
                   "  - B: react not_today\n  - B: {at: move, legal: [pass]}\n")
    assert not res.passed and any("never" in f for f in res.failures)


@pytest.mark.parametrize("old,new", [
    ("stop: {rounds: 1}", "stop: {round: 1}"),
    ("  zones:\n", "  zone:\n"),
    ("B: {hand: [not_today]", "B: {hnd: [not_today]"),
    ("- B: react not_today", "- B: {at: react, legl: [react not_today]}"),
])
def test_unknown_keys_are_refused(tmp_path, old, new):
    with pytest.raises(ScenarioError, match="unknown key"):
        _variant(tmp_path, "reaction_no_move.yaml", old, new)


def test_deal_cannot_go_with_placed_cards(tmp_path):
    with pytest.raises(ScenarioError, match="deal"):
        _variant(tmp_path, "goals_x_plus_one.yaml", "deal: true\n",
                 "deal: true\nseats: {A: {hand: [kiss]}}\n")


def test_unknown_size_zone_is_refused(tmp_path):
    with pytest.raises(ScenarioError, match="unknown zone"):
        _variant(tmp_path, "goals_x_plus_one.yaml", "goal_deck: 18", "goal_pile: 18")
