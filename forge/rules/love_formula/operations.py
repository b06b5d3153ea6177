"""Love Formula's effect operations: what each `effects:` entry of a card does when it resolves.
`forge check` compares the cards and the manifest with this registry (``OPERATIONS``)."""
from __future__ import annotations

from ..core import Flow, operation, passive
from .actions import STOP, OnCard, Swap
from .resolve import Resolve
from .state import Ctx, Mark
from .tables import CHANCE, CONN, OBST, PREP, TYPE_CODES

WHO = ("you", "opponent", "pair_owner", "others", "all")


class Operations(Resolve):
    """The effect operations, each a generator method registered with `operation`."""

    @operation("draw", count=int, who=WHO)
    def op_draw(self, ctx: Ctx, count: int, who: str) -> Flow[None]:
        for s in (yield from self._who(ctx, who)):
            for _ in range(count):
                h = self._draw_one()
                if h < 0:
                    break
                self.hand[s].append(h)

    @operation("discard", count=int, who=WHO, source=("hand", "unattached"))
    def op_discard(self, ctx: Ctx, count: int, who: str, source: str) -> Flow[None]:
        seats = yield from self._who(ctx, who)
        p = self.p
        for _ in range(count):
            live: list[int] = []
            options: list[list[OnCard]] = []
            for s in seats:
                pool = self.unatt[s] if source == "unattached" else \
                    [h for h in self.hand[s] if not p.is_job[h]]
                if pool:
                    live.append(s)
                    options.append([OnCard("discard", h) for h in pool])
            if not live:
                return
            got = yield from self.ask_all("discard", live, options)
            for s, c in zip(live, got):
                (self.unatt[s] if source == "unattached" else self.hand[s]).remove(c.card)
                self._to_discard(c.card)

    @operation("dig", look=int, keep=int)
    def op_dig(self, ctx: Ctx, look: int, keep: int) -> Flow[None]:
        seen: list[int] = []
        for _ in range(look):
            h = self._draw_one()
            if h < 0:
                break
            seen.append(h)
            self.limbo.append(h)
        for _ in range(min(keep, len(seen))):
            c = yield from self.ask("dig", ctx.seat, [OnCard("keep", h) for h in seen])
            seen.remove(c.card)
            self.limbo.remove(c.card)
            self.hand[ctx.seat].append(c.card)
        for h in seen:
            self.limbo.remove(h)
            self.discard.append(h)

    @operation("take_from_discard", card_type=("any", "preparation", "pair", "obstacle", "reaction", "connection", "action"))
    def op_take_from_discard(self, ctx: Ctx, card_type: str) -> Flow[None]:
        p = self.p
        want = None if card_type == "any" else TYPE_CODES[card_type]
        seen: set[str] = set()
        opts: list[OnCard] = []
        for h in self.discard:
            if (want is None or p.type[h] == want) and p.cid[h] not in seen:
                seen.add(p.cid[h])
                opts.append(OnCard("take", h))
        if not opts:
            return
        c = yield from self.ask("take", ctx.seat, opts)
        self.discard.remove(c.card)
        self.hand[ctx.seat].append(c.card)

    @operation("steal_preparation", source=("unattached", "any_pair", "affected_pair"))
    def op_steal_preparation(self, ctx: Ctx, source: str) -> Flow[None]:
        s, p = ctx.seat, self.p
        if source == "unattached":
            opts = [OnCard("steal", q) for o in range(self.n) if o != s for q in self.unatt[o]]
        elif source == "any_pair":
            opts = [OnCard("steal", q) for o in range(self.n) if o != s for pr in self.pairs[o]
                    if not self.locked(pr) for q in self.att[pr] if p.type[q] == PREP]
        else:
            pr = ctx.pair
            opts = [] if pr not in self.att or self.locked(pr) or self.powner[pr] == s else \
                [OnCard("steal", q) for q in self.att[pr] if p.type[q] == PREP]
        if not opts:
            return
        c = yield from self.ask("steal", s, opts)
        q = c.card
        victim = self._owner_of(q)
        yield from self._react("your_preparation_targeted", ctx, owner=victim)
        if ctx.cancelled:
            return
        if q in self.on:
            self._detach(q)
        else:
            self.unatt[victim].remove(q)
        self.limbo.append(q)
        yield from self._place_prep(s, q)

    @operation("steal_from_hand", count=int)
    def op_steal_from_hand(self, ctx: Ctx, count: int) -> Flow[None]:
        s = ctx.seat
        o = yield from self._opponent(s)
        for _ in range(count):
            pool = [h for h in self.hand[o] if not self.p.is_job[h]]
            if not pool:
                return
            h = yield from self.roll("steal", pool)   # at random: exactly rng.randrange
            self.hand[o].remove(h)
            self.hand[s].append(h)

    @operation("swap_hands")
    def op_swap_hands(self, ctx: Ctx) -> Flow[None]:
        s = ctx.seat
        o = yield from self._opponent(s)
        job = self.p.is_job
        mine = [h for h in self.hand[s] if not job[h]]
        theirs = [h for h in self.hand[o] if not job[h]]
        self.hand[s] = [h for h in self.hand[s] if job[h]] + theirs
        self.hand[o] = [h for h in self.hand[o] if job[h]] + mine

    @operation("pass_hands", direction=("clockwise", "counterclockwise"))
    def op_pass_hands(self, ctx: Ctx, direction: str) -> Flow[None]:
        job, n = self.p.is_job, self.n
        keep = [[h for h in hd if job[h]] for hd in self.hand]
        give = [[h for h in hd if not job[h]] for hd in self.hand]
        shift = 1 if direction == "clockwise" else -1
        self.hand = [keep[s] + give[(s - shift) % n] for s in range(n)]
        return
        yield

    @operation("discard_obstacle", count=int)
    def op_discard_obstacle(self, ctx: Ctx, count: int) -> Flow[None]:
        s, p = ctx.seat, self.p
        for _ in range(count):
            opts = [OnCard("remove", c) for pr in self.pairs[s] for c in self.att[pr]
                    if p.type[c] == OBST]
            if not opts:
                return
            c = yield from self.ask("obstacle", s, [STOP, *opts])
            if c.verb == "stop":
                return
            self._detach(c.card)
            self._to_discard(c.card)

    @operation("redirect_obstacle")
    def op_redirect_obstacle(self, ctx: Ctx) -> Flow[None]:
        if ctx.trig is not None and self.p.type[ctx.trig.card] == OBST and not ctx.trig.cancelled:
            ctx.trig.redirected = True
        return
        yield

    @operation("cancel_card", to=("discard", "your_hand"))
    def op_cancel_card(self, ctx: Ctx, to: str) -> Flow[None]:
        t = ctx.trig
        if t is None or t.cancelled:
            return
        t.cancelled = True
        h = t.card
        self._take_out(h)
        self.tokens.pop(h, None)
        self.ctrl.pop(h, None)
        if to == "your_hand" and not self.p.is_job[h] and self.p.type[h] != CHANCE:
            self.hand[ctx.seat].append(h)
        else:
            self._to_discard(h)
        self._log("cancel", ctx.seat, self.p.cid[h])
        return
        yield

    @operation("protect_pair", rounds=int)
    def op_protect_pair(self, ctx: Ctx, rounds: int) -> Flow[None]:
        s = ctx.seat
        if not self.pairs[s]:
            return
        c = yield from self.ask("protect", s, [OnCard("protect", pr) for pr in self.pairs[s]])
        self.marks.append(Mark(c.card, rounds, s))

    # These act only while their card is attached (obstacles) or at scoring (`tables.Tables`).
    op_lock_pair = passive("lock_pair", "the pair's cards cannot move (`State.locked`)",
                           rounds=int)
    op_end_pair_after = passive("end_pair_after", "the pair ends when the card's heart tokens "
                                "run out (`Resolve._expire`)", rounds=int)
    op_pair_penalty = passive("pair_penalty", "the pair scores less (`State.pair_score`)",
                              count=int)
    op_pair_bonus = passive("pair_bonus", "the pair scores more (`State.pair_score`)",
                            count=int, perfect_only=bool)
    op_fill_requirement = passive("fill_requirement", "fills a missing preparation at scoring "
                                  "(`State.perfect`)", subtype=("any", "event", "location", "item"))

    @operation("discard_attached", count=int, card_type=("preparation", "connection"))
    def op_discard_attached(self, ctx: Ctx, count: int, card_type: str) -> Flow[None]:
        p, pr = self.p, ctx.pair
        if pr not in self.att:
            return
        want = PREP if card_type == "preparation" else CONN
        if want == PREP and any(p.type[c] == PREP for c in self.att[pr]):
            yield from self._react("your_preparation_targeted", ctx, owner=self.powner[pr])
            if ctx.cancelled:
                return
        for _ in range(count):
            opts = [OnCard("discard", c) for c in self.att.get(pr, ()) if p.type[c] == want]
            if not opts:
                return
            c = yield from self.ask("discard", ctx.seat, opts)
            self._detach(c.card)
            self._to_discard(c.card)

    @operation("skip_turn", who=WHO)
    def op_skip_turn(self, ctx: Ctx, who: str) -> Flow[None]:
        for s in (yield from self._who(ctx, who)):
            self.skip[s] += 1

    @operation("swap_pair")
    def op_swap_pair(self, ctx: Ctx) -> Flow[None]:
        s = ctx.seat
        opts = [Swap("swap", a, b) for a in self.pairs[s] for o in range(self.n) if o != s
                for b in self.pairs[o]]
        if not opts:
            return
        c = yield from self.ask("swap", s, opts)
        a, b = c.mine, c.theirs
        o = self.powner[b]
        self.pairs[s][self.pairs[s].index(a)] = b
        self.pairs[o][self.pairs[o].index(b)] = a
        self.powner[a], self.powner[b] = o, s
        for pr, who in ((a, o), (b, s)):
            for x in self.att[pr]:
                if self.p.type[x] == CONN:
                    self.ctrl[x] = who

    @operation("move_extra_preparation", count=int)
    def op_move_extra_preparation(self, ctx: Ctx, count: int) -> Flow[None]:
        if self.p.type[ctx.card] == CHANCE:
            self.extra_next[ctx.seat] += count
        else:
            self.moves_left += count
        return
        yield

    @operation("score_vp", count=int)
    def op_score_vp(self, ctx: Ctx, count: int) -> Flow[None]:
        self.banked[ctx.seat] += count
        return
        yield

    @operation("void_pair")
    def op_void_pair(self, ctx: Ctx) -> Flow[None]:
        s, p = ctx.seat, self.p
        opts = [OnCard("void", pr) for o in range(self.n) if o != s for pr in self.pairs[o]]
        if not opts:
            return
        c = yield from self.ask("void", s, opts)
        pr = c.card
        if any(p.type[x] == PREP for x in self.att[pr]):
            yield from self._react("your_preparation_targeted", ctx, owner=self.powner[pr])
            if ctx.cancelled:
                return
        for x in list(self.att.get(pr, ())):
            if p.type[x] in (PREP, CONN):
                self._detach(x)
                self._to_discard(x)

    @operation("tick_tokens", count=int)
    def op_tick_tokens(self, ctx: Ctx, count: int) -> Flow[None]:
        yield from self._tick(count)

    @operation("reveal_chance", count=int)
    def op_reveal_chance(self, ctx: Ctx, count: int) -> Flow[None]:
        for _ in range(count):
            yield from self._reveal_chance(ctx.seat)
