"""Scenarios: every Love Formula scenario passes, a wrong expectation fails, and a malformed
file fails at its line (CLI cases: tests/cases/hostile/scenarios.yaml)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from forge.rules import love_formula
from forge.rules.scenario import schema

SCENARIO = schema(love_formula.ENGINE)          # the common keys and Love Formula's own
EXPECT = SCENARIO.fields["expect"]
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


def _line(res, text):
    """The failure located at the line holding `text` in the scenario file (file:line: ...)."""
    lines = res.path.read_text(encoding="utf-8").splitlines()
    line = next(n for n, x in enumerate(lines, 1) if text in x)
    found = [f for f in res.failures if f":{line}:" in f.split(" ")[0]]
    assert found, f"nothing at line {line}: {res.failures}"
    return found[0]


@pytest.mark.parametrize("name,old,new,says", [
    ("reaction_no_move.yaml", "stop: {rounds: 1}", "stop: {round: 1}", "unknown key 'round'"),
    ("reaction_no_move.yaml", "  zones:\n", "  zone:\n", "unknown key 'zone'"),
    ("reaction_no_move.yaml", "B: {hand: [not_today]", "B: {hnd: [not_today]", "unknown key 'hnd'"),
    ("reaction_no_move.yaml", "- B: react not_today", "- B: {at: react, legl: [react not_today]}",
     "unknown key 'legl'"),
    ("reaction_no_move.yaml", "B: {hand: [not_today]", "B: {hand: not_today", "expected a list"),
    ("reaction_no_move.yaml", "B: {pairs: {hajime_kaede: []}", "B: {pairs: [hajime_kaede]",
     "expected a mapping"),
    ("reaction_no_move.yaml", "B: {pairs: {hajime_kaede: []}", "B: {pairs: {hajime_kade: []}",
     "unknown card id 'hajime_kade'"),
    ("reaction_no_move.yaml", "B: {pairs: {hajime_kaede: []}", "E: {pairs: {hajime_kaede: []}",
     "'E' is not a seat (A..B)"),
    ("reaction_no_move.yaml", "B: [react]", "B: {react: 1}", "expected a list"),
    ("reaction_no_move.yaml", "start: {phase: 1, round: 1}", "start: {phase: 1, round: 11}",
     "from 1 to 10"),
    ("reaction_no_move.yaml", "A: {hand: [quarrel]}", "A: {hand: [sunny_day]}",
     "only action or connection or obstacle or pair or preparation or reaction cards"),
    ("reaction_no_move.yaml", "pairs: [hajime_kaede]", "pairs: [beach]", "only pair cards"),
    ("reaction_no_move.yaml", "- B: react not_today", "- [B, react not_today]", "expected a mapping"),
    ("reaction_no_move.yaml", "- B: react not_today", "- {B: react not_today, A: pass}",
     "one `SEAT: action` per line"),
    ("goals_x_plus_one.yaml", "goal_deck: 18", "goal_pile: 18", "'goal_pile' is not `box` or"),
    ("goals_x_plus_one.yaml", "deal: true\n", "deal: true\nseats: {A: {hand: [kiss]}}\n",
     "cannot go with `seats:`"),
    ("scoring_11vp.yaml", "players: 2", "players: 5", "takes 2-4 players"),
    ("scoring_11vp.yaml", "players: 2", "players: x", "expected a whole number"),
])
def test_a_malformed_file_fails_at_its_line(tmp_path, name, old, new, says):
    """Every wrong key, type, card or seat is a failure at its file:line, nothing is played."""
    res = _variant(tmp_path, name, old, new)
    assert not res.passed and says in _line(res, new.strip().splitlines()[-1])


def _wrong_type(data: dict, key: str, where: tuple) -> dict:
    node = data
    for k in where:
        node = node.setdefault(k, {})
    node[key] = 1.5   # no type of the schema takes a fraction
    return data


@pytest.mark.parametrize("where,key", [((), k) for k in SCENARIO.fields]
                         + [(("expect",), k) for k in EXPECT.fields])
def test_every_key_has_its_type_checked(tmp_path, where, key):
    """The schema is what the runner understands: each key of it, given a value of no type it
    takes, is refused at its line (a key the runner read unchecked could pass silently)."""
    data = yaml.safe_load((HERE / "scoring_11vp.yaml").read_text(encoding="utf-8"))
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(_wrong_type(data, key, where), allow_unicode=True), "utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(bad)
    line = next(n for n, x in enumerate(bad.read_text("utf-8").splitlines(), 1)
                if x.strip().startswith(f"{key}: 1.5"))
    assert [f.line for f in err.value.findings] == [line]
    assert "got 1.5" in err.value.findings[0].message


def test_a_wrong_expectation_names_its_line(tmp_path):
    res = _variant(tmp_path, "scoring_11vp.yaml", "A: 11", "A: 12")
    assert "expected 12, got 11" in _line(res, "A: 12")


def test_an_action_never_legal_names_its_line(tmp_path):
    res = _variant(tmp_path, "move_preparation.yaml", "move beach yoshiro_natsuko",
                   "move beach daisuke_chi")
    assert "never legal" in _line(res, "move beach daisuke_chi")


def test_an_engine_error_in_play_names_the_action(tmp_path, monkeypatch):
    """An engine that raises mid-game fails the scenario at the scripted line played last."""
    from forge.rules.love_formula import Match
    step = Match.step

    def breaks_after_quarrel(self, choices):
        if any("quarrel" in self.label(c) for c in choices):
            raise KeyError("boom")
        return step(self, choices)

    monkeypatch.setattr(Match, "step", breaks_after_quarrel)
    res = run_scenario(HERE / "reaction_no_move.yaml")
    assert "KeyError: 'boom'" in _line(res, "A: play quarrel")


def test_an_impossible_position_to_score_is_a_failure_not_a_crash(tmp_path):
    """`start: {score: true}` with a position the rules forbid (two unattached events) fails the
    scenario at its `seats:` line with exit 1, never exit 3 or a traceback."""
    from conftest import forge_forked
    bad = tmp_path / "impossible.yaml"
    bad.write_text(
        "game: love_formula\n"
        "title: {uk: Неможливо, en: Impossible}\n"
        "story: {uk: Дві неприкріплені події., en: Two unattached events.}\n"
        "players: 2\n"
        "start: {score: true}\n"
        "seats:\n"
        "  A: {unattached: [festival, hanami], job: job_tutor}\n"
        "  B: {job: job_pizza_delivery}\n"
        "expect:\n"
        "  scores: {A: 2}\n", encoding="utf-8")
    res = run_scenario(bad)
    assert not res.passed
    assert any(f.startswith(f"{bad}:6:") and "refuses this position" in f
               and "more than one unattached preparation" in f for f in res.failures), res.failures
    out = forge_forked("scenario", str(bad))
    assert out.returncode == 1 and "Traceback" not in out.stdout + out.stderr


RAVE = HERE.parent / "rules_does_not_exist"


def _rave_variant(tmp_path, name, old, new):
    text = (RAVE / name).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name                # outside the game's folder: the game is named
    path.write_text("game: rules_does_not_exist\n" + text.replace(old, new), encoding="utf-8")
    return run_scenario(path)


def test_an_optional_action_is_taken_when_offered(tmp_path):
    """`maybe:` plays the action at the seat's next decision of its kind when it is offered:
    the same outcome as the plain line, and a wrong outcome still fails."""
    plain = "  - A: buy\n  - A: end\n"
    assert _rave_variant(tmp_path, "nine_souls_play_on.yaml", plain,
                         "  - A: {maybe: buy, at: shop}\n  - A: end\n").passed
    res = _rave_variant(tmp_path, "nine_souls_play_on.yaml", plain,
                        "  - A: {maybe: end, at: shop}\n")
    assert not res.passed and "A has 9 souls, expected 8" in " ".join(res.failures)


def test_an_optional_action_not_offered_is_left_out(tmp_path):
    """Not offered at that decision, or never reached: the line is dropped, the next line plays
    at the same decision, and nothing fails."""
    res = _rave_variant(tmp_path, "mercenary_only_when_short.yaml", "  - A: stand\n",
                        "  - A: {maybe: merc mc_hype, at: rave}\n  - A: stand\n")
    assert res.passed, str(res)
    res = _rave_variant(tmp_path, "mercenary_only_when_short.yaml", "  - A: stand\n",
                        "  - A: stand\n  - A: {maybe: lay first_kick, at: reset}\n")
    assert res.passed, str(res)


@pytest.mark.parametrize("new,says", [
    ("  - A: {maybe: buy, legal: [buy]}\n", "`maybe:` is an action, not a check"),
    ("  - A: {legal: [buy]}\n", "`at:` is missing"),
])
def test_a_malformed_optional_action_or_check_fails_at_its_line(tmp_path, new, says):
    res = _rave_variant(tmp_path, "nine_souls_play_on.yaml", "  - A: buy\n", new)
    assert not res.passed and says in _line(res, new.strip())


#: The events each engine writes to a scenario's log (`res.log`, for a person following the
#: game): each label's arguments, in order: a seat, a card id, a whole number, a word (a choice's
#: verb), or anything else (a list, a seat or -1, a foe's card or Strength).
EVENTS = {
    "love_formula": {
        "skip": "seat", "reveal": "int int any", "end_phase": "int", "move": "seat card",
        "cancel": "seat card", "play": "seat card", "fizzle": "seat card", "react": "seat card card",
        "pair_ended": "seat card", "chance": "seat card", "reshuffle": "", "goal": "seat card int"},
    "rules_does_not_exist": {
        "first": "seat", "gentle": "any seat", "skip": "seat", "turn": "seat int", "pass": "seat",
        "hired": "seat card", "invite": "seat card", "offer": "seat seat int int word", "invade": "seat",
        "call": "seat seat int word", "rave": "seat int any int", "won": "any", "escape": "seat int",
        "failure": "seat int card", "reset": "seat word", "reshuffle": "", "class": "seat card",
        "dismiss": "seat card"},
    "anima_shadow_of_omega": {
        "fled": "seat", "battle": "seat int any int int", "guard": "seat card", "dies": "seat card",
        "new_group": "seat", "false_alarm": "seat card", "goal": "seat card", "win": "seat card",
        "mission": "seat card", "final": "card", "play": "seat card", "use": "seat card",
        "counter": "seat card", "reroll": "seat int", "setup": "", "skip": "seat",
        "turn": "int any any", "asleep": "card", "stay": "seat", "rest": "seat",
        "new_location": "seat card", "redirect": "seat seat card", "arrive": "seat card",
        "removed": "card", "save": "seat card", "war": "seat seat", "trade_declined": "seat seat",
        "trade": "seat seat any any", "pvp": "seat seat int", "speed_check": "seat card int int",
        "explore": "seat card int", "reward": "seat card word", "reshuffle": ""}}

#: The events no scenario reaches yet: an empty deck refilled, a card countered.
UNLOGGED = {"love_formula": ["reshuffle"], "rules_does_not_exist": ["reshuffle"],
            "anima_shadow_of_omega": ["counter", "reshuffle"]}


@pytest.mark.parametrize("game_id", EVENTS)
def test_every_event_a_scenario_logs_has_its_form(game_id):
    """Every event of every scenario's log is one its engine writes, with its arguments in their
    form: a log that mislabels an event, drops an argument or logs a seat as nothing would tell
    a person reading it a wrong story. Every kind of event is logged by some scenario but those
    no scenario reaches yet (listed)."""
    files = sorted((HERE.parent / game_id).glob("*.yaml"))
    ids = {c.id for c in load_scenario(files[0]).game.cards}
    spec, seen = {**EVENTS[game_id], "end": "any any"}, set()    # `end`: the core's scores, winners
    for path in files:
        res = run_scenario(path)
        n = int(yaml.safe_load(path.read_text(encoding="utf-8"))["players"])
        for label, *args in res.log:
            seen.add(label)
            kinds = spec[label].split()
            assert len(args) == len(kinds), (path.name, label, args)
            for kind, a in zip(kinds, args):
                ok = {"seat": lambda: type(a) is int and 0 <= a < n, "card": lambda: a in ids,
                      "int": lambda: type(a) is int, "word": lambda: isinstance(a, str) and a.isidentifier(),
                      "any": lambda: a is not None}[kind]()
                assert ok, (path.name, label, kind, a)
    assert sorted(set(spec) - seen) == UNLOGGED[game_id]
