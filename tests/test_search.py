"""The `search` agent (forge/rules/search.py) and the `redeal` hook it samples hidden cards with:
its choice never depends on a card its seat cannot see; it plays every built-in engine and the
example plugin engine to the end, the same game again for the same seed; `--option
search_budget` reaches it and reports name it."""
from __future__ import annotations

import json
import pickle
import random

import pytest
from typer.testing import CliRunner

from conftest import CARDS, GAMES, engine_and_tables
from forge.cli import app
from forge.errors import UsageError
from forge.model import load_game
from forge.rules import simulate
from forge.rules.agents import agents_for
from forge.rules.core import play_game
from forge.rules.search import Search

#: Per engine: the zones holding another seat's hand and a deck, in a match's attributes (a dict),
#: and what a card must share with the one it is swapped for (its kind, as the engine's redeal
#: keeps it: Love Formula keeps jobs and each trigger's reactions, Anima cards a hand can hold).
HIDDEN = {
    "love_formula": (lambda a: (a["hand"][1], a["deck"]),
                     lambda p, h: (p.is_job[h], p.trigger[h] if p.type[h] == 3 else "")),
    "rules_does_not_exist": (lambda a: (a["hand"][1], a["deck"]), lambda p, h: 0),
    "anima_shadow_of_omega": (lambda a: (a["hand"][1], a["bonus_deck"]),
                              lambda p, h: p.bsub[h] == -1),
    "high_card": (lambda a: (a["hand"][1], a["deck"]), lambda p, h: 0),
    # games whose rules are data: the game zone 0 is the deck (hidden), the player zone 0 the hand
    "skydachka": (lambda a: (a["pz"][0][1], a["gz"][0]), lambda p, h: 0),
    "smakolyky": (lambda a: (a["pz"][0][1], a["gz"][0]), lambda p, h: 0),
}
#: Example games played by the rules engine (rules as data): its redeal knows only their zones'
#: declared visibility.
RULES_GAMES = ("skydachka", "smakolyky")


def _position(engine, prep, seed: int):
    """A match at a decision of seat A with several options, after a turn boundary, where seat B
    holds a card of the same kind as the deck's bottom card, in the position and in the snapshot
    its copies start from; the heuristic plays both seats there. None if the game ends first."""
    zones, kind = HIDDEN[_id(engine, prep)]
    policy = agents_for(engine)["search"].policy
    m = prep.new(2, seed)
    m.copy()                                    # its snapshots on from now
    while (d := m.decision) is not None:
        if m._snap and 0 in d.seats and len(d.options[d.seats.index(0)]) > 1:
            hand, deck = zones(m.__dict__)
            hand0, deck0 = zones(pickle.loads(m._snap[1]))
            same = [x for x in hand if x in hand0 and deck and deck0 and deck[0] == deck0[0]
                    and kind(prep, x) == kind(prep, deck[0]) and x != deck[0]]
            if same and (1 not in d.seats or engine.name in ("high_card", "rules")):
                return m, same[0], deck[0]
        m.step(tuple(policy(m, s, o, m.streams.agents[s]) for s, o in zip(d.seats, d.options)))
    return None


def _swapped(engine, m, x: int, y: int) -> None:
    """``m`` with card ``x`` of seat B's hand and ``y`` of the deck changed places, in its position,
    in its open decision and in the turn-boundary snapshot its copies start from
    (forge/rules/copying.py), so that its copies carry the change as they would a position play
    had reached."""
    zones, _ = HIDDEN[_id(engine, m.p)]
    mark, attrs, stream = m._snap
    boundary = pickle.loads(attrs)
    for a in (m.__dict__, boundary):
        hand, deck = zones(a)
        hand[hand.index(x)], deck[deck.index(y)] = y, x
    m._snap = (mark, pickle.dumps(boundary), stream)
    d = m.decision
    for s, options in zip(d.seats, d.options):
        if s == 1:             # the example's and the rules engine's options name B's cards second
            options[:] = [(o[0], y if o[1] == x and o[0] != "target" else o[1], *o[2:])
                          for o in options]


