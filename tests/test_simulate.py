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
def run100(game):
    return simulate(game, games=100, players=4, seed=5)


def test_same_seed_same_result_with_any_jobs(game, run100):
    again = simulate(game, games=100, players=4, seed=5, jobs=2)
    assert without_timings(again) == without_timings(run100)
    other = simulate(game, games=100, players=4, seed=6)
    assert without_timings(other) != without_timings(run100)


def test_jobs_beyond_the_cores_start_one_process_a_core(game, monkeypatch):
    """--jobs 1000 on a machine of two cores starts two worker processes (it started 1000,
    and leaked their semaphores); 0 is one a core; fewer than 0 is a usage error."""
    import psutil
    from forge.errors import UsageError
    from forge.rules import workers
    monkeypatch.setattr(workers, "cores", lambda: 2)
    assert workers.local_workers(1000) == workers.local_workers(0) == 2
    with pytest.raises(UsageError):
        workers.local_workers(-1)
    seen = []
    simulate(game, games=8, players=2, jobs=1000, progress=lambda n: seen.append(sum(
        "LokyProcess" in " ".join(p.cmdline()) for p in psutil.Process().children(recursive=True))))
    assert seen and max(seen) == 2


def test_a_worker_killed_ends_the_run_with_a_message():
    """A worker process the system kills (out of memory, a signal) ends the run with an
    EngineError (exit 1), not joblib's TerminatedWorkerError (an internal error)."""
    import os
    import signal
    from forge.errors import EngineError
    from forge.rules.workers import run_chunks
    with pytest.raises(EngineError, match="worker process ended without its result"):
        run_chunks(lambda spec, first, count: os.kill(os.getpid(), signal.SIGKILL), None, 4,
                   lambda total, part: total, 0, jobs=2)


def test_joblib_warnings_are_a_plain_note(capsys):
    """What joblib warns of while the workers run is one plain line on stderr, not Python's
    warning text; other warnings are shown as usual."""
    import warnings
    from forge.rules.workers import _joblib_notes
    loky = "/x/joblib/externals/loky/process_executor.py"
    with _joblib_notes():
        for _ in range(2):
            warnings.warn_explicit("A worker stopped while some jobs were given to the executor. "
                                   "This can be caused by a too short worker timeout.\nMore.",
                                   UserWarning, loky, 787)
    err = capsys.readouterr().err
    assert err == ("forge: note: A worker stopped while some jobs were given to the executor. "
                   "This can be caused by a too short worker timeout.\n")


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_json(game, run100):
    """--executor dask, on a cluster found by its address (as on several machines), sends the
    game as its files and merges the workers' tallies to the same result as one process."""
    from dask.distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        got = simulate(game, games=100, players=4, seed=5, executor="dask",
                       address=cluster.scheduler_address)
    assert without_timings(got) == without_timings(run100)


