"""The «Аніма: Тінь омеги» engine: scenarios, both player counts and options, determinism and
replay, hidden information, the data checks, statistics and agents."""
from __future__ import annotations

import json
import random
import re
import shutil
from dataclasses import asdict
from pathlib import Path

import pytest

from forge.model import load_game
from forge.rules import anima_shadow_of_omega as anima
from forge.rules.agents import random_agent
from forge.rules.anima_shadow_of_omega.agents import pursuer_agent
from forge.rules.core import play_game, replay
from forge.rules.scenario import build
from forge.scenario import load_scenario, run_scenario
from forge.check import check_game
from conftest import forge_in_process, run_forge, scenario_match

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "cards" / "anima_shadow_of_omega"
SCENARIOS = sorted((ROOT / "tests" / "scenarios" / "anima_shadow_of_omega").glob("*.yaml"))


@pytest.fixture(scope="module")
def game():
    g, _ = load_game(CARDS)
    return g


@pytest.fixture(scope="module")
def prep(game):
    return anima.prepare(game, {})


def test_at_least_twenty_five_scenarios():
    assert len(SCENARIOS) >= 25


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(path):
    res = run_scenario(path)
    assert res.passed, "\n".join(res.failures)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("options", [{}, {"location_tree": True}, {"both_basic": True}],
                         ids=["plain", "tree", "both_basic"])
def test_games_end_with_invariants_checked_every_step(game, players, options):
    p = anima.prepare(game, {**options, "turn_cap": 120})
    for seed in range(6):
        agents = [pursuer_agent, random_agent, random_agent][:players] if seed % 2 else [random_agent] * players
        m = p.new(players, seed)
        play_game(m, agents, m.streams.agents, check="step")
        assert m.decision is None and m.result is not None
        assert m.result.winners and m.turn <= 120


def test_pursuers_finish_without_the_cap(prep):
    for players in (2, 3):
        for seed in range(25):
            m = prep.new(players, seed)
            play_game(m, [pursuer_agent] * players, m.streams.agents)
            assert not m.result.capped and m.winner >= 0
            assert m.result.scores[m.winner] >= 11


def test_same_seed_same_game_and_replay(prep):
    a, b = prep.new(3, 11), prep.new(3, 11)
    for m in (a, b):
        play_game(m, [random_agent] * 3, m.streams.agents)
    assert a.state_digest() == b.state_digest() and a.result == b.result
    c = replay(prep.new(3, 11, deal=False), a.actions)
    assert c.state_digest() == a.state_digest() and c.result == a.result


def test_every_chance_goes_through_the_core(prep):
    """A scripted log replays the game even on a match of another seed: no hidden draw from
    the random stream."""
    a = prep.new(2, 3)
    play_game(a, [random_agent] * 2, a.streams.agents)
    other = replay(prep.new(2, 999, deal=False), a.actions)
    assert other.state_digest() == a.state_digest()


def test_options_are_typed_and_made_once(prep):
    """Every option offered is a typed `Choice` (read by name), the same object wherever it is
    offered again (made once per configuration), and a log read back from JSON (plain tuples)
    replays the game: the flow gets the offered option back."""
    from typing import get_args
    from forge.rules.anima_shadow_of_omega.choices import Choice
    from forge.rules.core import Violation, actions_from_json
    kinds = get_args(Choice)
    made: dict[tuple, int] = {}
    a = prep.new(2, 21)
    while a.decision is not None:
        for opts in a.decision.options:
            for o in opts:
                assert type(o) in kinds, f"{a.decision.kind}: {o!r} is not typed"
                assert made.setdefault(o, id(o)) == id(o), f"{o!r} made twice"
        a.step([random_agent(a, s, o, a.streams.agents[s])
                for s, o in zip(a.decision.seats, a.decision.options)])
    assert len(made) > 50
    logged = Violation(21, 2, "", a.actions).as_dict()["actions"]
    plain = actions_from_json(json.loads(json.dumps(logged)))
    assert any(type(c) is tuple for step in plain for c in step)
    again = replay(prep.new(2, 21, deal=False), plain)
    assert again.state_digest() == a.state_digest() and again.result == a.result


def test_view_hides_hidden_information(prep):
    m = prep.new(3, 4)
    v = m.view(0)
    assert v.hand == [m.p.cid[h] for h in m.hand[0]] and not hasattr(v, "hands")
    assert v.hand_sizes == [len(h) for h in m.hand]
    assert set(v.missions) == {m.p.cid[x] for x in m.missions[0]}
    others = {m.p.cid[x] for s in (1, 2) for x in m.missions[s]}
    plain = json.dumps(asdict(v))      # plain data
    assert not others & set(plain.split('"'))
    # the starting locations' events are face down
    assert list(v.locations.values()).count("hidden") == len(m.lead) - len(m.lead_up)


def test_operations_match_the_manifest(game):
    declared = {name: set(spec.params) for name, spec in game.manifest.operations.items()}
    assert declared == {name: set(op.params) for name, op in anima.OPERATIONS.items()}


def test_check_data_is_clean_on_the_real_cards(game):
    assert list(anima.check_data(game)) == []


def _copy_cards(tmp_path: Path) -> Path:
    dst = tmp_path / "anima_shadow_of_omega"
    shutil.copytree(CARDS, dst)
    return dst


def test_check_data_findings(tmp_path):
    root = _copy_cards(tmp_path)
    missions = (root / "missions.yaml").read_text(encoding="utf-8")
    missions = missions.replace("    - {goal: visit, location: cinder_abbey}\n",
                                "    - {goal: visit}\n")                   # names no location
    missions = missions.replace("speed_check, difficulty: 11}", "speed_check, difficulty: 10}")
    missions = missions.replace("speed_check, difficulty: 9}", "speed_check, difficulty: 11}")
    (root / "missions.yaml").write_text(missions, encoding="utf-8")
    bonuses = (root / "bonuses.yaml").read_text(encoding="utf-8")
    chars = (root / "characters.yaml").read_text(encoding="utf-8")
    chars = re.sub(r"skills: \[[^\]]*\]", "skills: [ki]", chars)     # nobody has Magic or Trickery
    chars = re.sub(r"\n  strength: \d+\n", "\n  strength: 1\n", chars)  # 4 of them + a 6 make 10
    chars = re.sub(r"\n  speed: \d+\n", "\n  speed: 1\n", chars)        # a Speed check of 10 is reachable, 11 not
    (root / "characters.yaml").write_text(chars, encoding="utf-8")
    (root / "bonuses.yaml").write_text(bonuses, encoding="utf-8")
    locations = (root / "locations.yaml").read_text(encoding="utf-8")
    locations = locations.replace('{roll: "1-4", result: nothing}', '{roll: "1-3", result: nothing}', 1)
    inn = locations.index("- id: lantern_inn")                             # no mission reward there
    cut = locations.index("    - {kind: mission}\n", inn)
    locations = locations[:cut] + locations[cut + len("    - {kind: mission}\n"):]
    locations = locations.replace("  level: 3\n", "  level: 2\n")     # no level 3 events can happen
    (root / "locations.yaml").write_text(locations, encoding="utf-8")
    g, _ = load_game(root)
    found = [(f.code, f.card) for f in anima.check_data(g)]
    assert ("mission-unreachable", "abbey_relic") in found
    assert ("mission-unreachable", "lost_courier") in found
    unbeatable = {c for code, c in found if code == "monster-unbeatable"}
    assert unbeatable == {"abyssal_knight", "elder_drake_morvet", "obsidian_colossus", "echo_of_omega",
                          "storm_the_citadel", "shattered_gate"}
    assert ("exploration-table", "willowmere") in found
    skill_cards = {c for code, c in found if code == "skill-unusable"}
    assert {"fire_lance", "nimble_fingers", "disguise"} <= skill_cards
    assert {"iron_fist", "wind_stride"}.isdisjoint(skill_cards)        # Ki is still there
    assert ("skill-unusable", "forbidden_folio") in found              # a goal needing Magic
    said = {(f.code, f.card): f.message for f in anima.check_data(g)}
    assert said["skill-unusable", "forbidden_folio"] == "goal 1 needs a character with magic, and none has it"
    assert said["mission-unreachable", "skyport_heist"] == ("goal 2: a Speed check of 11 that no group of 4 "
                                                            "reaches even with a 6 (at most 10)")
    assert ("mission-unreachable", "race_to_the_spire") not in found
    assert {c for code, c in found if code == "event-never-happens"} == {
        "echo_of_omega", "elder_drake_morvet", "obsidian_colossus", "abyssal_knight", "nightmare_weaver",
        "omega_tremor", "time_loop"}
    assert said["event-never-happens", "time_loop"] == "level 3 is above every location's level (2)"


