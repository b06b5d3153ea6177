"""The «Rules. Does Not Exist.» engine: scenarios, every player count, determinism and replay,
lineup strength, the data checks, statistics and agents."""
from __future__ import annotations

import random
from collections import Counter
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from forge.check import check_game
from forge.errors import EngineError
from forge.model import load_game
from forge.render.layout import layout_elements
from forge.rulebook.context import render_template
from forge.rules import ENGINES, rules_does_not_exist as rave
from forge.rules.agents import random_agent
from forge.rules.core import SEAT_NAMES, play_game, replay
from forge.rules.rules_does_not_exist.agents import sensible_agent
from forge.rules.rules_does_not_exist.tables import SOULS_SOLO
from forge.scenario import run_scenario
from conftest import forge_in_process, modules_imported_alone, run_forge, scenario_match

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "cards" / "rules_does_not_exist"
SCENARIOS = sorted((ROOT / "tests" / "scenarios" / "rules_does_not_exist").glob("*.yaml"))


@pytest.fixture(scope="module")
def game():
    g, _ = load_game(CARDS)
    return g


@pytest.fixture(scope="module")
def prep(game):
    return rave.prepare(game, {})


def test_at_least_twenty_scenarios():
    assert len(SCENARIOS) >= 20


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(path):
    res = run_scenario(path)
    assert res.passed, "\n".join(res.failures)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_player_count_ends_with_invariants(prep, players):
    for seed in range(6):
        m = prep.new(players, seed)
        play_game(m, [random_agent] * players, m.streams.agents, check="step")
        assert m.decision is None and m.result is not None
        assert not m.result.capped
        assert m.result.winners


@pytest.mark.parametrize("players", [2, 5])
def test_sensible_agents_and_gentle_round(game, players):
    p = rave.prepare(game, {"first_player": "gentle"})
    for seed in range(4):
        m = p.new(players, seed)
        agents = [sensible_agent, random_agent] * 3
        play_game(m, agents[:players], m.streams.agents, check="step")
        assert m.result and not m.result.capped


def test_same_seed_same_game_and_replay(prep):
    a, b = prep.new(4, 7), prep.new(4, 7)
    for m in (a, b):
        play_game(m, [random_agent] * 4, m.streams.agents)
    assert a.state_digest() == b.state_digest() and a.result == b.result
    c = replay(prep.new(4, 7, deal=False), a.actions, start=lambda m: (m.setup(), m.begin()))
    assert c.state_digest() == a.state_digest()


def test_sensible_beats_random(prep):
    wins = 0.0
    for seed in range(40):
        m = prep.new(4, seed)
        play_game(m, [sensible_agent] + [random_agent] * 3, m.streams.agents)
        if 0 in m.result.winners:
            wins += 1 / len(m.result.winners)
    assert wins / 40 > 0.5


def test_every_module_of_the_engine_imports_on_its_own():
    """With none of forge's modules imported before it, so no module leans on another having
    been imported first (the agents once failed to import before the engine did)."""
    imported = modules_imported_alone("forge.rules.rules_does_not_exist")
    assert len(imported) > 5
    assert {name: said for name, said in imported.items() if said} == {}


def _lineup(prep, *ids):
    taken: dict[str, int] = {}
    out = []
    for cid in ids:
        i = taken.get(cid, 0)
        out.append(prep.handles_of[cid][i])
        taken[cid] = i + 1
    return out


def test_strength_genres_card_by_card(prep):
    m = prep.new(2, 0, deal=False)
    s = m.strength
    assert s(0, _lineup(prep, "strobe_cathedral", "sunrise_at_the_quarry")) == (15, 21)
    assert s(0, _lineup(prep, "foggy_balcony", "glowstick_sunrise"))[0] == 8
    assert s(0, _lineup(prep, "strobe_cathedral", "concrete_stomp", "bass_quake"))[0] == 12
    assert s(0, _lineup(prep, "bass_quake"))[0] == 3
    assert s(0, [])[0] == 0
    # a Class's genre bonus is added before the increase
    m.cls[0] = _lineup(prep, "techno_purist")
    m.refx(0)                   # as every change of a seat's Class or Mercenaries does
    assert s(0, _lineup(prep, "strobe_cathedral", "sunrise_at_the_quarry"))[0] == 18


