"""Engine core shared by every game module: random streams, decisions, the event log,
invariant violations, the registry of game modules and the driver that plays one game.

A game module plays from the model (`forge.model.Game`) and exposes:

- ``NAME`` (the `engine:` id of a manifest) and ``OPERATIONS``: ``{op: {param: kind}}``, the
  effect operations it implements with the parameter names it takes (``check`` compares them
  with the manifest);
- ``prepare(game, config) -> Prepared`` (static card tables, built once per configuration) and
  ``Prepared.new(players, seed, log=False) -> Match``.

A `Match` holds the whole state as plain lists of integer card handles. ``match.decision`` is
the open `Decision` (``None`` once the game is over); ``match.step(choices)`` answers it with one
option per seat named in the decision (all seats of a simultaneous choice resolve together).
Legal actions come only from the engine: the options of a decision *are* the legal actions.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any, Callable

SEAT_NAMES = "ABCDEFGH"


def derive_seed(seed: int, *names: object) -> int:
    """A stable 64-bit seed for a named stream (independent of PYTHONHASHSEED)."""
    text = "/".join([str(seed), *map(str, names)]).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


class Streams:
    """Seeded random streams: one for the game (shuffles, lots, random steals), one per agent."""

    def __init__(self, seed: int, seats: int):
        self.seed = seed
        self.game = random.Random(derive_seed(seed, "game"))
        self.agents = [random.Random(derive_seed(seed, "agent", s)) for s in range(seats)]


class Decision:
    """A decision point: ``seats`` must each pick one of their ``options`` (aligned lists).

    Several seats means a simultaneous choice: the choices are collected, then applied together.
    Options are tuples ``(verb, *args)``; the engine makes them, an agent picks one of them.
    """

    __slots__ = ("kind", "seats", "options")

    def __init__(self, kind: str, seats: tuple[int, ...] | list[int], options: list[list[tuple]]):
        self.kind = kind
        self.seats = tuple(seats)
        self.options = options

    def __repr__(self) -> str:
        return f"Decision({self.kind!r}, seats={self.seats}, options={[len(o) for o in self.options]})"


class IllegalAction(Exception):
    """A choice that is not among the options the engine offered."""


class InvariantViolation(Exception):
    """A rule-independent or rule-specific invariant failed while a game was being played."""


@dataclass
class Violation:
    """One broken invariant (or engine crash) with what reproduces it."""

    seed: int
    players: int
    message: str
    actions: list = field(default_factory=list)
    decision_index: int = 0

    def as_dict(self) -> dict:
        return {"seed": self.seed, "players": self.players, "message": self.message,
                "decision_index": self.decision_index,
                "actions": [[list(c) for c in step] for step in self.actions]}


#: Game modules by engine id; filled by `register()` (see forge/rules/__init__.py).
ENGINES: dict[str, Any] = {}


def register(module: Any) -> Any:
    ENGINES[module.NAME] = module
    return module


Agent = Callable[[Any, int, list], tuple]


def play_game(match: Any, agents: list, rngs: list[random.Random], check: str = "round") -> int:
    """Play ``match`` to its end with ``agents[seat](match, seat, options, rng)``.

    Returns the number of seat decisions made. ``check``: "step" checks invariants after every
    decision, "round" leaves it to the match (end of every round and of the game), "off" never.
    """
    decisions = 0
    every = check == "step"
    while True:
        d = match.decision
        if d is None:
            return decisions
        seats = d.seats
        if len(seats) == 1:
            s = seats[0]
            match.step((agents[s](match, s, d.options[0], rngs[s]),))
            decisions += 1
        else:
            match.step(tuple(agents[s](match, s, opts, rngs[s]) for s, opts in zip(seats, d.options)))
            decisions += len(seats)
        if every:
            match.check_invariants()
