"""The flow: blocks of rounds, turns, steps and simultaneous choices compiled to generator
functions ``f(m, resume)``, and the legal options of a step generated from its actions.

Where the flow stands lives in the match (``m.at``: per nesting depth, the index of the part of
a sequence under way, a loop's count, an each_player's first seat and index), and each step
and simultaneous choice, its options made (``m.offered``), is a `boundary`: so a copy carries on
from the last step's decision (``f(m, True)`` follows ``m.at`` down to it) instead of replaying
the game."""
from __future__ import annotations

from typing import Any, Callable, Iterator

from .base import MAX_REPEAT, Action
from .effects import Effects
from .expr import BOOL


class FlowBlocks(Effects):
    """`flow:` blocks and the options of each step."""

    # ------------------------------------------------------------------ flow
    def flow_block(self, data: Any, loc: tuple, depth: int = 0) -> Callable:
        """A flow block at nesting ``depth`` compiled to a generator function ``f(m, resume)``
        (``resume``: carry on from where ``m.at`` says, see the module's docstring)."""
        if isinstance(data, list):
            parts = [self.flow_block(b, (*loc, i), depth + 1) for i, b in enumerate(data)]

            def seq(m: Any, resume: bool = False) -> Iterator:
                at = m.at
                start = at[depth] if resume else 0
                if not resume:
                    at.append(0)
                for i in range(start, len(parts)):
                    at[depth] = i
                    yield from parts[i](m, resume and i == start)
                    del at[depth + 1:]
                del at[depth:]
            return seq
        if not (isinstance(data, dict) and data):
            self.error(loc, "a flow block is a mapping: step, together, do, turns, rounds, "
                       "each_player or loop")
            return _nothing
        kinds = [k for k in data if k in FLOW_KINDS]
        if len(kinds) != 1:
            self.error(loc, f"a flow block has exactly one of {', '.join(FLOW_KINDS)}")
            return _nothing
        kind = kinds[0]
        extra = set(data) - {kind, "count", "until"} - ({"order", "aside"} if kind == "together"
                                                        else set())
        for key in extra:
            self.error((*loc, key), f"unknown key {key!r} in a {kind} block")
        arg = data[kind]
        self.consts = {}
        if kind in ("step", "together"):
            if not isinstance(arg, str) or arg not in self.steps:
                self.error((*loc, kind), f"no action has step {arg!r} (steps: "
                           f"{', '.join(self.steps) or 'none'})")
                return _nothing
            self.named_steps.add(arg)
            if kind == "step":
                return self.step_block(arg)
            order = self.value(data["order"], (*loc, "order")) if "order" in data else None
            aside = self.zone_arg(data["aside"], (*loc, "aside")) if "aside" in data else None
            return self.together_block(arg, order, aside)
        if kind == "do":
            body, gen = self.block(arg, (*loc, kind))

            def do(m: Any, resume: bool = False) -> Iterator:
                if gen:
                    yield from body(m, m.cur, -1)
                else:
                    body(m, m.cur, -1)
                m.check_end(m.cur)
            return do
        inner = self.flow_block(arg, (*loc, kind), depth + 1)
        count = until = None
        if "count" in data:
            count = self.number(data["count"], (*loc, "count"), 0, MAX_REPEAT)
            self.has_end = True
        if "until" in data:
            got = self.expr(data["until"], (*loc, "until"), BOOL)
            until = got[1] if got else None
            if getattr(until, "const", None) is False:
                self.error((*loc, "until"), "this loop never ends: its condition is always false")
            self.has_end = True
        if kind == "each_player":
            def each_player(m: Any, resume: bool = False) -> Iterator:
                at = m.at
                first, start = at[depth] if resume else (m.cur, 0)
                if not resume:
                    at.append(None)
                for i in range(start, m.n):
                    at[depth] = (first, i)
                    back = resume and i == start      # m.cur is already this player's, or moved
                    if not back:
                        m.cur = (first + i * m.dir) % m.n
                    yield from inner(m, back)
                    del at[depth + 1:]
                del at[depth:]
                m.cur = first
            return each_player

        expiry = self.expiry

        def loop(m: Any, resume: bool = False) -> Iterator:
            at = m.at
            i = at[depth] if resume else 0     # resumed: inside the i-th pass, already counted
            if not resume:
                at.append(0)
            while resume or count is None or i < count:
                if not resume:
                    if until is not None and until(m, m.cur, -1):
                        break
                    i += 1
                    at[depth] = i
                    m.work_step()
                    if kind == "turns":
                        m.turn += 1
                    elif kind == "rounds":
                        m.round += 1
                yield from inner(m, resume)
                resume = False
                del at[depth + 1:]
                if kind == "turns":
                    m.cur = (m.cur + m.dir * (1 + m.skips)) % m.n
                    m.skips = 0
                    yield from m.checkpoint("turn")
                elif kind == "rounds":
                    if expiry:
                        m.expire()
                    yield from m.checkpoint("round")
            del at[depth:]
        return loop

    def options(self, acts: list[Action]) -> Callable:
        """f(m, s) -> the legal options of a step: one per card (by card id) a card action may
        play, one for an action without cards; each only when its condition holds and its cost
        (which may read the card) can be paid."""
        cid = [c.id for c in self.handles]

        def affords(m: Any, s: int, cost: list, h: int) -> bool:
            for where, n in cost:
                vals, i = where(m, s)
                if vals[i] < n(m, s, h):
                    return False
            return True

        # what asking one card of an action costs: its condition and costs (`Scope.cost`)
        weighed = [(a, 1 + sum(getattr(f, "cost", 1) for f in (a.cond, *(n for _, n in a.cost))
                                if f is not None)) for a in acts]

        def offer(m: Any, s: int) -> list:
            out: list[tuple] = []
            visits = 0
            for a, weight in weighed:
                cost = a.cost
                if a.source is None:
                    if (a.cond is None or a.cond(m, s, -1)) and (not cost or affords(m, s, cost, -1)):
                        out.append((a.name,))
                    continue
                seen = set()
                cond = a.cond
                cards = a.source(m, s)
                visits += len(cards) * weight
                for h in cards:
                    k = cid[h]
                    if k not in seen and (cond is None or cond(m, s, h)) \
                            and (not cost or affords(m, s, cost, h)):
                        seen.add(k)
                        out.append((a.name, h))
            m.spend(visits)            # after the cards: one charge a step (it is hot)
            return out
        return offer

    def step_block(self, name: str) -> Callable:
        offer = self.options(self.steps[name])
        by_name = {a.name: a for a in self.steps[name]}

        def step(m: Any, resume: bool = False) -> Iterator:
            s = m.cur
            opts = m.offered if resume else offer(m, s)
            if not opts:
                return
            m.offered = opts
            m.boundary()
            got = yield from m.ask(name, s, opts)
            yield from m.act(by_name[got[0]], s, got)
        return step

    def together_block(self, name: str, order: Callable | None = None,
                       aside: Callable | None = None) -> Callable:
        """Every player chooses at once; the choices are carried out in seat order, or with
        ``order`` (an expression of the card chosen) highest first, equal ones in seat order
        (the order is recorded for a scenario's `expect: order`). With ``aside`` (a zone of
        each player) the cards chosen are laid there at once, so nothing carried out before
        reaches them where they came from; a card gone from there by its turn is not played."""
        offer = self.options(self.steps[name])
        by_name = {a.name: a for a in self.steps[name]}

        def together(m: Any, resume: bool = False) -> Iterator:
            seats = list(range(m.n))
            opts = m.offered if resume else [offer(m, s) for s in seats]
            m.offered = opts
            m.boundary()
            got = yield from m.ask_all(name, seats, opts)
            chosen = [(s, o) for s, o in zip(seats, got) if o is not None]
            if aside is not None:
                for s, o in chosen:
                    if len(o) > 1:
                        by_name[o[0]].source(m, s).remove(o[1])   # type: ignore[misc]
                        aside(m, s).append(o[1])
            if order is not None:
                chosen.sort(key=lambda so: -order(m, so[0], so[1][1] if len(so[1]) > 1 else -1))
                m.orders.append([s for s, _ in chosen])
            for s, o in chosen:
                if aside is None or len(o) == 1:
                    yield from m.act(by_name[o[0]], s, o)
                elif o[1] in aside(m, s):
                    yield from m.act(by_name[o[0]], s, o, aside)
        return together


def _nothing(m: Any, resume: bool = False) -> Iterator:
    return
    yield


FLOW_KINDS = ("step", "together", "do", "turns", "rounds", "each_player", "loop")