def test_a_foe_beyond_any_group_is_a_check_finding(tmp_path):
    """The engine tier of `check` (its faces, which every character's change would lay out
    again, are not what this is about)."""
    from forge.check.engine import check_engine
    root = _copy_cards(tmp_path)
    chars = (root / "characters.yaml").read_text(encoding="utf-8")
    (root / "characters.yaml").write_text(re.sub(r"\n  strength: \d+\n", "\n  strength: 1\n", chars),
                                          encoding="utf-8")                # 4 + 6 cannot beat 11
    game, findings = load_game(root)
    assert not findings
    findings = list(check_engine(game))
    assert findings and {f.code for f in findings} == {"monster-unbeatable"}
    assert any(f.file.endswith("missions.yaml") for f in findings), [str(f) for f in findings]


def test_check_rejects_an_unimplemented_operation(tmp_path):
    root = _copy_cards(tmp_path)
    manifest = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(manifest.replace(
        "operations:\n", "operations:\n  teleport:\n    params: {}\n    text: {uk: \"Телепорт.\", en: \"Teleport.\"}\n", 1),
        encoding="utf-8")
    events = (root / "events.yaml").read_text(encoding="utf-8")
    (root / "events.yaml").write_text(events.replace("    - draw_event: 1\n", "    - teleport: {}\n", 1),
                                      encoding="utf-8")
    _, findings = check_game(root, typeset=False)
    assert sorted((f.code, Path(f.file).name) for f in findings) == [
        ("unimplemented-operation", "events.yaml"), ("unimplemented-operation", "game.yaml")]
    assert all("'teleport'" in f.message for f in findings)


def test_simulate_reports_the_designers_figures(game):
    from forge.rules import simulate
    r = simulate(game, games=20, players=3, seed=2, agents=("pursuer",))
    assert not r["violations"]
    e = r["engine"]
    assert e["turn_cap_hits"] == 0 and e["turns"]["mean"] > 0
    assert set(e["monsters"]) == {c.id for c in game.cards if c.type == "event" and c.subtype == "monster"}
    assert set(e["missions"]) == {c.id for c in game.cards if c.type == "mission"}
    assert set(e["locations"]) == {c.id for c in game.cards if c.type == "location"}
    assert all("pick_rate" in c and "survival" in c for c in e["characters"].values())
    assert any(line.startswith("Game length") for line in e["lines"]["en"])
    assert any(line.startswith("Почвари") for line in e["lines"]["uk"])
    names = {c.name["uk"] for c in game.cards if c.type == "character"}
    assert any(name in line for line in e["lines"]["uk"] for name in names)   # names, not ids


def test_no_design_is_dead_the_rules_offer_every_one(game):
    """Designs the pursuers never play (organisations, some spells) are offered, to play among
    other things: the report lists them as offered but never played by these agents, not dead."""
    from forge.rules import simulate
    r = simulate(game, games=60, players=3, seed=2)
    assert r["dead_cards"] == []
    for cid in r["unplayed_cards"]:
        assert r["cards"][cid]["options"]["play"]["games_offered"] > 0, cid
    assert r["option_verbs"]["attack"]["games_offered"] > 0


@pytest.mark.parametrize("players", [2, 3])
def test_simulate_json_is_deterministic(players):
    """The same seed, the same figures: in a fresh interpreter and in this one (each with its
    own hash seed and caches)."""
    from forge.rules.simulate import without_timings

    args = ("simulate", "anima_shadow_of_omega", "--games", "10", "--players", str(players),
            "--seed", "1", "--format", "json")
    runs = (run_forge(*args), forge_in_process(*args))
    assert [out.returncode for out in runs] == [0, 0], [out.stderr for out in runs]
    a, b = (without_timings(json.loads(out.stdout)) for out in runs)
    assert a == b and not a["violations"]
    # without --agents the engine seats its goal-directed agents, whose games end well before the cap
    assert a["agents"] == ["pursuer"]
    assert a["engine"]["turn_cap"] == 500 and a["engine"]["turn_cap_hits"] == 0


def test_random_agents_are_seated_when_asked_for(game):
    from forge.rules import simulate
    r = simulate(game, games=4, players=2, seed=3, agents=("random",))
    assert r["agents"] == ["random"] and not r["violations"]
    assert simulate(game, games=2, players=2, seed=3)["agents"] == ["pursuer"]


def test_the_core_names_no_game():
    for name in ("core.py", "scenario.py"):
        text = (ROOT / "forge" / "rules" / name).read_text(encoding="utf-8").lower()
        assert "anima" not in text and "omega" not in text


def test_simulate_defaults_to_the_most_players_the_game_seats():
    """Anima seats 2-3: `forge simulate` without --players plays 3, not a usage error for 4."""
    done = forge_in_process("simulate", "anima_shadow_of_omega", "--games", "3", "--agents", "pursuer")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 games, 3 players" in done.stdout


def test_the_rule_numbers_in_print_come_from_the_engine(game):
    """The rulebook and cheat sheet print the engine's `rules`, never a number typed by hand:
    with other numbers in the engine, every sentence that states one changes with it."""
    from dataclasses import replace
    from forge.rulebook.context import render_template
    from forge.rulebook.odds import d6_battle
    from forge.rules import ENGINES
    ENGINES.register(replace(anima.ENGINE, rules=dict(
        kill_margin=7, hand_limit=8, group_limit=9, rest_bonus=3, locations_per_player=6,
        attack_spread=2, phases=11, trade_offers=4)))
    try:
        sheet = render_template(game, "cheatsheet", "en").markdown
        book = render_template(game, "rulebook", "en").markdown
        uk = (render_template(game, "cheatsheet", "uk").markdown
              + render_template(game, "rulebook", "uk").markdown)
    finally:
        ENGINES.register(anima.ENGINE)
    for text in ("A turn: 11 phases", "at most 6 active locations per player", "(+3 Strength and Speed",
                 "differ by 2 at most", "8 bonus cards in hand, 9 characters", "Losing by 7 or more",
                 f"| -6 | 0 % | 0 % | {d6_battle(-6).lose_by(7).percent} % |"):
        assert text in sheet
    for text in ("loses by 7 or more", "by less than 7", "A loss by 7 or more",
                 "has +3 Strength and +3 Speed", "at most 4\u00a0times", "already holds 8 bonuses"):
        assert text in book
    for text in ("Хід: 11 фази", "Програш на 7 і більше", "бонусів у руці — 8, персонажів у групі — 9",
                 "з різницею 7 або більше", "+3 до Сили і +3 до Швидкості",
                 "щонайбільше 4\u00a0рази", "у якого вже 8 бонусів", "не більше 6 на гравця",
                 "+3 до Сили й Швидкості"):
        assert text in uk


