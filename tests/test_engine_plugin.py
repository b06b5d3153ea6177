"""An engine in its own package: the «High Card» example of docs/engines.md (its cards in
tests/plugin_game/cards/high_card, its engine in tests/plugin_game/high_card_engine) registers
through the `card_forge.engines` entry-point group and is checked, simulated and played in
scenarios by the `forge` command, without a line of forge naming it.

The registration is what `pip install` of the game's package would leave behind: a
`*.dist-info` folder with an `entry_points.txt`, made here in a temporary folder that goes on
PYTHONPATH with the package (for forge in this process: on sys.path, `plugged`), so the test
works from a fresh clone (CI: `pip install -e '.[test]'`).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import forge_in_process

HERE = Path(__file__).resolve().parent
PLUGIN = HERE / "plugin_game"
GAME = PLUGIN / "cards" / "high_card"
ROOT = HERE.parent


def installed(site: Path, target: str = "high_card_engine:ENGINE") -> Path:
    """``site`` holding the installed metadata of a `high-card` distribution whose entry point
    names ``target``."""
    info = site / "high_card-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: high-card\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[card_forge.engines]\nhigh_card = {target}\n")
    return site


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return installed(tmp_path_factory.mktemp("site"))


@pytest.fixture
def plugged(site, monkeypatch):
    """`forge` in this process with the package installed: `site` and the engine's folder on
    sys.path, and forge's registry of engines emptied, so that it finds `high_card` through the
    entry point as a fresh process does (what it found before comes back after the test). A
    fresh process of its own is what the first tests run; the others are about what the engine
    does once found, which this shows without an interpreter's start-up each."""
    from forge.rules import ENGINES
    monkeypatch.syspath_prepend(str(PLUGIN))
    monkeypatch.syspath_prepend(str(site))
    for name, empty in (("_found", None), ("_engines", {}), ("_errors", {})):
        monkeypatch.setattr(ENGINES, name, empty)

    def forge(*args: str, cards: Path | None = None) -> subprocess.CompletedProcess:
        return forge_in_process(*args, env={"FORGE_CARDS": str(cards)} if cards else None)
    return forge


def forge(site: Path, *args: str, cards: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(PLUGIN), env.get("PYTHONPATH", "")])
    if cards is not None:
        env["FORGE_CARDS"] = str(cards)
    return subprocess.run([sys.executable, "-m", "forge", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)


def test_the_engine_is_found_through_the_entry_point_and_the_game_checks_clean(site):
    done = forge(site, "check", str(GAME))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 findings" in done.stdout + done.stderr


def test_without_the_package_the_manifest_names_an_unknown_engine(tmp_path):
    bare = tmp_path / "site"
    bare.mkdir()
    done = forge(bare, "check", str(GAME))
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(r"game\.yaml:9:\d+: unknown-engine", done.stderr), done.stderr


def test_an_entry_point_naming_the_module_is_a_broken_engine(tmp_path):
    """An entry names the engine's `Engine` object; one naming the module (the contract before
    `Engine`) is a `broken-engine` finding at the `engine:` line saying so, not a traceback."""
    done = forge(installed(tmp_path / "site", "high_card_engine"), "check", str(GAME))
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(r"game\.yaml:9:\d+: broken-engine: the rules engine 'high_card' breaks the "
                     r"engine contract: its entry point 'high_card_engine' names module .*not a "
                     r"forge\.rules\.Engine", done.stderr), done.stderr
    assert "Traceback" not in done.stderr


def test_forge_simulate_plays_the_plugin_game(plugged):
    args = ("simulate", str(GAME), "--games", "200", "--players", "3", "--seed", "4",
            "--agents", "random,smallest", "--format", "json")
    done = plugged(*args)
    assert done.returncode == 0, done.stdout + done.stderr
    r = json.loads(done.stdout)
    assert r["game"] == "high_card" and r["games"] == 200 and not r["violations"]
    assert r["agents"] == ["random", "smallest"]
    assert abs(sum(x["win_rate"] for x in r["seat_win_rate"]) - 1) < 0.01
    assert 0 < r["engine"]["rolloffs_per_game"] < 3          # the engine's `statistics` hook
    # which cards were offered and chosen, known from the engine's `label` alone
    assert r["dead_cards"] == [] and all(v["games_offered"] for v in r["cards"].values())
    assert r["decision_kinds"]["play"]["decisions"] > 0 and r["option_verbs"]["play"]["chosen"] > 0
    text = plugged(*args[:-2])
    assert "d6 roll-offs per game: " in text.stdout
    again = json.loads(plugged(*args).stdout)
    strip = lambda d: {k: v for k, v in d.items() if k not in ("seconds", "games_per_s", "decisions_per_s")}  # noqa: E731
    assert strip(again) == strip(r)


def test_engine_options_are_declared_listed_and_checked(plugged):
    listed = plugged("simulate", str(GAME), "--help-options")
    assert listed.returncode == 0 and "tricks (int; default: 3)" in listed.stdout
    assert "agents: random, smallest" in listed.stdout
    ok = plugged("simulate", str(GAME), "--games", "5", "--players", "2", "--option", "hand=2",
                 "--option", "tricks=2", "--format", "json")
    assert ok.returncode == 0, ok.stderr
    # 2 tricks of 2 seats at most (a seat left with one card plays it without being asked)
    assert 0 < json.loads(ok.stdout)["mean_decisions_per_game"] <= 4
    bad = plugged("simulate", str(GAME), "--games", "5", "--option", "hand=7")
    # typed on the command line: a usage error naming the flag (exit 2), never a traceback
    assert bad.returncode == 2 and "option hand: '7' is not one of 2, 3, 4" in bad.stderr + bad.stdout
    unknown = plugged("simulate", str(GAME), "--games", "5", "--option", "jokers=1")
    assert unknown.returncode == 2 and "unknown option 'jokers'" in unknown.stderr + unknown.stdout
    assert "Traceback" not in bad.stderr + unknown.stderr


def test_scenarios_of_the_plugin_game_script_the_dice(plugged, tmp_path):
    cards = tmp_path / "cards"
    shutil.copytree(GAME, cards / "high_card")
    files = sorted(str(p) for p in (PLUGIN / "scenarios" / "high_card").glob("*.yaml"))
    done = plugged("scenario", *files, cards=cards)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(files)} passed, 0 failed" in done.stderr
    # the roll-off is scripted: other rolls give the trick to A
    text = Path(files[-1]).read_text(encoding="utf-8").replace("d6: [2, 5]", "d6: [6, 1]")
    flipped = tmp_path / "flipped.yaml"
    flipped.write_text(text, encoding="utf-8")
    done = plugged("scenario", str(flipped), cards=cards)
    assert done.returncode == 1 and "score of A: expected 0, got 7" in done.stderr