def test_operations_match_the_manifest(game):
    declared = {name: set(spec.params) for name, spec in game.manifest.operations.items()}
    assert declared == {name: set(op.params) for name, op in rave.OPERATIONS.items()}


def _copy_cards(tmp_path: Path) -> Path:
    dst = tmp_path / "rules_does_not_exist"
    shutil.copytree(CARDS, dst)
    return dst


def test_check_data_findings(tmp_path):
    root = _copy_cards(tmp_path)
    classes = (root / "classes.yaml").read_text()
    (root / "classes.yaml").write_text(classes.replace(
        "    - draft_extra: 1\n", "    - reset: {}\n").replace(
        "    - genre_bonus: {genre: techno, amount: 1}\n", "    - merc_boost: 1\n"))
    monsters = (root / "monsters.yaml").read_text()
    (root / "monsters.yaml").write_text(monsters.replace(
        "    - lose_class: {}\n  flavor:\n    uk: \"Зліплений",
        "    - draft_extra: 1\n  flavor:\n    uk: \"Зліплений"))
    g, _ = load_game(root)
    codes = sorted((f.code, f.file.split("/")[-1] if hasattr(f, "file") else "")
                   for f in rave.check_data(g))
    assert [c for c, _ in codes].count("operation-never-applies") == 3


def test_check_rejects_unimplemented_failure_operation(tmp_path):
    root = _copy_cards(tmp_path)
    manifest = (root / "game.yaml").read_text()
    (root / "game.yaml").write_text(manifest.replace(
        "operations:\n", "operations:\n  teleport:\n    params: {}\n    text: {uk: \"Телепорт.\", en: \"Teleport.\"}\n", 1))
    monsters = (root / "monsters.yaml").read_text()
    (root / "monsters.yaml").write_text(monsters.replace("    - reset: {}\n", "    - teleport: {}\n", 1))
    _, findings = check_game(root, typeset=False)
    assert sorted((f.code, Path(f.file).name) for f in findings) == [
        ("unimplemented-operation", "game.yaml"), ("unimplemented-operation", "monsters.yaml")]
    assert all("'teleport'" in f.message for f in findings)


def test_simulate_reports_the_designers_figures(game):
    from forge.rules import simulate
    r = simulate(game, games=30, players=3, seed=2)
    assert not r["violations"]
    e = r["engine"]
    assert set(e["monsters"]) == {c.id for c in game.cards if c.type == "monster"}
    assert e["turn_cap_hits"] == 0 and e["turns"]["mean"] > 0
    assert "(none)" in e["class_win_share"] and "resets" in e
    assert any(line.startswith("Game length") for line in e["lines"]["en"])
    assert any(line.startswith("Тривалість гри") for line in e["lines"]["uk"])


def test_report_pdf_prints_the_designers_figures_in_its_language(game, tmp_path):
    """The balance report carries the engine's own figures, in Ukrainian, cards by name."""
    import io
    import re
    from pypdf import PdfReader
    from forge.rules import simulate
    from forge.rules.report import write_report
    r = simulate(game, games=20, players=4, seed=3)
    pdf = write_report(r, tmp_path / "report.pdf", "uk", game)
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.read_bytes())).pages))
    assert "Тривалість гри" in text and "Клас переможця" in text
    gremlin = next(c for c in game.cards if c.type == "monster" and c.level == 1)
    assert gremlin.name["uk"] in text and gremlin.id not in text
    basic = game.manifest.sets["basic"].name["uk"]
    assert f"набори: {basic}" in text and "агенти: розважливий" in text   # no ids, no English