def test_the_engine_modules_import_without_a_cycle():
    """Each module of the package imports at the top of the file (none inside a function, where
    a cycle could hide), and its imports within the package form no cycle: any module imports
    on its own, in any order."""
    import ast
    folder = Path(anima.__file__).parent
    graph: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(node) for node in tree.body}
        graph[path.stem] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                assert id(node) in top, f"{path.name}:{node.lineno}: an import inside a function"
                if isinstance(node, ast.ImportFrom) and node.level == 1:
                    graph[path.stem] |= {node.module} if node.module else {a.name for a in node.names}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import cycle: {' -> '.join(path + (name,))}"
        if name not in done:
            for dep in graph[name]:
                visit(dep, path + (name,))
            done.add(name)
    for name in graph:
        visit(name, ())
    assert len(graph) > 10 and graph["__init__"] >= {"flow", "agents", "scenario", "tables"}


@pytest.mark.parametrize("seat, limit", [("hand: [war_cry, war_cry, iron_fist, iron_fist, sabotage, lucky_find]",
                                          "more than 5 bonus cards"),
                                         ("group: [rain_the_nameless, brann_ironhide, gideon_vane, zlata_spark, "
                                          "lissa_glasshand]", "group of 1-4 characters")])
def test_a_position_past_a_limit_is_refused(tmp_path, seat, limit):
    """A hand of 6 and a group of 5 are one past the rulebook's limits: no position holds them
    (the scenarios at 5 and 4 play; `battle_spoils_full_hand`, `group_of_four_cannot_hire`)."""
    folder = tmp_path / "anima_shadow_of_omega"
    folder.mkdir()
    group = "" if seat.startswith("group") else "group: [rain_the_nameless], "
    (folder / "past_limit.yaml").write_text(
        "title: {uk: Понад ліміт, en: Past the limit}\nstory: {uk: Понад ліміт, en: Past the limit}\n"
        "players: 2\nlocations: [willowmere]\n"
        f"seats:\n  A: {{{group}{seat}}}\n  B: {{group: [ulric_stonewall]}}\n", encoding="utf-8")
    res = run_scenario(folder / "past_limit.yaml")
    assert not res.passed and any(limit in f for f in res.failures), res.failures


def test_statistics_from_two_known_games(prep):
    """The designer's figures from two hand-made games' tallies, each checked by hand: a mission
    done in both games it was dealt in (turns 3 and 5), one dealt and never done, a final done in
    one of two, one never in play (a rate of 0); a monster that won 1 of 4 fights and one never
    fought (a rate of 0 at 0 fights, not a division by zero); a character kept both times and dead once, one offered and never
    kept, one never offered."""
    from forge.rules.anima_shadow_of_omega.state import GameStats
    from forge.rules.anima_shadow_of_omega.statistics import statistics
    from forge.rules.tally import add
    one = GameStats(**{"turns": 8, "capped": False, "winner": 0, "alarms": 1,
                       "missions": {"lost_courier": 3, "seal_the_rift": 8}, "final": "seal_the_rift",
                       "fights": {"marsh_leech": 2}, "monster_wins": {"marsh_leech": 1},
                       "explored": {"harrow_market": 2}, "rewards": {"harrow_market:bonus": 1},
                       "offered": {"kaira_ashblade": 1, "orsen_shadowcatch": 1},
                       "dealt": {"lost_courier": 1, "abbey_relic": 1}, "kept": {"kaira_ashblade": 1},
                       "joined": {"kaira_ashblade": 1}, "died": {"kaira_ashblade": 1}}).counts()
    two = GameStats(**{"turns": 12, "capped": True, "winner": None, "alarms": 0,
                       "missions": {"lost_courier": 5}, "final": "seal_the_rift",
                       "fights": {"marsh_leech": 2}, "monster_wins": {}, "explored": {"harrow_market": 1, "willowmere": 1},
                       "rewards": {"harrow_market:bonus": 1, "willowmere:hire": 1},
                       "offered": {"kaira_ashblade": 1}, "dealt": {"lost_courier": 1},
                       "kept": {"kaira_ashblade": 1}, "joined": {"kaira_ashblade": 1}, "died": {}}).counts()
    out = statistics(prep, add(add({}, one), two), 2)
    assert out["turns"] == {"mean": 10.0, "median": 12, "min": 8, "max": 12, "p90": 12}
    assert (out["turn_cap"], out["turn_cap_hits"], out["false_alarms_per_game"]) == (500, 1, 0.5)
    missions = out["missions"]
    assert missions["lost_courier"] == {"kind": "basic", "in_play": 2, "completed": 2, "rate": 1.0,
                                        "mean_turn": 4.0}
    assert missions["abbey_relic"] == {"kind": "basic", "in_play": 1, "completed": 0, "rate": 0.0,
                                       "mean_turn": None}
    assert missions["seal_the_rift"] == {"kind": "final", "in_play": 2, "completed": 1, "rate": 0.5,
                                         "mean_turn": 8.0}
    assert missions["storm_the_citadel"] == {"kind": "final", "in_play": 0, "completed": 0, "rate": 0.0,
                                             "mean_turn": None}
    assert out["monsters"]["marsh_leech"] == {"level": 1, "strength": 3, "fights": 4, "wins": 1,
                                              "win_rate": 0.25}
    assert out["monsters"]["roadside_bandits"] == {"level": 1, "strength": 5, "fights": 0, "wins": 0,
                                                   "win_rate": 0.0}
    assert out["locations"]["harrow_market"] == {"level": 1, "explored_per_game": 1.5,
                                                 "rewards": {"bonus": 2, "mission": 0, "special": 0}}
    assert out["locations"]["willowmere"]["rewards"] == {"bonus": 0, "hire": 1, "mission": 0}
    characters = out["characters"]
    assert characters["kaira_ashblade"] == {"pick_rate": 1.0, "joined": 2, "survival": 0.5}
    assert characters["orsen_shadowcatch"] == {"pick_rate": 0.0, "joined": 0, "survival": None}
    assert characters["veyla_moonweaver"] == {"pick_rate": None, "joined": 0, "survival": None}
    en, uk = out["lines"]["en"], out["lines"]["uk"]
    for line in ["Game length: 10.0 turns on average (median 12, 90% within 12, longest 12); "
                 "the turn cap of 500 was hit in 1 of 2 games",
                 "  main: The Lost Courier: 100.0%, turn 4.0", "  main: The Abbey Relic: 0.0%, never",
                 "  final: Seal the Rift: 50.0%, turn 8.0", "   3 Marsh Leech: 4 fights, 25.0%",
                 "   5 Roadside Bandits: 0 fights, 0.0%",
                 "  level 1 Harrow Market: 1.5; bonus 2, mission 0, special 0",
                 "  level 1 Willowmere: 0.5; bonus 0, hire 1, mission 0",
                 "  Kaira Ashblade: picked 100.0%, survived 50.0%",
                 "  Orsen Shadowcatch: picked 0.0%, survived never joined",
                 "  Veyla Moonweaver: picked never offered, survived never joined"]:
        assert line in en
    assert en[-1].startswith("Monsters never fought in 2 games: Roadside Bandits, Rabid Wolves, ")
    assert "Marsh Leech" not in en[-1]
    assert "  основна: Загублений курʼєр: 100,0\u00a0%, хід 4,0" in uk
    assert "  основна: Реліквія абатства: 0,0\u00a0%, жодного разу" in uk
    # the report's tables (`report_tables`): a blank (None) where a share has no games under it
    # or a location offers no such reward
    from forge.rules.anima_shadow_of_omega.report import report_tables
    tables = {lang: report_tables(out, 2, lambda cid: cid.upper(), lang) for lang in ("en", "uk")}
    assert [(t.title, [(c.title, c.kind) for c in t.columns], t.note) for t in tables["en"]] == [
        ("Missions: completed in the games where in play",
         [("Kind", "text"), ("Mission", "text"), ("In play, games", "count"), ("Completed", "count"),
          ("Completed, share", "share"), ("Mean turn", "decimal")], ""),
        ("Monsters: fights, and the share the monster won",
         [("Strength", "count"), ("Monster", "text"), ("Fights", "count"), ("Monster won", "share")], ""),
        ("Locations: explorations a game, and rewards taken",
         [("Level", "count"), ("Location", "text"), ("Explored a game", "decimal"), ("Bonus", "count"),
          ("Mission", "count"), ("Special", "count"), ("Hire", "count")], ""),
        ("Characters: kept when offered at setup, and survival in a group",
         [("Character", "text"), ("Kept", "share"), ("In a group, games", "count"), ("Survived", "share")],
         "A dash: never offered at setup, or never in a group.")]
    missions, monsters, locations, chars = (t.rows for t in tables["en"])
    assert {("main", "LOST_COURIER", 2, 2, 1.0, 4.0), ("main", "ABBEY_RELIC", 1, 0, 0.0, None),
            ("final", "SEAL_THE_RIFT", 2, 1, 0.5, 8.0), ("final", "STORM_THE_CITADEL", 0, 0, None, None)} <= set(missions)
    assert {(3, "MARSH_LEECH", 4, 0.25), (5, "ROADSIDE_BANDITS", 0, None)} <= set(monsters)
    assert {(1, "HARROW_MARKET", 1.5, 2, 0, 0, None), (1, "WILLOWMERE", 0.5, 0, 0, None, 1)} <= set(locations)
    assert {("KAIRA_ASHBLADE", 1.0, 2, 0.5), ("VEYLA_MOONWEAVER", None, 0, None)} <= set(chars)
    assert [len(t.rows) for t in tables["en"]] == [len(out[k]) for k in ("missions", "monsters", "locations", "characters")]
    assert [t.title.split(":")[0] for t in tables["uk"]] == ["Місії", "Почвари", "Локації", "Персонажі"]
    assert [c.title for c in tables["uk"][2].columns][3:] == ["Бонус", "Місія", "Особливе", "Найм"]
    assert tables["uk"][0].rows[0][0] in ("основна", "кінцева") and tables["uk"][3].note.startswith("Риска")


