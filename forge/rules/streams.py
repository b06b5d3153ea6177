"""Seeded random streams (`Streams`) and their copies, which `Match.copy` takes.

Copying a stream means reading its state (`random.Random.getstate` builds 625 ints) and setting
it on a new one: most of what a copy of a match costs. A copy's agent streams are therefore set
only when first asked for, from the states read when it was copied (a search that gives its
copies new streams never asks).
"""
from __future__ import annotations

import hashlib
import random
from typing import Any

_new = random.Random.__new__              # not Random(): that seeds from the OS first


def derive_seed(seed: int, *names: object) -> int:
    """A stable 64-bit seed for a named stream (independent of PYTHONHASHSEED)."""
    text = "/".join([str(seed), *map(str, names)]).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def stream(state: tuple[Any, ...]) -> random.Random:
    """A new stream in ``state`` (`random.Random.getstate`)."""
    r = _new(random.Random)
    r.setstate(state)
    return r


class Streams:
    """Seeded random streams: one for the game (chance), one per agent (their own choices), so an
    agent that thinks more or less never changes the cards the others see."""

    #: A copy's agent streams until they are made: their states when it was copied.
    _agent_states: list[tuple[Any, ...]]

    def __init__(self, seed: int, seats: int):
        self.seed = seed
        self.game = random.Random(derive_seed(seed, "game"))
        self.agents = [random.Random(derive_seed(seed, "agent", s)) for s in range(seats)]

    def copy(self, game: tuple[Any, ...]) -> Streams:
        """Streams for a copy of a match: the game's in the state ``game``, the agents' in the
        states these are in now."""
        c = Streams.__new__(Streams)
        c.seed, c.game = self.seed, stream(game)
        agents = self.__dict__.get("agents")     # a copy's copy reuses the states not yet used
        c._agent_states = self._agent_states if agents is None else [r.getstate() for r in agents]
        return c

    def __getattr__(self, name: str) -> list[random.Random]:
        """Called only for an attribute not set: the ``agents`` of a copy, made once."""
        if name != "agents" or "_agent_states" not in self.__dict__:
            raise AttributeError(name)
        self.agents = [*map(stream, self._agent_states)]
        return self.agents