def test_a_manifest_naming_an_engine_that_does_not_fit_its_cards_is_a_finding(plugged, tmp_path):
    """High Card's cards under Love Formula's engine: the engine's `requires` do not fit, and
    each problem is a finding with file:line and exit 1, never a traceback (exit 3)."""
    copy = tmp_path / "high_card"
    shutil.copytree(GAME, copy)
    manifest = copy / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "engine: high_card", "engine: love_formula"), encoding="utf-8")
    done = plugged("check", str(copy))
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(r"game\.yaml:9:\d+: engine-requires: .*'pair'.* cards", done.stderr), done.stderr
    assert "Traceback" not in done.stderr
    played = plugged("simulate", str(copy), "--games", "2")   # the same findings, no game
    assert played.returncode == 1 and "Traceback" not in played.stderr
    assert re.search(r"game\.yaml:9:\d+: engine-requires", played.stdout + played.stderr)


def test_an_effect_in_an_effects_field_that_the_engine_lacks_is_a_finding(plugged, tmp_path):
    """Not only `effects`: every effects-typed field (like a monster's `failure`) is checked."""
    copy = tmp_path / "high_card"
    shutil.copytree(GAME, copy)
    manifest = copy / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "      value: {type: int, min: 1, max: 9}\n",
        "      value: {type: int, min: 1, max: 9}\n"
        "      failure: {type: effects, required: false}\n").replace(
        "operations:\n",
        "operations:\n  explode:\n    params: {}\n    text: {uk: Бум, en: Boom}\n"), encoding="utf-8")
    numbers = copy / "numbers.yaml"
    numbers.write_text(numbers.read_text(encoding="utf-8").replace(
        "value: 9}", "value: 9, failure: [explode]}"), encoding="utf-8")
    done = plugged("check", str(copy))
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stderr
    assert re.search(r"numbers\.yaml:8:\d+: unimplemented-operation \[nine\]: operation 'explode'",
                     out), out
    assert re.search(r"game\.yaml:\d+:\d+: unimplemented-operation: operation 'explode'", out), out


def test_the_example_in_docs_is_the_engine_that_runs():
    """docs/engines.md prints the example engine whole; it must be this file, byte for byte."""
    doc = (ROOT / "docs" / "engines.md").read_text(encoding="utf-8")
    code = (PLUGIN / "high_card_engine" / "__init__.py").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert code in blocks


def test_the_example_engine_replays_from_its_log(monkeypatch):
    """In-process: the example's log (choices and dice) replays on a match of another seed."""
    monkeypatch.syspath_prepend(str(PLUGIN))
    import high_card_engine as hc
    from forge.model import load_game
    from forge.rules.agents import random_agent
    from forge.rules.core import play_game, replay
    game, findings = load_game(GAME)
    assert game is not None
    prep = hc.prepare(game, {"tricks": 3, "hand": 3})
    for seed in range(20):
        m = prep.new(3, seed)
        play_game(m, [random_agent, hc.smallest_agent, random_agent], m.streams.agents, check="step")
        again = replay(prep.new(3, seed + 1000, deal=False), m.actions)
        assert again.state_digest() == m.state_digest() and again.result == m.result