VIEW_POSITION = """title: {uk: Що бачить гравець, en: What a seat sees}
story: {uk: Позиція, en: A position}
players: 2
turn: 3
locations:
  - willowmere
  - {card: stonebridge_outpost, lead: wandering_peddler, face_up: true}
  - {card: greyfen_marsh, lead: marsh_leech}
  - harrow_market
bonus_discard: [war_cry]
event_discard: [bog_wisp]
location_discard: [cinder_abbey]
character_discard: [gideon_vane]
seats:
  A: {group: [rain_the_nameless, zlata_spark], hand: [lucky_find], at: willowmere,
      missions: [{card: lost_courier, progress: 1}, fen_guide], done: [abbey_relic]}
  B: {group: [brann_ironhide], hand: [iron_fist, sabotage], missions: [market_debts],
      at: harrow_market, skip: 1}
"""


def test_a_seats_view_of_a_known_position(tmp_path):
    """Everything B sees, key by key: its own hand and missions; of A only the hand size and
    the mission under way (progress 1), not the one at 0; the face-up lead event by name, the
    face-down one as hidden, locations without one as none; B, told to skip, lost this turn."""
    m = scenario_match(tmp_path, "anima_shadow_of_omega", VIEW_POSITION)
    def plain(x):            # the typed view as nested dicts, to compare key by key
        x = asdict(x) if hasattr(x, "__dataclass_fields__") else x._asdict() if hasattr(x, "_asdict") else x
        if isinstance(x, dict):
            return {k: plain(v) for k, v in x.items()}
        return [plain(v) for v in x] if isinstance(x, list) else x
    assert plain(m.view(1)) == {
        "seat": 1, "players": 2, "trade": None, "proposed": [], "turn": 4, "phase": "discard",
        "order": [0, 1], "hand": ["iron_fist", "sabotage"],
        "missions": {"market_debts": 0}, "final": None, "final_progress": [0, 0],
        "groups": [[{"card": "rain_the_nameless", "rotated": False, "asleep": False},
                    {"card": "zlata_spark", "rotated": False, "asleep": False}],
                   [{"card": "brann_ironhide", "rotated": False, "asleep": False}]],
        "organisations": [[], []], "at": ["willowmere", "harrow_market"],
        "done": [["abbey_relic"], []], "under_way": [["lost_courier"], []], "hand_sizes": [1, 2],
        "locations": {"willowmere": None, "stonebridge_outpost": "wandering_peddler",
                      "greyfen_marsh": "hidden", "harrow_market": None},
        "decks": {"character": 16, "location": [9], "event": 25, "bonus": 31},
        "discards": {"character": ["gideon_vane"], "location": ["cinder_abbey"],
                     "event": ["bog_wisp"], "bonus": ["war_cry"]},
        "strength": [6, 5], "speed": [8, 1], "skip": [0, 0], "lost": [False, True],
        "decision": "discard"}


def test_the_rulebook_says_each_expectation_in_words(game):
    """The sentences a rulebook prints for Anima's own `expect:` keys, word for word in both
    languages: an empty hand and a hand of 1, no mission done yet, no organisation, a group on the
    road, 0 face-down events, 1 hold turn and 2, a skip of 1 and of none, one seat asleep, two
    rotated, a battle the foe wins, explored once and twice, one false alarm, turn 1."""
    from forge.rulebook.outcome import describe
    names = {c.id: c.name for c in game.cards}
    expect = {"zones": {"A": {"group": ["rain_the_nameless", "zlata_spark"], "group_size": 2, "hand": [],
                              "hand_size": 1, "missions": ["lost_courier"], "done": [],
                              "organisation": "none", "at": "willowmere"},
                        "B": {"hand": ["war_cry"], "at": "none", "done": ["abbey_relic"]}},
              "face_down": 0, "held": {"A": 2, "B": 1}, "skip": {"A": 1, "B": 0},
              "asleep": ["brann_ironhide"], "rotated": ["zlata_spark", "rain_the_nameless"],
              "battle": {"totals": [11, 10], "winner": "foe"}, "sizes": {"bonus_deck": 1, "event_deck": 3},
              "explored": {"willowmere": 1, "harrow_market": 2}, "alarms": 1, "turns": 1}
    said = {lang: [s.replace("\u00a0", " ") for s in describe(expect, lang, names, anima.ENGINE, game)]
            for lang in ("en", "uk")}
    assert said["en"] == [
        "Player A’s group is “Rain the Nameless” and “Zlata Spark”.",
        "Player A’s group has 2 characters.",
        "Player A’s hand is empty.",
        "Player A holds 1 card.",
        "Player A’s unfinished mission is “The Lost Courier”.",
        "Player A has not completed any mission yet.",
        "Player A has no organisation.",
        "Player B holds “War Cry”.",
        "Player B has completed “The Abbey Relic”.",
        "The group of player A is at “Willowmere”.",
        "The group of player B is on the road, at no location.",
        "No preliminary event lies face down.",
        "Player A has 2 hold turns counted.",
        "Player B has 1 hold turn counted.",
        "Player A must skip 1 turn.",
        "Player B has no turn to skip.",
        "Only “Brann Ironhide” is asleep.",
        "Only “Zlata Spark” and “Rain the Nameless” are rotated.",
        "The battle ends 11 against 10; the foe wins.",
        "The bonus deck holds 1 card, the event deck holds 3 cards.",
        "“Willowmere” is explored once.",
        "“Harrow Market” is explored twice.",
        "There is one false alarm.",
        "The game has reached turn 1.",
    ]
    assert said["uk"] == [
        "У групі гравця А — «Рейн Безіменний» і «Злата Іскра».",
        "У групі гравця А 2 персонажі.",
        "Рука гравця А порожня.",
        "У гравця А на руці 1 карта.",
        "Незавершена місія гравця А — «Загублений курʼєр».",
        "Гравець А ще не виконав жодної місії.",
        "У гравця А немає організації.",
        "У гравця Б на руці карта «Бойовий клич».",
        "Гравець Б виконав місію «Реліквія абатства».",
        "Група гравця А стоїть у локації «Вербове Плесо».",
        "Група гравця Б в дорозі: вона не стоїть у жодній локації.",
        "Закритих попередніх подій на столі немає.",
        "Гравцеві А зараховано 2 ходи утримання.",
        "Гравцеві Б зараховано 1 хід утримання.",
        "Гравець А має пропустити 1 хід.",
        "Гравцеві Б не треба пропускати ходів.",
        "Спить лише «Бранн Залізношкірий».",
        "Обернено лише карти «Злата Іскра» і «Рейн Безіменний».",
        "Битва закінчується з рахунком 11 проти 10; перемагає ворог.",
        "У колоді бонусів 1 карта, у колоді подій 3 карти.",
        "Локацію «Вербове Плесо» досліджено один раз.",
        "Локацію «Торжище Гарроу» досліджено двічі.",
        "Сталася одна хибна тривога.",
        "Гра дійшла до ходу 1.",
    ]


