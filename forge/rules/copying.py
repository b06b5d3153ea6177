"""Copies of a match in progress (`Match.copy`), for a search to branch from.

A match's flow is a generator, and generators cannot be copied; but at a boundary (the
checkpoint kind the engine names in ``Match.BOUNDARY``, or wherever it calls `Match.boundary`)
the whole position lives in the match's attributes, and the engine's `Match.resume` starts a flow that carries on from there. So a copy
is: the attributes as they were at the last boundary (a snapshot), a resumed flow, and the
choices made since the boundary stepped again. The game's random stream is in the snapshot, so
the chance events since the boundary come out as they did.

Snapshots cost nothing until a match is first copied: that first copy replays the match from
its seed (`Prepared.new`) and switches snapshots on for it (the attributes pickled at each
boundary from then on); every later copy costs unpickling the snapshot and the turn so far,
stepped again without checking the invariants the original checked. A copy leaves snapshots off
(a search plays copies out), but starts from its original's snapshot, so copying a copy costs
the turns it has played since. A copy's agents get random streams of their own
(`Streams.branch`), not copies of the original's.

What is copied, and how: the attributes are pickled at the boundary and unpickled for each
copy (one C call rebuilds them all, nested lists, dicts, sets, Counters, an engine's own records
and random streams, with nothing shared and aliasing kept), so they must be picklable; a
`random.Random` gets its own stream in the same state. The prepared tables ``p`` and the
attributes an engine lists in ``Match.SHARED`` (read-only tables) are shared, not pickled.
"""
from __future__ import annotations

import pickle
from typing import TYPE_CHECKING

from ..errors import EngineError, IllegalAction
from .streams import stream

if TYPE_CHECKING:
    from .core import Match

#: Never copied: the prepared tables, the driving state (rebuilt by a copy), the snapshot.
_KEEP = frozenset({"p", "_gen", "decision", "_snap", "_snapping", "_checking", "actions",
                   "streams", "rng"})


#: True while `_replayed` makes its match, which takes snapshots from its start (`Match.__init__`).
replaying = False


def snapshot(m: Match) -> tuple:
    """(length of the replay log, the attributes pickled, the game stream's state) of ``m``."""
    skip = _KEEP.union(m.SHARED)
    attrs = {k: v for k, v in m.__dict__.items() if k not in skip}
    return len(m.actions), pickle.dumps(attrs, pickle.HIGHEST_PROTOCOL), m.streams.game.getstate()


def copy(m: Match) -> Match:
    """An exact, independent copy of ``m`` (see the module's docstring)."""
    if not m._snap:
        return _replayed(m)
    mark, attrs, game = m._snap
    c = type(m).__new__(type(m))
    d = c.__dict__
    d.update((k, m.__dict__[k]) for k in m.SHARED)
    d.update(pickle.loads(attrs))
    c.p = m.p
    c.rng = stream(game)
    c.streams = m.streams.branch(c.rng, len(m.actions))
    c.actions = m.actions[:mark]
    c._snap, c._snapping, c._checking = m._snap, False, False
    c.begin(c.resume())
    _step(c, m.actions)
    c._checking = True
    return c


def _replayed(m: Match) -> Match:
    """The first copy of ``m``: played again from its seed with the same choices, taking
    snapshots as it goes; ``m`` keeps the last one and takes its own from now on."""
    if m.p is None:
        raise EngineError(f"{type(m).__name__} cannot be copied: it has no prepared tables to "
                          f"start again from")
    global replaying
    replaying = True            # a boundary passed before `new` returns is kept too
    try:
        c = m.p.new(m.n, m.seed, log=m.log is not None)
    finally:
        replaying = False
    c._checking = False
    _step(c, m.actions)
    c._checking = True
    c.streams = c.streams.branch(c.rng, len(m.actions))
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