def _id(engine, prep) -> str:
    return prep.game.id if engine.name == "rules" else engine.name


@pytest.mark.parametrize("game_id", [*GAMES, "high_card", *RULES_GAMES])
def test_the_choice_does_not_depend_on_hidden_cards(game_id):
    engine, prep = engine_and_tables(game_id)
    search = Search(engine, agents_for(engine)["search"].policy, budget=6)
    for seed in range(1, 40):
        got = _position(engine, prep, seed)
        if got is None:
            continue
        m, x, y = got
        m2, *same = _position(engine, prep, seed)
        assert same == [x, y]
        _swapped(engine, m2, x, y)
        a, b = m.copy(), m2.copy()
        assert a.state_digest() != b.state_digest(), "the swap did not reach the copies"
        for r in range(3):                       # the worlds the search samples are the same
            a, b = m.copy(), m2.copy()
            engine.redeal(a, 0, random.Random(r))
            engine.redeal(b, 0, random.Random(r))
            assert a.state_digest() == b.state_digest()
            assert a.view(0) == b.view(0)
        options = m.decision.options[m.decision.seats.index(0)]
        assert search(m, 0, options, random.Random(5)) == search(m2, 0, options, random.Random(5))
        return
    pytest.fail(f"{game_id}: no position found to swap hidden cards in")


@pytest.mark.parametrize("game_id", [*GAMES, "high_card", *RULES_GAMES])
def test_search_plays_every_engine_to_the_end_and_again_the_same(game_id):
    engine, prep = engine_and_tables(game_id)
    policy = agents_for(engine)["search"].policy
    seats = [Search(engine, policy, budget=2, horizon=8), policy]
    games = []
    for _ in range(2):
        m = prep.new(2, 7)
        play_game(m, seats, m.streams.agents)
        assert m.result is not None and m.decision is None
        games.append((m.actions, m.result))
    assert games[0] == games[1]


def test_simulate_seats_search_with_its_budget_and_names_it():
    game, _ = load_game(CARDS / "rules_does_not_exist")
    r = simulate(game, games=1, players=2, agents=("search", "random"),
                 options={"search_budget": "1"})
    assert r["games"] == 1 and r["search_budget"] == 1
    assert r["agent_names"]["search"] == {"uk": "пошуковий", "en": "search"}
    out = CliRunner().invoke(app, ["simulate", "rules_does_not_exist", "--games", "1", "--players",
                                   "2", "--agents", "search", "--option", "search_budget=1",
                                   "--format", "json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["agents"] == ["search"]
    bad = CliRunner().invoke(app, ["simulate", "rules_does_not_exist", "--option",
                                   "search_budget=0"])
    assert isinstance(bad.exception, UsageError) and "search_budget" in str(bad.exception)


def test_anima_redeal_keeps_the_mission_a_battle_is_fought_for():
    """A rival asked mid-battle (to counter a card) must not see the mission the battle is for
    dealt away: the flow completes that very mission when the battle is won."""
    engine, prep = engine_and_tables("anima_shadow_of_omega")
    policy = agents_for(engine)["search"].policy
    for seed in range(200):
        m = prep.new(2, seed)
        while (d := m.decision) is not None:
            fight = m.in_battle
            if fight is not None and fight.mission >= 0 and fight.seat not in d.seats:
                rival = d.seats[0]
                for r in range(20):
                    world = m.copy()
                    engine.redeal(world, rival, random.Random(r))
                    assert fight.mission in world.missions[fight.seat]
                    play_game(world, [policy, policy], world.streams.agents)
                return
            m.step(tuple(policy(m, s, o, m.streams.agents[s]) for s, o in zip(d.seats, d.options)))
    pytest.fail("no mission battle with a rival's decision in it found")