@pytest.mark.slow
def test_a_hostile_dask_worker_runs_no_code_in_forge(tmp_path, monkeypatch):
    """A worker that sends its results back as pickles (here one whose loading makes a file:
    tests/hostile_dask_worker.py) is refused, never unpickled: forge reads a cluster's results
    as plain data only, and ends with exit 1 saying so."""
    import logging
    from dask.distributed import LocalCluster
    from conftest import run_forge
    payload = tmp_path / "pwned"
    monkeypatch.setenv("FORGE_TEST_PAYLOAD", str(payload))
    preload = str(Path(__file__).with_name("hostile_dask_worker.py"))
    with LocalCluster(n_workers=1, threads_per_worker=2, dashboard_address=None, preload=[preload],
                      silence_logs=logging.CRITICAL) as cluster:
        done = run_forge("simulate", str(ROOT), "--games", "4", "--executor", "dask",
                         "--address", cluster.scheduler_address, cwd=tmp_path)
    assert not payload.exists(), "the worker's pickle ran in forge"
    assert done.returncode == 1, done.stderr
    assert "not plain data" in done.stderr and "serialized with pickle" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_plain_data_reads_only_what_forge_sends(game):
    """What a cluster sends back is read as JSON: a plan and a tally travel and come back
    equal; a pickle, an unknown kind or a tally of the wrong shape is a ValueError."""
    import pickle
    from forge.rules import plain
    from forge.rules.simulate import Plan, Tally, play_chunk
    from forge.rules.workers import Setup
    plan = Plan(Setup.of(game_prep(game)), 2, ("random",), 3, "round", frozenset({"kiss"}))
    assert plain.loads(plain.dumps(plan), Plan) == plan
    tally = play_chunk(plan, 0, 3)
    back = plain.loads(plain.dumps(tally), Tally)
    back.check()
    assert back == tally
    for text in (pickle.dumps(tally).hex(), '{"kind": ["Evil", {}]}', '{"kind": ["Plan", {}]}',
                 '{"dict": [[[1], 2]]}', plain.dumps(plan)):
        with pytest.raises(ValueError):
            plain.loads(text, Tally)
    for counts in ({"games": -1}, {"broken": True}, {"wins": {"A": 1}}, {"scores": {0: 5}},
                   {"engine": {"x": 1.5}}, {"card_games": {"kiss": "many"}}, {"card_verbs": {"kiss": 1}},
                   {"kinds": {"play": {"decisions": "all"}}}, {"verbs": {"play": 1}}):
        with pytest.raises(ValueError):
            Tally(**counts).check()
    with pytest.raises(ValueError):
        Tally(violations=[{"game": 0, "seed": 1, "message": b"x"}]).check()
    with pytest.raises(ValueError):         # a field the tally does not have
        plain.loads(plain.dumps(tally).replace('"broken"', '"spam"'), Tally)


def test_chunks_merge_to_the_same_totals_in_any_order(game):
    """Tallies of chunks, merged in any order, equal one chunk of all the games: exact counts
    (a win shared by k is k-ths of a win, in whole parts), nothing that depends on the order."""
    import random
    from forge.rules.simulate import Plan, Tally, play_chunk, unit
    from forge.rules.workers import Setup
    prep = game_prep(game)
    plan = Plan(Setup.of(prep), 3, ("random",), 11, "round")
    whole = play_chunk(plan, 0, 60)
    chunks = [play_chunk(plan, first, count) for first, count in [(0, 7), (7, 20), (27, 1), (28, 32)]]
    for order in range(3):
        random.Random(order).shuffle(chunks)
        merged = Tally()
        for chunk in chunks:  # merging leaves the chunk as it was: each is merged three times
            merged.merge(chunk)
        assert merged == whole
    assert sum(whole.wins.values()) == unit(3) * whole.games     # every game's win, whole


def test_what_a_worker_sends_back_does_not_grow_with_its_games(game):
    """Memory is constant in the number of games: a chunk's tally holds counts per seat, score
    and card, never per game (the old runner sent ~5.6 kB a game): ten times the games, a
    tally 1.1 times as large (15 and 16.6 kB)."""
    import pickle
    from forge.rules.simulate import Plan, play_chunk
    from forge.rules.workers import Setup
    plan = Plan(Setup.of(game_prep(game)), 4, ("random",), 1, "round")
    small, big = (len(pickle.dumps(play_chunk(plan, 0, n))) for n in (20, 200))
    assert big < 1.25 * small, (small, big)


def game_prep(game):
    from forge.rules import love_formula
    return love_formula.prepare(game, love_formula.Config())


def test_summary_fields(run100):
    r = run100
    assert r["games"] == 100 and r["violations"] == []
    assert len(r["seat_win_rate"]) == 4
    assert abs(sum(x["win_rate"] for x in r["seat_win_rate"]) - 1) < 0.01
    for x in r["seat_win_rate"]:
        assert x["ci95"][0] <= x["win_rate"] <= x["ci95"][1]
    assert r["mean_decisions_per_game"] > 100
    assert r["dead_cards"] == []
    assert "kiss" in r["cards"] and 0 < r["cards"]["kiss"]["play_share"] <= 1