PURSUER_POSITION = """title: {uk: Два ходи переслідувача, en: Two pursuer turns}
story: {uk: Позиція, en: A position}
players: 2
locations: [greyfen_marsh, library_of_whispers]
seats:
  A: {group: [rain_the_nameless], missions: [fen_guide]}
  B: {group: [gideon_vane], missions: [forbidden_folio]}
rolls: {d6: [1, 2, 5, 2, 3, 4, 6, 1]}
"""


def test_pursuer_chases_its_missions_in_a_known_position(tmp_path):
    """What a designer relies on `pursuer` for, choice by choice over two known turns: each
    group heads for its goal's location and A takes the mission goal as its reward; B, with no
    Magic for its goal, takes a bonus card, plays its draw card, then walks to another location
    and hires; A, its next goal (Willowmere) not on the table, opens a new location from the
    deck and hires while its group is small; neither attacks or trades with nothing to gain."""
    from forge.rules.core import SEAT_NAMES
    m = scenario_match(tmp_path, "anima_shadow_of_omega", PURSUER_POSITION)
    played = []
    while m.decision is not None and m.turn <= 2:
        d = m.decision
        if not d.seats:
            m.step(())
            continue
        got = tuple(pursuer_agent(m, s, o, random.Random(0)) for s, o in zip(d.seats, d.options))
        played += [f"{SEAT_NAMES[s]} {d.kind}: {m.label(g)}" for s, g in zip(d.seats, got)]
        m.step(got)
    assert played == [
        "A discard: pass", "B discard: pass", "A move: go", "A go: go greyfen_marsh", "B move: go",
        "B go: go library_of_whispers", "A interact: pass", "B interact: pass",
        "A explore: explore", "A reward: reward mission fen_guide", "B explore: explore",
        "B reward: reward bonus", "A discard: pass", "B discard: play lucky_find", "B discard: pass",
        "A move: new", "A new: new deck", "B move: go", "B go: go velmar_citadel",
        "A interact: pass", "B interact: pass", "A explore: explore", "A reward: reward hire",
        "B explore: explore", "B reward: reward hire"]


@pytest.mark.parametrize("me, foe, tie_wins, chances", [
    (4, 4, False, 15 / 30), (4, 4, True, 21 / 36), (5, 4, False, 21 / 31), (4, 9, False, 0.0),
    (9, 4, True, 1.0)])
def test_pursuer_attack_odds_are_the_dice_odds(me, foe, tie_wins, chances):
    """The odds `pursuer` attacks on (at least 60 %) are the exact d6-against-d6 odds of the two
    Strengths: a tie rolled again (so equal groups are even) or won outright."""
    from forge.rules.anima_shadow_of_omega.agents import ATTACK_ODDS, _odds
    assert _odds(me, foe, tie_wins) == pytest.approx(chances)
    assert _odds(5, 4, False) >= ATTACK_ODDS > _odds(4, 4, False)     # one Strength ahead: attack


def test_pursuer_keeps_its_promises_at_every_decision_of_real_games(prep):
    """`pursuer`'s docstring, checked at every decision of 16 seeded games of 2 and 3 pursuers
    (cards valued by its own `_worth`): it keeps the character of most Strength + Speed and
    kills (or puts to sleep in its own group) the one of least; it puts to sleep the strongest
    rival character it may; it pays, loses and exchanges its least wanted card and takes and
    picks up its most wanted; it plays a card that cancels, and a guard, whenever it may; it
    rerolls a 1 or a 2 only; it counters a rival's card only when it hurts its group (a steal,
    a rob, a sleep, a redirect, or any card in its own battle); in a trade it closes its offer
    once made, offers only a card it cannot use, and accepts an answer worth at least what it
    gave; it attacks only at 60 % odds or better, the first such group offered; a reward goes
    to the mission goal first, then a hire while the group is small (fewer than 3, or the hand
    nearly full and room in the group), then bonus cards; trimming the table it removes a
    location its goals do not need, and flying it lands on one they need (by its `_targets`)."""
    from forge.rules.anima_shadow_of_omega.agents import ATTACK_ODDS, _last, _odds, _targets, _worth
    from forge.rules.anima_shadow_of_omega.choices import Play
    from forge.rules.anima_shadow_of_omega.tables import GROUP_LIMIT, HAND_LIMIT, R_BONUS, R_HIRE
    from forge.rules.core import Rolled
    p = prep
    seen = set()

    def checked(m, s, options, rng):
        got = pursuer_agent(m, s, options, rng)
        kind = m.decision.kind
        seen.add(kind)
        might = [o for o in options if o.verb != "pass"]
        if kind == "keep":
            assert p.cstr[got.card] + p.cspd[got.card] == max(p.cstr[o.card] + p.cspd[o.card] for o in options)
        elif kind == "kill" or (kind == "sleep" and all(o.card in m.group[s] for o in options)):
            assert p.cstr[got.card] + p.cspd[got.card] == min(p.cstr[o.card] + p.cspd[o.card] for o in options)
        elif kind == "sleep":
            assert got.card not in m.group[s]
            assert p.cstr[got.card] == max(p.cstr[o.card] for o in options if o.card not in m.group[s])
        elif kind in ("pay", "lose", "exchange"):
            assert _worth(m, s, got.card) == min(_worth(m, s, o.card) for o in options)
        elif kind == "take":
            assert _worth(m, s, got.card) == max(_worth(m, s, o.card) for o in options)
        elif kind == "pickup" and might:
            assert _worth(m, s, got.card) == max(_worth(m, s, o.card) for o in might)
        elif kind in ("cancel", "guard"):
            assert got == (might[0] if might else ("pass",))
        elif kind == "reroll":
            last = m.actions[-1]
            low = isinstance(last, Rolled) and last[1] in (1, 2)
            assert (got != ("pass",)) == (low and len(options) > 1)
        elif kind == "interact":
            attacks = [o for o in options if o.verb == "attack"
                       and _odds(m.strength(s), m.strength(o.seat), False) >= ATTACK_ODDS]
            assert got == attacks[0] if attacks else got.verb != "attack"
        elif kind == "counter" and m.revealed:
            b, h = m.in_battle, m.revealed[-1]
            harms = (b is not None and s in (b.seat, b.opponent)) or \
                any(e.name in ("steal_bonus", "rob", "sleep", "redirect") for e in p.ops[h])
            assert got == (might[0] if harms and might else ("pass",))
        elif kind == "offer":
            gives = [o for o in options if o.verb == "give"]
            if ("done",) in options:
                assert got == ("done",)
            elif got != ("pass",):
                assert got in gives and _worth(m, s, got.card) == 0
        elif kind == "accept" and m.trading is not None:
            _, _, offered, answer = m.trading
            fair = sum(_worth(m, s, x) for x in answer) >= sum(_worth(m, s, x) for x in offered)
            assert got == (("accept",) if fair else ("pass",))
        elif kind == "remove":
            keep = set(_targets(m, s))
            spare = [o for o in options if p.dix[o.card] not in keep]
            assert got == (spare or options)[0]
        elif kind == "to" and not (isinstance(_last(m), Play)
                                   and any(e.name == "redirect" for e in p.ops[_last(m).card])):
            want = [o for o in options if p.dix[o.card] in _targets(m, s)]
            assert got == (want or options)[0]
        elif kind == "reward":
            hire = len(m.group[s]) < 3 or (len(m.group[s]) < GROUP_LIMIT and len(m.hand[s]) >= HAND_LIMIT - 1)
            rank = [(o.mission >= 0, o.kind == R_HIRE and hire, o.kind == R_BONUS) for o in options]
            assert rank[options.index(got)] == max(rank)
        return got

    for seed in range(16):
        m = prep.new(2 + seed % 2, seed)
        play_game(m, [checked] * m.n, m.streams.agents)
    assert {"keep", "kill", "sleep", "pay", "lose", "exchange", "take", "pickup", "cancel", "guard",
            "reroll", "interact", "reward", "counter", "offer", "accept", "remove", "to"} <= seen, seen


