"""Copies of a match in progress (`Match.copy`), for a search to branch from.

A match's flow is a generator, and generators cannot be copied; but at a turn boundary (the
checkpoint kind the engine names in ``Match.BOUNDARY``) the whole position lives in the match's
attributes, and the engine's `Match.resume` starts a flow that carries on from there. So a copy
is: the attributes as they were at the last boundary (a snapshot), a resumed flow, and the
choices made since the boundary stepped again. The game's random stream is in the snapshot, so
the chance events since the boundary come out as they did.

Snapshots cost nothing until a match is first copied: that first copy replays the match from
its seed (`Prepared.new`) and switches snapshots on for it (one structured copy of the
attributes per boundary from then on); every later copy costs one copy of the snapshot and the
turn so far. A copy leaves snapshots off (a search plays copies out), but starts from its
original's snapshot, so copying a copy costs the turns it has played since.

What is copied, and how (`clone`): lists, dicts, sets and Counters are copied all the way down;
ints, strings, tuples and other immutable values are shared; a `random.Random` gets its own
stream in the same state; any other object is copied shallowly (so an engine's own small
mutable records, whose fields are immutable values, copy right). The prepared tables ``p`` and
the attributes an engine lists in ``Match.SHARED`` (read-only tables) are shared.
"""
from __future__ import annotations

import copy as _copy
import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..errors import EngineError, IllegalAction

if TYPE_CHECKING:
    from .core import Match

#: Values shared as they are (immutable; a tuple is taken to hold immutable values).
_ATOMS = frozenset({int, bool, float, str, bytes, tuple, frozenset, type(None)})
#: Never copied: the prepared tables, the driving state (rebuilt by a copy), the snapshot.
_KEEP = frozenset({"p", "_gen", "decision", "_snap", "_snapping", "actions", "streams", "rng"})


def clone(v: Any) -> Any:
    """``v`` with nothing mutable shared (see the module's docstring)."""
    t = type(v)
    if t in _ATOMS:
        return v
    if t is list:
        return v[:] if _ATOMS.issuperset(map(type, v)) else [clone(x) for x in v]
    if t is dict:
        return v.copy() if _ATOMS.issuperset(map(type, v.values())) else {k: clone(x) for k, x in v.items()}
    if t is set:
        return set(v)
    if t is Counter:
        return Counter(v)
    if isinstance(v, random.Random):
        return _stream(v.getstate())
    return _copy.copy(v)


def _stream(state: tuple) -> random.Random:
    r = random.Random.__new__(random.Random)       # not Random(): that seeds from the OS first
    r.setstate(state)
    return r


def snapshot(m: Match) -> tuple:
    """(length of the replay log, the attributes, the game stream's state) of ``m`` now."""
    skip = _KEEP.union(m.SHARED)
    return (len(m.actions), {k: clone(v) for k, v in m.__dict__.items() if k not in skip},
            m.streams.game.getstate())


def copy(m: Match) -> Match:
    """An exact, independent copy of ``m`` (see the module's docstring)."""
    if not m._snap:
        return _replayed(m)
    mark, attrs, game_state = m._snap
    c = type(m).__new__(type(m))
    d = c.__dict__
    d.update((k, m.__dict__[k]) for k in m.SHARED)
    d.update((k, clone(v)) for k, v in attrs.items())
    c.p = m.p
    c.streams = streams = _copy.copy(m.streams)
    streams.game = c.rng = _stream(game_state)
    streams.agents = [clone(r) for r in m.streams.agents]
    c.actions = m.actions[:mark]
    c._snap, c._snapping = m._snap, False
    c.begin(c.resume())
    _step(c, m.actions)
    return c


def _replayed(m: Match) -> Match:
    """The first copy of ``m``: played again from its seed with the same choices, taking
    snapshots as it goes; ``m`` keeps the last one and takes its own from now on."""
    if m.p is None:
        raise EngineError(f"{type(m).__name__} cannot be copied: it has no prepared tables to "
                          f"start again from")
    c = m.p.new(m.n, m.seed, log=m.log is not None)
    c._snap, c._snapping = (), True
    _step(c, m.actions)
    c.streams.agents = [clone(r) for r in m.streams.agents]
    m._snap, m._snapping = c._snap, True
    c._snapping = False
    return c


def _step(c: Match, actions: list) -> None:
    """Step ``c``, whose log is the start of ``actions``, on to the end of ``actions``: each
    logged choice is stepped again; the chance events must come out as logged (checked)."""
    try:
        while len(c.actions) < len(actions):
            while c.decision is not None and not c.decision.seats:
                c.step(())
            if c.decision is None:
                break
            c.step(actions[len(c.actions)])
    except IllegalAction:
        pass
    if c.actions != actions:
        raise EngineError(f"{type(c).__name__} could not be copied exactly: it did not start from "
                          f"Prepared.new(seed), or its resume() does not carry on as the flow did")
