"""«Rules. Does Not Exist.»: the flow of the Basic mode (edition 0.8) for 2-5 players, played
from the card data in ``cards/rules_does_not_exist``.

State is plain lists of integer card handles (one handle per physical card); the flow of the
game is one generator (`Match.flow`) that yields a `Decision` whenever a seat must choose. Where
the source rulebook is silent or open, the ruling is marked ``DECISION`` here and written out in
docs/rules-decisions.md (section «Rules. Does Not Exist.») and in the rulebook's clarifications.

A turn (the Host is the seat whose turn it is):

1. draft 2 Sound cards (hand limit 5, extras to the inventory or the discard); roll the d20
   expectation; the opening window: buy Classes / hire Mercenaries, make a trade offer, invite a
   monster by discarding a Sound card, pass, or start the rave; before the rave the other
   players may make their trade offers too (then the Host's window opens again);
2. the rave: the Host lays a lineup (calling a Rescuer and Mercenaries when short); each other
   seat may then become an Invader with a lineup of its own; then every side may answer by
   adding cards, until a whole round of seats adds nothing;
3. the bounty: souls (ten souls end the game at once), rivalry losses, monster rewards, the
   cards promised to the Rescuer, Mercenaries' new cards, d6 escapes and monster failures;
4. the wrap-up (not after a Reset of the Host): one lineup card to the inventory, shopping.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .. import core
from ..core import Flow
from .choices import (ACCEPT, BUY, DECLINE, DONE, END, HIRE, INVADE, INVITE, KEEP, PASS, RAVE,
                      REROLL, STAND, Choice, Offer, Target)
from .operations import Operations
from .tables import (CLASS_COST, DRAFT, ESCAPE_AT, GENTLE_CARDS, HIRE_AT, LIMIT, MAX_MERCS,
                     MERC_CALLS, MERC_HOLDS, OFFERS, OPTIONS, RIVAL_LOSS, RIVAL_LOSS_SHARED,
                     CardTables, Rave, Strength)


class Match(Operations):
    """One game. Seats 0..n-1 (A, B, ...), clockwise; the next seat is the one to the left."""

    BOUNDARY = "turn"
    SHARED = ("choices",)

    def flow(self) -> Flow[None]:
        if self.start_at >= 0:                 # a scenario's position
            self.first = self.start_at
            yield from self.play_from(self.start_at)
            return
        yield from self.shuffle(self.deck)
        yield from self.shuffle(self.classes)
        yield from self.shuffle(self.merc_deck)
        if self.first_player == "gentle":
            self.first = yield from self._gentle_round()
        else:
            for s in range(self.n):
                for _ in range(self.start_hand):
                    yield from self._draw_to(self.hand[s])
            self.first = (yield from self.die(self.n, "first")) - 1   # DECISION: a die picks the first seat
        self._log("first", self.first)
        yield from self.play_from(self.first)

    def resume(self) -> Flow[None]:
        """After a turn: the end, or the next seat's turn."""
        if self.over():
            self._finish()
        else:
            yield from self.play_from((self.turn_seat + 1) % self.n)

    def play_from(self, seat: int) -> Flow[None]:
        """Turns from ``seat`` on, until the game ends."""
        s = seat
        self.between = True
        while True:
            if self.turns >= self.turn_cap:
                self.capped = True
                break
            if self.alive[s]:
                self.turns += 1
                self.turn_seat = s
                self.between = False
                yield from self.turn(s)
                self.between = True
                if self.turns % self.n == 0 or not self.auto:   # once a round of the table, or
                    self.check_invariants()        # every turn in a scenario
                yield from self.checkpoint("turn")
                if self.over():
                    break
            s = (s + 1) % self.n
        self._finish()

    def _gentle_round(self) -> Flow[int]:
        """«Ніжний раунд»: 9 cards each, one at a time; until a seat holds its 9th card it may
        lay cards from its hand into a lineup; the strongest lineup starts. Then the lineups go
        back to hand and everyone discards down to 5 (DECISION: ties are broken by lot)."""
        n = self.n
        for r in range(GENTLE_CARDS):
            for s in range(n):
                yield from self._draw_to(self.hand[s])
                if r < GENTLE_CARDS - 1:
                    while self.hand[s]:
                        c = yield from self.ask("gentle", s,
                                                [DONE, *self.choices.picks("lay", self.hand[s])])
                        if c[0] == "done":
                            break
                        self.hand[s].remove(c[1])
                        self.line[s].append(c[1])
        keys = [self.strength(s, self.line[s]) for s in range(n)]
        best = max(keys)
        tied = [s for s in range(n) if keys[s] == best]
        first = tied[0] if len(tied) == 1 else tied[(yield from self.die(len(tied), "lot")) - 1]
        self._log("gentle", keys, first)
        for s in range(n):
            self.hand[s].extend(self.line[s])
            self.line[s] = []
            while len(self.hand[s]) > LIMIT:
                c = yield from self.ask("drop", s, self.choices.picks("drop", self.hand[s]))
                self.hand[s].remove(c[1])
                self.discard.append(c[1])
        return first

    # ------------------------------------------------------------------ a turn
    def turn(self, h: int) -> Flow[None]:
        p, n = self.p, self.n
        if self.skip[h]:
            self.skip[h] -= 1
            self._log("skip", h)
            return
        self.host, self.rescuer, self.promise, self.invaders = h, -1, 0, []
        self.match_point = self.host_out = False
        self._log("turn", h, self.turns)
        # Step 1: expectation
        for _ in range(DRAFT + self.fx(h, "draft")):
            yield from self._draw_to(self.hand[h])
        yield from self.limits(h)
        self.expect = yield from self.die(20)
        for _ in range(self.fx(h, "reroll")):
            c = yield from self.ask("reroll", h, [KEEP, REROLL])
            if c[0] == "keep":
                break
            self.expect = yield from self.die(20)
        offers = [0] * n                 # trade offers made this turn, by seat
        win = self.souls_to_win
        while True:
            opts: list[Choice] = [RAVE]
            # DECISION: a pass is possible only before a monster is invited, and never on a turn
            # whose success would bring the Host to the winning souls (the match point).
            if not self.guest and self.souls[h] + self.gain(h, "host") < win:
                opts.append(PASS)
            if not self.guest:
                opts += [INVITE] if self._invitable() and (self.hand[h] or self.inv[h]) else []
            if offers[h] < OFFERS:
                opts += self._partners(h)
            opts += self._shop_options(h)
            c = yield from self.ask("open", h, opts)
            v = c[0]
            if v == "pass":
                self._log("pass", h)
                return
            if v == "rave":
                if not (yield from self._others_offer(h, offers)):
                    break
            elif v in ("buy", "hire"):
                yield from self._shop(h, v)
            elif v == "invite":
                yield from self._invite(h)
            elif v == "trade":
                offers[h] += 1
                yield from self._offer(h, c[1])
        yield from self.rave(h)
        yield from self.bounty(h)
        # Step 4: wrap-up. DECISION: none after a win (the game is over) or after the Host's
        # Reset (the seed: it plays on "коли знову настане його черга ходити").
        if self.alive[h] and not self.won and not self.host_out:
            if self.line[h]:
                c = yield from self.ask("keep", h, self.choices.picks("keep", self.line[h]))
                self.line[h].remove(c[1])
                self.boost.pop(c[1], None)
                self.inv[h].append(c[1])
                yield from self.limits(h)
            # DECISION: Classes and Mercenaries as often as souls and cards allow.
            while True:
                opts = self._shop_options(h)
                if not opts:
                    break
                c = yield from self.ask("shop", h, [END, *opts])
                if c[0] == "end":
                    break
                yield from self._shop(h, c[0])
        for s in range(n):
            for x in self.line[s]:
                self.boost.pop(x, None)
            self.discard.extend(self.line[s])
            self.line[s] = []
        self.monsters.extend(self.guest)
        self.guest = []
        self.calls.clear()
        for s in range(n):
            if self.alive[s]:
                yield from self.limits(s)

    def _shop_options(self, s: int) -> list[Choice]:
        opts: list[Choice] = []
        if self.souls[s] >= CLASS_COST and self.classes:
            opts.append(BUY)
        if len(self.mercs[s]) < MAX_MERCS and self.merc_deck and (self.hand[s] or self.inv[s]):
            opts.append(HIRE)
        return opts

    def _shop(self, s: int, verb: str) -> Flow[None]:
        p = self.p
        if verb == "buy":
            # One Class at a time: the old one goes back into the Class deck (DECISION).
            self.souls[s] -= CLASS_COST
            yield from self._take_class(s)
            return
        pick = self.choices.picks
        c = yield from self.ask("hire", s, pick("pay", self.hand[s]) + pick("pay_inv", self.inv[s]))
        (self.hand[s] if c[0] == "pay" else self.inv[s]).remove(c[1])
        self.discard.append(c[1])
        roll = yield from self.die(6)
        if roll + self.fx(s, "hire") >= HIRE_AT:
            i = yield from self.pick_random("mercenary", self.merc_deck)
            m = self.merc_deck.pop(i)
            self.mercs[s].append(m)
            self.refx(s)
            self.under[m] = []
            for _ in range(MERC_HOLDS):
                yield from self._draw_to(self.under[m])
            self.played.append((p.dix[m], s))
            self._log("hired", s, p.cid[m])
            yield from self.limits(s)        # a Mercenary may change a limit

    def _invitable(self) -> list[int]:
        lv = self.p.level
        return [m for m in self.monsters if lv[m] <= self.expect]

    def _invite(self, h: int) -> Flow[None]:
        p = self.p
        c = yield from self.ask("monster", h, self.choices.picks("invite", self._invitable()))
        m = c[1]
        # DECISION: the card paid for the invitation comes from the hand or the inventory.
        pick = self.choices.picks
        d = yield from self.ask("pay", h, pick("pay", self.hand[h]) + pick("pay_inv", self.inv[h]))
        (self.hand[h] if d[0] == "pay" else self.inv[h]).remove(d[1])
        self.discard.append(d[1])
        self.monsters.remove(m)
        self.guest = [m]
        self.invited[p.dix[m]] = self.invited.get(p.dix[m], 0) + 1
        self.played.append((p.dix[m], h))
        self._log("invite", h, p.cid[m])

    # ------------------------------------------------------------------ trading
    def _partners(self, s: int) -> list[Target]:
        """``trade T`` for every other player ``s`` can make an offer to: one of the two holds
        a Sound card (in hand or inventory)."""
        mine = bool(self.hand[s] or self.inv[s])
        return self.choices.trades([t for t in range(self.n) if t != s and self.alive[t]
                                    and (mine or self.hand[t] or self.inv[t])])

    def _others_offer(self, h: int, offers: list[int]) -> Flow[bool]:
        """Before the first lineup card, every other player with an offer left may make one
        (asked together, made clockwise from the Host's left); whether any was made, in which
        case the Host's window opens again."""
        seats = [(h + i) % self.n for i in range(1, self.n)]
        opts = [[DONE, *self._partners(s)] if self.alive[s] and offers[s] < OFFERS else []
                for s in seats]
        got = yield from self.ask_all("deal", seats, opts)
        made = False
        for s, c in zip(seats, got):
            if c is not None and c[0] == "trade":
                offers[s] += 1
                made = True
                yield from self._offer(s, c[1])
        return made

    def _offer(self, s: int, t: int) -> Flow[None]:
        """DECISION: an offer is a set of ``s``'s Sound cards (from hand or inventory, put one by
        one; none is a request) for a number of ``t``'s cards that ``t`` chooses (none is a
        gift); ``t`` accepts or declines it as a whole."""
        pick = self.choices.picks
        put: list[int] = []
        hand, inv = self.hand[s], self.inv[s]
        most = len(self.hand[t]) + len(self.inv[t])
        while True:
            terms = tuple(put)
            opts = (pick("put", [x for x in hand if x not in put]) +
                    pick("put_inv", [x for x in inv if x not in put]) +
                    [Offer("want", t, k, terms) for k in range(0 if put else 1, most + 1)])
            if not opts:
                return
            c = yield from self.ask("terms", s, opts)
            if c[0] == "want":
                want = c[2]
                break
            put.append(c[1])
        self.terms = terms
        d = yield from self.ask("answer", t, [DECLINE, Offer("accept", s, want, terms)])
        self._log("offer", s, t, len(put), want, d[0])
        if d[0] != "accept":
            self.terms = ()
            return
        back: list[int] = []             # chosen one by one; every card moves at the end
        for _ in range(want):
            e = yield from self.ask("give", t, pick("give", [x for x in self.hand[t] if x not in back]) +
                                    pick("give_inv", [x for x in self.inv[t] if x not in back]))
            back.append(e[1])
        for x in back:
            (self.hand[t] if x in self.hand[t] else self.inv[t]).remove(x)
        for x in put:
            (hand if x in hand else inv).remove(x)
        self.terms = ()
        self.hand[t] += put
        self.hand[s] += back
        yield from self.limits(s)
        yield from self.limits(t)

    # ------------------------------------------------------------------ the rave
    def _owner(self, s: int) -> int:
        """Whose lineup ``s`` plays on: the Host's for the Host and the Rescuer, else its own."""
        return self.host if s in (self.host, self.rescuer) else s

    def rave_options(self, s: int, first: bool) -> list[Choice]:
        h, n = self.host, self.n
        opts: list[Choice] = [STAND]
        part = s == h or s == self.rescuer or s in self.invaders
        if part:
            hand, inv, mercs, choices = self.hand[s], self.inv[s], self.mercs[s], self.choices
            if hand:                   # (most seats hold nothing of some kind: skip the call)
                opts += choices.picks("lay", hand)
            if inv:
                opts += choices.picks("lay_inv", inv)
            # DECISION: a Mercenary is called only while its owner's lineup does not win (the
            # seed: when the lineup falls short of the expectation or the rival's lineup).
            if mercs and (s == h or s in self.invaders) and self.winner() != s:
                opts += choices.picks("merc", [m for m in mercs if self.under[m]])
            if s == h and self.rescuer < 0:
                friends = [t for t in range(n) if t != h and self.alive[t]
                           and t not in self.invaders and t not in self._asked]
                if friends and self._short_handed(h):
                    k = self.p.rsounds[self.guest[0]] if self.guest else 0
                    opts += choices.calls(friends, k + len(hand) + len(inv))
        elif first and (self.hand[s] or self.inv[s] or any(self.under[m] for m in self.mercs[s])):
            opts.append(INVADE)
        if self.match_point and s != h:
            # DECISION: at the match point anyone may add cards to any lineup (an Invader may
            # then be helped); a card added to another lineup never shares its rewards.
            targets = [h] + self.invaders
            for t in targets:
                if t != self._owner(s) and t != s:
                    opts += self.choices.gives("add", t, self.hand[s])
                    opts += self.choices.gives("add_inv", t, self.inv[s])
        return opts

    def _short_handed(self, h: int) -> bool:
        """DECISION: the Host's own cards are not enough when its lineup with every card of its
        hand and inventory added would still not win (Mercenaries' face-down cards not counted:
        nobody knows them)."""
        key = self.strength(h, self.line[h] + self.hand[h] + self.inv[h])
        return key.bonus <= self.expect or any(self.strength(i, self.line[i]) > key
                                               for i in self.invaders)

    def rave(self, h: int) -> Flow[None]:
        """Step 2: lay lineups until a whole round of seats adds nothing."""
        n = self.n
        self._asked: set[int] = set()
        reward = self.p.rsouls[self.guest[0]] if self.guest else 0
        self.match_point = self.souls[h] + self.gain(h, "host") + reward >= self.souls_to_win
        order = [(h + i) % n for i in range(n)]
        first_round = True
        while True:
            acted = False
            for s in order:
                if not self.alive[s]:
                    continue
                while True:
                    opts = self.rave_options(s, first_round)
                    if len(opts) == 1:
                        break
                    c = yield from self.ask("rave", s, opts)
                    v = c[0]
                    if v == "stand":
                        break
                    acted = True
                    yield from self._rave_act(s, c)
            first_round = False
            if not acted:
                break

    def _rave_act(self, s: int, c: tuple) -> Flow[None]:
        p = self.p
        v = c[0]
        if v in ("lay", "lay_inv"):
            (self.hand[s] if v == "lay" else self.inv[s]).remove(c[1])
            self.line[self._owner(s)].append(c[1])
            self.played.append((p.dix[c[1]], s))
        elif v in ("add", "add_inv"):
            (self.hand[s] if v == "add" else self.inv[s]).remove(c[2])
            self.line[c[1]].append(c[2])
            self.played.append((p.dix[c[2]], s))
        elif v == "invade":
            self.invaders.append(s)
            self._log("invade", s)
        elif v == "merc":
            m = c[1]
            cards = self.under[m]
            fx = p.fx[m]
            if fx["choose"]:
                d = yield from self.ask("toss", s, self.choices.picks("toss", cards))
                i = cards.index(d[1])
            else:
                i = yield from self.pick_random("toss", cards)
            x = cards.pop(i)
            if fx["boost"]:
                self.boost[x] = fx["boost"]
            self.line[s].append(x)
            self.played.append((p.dix[x], s))
            self.calls[m] = self.calls.get(m, 0) + 1
            # A Mercenary leaves after its second card, or after one for an Invader.
            if self.calls[m] >= MERC_CALLS or s != self.host or not cards:
                yield from self._dismiss(s, m)
        elif v == "call":
            t, k = c[1], c[2]
            self._asked.add(t)
            d = yield from self.ask("rescue", t, [DECLINE, ACCEPT])
            self._log("call", s, t, k, d[0])
            if d[0] == "accept":
                self.rescuer, self.promise = t, k

    # ------------------------------------------------------------------ the bounty
    def lineups(self) -> list[tuple[Strength, int]]:
        """((bonus, duration), owner) of the Host's lineup and every Invader's, in order."""
        return [(self.strength(o, self.line[o]), o) for o in [self.host] + self.invaders]

    def winner(self) -> int:
        """The owner of the winning lineup, or -1. It must beat the expectation by at least 1;
        the highest bonus wins, then the longest; DECISION: an exact tie goes to the Host, then
        to the Invader who came in first."""
        best, who = None, -1
        for key, o in self.lineups():
            if key[0] > self.expect and (best is None or key > best):
                best, who = key, o
        return who

    def bounty(self, h: int) -> Flow[None]:
        p = self.p
        w = self.winner()
        r = self.rescuer
        monster = self.guest[0] if self.guest else -1
        self.last_rave = Rave(self.expect, {o: k for k, o in self.lineups()}, w, monster, h)
        if self.log is not None:
            self.raves.append(self.last_rave)
        self._log("rave", h, self.expect, [(o, k) for k, o in self.lineups()], w)
        winners: list[int] = []
        if w == h:
            winners = [h] if r < 0 else [h, r]
            if r < 0:
                self.souls[h] += self.gain(h, "host")
            else:
                self.souls[h] += self.gain(h, "host", solo=False)
                self.souls[r] += self.gain(r, "rescuer", solo=False)
            for i in self.invaders:
                self.souls[i] = max(0, self.souls[i] - RIVAL_LOSS)
        elif w >= 0:
            winners = [w]
            self.souls[w] += self.gain(w, "invader")
            for s in ([h] if r < 0 else [h, r]):
                self.souls[s] = max(0, self.souls[s] - (RIVAL_LOSS if r < 0 else RIVAL_LOSS_SHARED))
        if monster >= 0 and w >= 0:
            d = p.dix[monster]
            self.satisfied[d] = self.satisfied.get(d, 0) + 1
            self.souls[w] += p.rsouls[monster]          # souls go to the Host (or the Invader) only
        if any(self.souls[s] >= self.souls_to_win for s in winners):
            # DECISION: the winning souls end the game at once, before anything else of the turn.
            self.won = True
            self._log("won", [s for s in winners if self.souls[s] >= self.souls_to_win])
            return
        promised = self.promise if (w == h and r >= 0) else 0
        if monster >= 0 and w >= 0:
            for i in range(p.rsounds[monster]):
                yield from self._draw_to(self.hand[r] if i < promised else self.hand[w])
            promised = max(0, promised - p.rsounds[monster])
        # DECISION: what the reward cards do not cover, the Host hands over from its own cards,
        # its choice (all it holds, if fewer).
        for _ in range(promised):
            opts = self.choices.picks("give", self.hand[h]) + self.choices.picks("give_inv", self.inv[h])
            if not opts:
                break
            c = yield from self.ask("share", h, opts)
            (self.hand[h] if c[0] == "give" else self.inv[h]).remove(c[1])
            self.hand[r].append(c[1])
        for s in winners:
            for m in self.mercs[s]:
                yield from self._draw_to(self.under[m])
        for s in winners:
            yield from self.limits(s)
        if monster >= 0:
            losers = [s for s in [h] + ([r] if r >= 0 else []) + self.invaders if s not in winners]
            for s in losers:
                roll = yield from self.die(6)
                if roll + self.fx(s, "escape") >= ESCAPE_AT:
                    self._log("escape", s, roll)
                    continue
                self._log("failure", s, roll, p.cid[monster])
                for op, args in p.failure[monster]:
                    if not self.alive[s]:
                        break
                    yield from self.OPERATIONS[op].func(self, s, **args)


class Prepared(CardTables):
    """The card tables of one configuration, and the matches played with them."""

    def new(self, players: int, seed: int, log: bool = False, deal: bool = True) -> Match:
        m = Match(self, players, seed, log=log)
        if deal:
            m.setup()
            m.begin()
        return m


def prepare(game: Any, options: Mapping[str, Any] | None = None,
            sets: Sequence[str] | None = None) -> Prepared:
    opts = core.resolve_options(OPTIONS, options or {})
    return Prepared(game, opts, sets or tuple(game.manifest.sets)[:1])