def test_the_rulebook_says_the_rest_of_the_expectations_in_words(game):
    """The other sentences of Anima's `expect:` keys, word for word in both languages: the
    active locations, a preliminary event gone and one waiting, the final mission, a mission's
    goals at 0 and at 2, the final mission's progress at 0 and 2, a lost turn, Strength and
    Speed, a failed Speed check, the discard piles, the winner, 2 events face down, no false
    alarm, a location never explored, a skip of 2."""
    from forge.rulebook.outcome import describe
    names = {c.id: c.name for c in game.cards}
    expect = {"locations": ["willowmere", "harrow_market"],
              "leads": {"willowmere": "none", "harrow_market": "bog_wisp"},
              "final": "storm_the_citadel", "progress": {"fen_guide": 0, "forbidden_folio": 2},
              "final_progress": {"A": 0, "B": 2}, "lost": ["B"], "strength": {"A": 6}, "speed": {"B": 1},
              "check": {"total": 13, "passed": False},
              "discards": {"character": ["gideon_vane"], "bonus": ["war_cry", "lucky_find"]},
              "winner": "B", "face_down": 2, "alarms": 0, "explored": {"willowmere": 0}, "skip": {"A": 2}}
    said = {lang: [s.replace("\u00a0", " ") for s in describe(expect, lang, names, anima.ENGINE, game)]
            for lang in ("en", "uk")}
    assert said["en"] == [
        "The active locations are “Willowmere” and “Harrow Market”.",
        "“Willowmere” has no preliminary event left.",
        "The preliminary event at “Harrow Market” is “Bog Wisp”.",
        "The final mission is “Storm the Citadel”.",
        "No goal of “Guide Through the Fen” is done yet.",
        "“The Forbidden Folio” has 2 goals done.",
        "Player A has done no goal of the final mission yet.",
        "Player B has done 2 goals of the final mission.",
        "Player B has lost the turn.",
        "Player A’s group has Strength 6.",
        "Player B’s group has Speed 1.",
        "The Speed check totals 13 and fails.",
        "“Gideon Vane” is in the character discard pile.",
        "“War Cry” and “Lucky Find” are in the bonus discard pile.",
        "Player B wins the game.",
        "There are 2 preliminary events face down.",
        "There is no false alarm.",
        "“Willowmere” is not explored at all.",
        "Player A must skip 2 turns.",
    ]
    assert said["uk"] == [
        "Активні локації — «Вербове Плесо» і «Торжище Гарроу».",
        "На локації «Вербове Плесо» попередньої події вже немає.",
        "Попередня подія на локації «Торжище Гарроу» — «Блудний вогник».",
        "Кінцева місія — «Штурм цитаделі».",
        "У місії «Провідник крізь драговину» ще не виконано жодної цілі.",
        "У місії «Заборонений фоліант» виконано 2 цілі.",
        "Гравець А ще не виконав жодної цілі кінцевої місії.",
        "Гравець Б виконав 2 цілі кінцевої місії.",
        "Гравець Б втратив хід.",
        "Сила групи гравця А — 6.",
        "Швидкість групи гравця Б — 1.",
        "Перевірка Швидкості дає 13: її провалено.",
        "У відбої персонажів лежить карта «Гедеон Вейн».",
        "У відбої бонусів лежать карти «Бойовий клич» і «Щаслива знахідка».",
        "Гру виграє гравець Б.",
        "На столі лежать 2 закриті попередні події.",
        "Хибних тривог не було.",
        "Локацію «Вербове Плесо» не досліджено жодного разу.",
        "Гравець А має пропустити 2 ходи.",
    ]


@pytest.mark.parametrize("break_it, says", [
    (lambda m, k: m.char_deck.append(k["bonus"]), "char_deck: a card of the wrong type"),
    (lambda m, k: m.active.append(k["char"]), "active: a card of the wrong type"),
    (lambda m, k: m.bonus_discard.append(k["loc"]), "bonus_discard: a card of the wrong type"),
    (lambda m, k: m.loc_decks[0].append(k["bonus"]), "a location deck holds another card"),
    (lambda m, k: m.mission_deck.append(k["final"]), "final and basic missions mixed up"),
    (lambda m, k: (setattr(m, "dealt", True), m.group[0].clear()), "seat A: a group of 0"),
    (lambda m, k: m.group[0].append(k["bonus"]), "seat A: a non-character in the group"),
    (lambda m, k: m.hand[1].append(k["char"]), "seat B: 1 cards in hand, or a non-bonus"),
    (lambda m, k: m.skip.__setitem__(1, -1), "seat B: negative skip"),
    (lambda m, k: m.rot.__setitem__(k["char"], True), "{char}: rotated or asleep outside a group")],
    ids=["char-deck", "active", "bonus-discard", "location-deck", "final-mixed", "empty-group",
         "bonus-in-group", "character-in-hand", "negative-skip", "rotated-outside"])
def test_each_broken_invariant_names_itself(prep, break_it, says):
    """A state no rule can reach fails the invariant check with a message that names the zone or
    the seat and what is wrong, so a broken engine change points at its own mistake."""
    from forge.errors import InvariantViolation
    from forge.rules.anima_shadow_of_omega.tables import BONUS, CHAR, LOC
    p = prep
    m = prep.new(2, 0)
    m.invariants()
    spare = [h for h in range(p.n) if h not in {c for g in m.group for c in g}]
    k = {"bonus": next(h for h in spare if p.kind[h] == BONUS and p.bsub[h] != -1),
         "char": next(h for h in spare if p.kind[h] == CHAR),
         "loc": next(h for h in spare if p.kind[h] == LOC),
         "final": next(h for h in range(p.n) if p.final[h])}
    break_it(m, k)
    with pytest.raises(InvariantViolation) as got:
        m.invariants()
    assert str(got.value) == says.format(char=p.cid[k["char"]])


