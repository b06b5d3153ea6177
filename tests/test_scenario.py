"""Scenarios: every Love Formula scenario passes, and a wrong expectation fails."""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.scenario import load_scenario, run_scenario

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