def test_offered_and_chosen_are_what_the_seats_were_shown_and_picked(game):
    """Per card, the games in which an option naming it was offered and chosen, and per kind of
    decision what its verbs got, equal what the agents themselves saw: an agent that notes every
    option it is shown and the one it picks, in the same seeded games, counts the same."""
    from collections import Counter
    from forge.rules.agents import named, random_agent
    from forge.rules.core import derive_seed, play_game
    prep = game_prep(game)
    ids = set(prep.playable_ids())
    offered, chosen, asked, verbs, verb_games = Counter(), Counter(), Counter(), Counter(), Counter()
    for i in range(30):
        shown: set[str] = set()
        picked: set[str] = set()
        seen: list = []        # the decisions, a simultaneous one once
        shown_verbs: set[str] = set()

        def noting(match, seat, options, rng):
            o = random_agent(match, seat, options, rng)
            shown.update(w for x in options for w in named(match, x) if w in ids)
            picked.update(w for w in named(match, o) if w in ids)
            shown_verbs.update(x[0] for x in options)
            if not any(d is match.decision for d in seen):
                seen.append(match.decision)
                asked[match.decision.kind] += 1
            verbs[o[0]] += 1
            return o
        m = prep.new(3, derive_seed(8, "game", i))
        play_game(m, [noting] * 3, m.streams.agents)
        offered.update(shown)
        chosen.update(picked)
        verb_games.update(shown_verbs)
    r = simulate(game, games=30, players=3, seed=8)
    assert {c: v["games_offered"] for c, v in r["cards"].items()} == {c: offered[c] for c in ids}
    assert {c: v["games_chosen"] for c, v in r["cards"].items()} == {c: chosen[c] for c in ids}
    assert {k: v["decisions"] for k, v in r["decision_kinds"].items()} == dict(asked)
    assert {verb: v["chosen"] for verb, v in r["option_verbs"].items() if v["chosen"]} == dict(verbs)
    assert {verb: v["games_offered"] for verb, v in r["option_verbs"].items()} == dict(verb_games)
    for v in r["cards"].values():   # a verb's games add up to the card's, at least
        assert all(x["games_chosen"] <= x["games_offered"] <= v["games_offered"]
                   for x in v["options"].values())


def test_dead_is_never_offered_and_unplayed_is_offered_but_never_played(game):
    """Three games leave cards unplayed: those no option named are dead, apart from those
    offered but never played by these agents; a card played with no choice is neither."""
    from forge.rules.simulate import never_seen_bound
    r = simulate(game, games=3, players=4, seed=0)
    cards = r["cards"]
    assert r["dead_cards"] and r["unplayed_cards"]
    assert r["dead_cards"] == [c for c, v in cards.items()
                               if v["games_offered"] == v["games_played"] == 0]
    assert r["unplayed_cards"] == [c for c, v in cards.items()
                                   if v["games_offered"] and not v["games_played"]]
    # the rule of three: after n games with none, the 95 % bound on the rate is about 3/n
    assert r["never_seen_bound95"] == never_seen_bound(3) == round(1 - 0.05 ** (1 / 3), 4)
    assert abs(never_seen_bound(1000) - 3 / 1000) < 0.0001 and never_seen_bound(0) == 1.0


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
    # all counted, the first few kept in full, in the order of the games
    from forge.rules.simulate import VIOLATIONS_KEPT
    assert r["violation_count"] == 30 - r["games"] > VIOLATIONS_KEPT
    assert [v["game"] for v in r["violations"]] == sorted(v["game"] for v in r["violations"])
    assert len(r["violations"]) == VIOLATIONS_KEPT and r["violations"][0]["game"] == 0
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
    """Greedy wins more than 70 % of its games against random: it wins all 60 (95 % interval
    from 0.94)."""
    r = simulate(game, games=60, players=2, seed=1, agents=("greedy", "random"))
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
    assert data["agent_names"]["greedy"] == {"uk": "жадібний", "en": "greedy"}
    assert {"games_offered", "games_chosen", "games_played", "options"} <= data["cards"]["kiss"].keys()
    assert data["decision_kinds"]["play"]["decisions"] > 0
    assert data["option_verbs"]["play"]["chosen"] > 0
    reader = PdfReader(str(pdf))
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Звіт про баланс" in text and "40 партій, 3 гравці" in text
    assert "\x00" not in text, "a glyph the font lacks (it prints as an empty box)"
    assert_fonts_embedded(reader)
    # the first page is the summary, the agents named in the reader's language
    for head in ("Баланс місць", "Тривалість партії", "Карти, на які варто глянути",
                 "агенти: випадковий, жадібний", "A випадковий", "B жадібний",
                 "Усі цифри тут — з партій, які зіграли такі агенти: випадковий, жадібний",
                 "трапляється (з імовірністю 95 %) рідше, ніж у"):
        assert head in text, head
    assert "random" not in text and "greedy" not in text and "Рішення за видом" not in text
    rest = " ".join(" ".join(p.extract_text().split()) for p in reader.pages[1:])
    assert "Рішення за видом" in rest and "Карти: у скількох партіях її запропонували" in rest
    assert "Варіанти за дією" in rest