def test_the_rulebook_says_plurals_and_empties_in_words(game):
    """Anima's sentences at their other forms, word for word in both languages: no group and a
    group of one, two unfinished missions and none, two missions done, an organisation, two
    groups on the road, one active location and an empty deck, two seats' Strength and Speed,
    one event face down, no hold turn, two false alarms, a location explored three times, one
    card rotated."""
    from forge.rulebook.outcome import describe
    names = {c.id: c.name for c in game.cards}
    expect = {"zones": {"A": {"group": [], "missions": ["lost_courier", "fen_guide"],
                              "done": ["abbey_relic", "market_debts"], "organisation": "aeronauts_guild",
                              "at": "none", "hand_size": 3},
                        "B": {"group": ["brann_ironhide"], "missions": [], "at": "none", "group_size": 1}},
              "sizes": {"active": 1, "bonus_deck": 0}, "strength": {"A": 6, "B": 6}, "speed": {"A": 1, "B": 2},
              "face_down": 1, "held": {"A": 0}, "alarms": 2, "explored": {"willowmere": 3},
              "rotated": ["zlata_spark"]}
    said = {lang: [s.replace("\u00a0", " ") for s in describe(expect, lang, names, anima.ENGINE, game)]
            for lang in ("en", "uk")}
    assert said["en"] == [
        "Player A has no group.",
        "Player A holds 3 cards.",
        "Player A’s unfinished missions are “The Lost Courier” and “Guide Through the Fen”.",
        "Player A has completed “The Abbey Relic” and “Market Debts”.",
        "Player A’s organisation is “Aeronauts’ Guild”.",
        "Player B’s group is “Brann Ironhide” alone.",
        "Player B’s group has 1 character.",
        "Player B has no unfinished mission.",
        "The groups of players A and B are on the road, at no location.",
        "The table holds 1 active location, the bonus deck is empty.",
        "Player A’s group has Strength 6, player B’s 6.",
        "Player A’s group has Speed 1, player B’s 2.",
        "There is 1 preliminary event face down.",
        "Player A has no hold turn counted.",
        "There are 2 false alarms.",
        "“Willowmere” is explored 3 times.",
        "Only “Zlata Spark” is rotated.",
    ]
    assert said["uk"] == [
        "У гравця А немає групи.",
        "У гравця А на руці 3 карти.",
        "Незавершені місії гравця А — «Загублений курʼєр» і «Провідник крізь драговину».",
        "Гравець А виконав місії «Реліквія абатства» і «Борги на торжищі».",
        "Організація гравця А — «Гільдія аеронавтів».",
        "У групі гравця Б лише «Бранн Залізношкірий».",
        "У групі гравця Б 1 персонаж.",
        "У гравця Б немає незавершених місій.",
        "Групи гравців А і Б в дорозі: вони не стоять у жодній локації.",
        "На столі 1 активна локація, колода бонусів порожня.",
        "Сила групи гравця А — 6, гравця Б — 6.",
        "Швидкість групи гравця А — 1, гравця Б — 2.",
        "На столі лежить 1 закрита попередня подія.",
        "Гравцеві А не зараховано жодного ходу утримання.",
        "Сталися 2 хибні тривоги.",
        "Локацію «Вербове Плесо» досліджено 3 рази.",
        "Обернено лише карту «Злата Іскра».",
    ]


def test_a_peek_looks_at_the_deck_it_names(game, prep):
    """`peek` of the event, bonus or mission deck looks at that deck; of locations, at the one
    location deck, or with the location tree at the deck of the group's level (level 1 on the
    road)."""
    m = prep.new(2, 0)
    assert [m.peek_deck(0, d) is z for d, z in (("event", m.event_deck), ("bonus", m.bonus_deck),
                                                 ("mission", m.mission_deck), ("location", m.loc_decks[0]))] == [True] * 4
    t = anima.prepare(game, {"location_tree": True}).new(2, 0)
    assert t.peek_deck(0, "location") is t.loc_decks[0]
    t.loc[0] = t.p.handles_of[next(c.id for c in t.p.defs if c.type == "location" and c.level == 2)][0]
    assert t.peek_deck(0, "location") is t.loc_decks[1]


def test_a_trade_under_way_is_seen_and_kept_by_a_redeal(tmp_path):
    """While B offers Iron Fist to A, A's view shows the offer, and a redeal for A (the `search`
    agent's sampling of what A cannot see) leaves the offered card in B's hand; a card nobody
    has shown is dealt anew."""
    from forge.rules.anima_shadow_of_omega.redeal import redeal
    from forge.rules.anima_shadow_of_omega.state import Trade
    iron_fist = []
    for seed, offered in ((0, True), (1, True), (2, True), (0, False), (1, False), (2, False)):
        m = scenario_match(tmp_path, "anima_shadow_of_omega", VIEW_POSITION)
        fist = m.p.handles_of["iron_fist"][0]
        if offered:
            m.trading = (1, 0, [fist], [])
            assert m.view(0).trade == Trade(1, 0, ["iron_fist"], [])
        redeal(m, 0, random.Random(seed))
        iron_fist.append(fist in m.hand[1])
    assert iron_fist[:3] == [True] * 3 and not all(iron_fist[3:])


PEEK_POSITION = """title: {uk: Ворожіння, en: Scrying}
story: {uk: Позиція, en: A position}
players: 2
locations: [willowmere, stonebridge_outpost]
seats:
  A: {group: [lissa_glasshand], hand: [mirror_scrying], at: willowmere}
  B: {group: [brann_ironhide], at: stonebridge_outpost}
"""


def _to(m, kind: str):
    """Play on (first option everywhere) to the next decision of ``kind``."""
    while m.decision.kind != kind:
        m.step([opts[0] for opts in m.decision.options])
    return [m.label(o) for o in m.decision.options[0]]


@pytest.mark.parametrize("left, offered", [(2, True), (1, False)])
def test_a_peek_needs_two_cards_to_choose_from(tmp_path, left, offered):
    """Mirror Scrying looks at the top event cards and puts one of them on top: with 2 left in
    the event deck there is a choice, so it is offered; with 1 there is none."""
    m = scenario_match(tmp_path, "anima_shadow_of_omega", PEEK_POSITION)
    m.event_discard.extend(m.event_deck[:-left])
    del m.event_deck[:-left]
    assert ("play mirror_scrying lissa_glasshand" in _to(m, "move")) is offered


HIRED_AT = """title: {{uk: Найм, en: Hiring}}
story: {{uk: Найм, en: Hiring}}
players: 2
turn: 6
locations: [stonebridge_outpost, cinder_abbey]
seats:
  A: {{group: [rain_the_nameless], hired_at: {hired_at}}}
  B: {{group: [gideon_vane], at: cinder_abbey}}
rolls: {{d6: [1]}}
actions:
  - A: go
  - A: go stonebridge_outpost
  - A: explore
  - A: {{at: reward, illegal: [reward hire], legal: [reward bonus]}}
stop: {{turns: 1}}
"""


def test_hired_at_is_the_turn_before_the_positions_turn(tmp_path):
    """`hired_at` of a position at turn 6 means A hired there on turn 6, the turn before the
    next: hiring there again is not offered (`hire_limits_and_ex_reward` at turn 0); a location
    that is not in play is refused by name, not with a traceback."""
    folder = tmp_path / "anima_shadow_of_omega"
    folder.mkdir()
    for at, fails in (("stonebridge_outpost", None), ("harrow_market", "harrow_market is not active")):
        (folder / "hired.yaml").write_text(HIRED_AT.format(hired_at=at), encoding="utf-8")
        res = run_scenario(folder / "hired.yaml")
        assert res.passed if fails is None else any(fails in f for f in res.failures), res.failures


def test_a_tree_position_deals_each_level_its_deck(tmp_path):
    """With the location tree, the locations a position leaves out go to the deck of their level:
    14 locations (5, 5 and 4 of levels 1-3), 2 of level 1 in play."""
    m = scenario_match(tmp_path, "anima_shadow_of_omega", PEEK_POSITION + "options: {location_tree: true}\n")
    assert m.view(0).decks.location == [3, 5, 4]