def test_view_hides_other_hands(prep):
    m = prep.new(3, 1)
    v = m.view(0)
    assert len(v.hand_sizes) == 3
    assert v.hand == [m.p.cid[h] for h in m.hand[0]]
    assert not hasattr(v, "hands")


def test_check_data_unbeatable_monster(tmp_path):
    import re
    root = _copy_cards(tmp_path)
    sounds = (root / "sounds.yaml").read_text()
    (root / "sounds.yaml").write_text(re.sub(r"\n  bonus: \d+\n", "\n  bonus: 1\n", sounds))
    g, _ = load_game(root)
    found = [(f.code, f.message) for f in rave.check_data(g)]
    assert [c for c, _ in found] == ["monster-unbeatable"]
    assert "level 20" in found[0][1]


def test_empty_deck_reshuffles_the_discard(prep):
    m = prep.new(2, 0, deal=False)
    m.setup()
    m.discard, m.deck = m.deck[:3], []
    gen = m._draw()
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        h = stop.value
    assert h >= 0 and len(m.deck) == 2 and not m.discard
    m.deck, m.discard = [], []
    gen = m._draw()
    try:
        next(gen)
    except StopIteration as stop:
        assert stop.value == -1


def test_simulate_json_is_deterministic():
    """The same seed, the same figures: in a fresh interpreter and in this one (each with its
    own hash seed and caches)."""
    import json

    from forge.rules.simulate import without_timings

    args = ("simulate", "rules_does_not_exist", "--games", "12", "--players", "4", "--seed", "1",
            "--format", "json")
    runs = (run_forge(*args), forge_in_process(*args))
    assert [out.returncode for out in runs] == [0, 0], [out.stderr for out in runs]
    a, b = (without_timings(json.loads(out.stdout)) for out in runs)
    assert a == b and not a["violations"] and a["engine"]["turn_cap_hits"] == 0


@pytest.fixture
def rule_numbers():
    """``rule_numbers(escape_at=4, ...)`` registers the rave engine with those rule numbers
    changed; the real engine is registered again after the test."""
    def change(**numbers: int) -> None:
        ENGINES.register(replace(rave.ENGINE, rules={**rave.ENGINE.rules, **numbers}))
    yield change
    ENGINES.register(rave.ENGINE)


def test_printed_rule_numbers_come_from_the_engine(game, rule_numbers):
    """The cheat sheet prints the engine's escape roll, hand limit and winning souls: a rule
    changed in the engine is changed in print (nothing typed twice)."""
    def text() -> str:
        out = render_template(game, "cheatsheet", "en")
        assert not out.findings
        return out.markdown

    now = text()
    assert "escape on a d6 (5–6)" in now and "1–4 suffers" in now and "hold 10 souls" in now
    rule_numbers(escape_at=4, limit=6, souls_to_win=12, genre_one=60)
    changed = text()
    assert "counts +50 %" in now and "counts +60 %" in changed
    assert "escape on a d6 (4–6)" in changed and "1–3 suffers" in changed
    assert "keep at most 6 in hand" in changed and "hold 12 souls" in changed
    assert "(chance 3/6, 50 %)" in changed        # the odds follow the roll


def test_card_faces_print_the_engines_rule_numbers(rule_numbers):
    """A monster's failure heading and a Mercenary's note print the escape roll and the cards a
    Mercenary holds from the engine, like the rulebook (a fresh game: layouts are cached per game)."""
    def printed(numbers: dict) -> tuple[list, list]:
        rule_numbers(**numbers)
        g, _ = load_game(CARDS)
        monster = next(c for c in g.cards if c.type == "monster")
        merc = next(c for c in g.cards if c.type == "mercenary")
        heading = [e["text"] for e in layout_elements(g, monster, "en")
                   if e.get("what") == "failure heading"]
        note = [p["text"] for e in layout_elements(g, merc, "en")
                if e.get("what") == "ability text" for p in e["paras"]]
        return heading, note

    heading, note = printed({})
    assert heading == ["Failure: if you do not escape (1–4 on d6)"]
    assert "Holds 2 face-down Sound cards." in note
    heading, note = printed({"escape_at": 4, "merc_holds": 3})
    assert heading == ["Failure: if you do not escape (1–3 on d6)"]
    assert "Holds 3 face-down Sound cards." in note