def test_report_in_english_names_the_agents_in_english(game, run100, tmp_path):
    from forge.rules.report import write_report
    reader = PdfReader(str(write_report(run100, tmp_path / "r.pdf", "en", game)))
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Seat balance" in text and "agents: random." in text and "випадковий" not in text


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


def test_ctrl_c_keeps_what_was_played(game, monkeypatch):
    """Ctrl-C between chunks: `Interrupted` carries the summary of the chunks finished (chunks
    of 20 games: their size is not the point)."""
    from forge.rules import workers
    from forge.rules.workers import Interrupted
    monkeypatch.setattr(workers, "CHUNK", 20)
    seen = []

    def stop_after_two(count):
        seen.append(count)
        if len(seen) == 2:
            raise KeyboardInterrupt
    with pytest.raises(Interrupted) as stop:
        simulate(game, games=10 * workers.CHUNK, players=2, seed=1, progress=stop_after_two)
    partial = stop.value.partial
    assert partial["interrupted"] and partial["games"] == sum(seen) == 2 * workers.CHUNK
    assert partial["games_requested"] == 10 * workers.CHUNK
    assert abs(sum(x["win_rate"] for x in partial["seat_win_rate"]) - 1) < 0.01


@pytest.mark.slow
def test_ctrl_c_on_the_command_line_exits_130_with_one_line(tmp_path):
    """The terminal sends SIGINT to the whole process group, workers too: the parent prints the
    partial result and one line, the workers no traceback."""
    import os
    import signal
    import subprocess
    import sys
    import time
    proc = subprocess.Popen([sys.executable, "-m", "forge", "simulate", str(ROOT), "--games",
                             "100000", "--jobs", "2", "--format", "json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(6)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert len(err.strip().splitlines()) == 1 and "interrupted" in err and "Traceback" not in err
    partial = json.loads(out)
    assert partial["interrupted"] and partial["games"] < 100000


def test_an_engine_with_the_old_statistics_hook_is_told_before_any_run():
    """The old hook took (prepared, records): the engine is refused as it is declared."""
    from dataclasses import replace
    from forge.errors import EngineError
    from forge.rules import love_formula
    with pytest.raises(EngineError, match=r"'love_formula' breaks the engine contract: statistics "
                                          r"must be a function taking \(prepared, totals, games\)"):
        replace(love_formula.ENGINE, statistics=lambda prepared, records: {})


def test_cli_executor_and_address_are_checked():
    from forge.errors import UsageError
    res = CliRunner().invoke(app, ["simulate", str(ROOT), "--games", "5", "--executor", "spark"])
    assert res.exit_code == 2 and "'spark' is not one of 'loky', 'dask'" in res.output
    res = CliRunner().invoke(app, ["simulate", str(ROOT), "--games", "5", "--check", "never"])
    assert res.exit_code == 2 and "'never' is not one of 'step', 'round', 'off'" in res.output
    res = CliRunner().invoke(app, ["simulate", str(ROOT), "--games", "5", "--address", "h:1"])
    assert isinstance(res.exception, UsageError) and "--executor dask" in str(res.exception)