def test_a_redeal_deals_the_face_down_events_anew_and_keeps_the_face_up_one(tmp_path):
    """A redeal for B (what B cannot see): the face-down event under Greyfen Marsh is dealt anew
    from the events nobody has seen, the face-up one at Stonebridge Outpost stays."""
    from forge.rules.anima_shadow_of_omega.redeal import redeal
    under = []
    for seed in range(4):
        m = scenario_match(tmp_path, "anima_shadow_of_omega", VIEW_POSITION)
        redeal(m, 1, random.Random(seed))
        lead = {m.p.cid[L]: m.p.cid[e] for L, e in m.lead.items()}
        assert lead["stonebridge_outpost"] == "wandering_peddler"
        under.append(lead["greyfen_marsh"])
    assert set(under) != {"marsh_leech"}


def _play_to(m, kind: str, picks: list[str]):
    """Play on to the next decision of ``kind``: each seat takes the first of ``picks`` it is
    offered (used up in order), else `pass` where legal, else its first option."""
    while m.decision.kind != kind:
        choice = []
        for opts in m.decision.options:
            labels = [m.label(o) for o in opts]
            i = labels.index(picks[0]) if picks and picks[0] in labels else \
                labels.index("pass") if "pass" in labels else 0
            if picks and labels[i] == picks[0]:
                picks.pop(0)
            choice.append(opts[i])
        m.step(choice)


def test_a_redeal_keeps_the_cards_a_peek_shows(tmp_path):
    """While A looks at the top event cards with Mirror Scrying, a redeal for A keeps those
    cards where they are (A has seen them); the rest of the event deck is shuffled."""
    from forge.rules.anima_shadow_of_omega.redeal import redeal
    rest = []
    for seed in range(4):
        m = scenario_match(tmp_path, "anima_shadow_of_omega", PEEK_POSITION)
        _play_to(m, "peek", ["play mirror_scrying lissa_glasshand"])
        shown = {o.card for o in m.decision.options[0] if hasattr(o, "card")}
        assert len(shown) == 3
        before = list(m.event_deck)
        redeal(m, 0, random.Random(seed))
        assert set(m.event_deck[-3:]) == shown and m.event_deck[-3:] == before[-3:]
        rest.append(m.event_deck[:-3] == before[:-3])
    assert not all(rest)


WYVERN_POSITION = """title: {uk: Полювання, en: The hunt}
story: {uk: Позиція, en: A position}
players: 2
locations: [ravenwood, willowmere]
seats:
  A: {group: [brann_ironhide], at: willowmere}
  B: {group: [kaira_ashblade], hand: [war_cry], missions: [wyvern_hunt, fen_guide], at: willowmere}
"""


def test_a_redeal_keeps_the_mission_a_battle_is_fought_for(tmp_path):
    """B challenges the wyvern of The Wyvern Hunt (a mission at 0, which A could not tell from
    another before): in the battle the mission is announced, so a redeal for A keeps it in B's
    hand of missions; B's other mission not begun, Guide Through the Fen, is dealt anew."""
    from forge.rules.anima_shadow_of_omega.redeal import redeal
    other = []
    for seed in range(4):
        m = scenario_match(tmp_path, "anima_shadow_of_omega", WYVERN_POSITION)
        _play_to(m, "battle", ["go", "go ravenwood", "challenge wyvern_hunt"])
        assert m.decision.seats == (1,)
        redeal(m, 0, random.Random(seed))
        held = [m.p.cid[x] for x in m.missions[1]]
        assert held[0] == "wyvern_hunt"
        other.append(held[1])
    assert set(other) != {"fen_guide"}


def test_the_game_log_names_the_monster_fought():
    """A person following the game reads which monster a group fought, not its Strength: the
    log of `ability_in_battle_empty_hand` (Kaira, 9 against the Roadside Bandits' 9)."""
    res = run_scenario(SCENARIOS[0].parent / "ability_in_battle_empty_hand.yaml")
    assert [e for e in res.log if e[0] == "battle"] == [("battle", 0, -1, "roadside_bandits", 9, 9)]


def test_a_card_twice_in_a_zone_names_the_zone(tmp_path):
    """A card twice in a zone fails the conservation check naming the zone it is in, by the name
    the rest of the engine uses: an active location, a final mission in its deck."""
    from forge.errors import InvariantViolation
    m = scenario_match(tmp_path, "anima_shadow_of_omega", VIEW_POSITION)
    final = m.final_deck[0]
    m.active.append(m.p.handles_of["willowmere"][0])
    m.final_deck.append(final)
    with pytest.raises(InvariantViolation) as got:
        m.check_invariants()
    assert str(got.value) == ("cards not conserved across zones: {'willowmere': ['active'], "
                              f"'{m.p.cid[final]}': ['final_deck']}}")


HIRE_POSITION = """title: {uk: Підкріплення, en: Reinforcements}
story: {uk: Позиція, en: A position}
players: 2
locations: [willowmere, stonebridge_outpost]
seats:
  A: {group: [rain_the_nameless], hand: [reinforcements], at: willowmere}
  B: {group: [brann_ironhide], at: stonebridge_outpost}
character_deck: [zlata_spark]
"""


def test_a_hired_character_is_seen_upright_and_awake(tmp_path):
    """Zlata, hired with Reinforcements, joins A's group upright and awake, as every seat's view
    says (`false`, not a missing value, for an agent reading it)."""
    m = scenario_match(tmp_path, "anima_shadow_of_omega", HIRE_POSITION)
    _play_to(m, "move", ["play reinforcements"])
    for seat in (0, 1):
        assert [c._asdict() for c in m.view(seat).groups[0]] == [
            {"card": "rain_the_nameless", "rotated": False, "asleep": False},
            {"card": "zlata_spark", "rotated": False, "asleep": False}]


def test_a_designers_cancel_and_next_turn_cards(tmp_path):
    """Cards the shipped game does not have but its operations allow: a Magic card that cancels
    a monster is offered against Marsh Leech but not against the Clockwork Sentinel, immune to
    Magic; a +1 Strength for the next turn played before resting adds to the rest's +2."""
    root = _copy_cards(tmp_path)
    bonuses = (root / "bonuses.yaml").read_text(encoding="utf-8")
    bonuses = bonuses.replace("    - cancel: {what: bonus}\n", "    - cancel: {what: monster}\n", 1)
    bonuses = bonuses.replace("    - draw_bonus: 2\n", "    - boost: {stat: strength, amount: 1, until: next_turn}\n", 1)
    (root / "bonuses.yaml").write_text(bonuses, encoding="utf-8")
    game, findings = load_game(root)
    assert not findings

    def position(text: str):
        path = tmp_path / "position.yaml"
        path.write_text("title: {uk: Позиція, en: A position}\nstory: {uk: Позиція, en: A position}\n"
                        "game: anima_shadow_of_omega\nplayers: 2\n" + text, encoding="utf-8")
        return build(load_scenario(path, game))[0]

    for monster, offered in (("marsh_leech", True), ("clockwork_sentinel", False)):
        m = position(f"locations: [{{card: cinder_abbey, lead: {monster}}}, willowmere]\n"
                     "seats:\n  A: {group: [lissa_glasshand], hand: [arcane_ward, war_cry]}\n"
                     "  B: {group: [brann_ironhide], at: willowmere}\n")
        _play_to(m, "battle", ["go", "go cinder_abbey"])
        assert ("play arcane_ward lissa_glasshand" in [m.label(o) for o in m.decision.options[0]]) is offered
    m = position("locations: [willowmere, stonebridge_outpost]\n"
                 "seats:\n  A: {group: [rain_the_nameless], hand: [lucky_find], at: willowmere}\n"
                 "  B: {group: [brann_ironhide], at: stonebridge_outpost}\n")
    _play_to(m, "move", ["play lucky_find"])
    assert not m.hand[0]
    _play_to(m, "discard", ["rest"])
    assert m.view(0).strength[0] == 4 + 2 + 1