@pytest.mark.parametrize("name,old,new,says", [
    ("gentle_round.yaml", "first: B", "first: A", "B plays first, expected A"),
    ("every_rave_of_two_turns.yaml", "winner: none, bonus: {B: 4}", "winner: B, bonus: {B: 4}",
     "the rave was won by none, expected B"),
    ("every_rave_of_two_turns.yaml", "    - {expectation: 18, winner: none, bonus: {B: 4}}\n", "",
     "2 rave(s) held, expected 1"),
])
def test_first_player_and_every_rave_are_checked(tmp_path, name, old, new, says):
    """`expect: first` and each entry of `expect: raves` (not only the last rave) can fail."""
    text = (ROOT / "tests" / "scenarios" / "rules_does_not_exist" / name).read_text("utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text("game: rules_does_not_exist\n" + text.replace(old, new), "utf-8")
    res = run_scenario(path)
    assert not res.passed and says in " ".join(res.failures)


def test_start_hand_at_its_maximum_and_one_past_it(game):
    """`start_hand` takes up to the hand limit: with 5 every seat but the first (which has
    drafted already) holds 5 when play starts; 6 is refused by name."""
    m = rave.prepare(game, {"start_hand": rave.LIMIT}).new(4, 0)
    sizes = [len(m.hand[s]) for s in range(4) if s != m.first]
    assert sizes == [rave.LIMIT] * 3
    with pytest.raises(EngineError, match="start_hand"):
        rave.prepare(game, {"start_hand": rave.LIMIT + 1})


def test_statistics_from_two_known_games(prep):
    """The designer's figures from two hand-made games' tallies, each checked by hand: a monster
    invited 4 times and satisfied 3, one invited once and never satisfied, the rest never
    invited (a rate of 0 at 0 invitations, not a division by zero); a win shared by a Class and
    a player without one."""
    from forge.rules.rules_does_not_exist.state import GameStats
    from forge.rules.rules_does_not_exist.statistics import statistics
    from forge.rules.tally import add
    one = GameStats(turns=4, capped=False, resets=2, invited={"confetti_imp": 2},
                    satisfied={"confetti_imp": 1}, winner_classes=["pocket_dj"]).counts()
    two = GameStats(turns=6, capped=True, resets=0, invited={"confetti_imp": 2, "queue_wraith": 1},
                    satisfied={"confetti_imp": 2}, winner_classes=["pocket_dj", ""]).counts()
    out = statistics(prep, add(add({}, one), two), 2)
    assert out["turns"] == {"mean": 5.0, "median": 6, "min": 4, "max": 6, "p90": 6}
    assert out["turn_cap_hits"] == 1
    assert out["resets"] == {"total": 2, "per_game": 1.0, "games_with_reset": 1}
    monsters = out["monsters"]
    assert monsters["confetti_imp"] == {"level": 2, "invited": 4, "satisfied": 3, "satisfied_rate": 0.75}
    assert monsters["queue_wraith"] == {"level": 3, "invited": 1, "satisfied": 0, "satisfied_rate": 0.0}
    assert monsters["the_silence"] == {"level": 20, "invited": 0, "satisfied": 0, "satisfied_rate": 0.0}
    assert out["class_win_share"]["pocket_dj"] == 0.75 and out["class_win_share"]["(none)"] == 0.25
    assert out["class_win_share"]["wingman"] == 0.0
    en, uk = out["lines"]["en"], out["lines"]["uk"]
    assert en[:5] == ["Game length: 5.0 turns on average (median 6, 90% within 6, longest 6); "
                      "turn cap hit in 1 games", "Resets: 2 in all, 1 games with at least one",
                      "Monsters (level: invited / satisfied):",
                      "   1 Glowstick Gremlin: 0 / 0 (0% satisfied)",
                      "   2 Confetti Imp: 4 / 3 (75% satisfied)"]
    assert en[-3].startswith("Monsters never invited in 2 games: Glowstick Gremlin, Fog Machine Djinn, ")
    assert en[-3].endswith(", Curfew Reaper, The Silence") and "Queue Wraith" not in en[-3]
    assert en[-2] == "Monsters invited but never satisfied in 2 games: Queue Wraith"
    assert en[-1].startswith("Class held by the winner (share of wins): Pocket DJ 75.0%, no class 25.0%, ")
    assert uk[0].startswith("Тривалість гри: у середньому 5,0 ходу")
    assert uk[-1].startswith("Клас переможця (частка перемог): Кишеньковий діджей 75,0\u00a0%, "
                             "без класу 25,0\u00a0%, ")


@pytest.mark.parametrize("option", ["souls_to_win", "turn_cap"])
def test_an_option_at_its_least_and_one_below(game, option):
    """1 soul to win and a 1-turn cap are games (the least each option takes): the first soul
    wins (a success may bring more), the cap stops the game after one turn; 0 is refused."""
    m = rave.prepare(game, {option: 1}).new(2, 0)
    play_game(m, [random_agent] * 2, m.streams.agents)
    if option == "turn_cap":
        assert m.capped and m.turns == 1
    else:
        assert not m.capped and m.result.winners and min(m.souls[s] for s in m.result.winners) >= 1
    with pytest.raises(EngineError, match=option):
        rave.prepare(game, {option: 0})


def test_the_rulebook_says_each_expectation_in_words(game):
    """The sentences a rulebook prints for the rave game's own `expect:` keys, word for word in
    both languages: one seat out and two, a skip of 2 turns and of none, 1 turn (singular),
    every rave of a file, a monster invited twice and never satisfied, 3 times and once, never."""
    from forge.rulebook.outcome import describe
    names = {c.id: c.name for c in game.cards}
    expect = {"out": ["B", "C"], "skip": {"A": 2, "B": 0}, "resets": 3, "turns": 1,
              "raves": [{"expectation": 9, "bonus": {"A": 6, "B": 2}, "duration": {"A": 4},
                         "winner": "none"}, {"winner": "A"}],
              "invited": {"confetti_imp": 2, "queue_wraith": 3, "the_silence": 0},
              "satisfied": {"confetti_imp": 0, "queue_wraith": 1, "bpm_hydra": 0, "vinyl_lich": 1}}
    said = {lang: [s.replace("\u00a0", " ") for s in describe(expect, lang, names, rave.ENGINE, game)]
            for lang in ("en", "uk")}
    assert said["en"] == [
        "Players B and C are out of the game.", "Player A must skip 2 turns.",
        "Player B has no turn to skip.", "A “Reset” happens 3 times.", "In all, 1 turn is played.",
        "Rave 1: the expectation is 9; player A’s lineup bonus is 6, player B’s 2; player A’s "
        "lineup total duration is 4; nobody wins the rave.", "Rave 2: player A wins the rave.",
        "“Confetti Imp” is invited twice and never satisfied.",
        "“Queue Wraith” is invited 3 times and satisfied once.", "“The Silence” is never invited.",
        "“BPM Hydra” is never satisfied.", "“Vinyl Lich” is satisfied once."]
    assert said["uk"] == [
        "Гравці Б і В вибувають з гри.", "Гравець А має пропустити 2 ходи.",
        "Гравець Б не пропускає ходів.", "«Обнулення» стається 3 рази.", "Зіграно 1 хід.",
        "Рейв 1: очікування — 9; бонус лайнапу гравця А — 6, гравця Б — 2; сумарна тривалість "
        "лайнапу гравця А — 4; рейв не виграє ніхто.", "Рейв 2: рейв виграє гравець А.",
        "Монстра «Біс-конфеті» запрошують 2 рази, але не задовольняють жодного разу.",
        "Монстра «Привид черги» запрошують 3 рази і задовольняють 1 раз.",
        "Монстра «Тиша» не запрошують жодного разу.",
        "Монстра «Гідра BPM» не задовольняють жодного разу.",
        "Монстра «Вініловий ліч» задовольняють 1 раз."]
    one = {lang: describe({"out": ["B"]}, lang, names, rave.ENGINE, game) for lang in ("en", "uk")}
    assert [s.replace("\u00a0", " ") for s in one["en"] + one["uk"]] == [
        "Player B is out of the game.", "Гравець Б вибуває з гри."]


def test_a_game_capped_before_any_turn_still_checks_the_hand_limit(prep):
    """The limits hold between turns from the very start of play: a game that ends before its
    first turn (the turn cap already reached) still refuses a hand over its limit at the end,
    so an engine change that overfills a hand cannot slip through a short game."""
    from forge.errors import InvariantViolation
    m = prep.new(2, 0, deal=False)
    m.setup()
    m.hand[0] += [m.deck.pop() for _ in range(m.hand_limit(0) + 1 - len(m.hand[0]))]
    m.turns = m.turn_cap
    with pytest.raises(InvariantViolation, match="over its hand or inventory limit"):
        next(m.play_from(0), None)
    m.discard.append(m.hand[0].pop())        # at the limit exactly: the game just ends
    next(m.play_from(0), None)
    assert m.result is not None and m.result.capped


SENSIBLE_POSITION = """title: {uk: Хід розважливого, en: A sensible turn}
story: {uk: Позиція, en: A position}
players: 2
seats:
  A: {hand: [bass_quake, cloud_drift, last_train_home, earthquake_protocol]}
deck: [neon_drizzle, first_kick]
rolls: {d20: [4]}
"""


def test_sensible_plays_a_known_turn_as_its_docstring_promises(tmp_path):
    """What a designer relies on `sensible` for, choice by choice in one known turn: over the
    hand limit it stashes its best card; with fair odds it invites the richest monster it may
    risk and pays its weakest card (bonus 1, the shorter of two); it lays the weakest card that
    beats the expectation (5 over 4, not 6) and then stands; it buys a Class with souls to
    spare and hires with a spare card, paying the weakest."""
    m = scenario_match(tmp_path, "rules_does_not_exist", SENSIBLE_POSITION)
    played = []
    while m.decision is not None and m.turns <= 1:
        d = m.decision
        if not d.seats:
            m.step(())
            continue
        got = sensible_agent(m, d.seats[0], d.options[0], random.Random(0))
        played.append(f"{SEAT_NAMES[d.seats[0]]} {d.kind}: {m.label(got)}")
        m.step((got,))
    assert played == [
        "A limit: stash last_train_home", "A open: invite", "A monster: invite fog_machine_djinn",
        "A pay: pay first_kick", "A open: rave", "B deal: done", "A rave: lay earthquake_protocol",
        "A rave: stand", "A rave: stand", "A keep: keep earthquake_protocol", "A shop: buy",
        "A shop: hire", "A hire: pay neon_drizzle", "A shop: end"]
    assert m.souls == [2, 0]                # 3 for the success, 1 spent on the Class


@pytest.mark.parametrize("b, puts, want, answer", [
    ("{hand: [hands_to_the_horizon]}", "hands_to_the_horizon", 0, "accept"),
    ("{hand: [hands_to_the_horizon], souls: 8}", "hands_to_the_horizon", 0, "decline"),
    ("{hand: [soundcheck_static]}", "soundcheck_static", 1, "decline"),
    ("{hand: [hands_to_the_horizon]}", "hands_to_the_horizon", 1, "accept")],
    ids=["gift", "gift-from-a-player-about-to-win", "no-better-swap", "better-swap"])
def test_sensible_answers_an_offer_as_its_docstring_promises(tmp_path, b, puts, want, answer):
    """Offered a deal in its turn (its hand: a bonus 6 card and two bonus 1 cards drawn),
    `sensible` accepts a gift, and a swap after which its cards, giving back its weakest, make a
    stronger lineup (a bonus 4 card for a bonus 1 one); it declines a swap that does not (a
    bonus 1 card for another) and even a gift from a player one success from winning (8 souls
    of 10)."""
    m = scenario_match(
        tmp_path, "rules_does_not_exist",
        "title: {uk: Обмін, en: A deal}\nstory: {uk: Позиція, en: A position}\nplayers: 2\n"
        f"seats:\n  A: {{hand: [last_train_home]}}\n  B: {b}\ndeck: [neon_drizzle, first_kick]\n"
        "rolls: {d20: [12]}\n")
    for label in ("rave", "trade A", f"put {puts}", f"want {want}"):
        while not m.decision.seats:
            m.step(())
        opts = m.decision.options[0]
        m.step((next(o for o in opts if m.label(o) == label),))
    d = m.decision
    assert (d.kind, d.seats) == ("answer", (0,))
    assert m.label(sensible_agent(m, 0, d.options[0], random.Random(0))) == answer


def test_sensible_keeps_its_promises_at_every_decision_of_real_games(prep):
    """`sensible`'s docstring, checked at every decision of 30 seeded games of 2 to 4 sensible
    players (its choices from the printed cards and the table, computed here independently): it
    pays, hires with, discards, gives and shares its weakest card (bonus, then duration); it
    stashes its strongest card when over the limit, else drops its weakest; it keeps and tosses
    its strongest; it closes a deal at once; it rerolls the expectation only when all its cards
    cannot beat it; it declines any offer from a player one success from winning and accepts any
    other gift; in the wrap-up it buys a Class when it has none and souls to spare, else hires
    with six cards or more, else ends; it lays the first card the gentle round offers; it
    dismisses the Mercenary with fewest cards under it; it rescues a Host with its cards unless
    the Host is one soul short of winning; as Host or Invader it stands once its lineup beats
    the expectation and every rival, else lays the weakest card that makes it win."""
    p = prep
    seen: Counter = Counter()

    def key(o):
        return (p.bonus[o.card], p.dur[o.card])

    def cards(options):
        return [o for o in options if hasattr(o, "card") and o.verb != "invite"]

    def wins(m, s, line):
        k = m.strength(s, line)
        if k.bonus <= m.expect:
            return False
        rivals = [m.strength(o, m.line[o]) for o in [m.host] + m.invaders if o != s and m.line[o]]
        return all(k > r or (k == r and s == m.host) for r in rivals)

    def checked(m, s, options, rng):
        got = sensible_agent(m, s, options, rng)
        v = m.view(s)
        kind = v.decision
        seen[kind] += 1
        held = cards(options)
        if kind in ("pay", "hire", "discard", "give", "share"):
            assert key(got) == min(map(key, held)), (kind, m.label(got))
        elif kind == "limit":
            stash = [o for o in held if o.verb == "stash"]
            assert key(got) == (max(map(key, stash)) if stash else min(map(key, held))), m.label(got)
        elif kind in ("keep", "toss"):
            assert key(got) == max(map(key, held)), (kind, m.label(got))
        elif kind == "deal":
            assert got.verb == "done"
        elif kind == "gentle":
            lays = [o for o in options if o.verb == "lay"]
            assert got == (lays[0] if lays else ("done",))
        elif kind == "dismiss":
            assert len(m.under[got.card]) == min(len(m.under[o.card]) for o in options)
        elif kind == "rescue":
            near = m.souls[m.host] + 1 >= m.souls_to_win
            assert got.verb == ("accept" if not near and (m.hand[s] or m.inv[s]) else "decline")
        elif kind == "reroll":
            mine = m.strength(s, m.line[s] + m.hand[s] + m.inv[s]).bonus
            assert got.verb == ("reroll" if mine <= m.expect else "keep")
        elif kind == "answer":
            offer = next(o for o in options if o.verb == "accept")
            if m.souls[offer.seat] + SOULS_SOLO >= m.souls_to_win:
                assert got.verb == "decline"
            elif not offer.want:
                assert got == offer
        elif kind == "shop":
            mine = m.hand[s] + m.inv[s]
            if not m.cls[s] and 2 <= m.souls[s] < m.souls_to_win - 2 and ("buy",) in options:
                assert got.verb == "buy"
            elif len(m.mercs[s]) < 2 and len(mine) >= 6 and ("hire",) in options:
                assert got.verb == "hire"
            else:
                assert got.verb == "end"
        elif kind == "rave" and (s == m.host or s in m.invaders):
            lays = [o for o in options if o.verb in ("lay", "lay_inv")]
            if m.line[s] and wins(m, s, m.line[s]):
                assert got.verb == "stand", m.label(got)
            elif lays and not any(o.verb == "call" for o in options):
                winning = [o for o in lays if wins(m, s, m.line[s] + [o.card])]
                if winning:
                    assert got in winning and key(got) == min(map(key, winning)), m.label(got)
        return got

    for seed in range(30):
        m = prep.new(2 + seed % 3, seed)
        play_game(m, [checked] * m.n, m.streams.agents)
    assert {"pay", "hire", "give", "limit", "keep", "deal", "rescue", "rave"} <= set(seen), seen



def test_a_finished_game_records_the_turns_it_lasted(prep):
    """The result says how many turns the game took (the `Result.turns` every engine that
    counts turns fills), and that it ended on souls, not at the cap."""
    m = prep.new(2, 1)
    play_game(m, [sensible_agent] * 2, m.streams.agents)
    assert m.result.turns == m.turns == m.stats().turns > 1 and not m.result.capped


def test_every_class_and_mercenary_effect_reaches_the_engine(game):
    """Each printed effect of a Class or a Mercenary gives its owner the ability it names, by
    its printed amount, and nothing else: a raised hand or inventory limit, a card more in the
    draft, a soul more as Rescuer or Invader, an escape, hire or reroll bonus, a genre bonus, a
    Mercenary whose card its owner chooses or whose card it boosts. The tables are made here,
    not taken from the module's `prep`: mutation testing credits a function to the tests that
    call it, and `prep` is made in whichever test asks for it first."""
    p = rave.prepare(game, {})
    none = {"hand": 0, "inventory": 0, "draft": 0, "escape": 0, "hire": 0, "reroll": 0, "host": 0,
            "rescuer": 0, "invader": 0, "genres": (), "choose": False, "boost": 0}
    expected = {
        "pocket_dj": {"hand": 1}, "crate_digger": {"inventory": 2}, "promoter": {"draft": 1},
        "wingman": {"rescuer": 1}, "party_crasher": {"invader": 1}, "escape_artist": {"escape": 1},
        "talent_scout": {"hire": 1}, "crowd_whisperer": {"reroll": 1},
        "dj_cassette": {"choose": True}, "granny_valya": {"escape": 1},
        "taras_the_roadie": {"inventory": 1}, "ira_at_the_desk": {"choose": True, "boost": 1},
        "mc_hype": {"boost": 2}, "bpm_twins": {"hire": 1}}
    for cid, fx in expected.items():
        assert p.fx[p.card_index[cid]] == {**none, **fx}, cid
    genres = p.fx[p.card_index["techno_purist"]]["genres"]
    assert genres == ((1 << p.genre_names.index("techno"), 1),)
