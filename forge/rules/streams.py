"""Seeded random streams (`Streams`), and the streams of a copy of a match (`Streams.branch`).

A copy (`Match.copy`) carries on the game's stream exactly (its chance events come out as the
original's would), and gets agent streams of its own: new ones, seeded from the point of the
copy and made only when first asked for. Copying the original's agent streams would mean
reading their states (`random.Random.getstate` builds 625 ints a stream): a third of what a
Love Formula copy cost. A search gives its copies streams of its own anyway, and who plays a
copy on, with what streams, is the caller's choice, as with the original.
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

    #: A copy's streams until its agents' are made: the point it was copied at.
    _point: int

    def __init__(self, seed: int, seats: int):
        self.seed, self.seats = seed, seats
        self.game = random.Random(derive_seed(seed, "game"))
        self.agents = [random.Random(derive_seed(seed, "agent", s)) for s in range(seats)]

    def branch(self, game: random.Random, point: int) -> Streams:
        """The streams of a copy taken at ``point`` (the length of the replay log): ``game``,
        the copy's game stream, and new agent streams, made when first asked for."""
        c = Streams.__new__(Streams)
        c.seed, c.seats, c.game, c._point = self.seed, self.seats, game, point
        return c

    def __getattr__(self, name: str) -> list[random.Random]:
        """Called only for an attribute not set: the ``agents`` of a copy's streams, made once."""
        if name != "agents" or "_point" not in self.__dict__:
            raise AttributeError(name)
        self.agents = [random.Random(derive_seed(self.seed, "agent", s, "copy", self._point))
                       for s in range(self.seats)]
        return self.agents
