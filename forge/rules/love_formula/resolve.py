"""How a card resolves in Love Formula: it lands (a pair, a preparation placed, an obstacle or a
connection attached), reactions answer it, its effect operations run; heart tokens run out at the
end of a round; chance cards are revealed. The operations themselves are `operations.Operations`."""
from __future__ import annotations

from typing import Any, Callable, ClassVar

from ..core import Decision, Flow

from .actions import PASS, OnCard, Onto, Opponent, Verb
from .state import Ctx, State
from .tables import CONN, OBST, PAIR, PREP


class Resolve(State):
    """Cards landing and resolving; a subclass brings the operations their effects name."""

    #: The effect operations' functions by name, made from ``OPERATIONS`` for each subclass.
    ops: ClassVar[dict[str, Callable[..., Flow[Any]]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.ops = {name: op.func for name, op in cls.OPERATIONS.items()}

    def _place_prep(self, s: int, q: int) -> Flow[None]:
        """Put preparation q into s's play area: attach, keep unattached, or settle the limit."""
        p = self.p
        opts: list[Onto | OnCard] = [Onto("attach", q, pr) for pr in self.pairs[s]
                                     if self.can_attach(q, pr)]
        clash = [u for u in self.unatt[s] if p.sub[u] == p.sub[q]]
        opts.append(p.on_card["keep"][q])         # keep the new one (discard the old one)
        if clash:
            opts.append(p.on_card["drop"][q])     # discard the new one
        c = yield from self.ask("place", s, opts)
        self.limbo.remove(q)
        if c.verb == "attach":
            self._attach(q, c.pair)
        elif c.verb == "keep":
            for u in clash:
                self.unatt[s].remove(u)
                self._to_discard(u)
            self.unatt[s].append(q)
        else:
            self._to_discard(q)

    # ------------------------------------------------------------------ playing cards
    def _play(self, s: int, h: int) -> Flow[None]:
        p = self.p
        t = p.type[h]
        ctx = Ctx(s, h)
        self._log("play", s, p.cid[h])
        if t == PAIR:
            yield from self._react("opponent_plays_pair", ctx)
            if ctx.cancelled:
                return
            self.limbo.remove(h)
            self.pairs[s].append(h)
            self.att[h] = []
            self.powner[h] = s
            yield from self._effects(ctx)
        elif t == PREP:
            yield from self._react("opponent_plays_preparation", ctx)
            if ctx.cancelled:
                return
            yield from self._place_prep(s, h)
            yield from self._effects(ctx)
        elif t == OBST:
            target = p.on_card["target"]
            targets = [target[pr] for o in range(self.n) if o != s
                       for pr in self.pairs[o] if not self.protected(pr)]
            if not targets:
                self.limbo.remove(h)
                self._to_discard(h)
                self._log("fizzle", s, p.cid[h])
                return
            c = yield from self.ask("target", s, targets)
            pr = c.card
            yield from self._react("obstacle_played_on_your_pair", ctx, owner=self.powner[pr])
            if ctx.cancelled:
                return
            if ctx.redirected:
                own = [target[x] for x in self.pairs[s] if not self.protected(x)]
                if not own:
                    self.limbo.remove(h)
                    self._to_discard(h)
                    return
                c = yield from self.ask("redirect", s, own)
                pr = c.card
            self.limbo.remove(h)
            self._attach(h, pr)
            self.ctrl[h] = s
            if p.dur[h]:
                self.tokens[h] = p.dur[h]
            ctx.pair = pr
            if self.powner[pr] != s:
                self._goal_event("first_obstacle_on_opponent", s)
            yield from self._effects(ctx)
        elif t == CONN:
            yield from self._react("opponent_plays_connection", ctx)
            if ctx.cancelled:
                return
            own = [p.on_card["target"][x] for x in self.pairs[s]]
            if not own:
                self.limbo.remove(h)
                self._to_discard(h)   # DECISION: a connection with no pair of yours is discarded
                return
            c = yield from self.ask("target", s, own)
            self.limbo.remove(h)
            self._attach(h, c.card)
            self.ctrl[h] = s
            if p.dur[h]:
                self.tokens[h] = p.dur[h]
            ctx.pair = c.card
            yield from self._effects(ctx)
        else:   # action (job included)
            yield from self._react("opponent_plays_action", ctx)
            if ctx.cancelled:
                return
            yield from self._effects(ctx)
            if not ctx.cancelled:
                if h in self.limbo:
                    self.limbo.remove(h)
                    self._to_discard(h)

    def _effects(self, ctx: Ctx) -> Flow[None]:
        """Resolve a card that has just landed; a "first" goal is claimed the moment its
        condition holds: when the card lands and after each of its operations."""
        self._check_goals(ctx.seat)
        ops = self.ops
        for name, args in self.p.on_play[ctx.card]:
            if ctx.cancelled:
                return
            yield from ops[name](self, ctx, **args)
            self._check_goals(ctx.seat)

    def _react(self, trigger: str, ctx: Ctx, owner: int = -1) -> Flow[None]:
        """Open a reaction window: eligible seats may play a reaction whose trigger holds."""
        p = self.p
        if owner >= 0:
            candidates = [owner] if owner != ctx.seat else []
        else:
            candidates = [o for o in range(self.n) if o != ctx.seat]
        seats: list[int] = []
        options: list[list[Verb | OnCard]] = []
        react, trig = p.on_card["react"], p.trigger
        for o in candidates:
            mine = [react[h] for h in self.hand[o] if trig[h] == trigger]
            if mine:
                seats.append(o)
                options.append([PASS, *mine])
        if not seats:
            return
        got = yield from self.ask_all("react", seats, options)
        played = [(o, c.card) for o, c in zip(seats, got) if c.verb == "react"]
        played.sort(key=lambda sh: (-p.prio[sh[1]], -p.tb[sh[1]], sh[0]))
        for o, r in played:
            self.hand[o].remove(r)
            self.limbo.append(r)
            self.played.append((p.dix[r], o))
            self._log("react", o, p.cid[r], p.cid[ctx.card])
            self._goal_event("first_reaction", o)
            rctx = Ctx(o, r, trig=ctx)
            yield from self._effects(rctx)
            if r in self.limbo:
                self.limbo.remove(r)
                self._to_discard(r)

    # ------------------------------------------------------------------ rounds and tokens
    def _tick(self, count: int) -> Flow[None]:
        """``count`` rounds pass for heart tokens and protection marks (at the end of each round,
        and when an effect ticks them)."""
        expired = []
        for h in list(self.tokens):
            self.tokens[h] -= count
            if self.tokens[h] <= 0:
                expired.append(h)
        for m in self.marks:
            m.rounds -= count
        self.marks = [m for m in self.marks if m.rounds > 0]
        yield from self._expire(expired)

    def _expire(self, expired: list[int]) -> Flow[None]:
        p = self.p
        for h in expired:
            if h not in self.tokens or h not in self.on:
                continue
            pair = self.on[h]
            if p.ends[h]:
                owner = self.powner[pair]
                ctx = Ctx(self.ctrl.get(h, owner), h, pair)
                yield from self._react("your_pair_would_end", ctx, owner=owner)
                if ctx.cancelled or self.on.get(h) != pair:
                    continue
                self._end_pair(pair, by=self.ctrl.get(h, -1))
            else:
                self._detach(h)
                self._to_discard(h)
        self._check_goals(0)

    def _end_pair(self, pair: int, by: int) -> None:
        """A relationship ended by an obstacle: the pair goes to the discard pile with every
        card attached to it, preparations included (the rulebook: the owner discards the pair)."""
        owner = self.powner[pair]
        self._remove_pair(pair)
        self._to_discard(pair)
        self.pairs_ended += 1
        self._log("pair_ended", owner, self.p.cid[pair])
        if by >= 0:
            self._goal_event("first_pair_ended", by)

    # ------------------------------------------------------------------ chance
    def _reveal_chance(self, s: int) -> Flow[None]:
        if not self.chance_deck:
            return
        h = self.chance_deck.pop()
        self.limbo.append(h)
        self.played.append((self.p.dix[h], s))
        self._log("chance", s, self.p.cid[h])
        ctx = Ctx(s, h)
        yield from self._effects(ctx)
        if h in self.limbo:
            self.limbo.remove(h)
            self.chance_discard.append(h)
        self._check_goals(s)

    # ------------------------------------------------------------------ whom an effect names
    def _who(self, ctx: Ctx, who: str) -> Flow[list[int]]:
        """The seats an effect's ``who`` names (an opponent: the resolving seat chooses)."""
        s = ctx.seat
        if who == "you":
            return [s]
        if who == "all":
            return list(range(self.n))
        if who == "others":
            return [o for o in range(self.n) if o != s]
        if who == "pair_owner":
            return [self.powner[ctx.pair]] if ctx.pair in self.powner else []
        return [(yield from self._opponent(s))]

    def _opponent(self, s: int) -> Flow[int]:
        """``o = yield from self._opponent(s)``: seat ``s`` names an opponent."""
        c = yield from self.ask("opponent", s, [Opponent("opponent", o) for o in range(self.n)
                                                if o != s])
        return c.seat
