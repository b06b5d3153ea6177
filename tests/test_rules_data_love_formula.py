"""Love Formula re-expressed as rules data (examples/love_formula_rules/, docs/rules-gaps.md):
the built-in game's own cards under `rules:` instead of its Python engine, played clean from
the seed, with its own scenario files run against it as the measure of what the vocabulary
still lacks."""
from __future__ import annotations

from collections import Counter

import pytest

from conftest import ROOT

PROJECT = ROOT / "examples" / "love_formula_rules" / "cards"
GAME = PROJECT / "love_formula"
BUILTIN = ROOT / "cards" / "love_formula"
GAPS = ROOT / "docs" / "rules-gaps.md"
#: The operations the rules give no body yet: each is a rule of docs/rules-gaps.md.
NO_BODY = {"steal_preparation", "redirect_obstacle", "cancel_card", "protect_pair",
           "end_pair_after", "lock_pair", "discard_attached", "pair_penalty", "pair_bonus",
           "fill_requirement", "swap_pair", "move_extra_preparation", "void_pair", "tick_tokens"}


@pytest.fixture(scope="module")
def prepared():
    from forge.model import load_game
    from forge.rules import get_engine
    game, findings = load_game(GAME)
    assert game is not None and not findings
    return get_engine("rules").prepare(game, {"cap": 100_000})


def test_the_cards_are_the_built_in_games_and_only_the_engine_line_differs():
    for path in BUILTIN.glob("*.yaml"):
        copy = (GAME / path.name).read_text().splitlines()
        original = path.read_text().splitlines()
        if path.name == "game.yaml":
            assert [a for a, b in zip(copy, original) if a != b] == [
                next(line for line in copy if line.startswith("rules: rules.yaml"))]
            original = [line for line in original if line != "engine: love_formula"]
            copy = [line for line in copy if not line.startswith("rules: ")]
        assert copy == original, path.name


def test_the_rules_compile_and_the_operations_without_a_body_are_the_gaps_written_down():
    from forge.check.engine import check_engine
    from forge.model import load_game
    game, _ = load_game(GAME)
    findings = list(check_engine(game))
    assert not [f for f in findings if f.code != "unimplemented-operation"], findings
    missing = {f.message.split("'")[1] for f in findings if f.code == "unimplemented-operation"}
    assert missing == NO_BODY
    gaps = GAPS.read_text()
    assert all(f"`{op}`" in gaps for op in NO_BODY)


def test_setup_sets_the_jobs_apart_and_the_expansions_out(prepared):
    """`move: {where: ...}`: one job to each player, the rest of the jobs boxed, no job,
    chance, goal or VP card left in the deck."""
    m = prepared.new(3, 7, deal=False)
    r = m.r
    m.begin()
    cards = prepared.rules.handles
    deck, box = m.gz[r.zones["deck"].index], m.gz[r.zones["box"].index]
    jobs = [m.pz[r.zones["job"].index][s] for s in range(3)]
    assert all(len(j) == 1 and cards[j[0]].subtype == "job" for j in jobs)
    assert sum(cards[h].subtype == "job" for h in box) == 1
    assert not [h for h in deck if cards[h].subtype == "job" or cards[h].type in ("chance", "goal", "vp")]


def test_seeded_games_are_clean_two_phases_of_ten_rounds_in_priority_order(prepared):
    from forge.rules.agents import random_agent
    from forge.rules.core import play_game, replay
    cards = prepared.rules.handles
    for players in (2, 3, 4):
        for seed in range(4):
            m = prepared.new(players, seed)
            play_game(m, [random_agent] * players, m.streams.agents, check="step")
            assert m.result is not None and not m.result.capped and m.round == 20
            assert len(m.orders) == 20 and all(len(set(o)) == len(o) for o in m.orders)
            assert sum(len(o) < players for o in m.orders) <= 2   # but for a skipped turn
            copy = replay(prepared.new(players, seed + 100, deal=False), m.actions)
            assert copy.state_digest() == m.state_digest()
            zone = {z: m.pz[m.r.zones[z].index] for z in ("chosen", "hand", "job", "pairs",
                                                           "obstacles")}
            assert all(zone["pairs"][s] for s in range(players) if zone["obstacles"][s])
            assert not any(zone["chosen"])                   # every card chosen was carried out
            assert all(sum(cards[h].subtype == "job" for h in zone["hand"][s] + zone["job"][s]) == 1
                       for s in range(players))              # a job is never discarded
            played = Counter(cards[h].type for z in ("pairs", "unattached", "connections")
                             for s in range(players) for h in m.pz[m.r.zones[z].index][s])
            assert played["pair"] and played["preparation"]


def test_its_own_scenario_files_run_against_it_as_docs_rules_gaps_counts(monkeypatch):
    """The measure: how many of the game's scenario files pass unchanged against the rules."""
    from forge.scenario import run_scenario
    monkeypatch.setenv("FORGE_CARDS", str(PROJECT))
    paths = sorted((ROOT / "tests" / "scenarios" / "love_formula").glob("*.yaml"))
    passed = [p.stem for p in paths if run_scenario(p).passed]
    assert f"{len(passed)} of {len(paths)}" in GAPS.read_text()


def test_with_the_chance_set_the_next_player_reveals_a_chance_card_before_each_round():
    """Chance: a first revealer by lot, then the next player clockwise each round (the turn
    passed with `turn: next` in a flow `do:`); the deck reshuffled between the play phases."""
    from forge.model import load_game
    from forge.rules import get_engine
    from forge.rules.agents import random_agent
    from forge.rules.core import play_game
    game, _ = load_game(GAME)
    prep = get_engine("rules").prepare(game, {"cap": 100_000}, sets=["base", "chance"])
    zone = prep.rules.zones
    firsts = set()
    for seed in range(4):
        m = prep.new(3, seed, deal=False)
        revealers: list[int] = []
        checkpoint = m.checkpoint
        m.checkpoint = lambda kind, m=m, seen=revealers, cp=checkpoint: (  # type: ignore[method-assign]
            seen.append(m.cur) if kind == "round" else None, cp(kind))[1]
        m.begin()
        play_game(m, [random_agent] * 3, m.streams.agents, check="step")
        assert m.result is not None and not m.result.capped and len(revealers) == 20
        assert all((b - a) % 3 == 1 for a, b in zip(revealers, revealers[1:]))
        firsts.add(revealers[0])
        deck, seen = (len(m.gz[zone[z].index]) for z in ("chance_deck", "chance_discard"))
        assert deck + seen == 28 and seen >= 10              # 10 a phase, and reveal_chance's
        assert not any(m.pz[zone["looking"].index]) and not any(m.pz[zone["passing"].index])
    assert len(firsts) > 1                                   # the lot, not always the same seat
