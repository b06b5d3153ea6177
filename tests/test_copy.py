"""`Match.copy()`: a copy taken at any decision, played on with the same choices as its
original, goes through the same states to the same result, for every built-in engine (the rules
engine through the example games whose rules are data) and the example plugin engine; and a copy shares no mutable state with its original (its game stream is
in the original's state, its agents' streams are its own)."""
from __future__ import annotations

import random

import pytest

from conftest import GAMES, RULES_GAMES, engine_and_tables
from forge.rules.agents import random_agent
from forge.rules.core import play_game

ENGINES = (*GAMES, *RULES_GAMES, "high_card")
PLAYERS = {"anima_shadow_of_omega": 3, "high_card": 2}
SEEDS = {"anima_shadow_of_omega": (1, 2, 3), "high_card": tuple(range(12))}


def _prepared(game_id: str):
    return engine_and_tables(game_id)[1]


def _choose(m) -> tuple:
    d = m.decision
    return tuple(random_agent(m, s, o, m.streams.agents[s]) for s, o in zip(d.seats, d.options))


@pytest.mark.parametrize("game_id", ENGINES)
def test_copy_and_continue_equals_the_original(game_id):
    prep = _prepared(game_id)
    n = PLAYERS.get(game_id, 4)
    for seed in SEEDS.get(game_id, range(1, 9)):
        whole = prep.new(n, seed)
        length = play_game(whole, [random_agent] * n, whole.streams.agents)
        m = prep.new(n, seed)
        at = random.Random(seed)
        copies: list = []
        while m.decision is not None:
            if at.random() < 6 / max(length, 6):      # about 6 copies a game, of m or of a copy
                c = (at.choice(copies) if copies and at.random() < 0.3 else m).copy()
                assert c.state_digest() == m.state_digest() and c.actions == m.actions
                copies.append(c)
            choices = _choose(m)
            m.step(choices)
            now = m.state_digest()
            for c in copies:
                c.step(choices)
                assert c.state_digest() == now
        assert copies and m.actions == whole.actions, f"{game_id} seed {seed}: no copy taken"
        for c in copies:
            assert c.decision is None and c.result == m.result and c.actions == m.actions


@pytest.mark.parametrize("game_id", ENGINES)
def test_a_copy_shares_no_mutable_state(game_id):
    prep = _prepared(game_id)
    n = PLAYERS.get(game_id, 4)
    m = prep.new(n, 5)
    for _ in range(2):                       # the first copy replays; the second is from a snapshot
        for _ in range(7):
            if m.decision is not None:
                m.step(_choose(m))
        before, actions = m.state_digest(), list(m.actions)
        streams = [r.getstate() for r in (m.streams.game, *m.streams.agents)]
        c = m.copy()
        assert c.streams.game.getstate() == streams[0]      # the agents get streams of their own
        assert len(c.streams.agents) == n and c.streams.agents[0] is not m.streams.agents[0]
        for _, cards in c.zones():           # every zone emptied, every stream drawn, in the copy
            cards.clear()
        for r in (c.streams.game, *c.streams.agents):
            r.random()
        c.actions.append(("changed",))
        assert m.state_digest() == before and m.actions == actions
        assert [r.getstate() for r in (m.streams.game, *m.streams.agents)] == streams
        for (name, a), (_, b) in zip(m.zones(), c.zones()):
            assert a is not b, name
        assert m.rng is m.streams.game and c.rng is c.streams.game and c.rng is not m.rng
