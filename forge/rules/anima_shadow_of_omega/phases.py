"""The four phases of a seat's turn: discard (and the pick-ups after it), movement (moves,
new locations, redirects, arriving, trimming the table), interaction (rival organisations,
attacks, trades) and exploration (hold goals, exploring, Speed checks, mission battles,
rewards).
"""
from __future__ import annotations

from typing import Sequence

from .operations import Operations
from .choices import (ACCEPT, ANNOUNCE_DISCARD, DONE, EXPLORE, GO, LEAVE, NEW, NEW_DECK, PASS,
                      REST, SAVE, STAY, Choice, OnCard)
from .state import Check, Flow
from .tables import (ALARM, ATTACK_SPREAD, CHAR, D6, DISCARD, EV, EXPLORATION, FAIL, FLED,
                     G_BATTLE, G_HOLD, G_SPEED, GROUP_LIMIT, HAND_LIMIT, INTERACTION, LOSE,
                     MOVEMENT, R_BONUS, R_HIRE, R_MISSION, REST_BONUS, REWARDS, SPECIAL, TRADE_OFFERS,
                     WIN, W_REDIRECT)


class Phases(Operations):
    """A seat's step in each phase of the turn."""

    # ------------------------------------------------------------------ the discard phase
    def discard_step(self, s: int) -> Flow[None]:
        p = self.p
        for o in list(self.org[s]):                # a duty that can no longer be met
            if p.needs[o] and not self.has_skill(s, p.needs[o]):
                self.org[s].remove(o)
                self.bonus_discard.append(o)
        while not self.lost[s]:
            # As many voluntary discards as the player likes (bonus cards, characters but never
            # the last one, the organisation), each announced (`discard`) and then chosen (kind
            # `drop`); every one leaves less to discard, so the step ends.
            opts: list[Choice] = [PASS]
            if self.hand[s] or len(self.group[s]) > 1 or self.org[s]:
                opts.append(ANNOUNCE_DISCARD)
            opts += self.plays(s, DISCARD)
            c = yield from self.ask("discard", s, opts)
            v = c.verb
            if v == "pass":
                return
            if v == "discard":
                on_card = self.choices.on_card
                drop, dismiss = on_card["drop"], on_card["dismiss"]
                opts = [drop[h] for h in self.hand[s]]
                if len(self.group[s]) > 1:
                    opts += [dismiss[x] for x in self.group[s]]
                if self.org[s]:
                    opts.append(LEAVE)
                c = yield from self.ask("drop", s, opts)
                v = c.verb
            if v == "drop":
                self.hand[s].remove(c.card)
                self.bonus_discard.append(c.card)
                self.dropped.append((c.card, s))
            elif v == "dismiss":
                self.leave_group(s, c.card)
                self.char_discard.append(c.card)
                self.dismissed.append((c.card, s))
            elif v == "leave":
                self.bonus_discard.extend(self.org[s])
                self.org[s] = []
            else:
                yield from self.act(s, c)

    def pickups(self) -> Flow[None]:
        """After every seat's discard step: the one seat with the fewest characters may take one
        character another seat dismissed this turn, and the one seat with the fewest bonus cards
        one bonus card another seat discarded; with a tie for fewest, nobody (DECISION: one card
        each, and not by a seat whose turn is lost)."""
        n = self.n
        if self.dismissed:
            sizes = [len(self.group[s]) for s in range(n)]
            low = min(sizes)
            few = [s for s in range(n) if sizes[s] == low]
            s = few[0]
            if len(few) == 1 and not self.lost[s] and low < GROUP_LIMIT:
                cands = [c for c, by in self.dismissed if by != s and c in self.char_discard]
                if cands:
                    c = yield from self.ask("pickup", s, [PASS, *self.choices.cards("take", cands)])
                    if c.verb == "take":
                        self.char_discard.remove(c.card)
                        self.join(s, c.card)
        if self.dropped:
            sizes = [len(self.hand[s]) for s in range(n)]
            low = min(sizes)
            few = [s for s in range(n) if sizes[s] == low]
            s = few[0]
            if len(few) == 1 and not self.lost[s] and low < HAND_LIMIT:
                cands = [h for h, by in self.dropped if by != s and h in self.bonus_discard]
                if cands:
                    c = yield from self.ask("pickup", s, [PASS, *self.choices.cards("take", cands)])
                    if c.verb == "take":
                        self.bonus_discard.remove(c.card)
                        self.hand[s].append(c.card)

    # ------------------------------------------------------------------ the movement phase
    def moves(self, s: int) -> list[Choice]:
        """The announcements of the movement phase: `go` (then the location), `new` (a new
        location: then from the deck or the discard pile), `rest`; and `stay` only for a group
        that a hold mission keeps on its location (DECISION: the rulebook's three movement
        choices do not include staying; a hold goal keeps the group there by itself)."""
        opts: list[Choice] = [STAY] if self.holding(s) else []
        if not self.duty(s, "no_rest"):
            opts.append(REST)                       # (first: the move that leaves things be)
        self._goes = self.goes(s)                   # kept for the `go` and `new` choices
        self._news = self.news(s)
        if self._goes:
            opts.append(GO)
        if self._news:
            opts.append(NEW)
        if not opts:
            # DECISION: a group with no legal move (with the location tree, no location in
            # reach, another seat exploring, a duty forbidding rest) waits where it is, and
            # does not explore
            opts.append(STAY)
        return opts

    def goes(self, s: int) -> list[OnCard]:
        here = self.loc[s]
        go = self.choices.on_card["go"]
        return [go[L] for L in self.active if L != here and self.reachable(s, L)]

    def news(self, s: int) -> list[Choice]:
        if self.explorer >= 0 or len(self.active) > self.limit:
            return []
        opts: list[Choice] = []
        for i, deck in enumerate(self.loc_decks):
            if deck and (not self.tree or self._level_ok(s, i + 1)):
                opts.append(self.choices.new_deck[i] if self.tree else NEW_DECK)
        lv = self.p.level
        pick = self.choices.on_card["new_pick"]
        opts += [pick[L] for L in self.loc_discard if not self.tree or self._level_ok(s, lv[L])]
        return opts

    def _level_ok(self, s: int, level: int) -> bool:
        if self.ticket[s] == self.turn:
            return True
        return level == 1 if self.loc[s] < 0 else abs(level - self.p.level[self.loc[s]]) <= 1

    def movement_step(self, s: int) -> Flow[None]:
        p = self.p
        while not self.lost[s]:
            c = yield from self.ask("move", s, self.moves(s) + self.plays(s, MOVEMENT))
            v = c.verb
            if v in ("play", "use"):
                self._travel = False            # set by the card's `travel` operation, if any
                yield from self.act(s, c)
                if self._travel:
                    d = yield from self.ask("to", s, self.choices.cards("to", self.active))
                    yield from self.arrive(s, d.card, transit=False)
                    return
                continue
            if v == "stay":
                self.arrived[s] = self.holding(s)
                if self.log is not None:
                    self.log.append(("stay", s,))
            elif v == "rest":
                # DECISION: a resting group stays where it is but does not explore this turn
                self.n_str[s] += REST_BONUS
                self.n_spd[s] += REST_BONUS
                self.arrived[s] = False
                if self.log is not None:
                    self.log.append(("rest", s,))
            elif v == "go":
                c = yield from self.ask("go", s, self._goes)
                L = yield from self.redirect(s, c.card)
                yield from self.arrive(s, L)
            else:
                c = yield from self.ask("new", s, self._news)
                if c.verb == "new_deck":
                    L = self.loc_decks[c.deck - 1 if self.tree else 0].pop()
                else:
                    L = c.card
                    self.loc_discard.remove(L)
                self.explorer = s
                self.active.append(L)
                self.played.append((p.dix[L], s))
                ev = yield from self.draw_event()      # the lead event, face up
                if ev >= 0:
                    self.lead[L] = ev
                    self.lead_up.add(L)
                if self.log is not None:
                    self.log.append(("new_location", s, p.cid[L],))
                yield from self.arrive(s, L)
            return

    def redirect(self, s: int, L: int) -> Flow[int]:
        """When ``s`` announces a move to ``L``, another seat (in turn order) may play a
        `redirect` card and send the group to another active location it could reach."""
        p = self.p
        for t in self.order:
            if t == s or self.lost[t]:
                continue
            opts = [o for h in self.hand[t] if p.win[h] == W_REDIRECT for o in self._card_options(t, h)]
            if not opts:
                continue
            dests = self.choices.cards("to", [x for x in self.active if x != L and self.reachable(s, x)])
            if not dests:
                return L
            c = yield from self.ask("redirect", t, [PASS, *opts])
            if c.verb == "pass":
                continue
            self._redirect = False
            yield from self.act(t, c)
            if self._redirect:
                self._redirect = False
                d = yield from self.ask("to", t, dests)
                if self.log is not None:
                    self.log.append(("redirect", t, s, p.cid[d.card],))
                return d.card
            return L
        return L

    def arrive(self, s: int, L: int, transit: bool = True) -> Flow[None]:
        """The group of ``s`` sets out for ``L``: with the location tree a change of level draws
        an event first (DECISION: resolved like an exploration event at ``L``); then ``L``'s
        lead event is revealed and resolved. A group that fails is on the road (DECISION)."""
        p = self.p
        prev = self.loc[s]
        self.off_road(s)
        self._moving = s
        if self.hold_loc[s] != L:
            self.hold_n[s] = 0
        try:
            if self.tree and transit and prev >= 0 and p.level[prev] != p.level[L] and \
                    self.ticket[s] != self.turn:
                ev = yield from self.draw_event()
                if ev >= 0:
                    r = yield from self.resolve_event(s, ev, L, lead=False)
                    if r == FAIL or self.lost[s]:
                        return
            if L in self.lead:
                self.lead_up.add(L)
                self.faced.add(L)
                r = yield from self.resolve_event(s, self.lead[L], L, lead=True)
                if r == FAIL or self.lost[s]:
                    return
            if L not in self.active:               # removed meanwhile (cannot happen, kept safe)
                return
            self.loc[s] = L
            self.arrived[s] = True
            self.played.append((p.dix[L], s))
            if self.log is not None:
                self.log.append(("arrive", s, p.cid[L],))
        finally:
            self._moving = -1

    def trim(self) -> Flow[None]:
        """Over the limit of 2 x players active locations, the seat that explored this turn
        removes one: not one with a group on it or a lead event nobody has faced yet (DECISION: a
        monster that has fought stays until beaten, but it has been played: its location may go,
        and the monster with it to the event discard pile). Any other seat may save the chosen
        one by discarding a bonus card, and the explorer chooses another, as often as seats keep
        saving (DECISION: while another candidate is left, so each save takes one away and the
        last one goes). DECISION: with nothing removable, the table stays over the limit (by one
        at most: nobody may explore meanwhile) and the last explorer tries again after each later
        move."""
        p = self.p
        chooser = self.explorer if self.explorer >= 0 else self._last_explorer
        self._last_explorer = chooser
        while len(self.active) > self.limit:
            taken = {L for L in self.loc if L >= 0}
            cands = [L for L in self.active if L not in taken and (L not in self.lead or L in self.faced)]
            if not cands or chooser < 0:
                return
            L = (yield from self.ask("remove", chooser, self.choices.cards("remove", cands))).card
            while len(cands) > 1 and (yield from self.saved(chooser, L)):
                cands.remove(L)
                L = (yield from self.ask("remove", chooser, self.choices.cards("remove", cands))).card
            self.active.remove(L)
            self.loc_discard.append(L)
            if L in self.lead:
                self.event_discard.append(self.lead.pop(L))
                self.lead_up.discard(L)
                self.faced.discard(L)
            if self.log is not None:
                self.log.append(("removed", p.cid[L],))

    def saved(self, chooser: int, L: int) -> Flow[bool]:
        """The seats other than ``chooser``, in turn order, may save location ``L`` from removal:
        the first that says `save` pays a bonus card of its choice."""
        for t in self.order:
            if t == chooser or self.lost[t] or not self.hand[t]:
                continue
            d = yield from self.ask("save", t, [PASS, SAVE])
            if d.verb == "save":
                d = yield from self.ask("pay", t, self.choices.cards("pay", self.hand[t]))
                self.hand[t].remove(d.card)
                self.bonus_discard.append(d.card)
                if self.log is not None:
                    self.log.append(("save", t, self.p.cid[L],))
                return True
        return False

    # ------------------------------------------------------------------ the interaction phase
    def can_trade(self, s: int) -> bool:
        L = self.loc[s]
        if L < 0 or self.lost[s] or self.duty(s, "no_trade"):
            return False
        return self.p.trade[L] or self.duty(s, "trade_anywhere")

    def interaction_step(self, s: int) -> Flow[None]:
        p = self.p
        L = self.loc[s]
        for t in (self.order if self.org[s] else ()):   # rival organisations must fight
            if t != s and self.loc[t] == L and self.org[t] and \
                    p.rival[self.org[s][0]] == self.org[t][0] and (min(s, t), max(s, t)) not in self.fought:
                if self.log is not None:
                    self.log.append(("war", s, t,))
                yield from self.pvp(s, t)
                if self.lost[s] or self.loc[s] != L:
                    return
        proposed = self.proposed = [0] * self.n     # trades proposed to each seat this step
        while not self.lost[s] and self.loc[s] == L:
            opts: list[Choice] = [PASS]
            gs = len(self.group[s])
            for t in range(self.n):
                if t != s and self.loc[t] == L and (min(s, t), max(s, t)) not in self.fought and \
                        abs(gs - len(self.group[t])) <= ATTACK_SPREAD:
                    opts.append(self.choices.on_seat["attack"][t])
            if self.can_trade(s) and self._spare(s, ()):
                opts += self.choices.seats("trade", [t for t in range(self.n) if t != s and self.can_trade(t)
                                                     and proposed[t] < TRADE_OFFERS and self._spare(t, ())])
            opts += self.plays(s, INTERACTION)
            c = yield from self.ask("interact", s, opts)
            v = c.verb
            if v == "pass":
                return
            if v == "attack":
                yield from self.pvp(s, c.seat)
            elif v == "trade":
                proposed[c.seat] += 1
                yield from self.trade(s, c.seat)
            else:
                yield from self.act(s, c)

    def _spare(self, s: int, given: Sequence[int]) -> list[int]:
        """The cards ``s`` may still add to a trade beside ``given``: any bonus card of the
        hand, any character but the group's last."""
        kind = self.p.kind
        out = [h for h in self.hand[s] if h not in given]
        if len(self.group[s]) - sum(kind[x] == CHAR for x in given) > 1:
            out += [c for c in self.group[s] if c not in given]
        return out

    def _answerable(self, s: int, t: int, mine: Sequence[int]) -> tuple[int, int, int, int] | None:
        """How many bonus cards and characters ``t`` may give back for ``mine`` (lowest and
        highest of each) so that both hands and groups keep their limits and ``t`` its last
        character; None when no answer of at least one card fits."""
        chars = sum(self.p.kind[x] == CHAR for x in mine)
        bonus = len(mine) - chars
        a, b = len(self.hand[s]), len(self.hand[t])
        g, h = len(self.group[s]), len(self.group[t])
        bl, bh = max(0, b + bonus - HAND_LIMIT), min(b, HAND_LIMIT - a + bonus)
        cl, ch = max(0, h + chars - GROUP_LIMIT), min(h - 1, GROUP_LIMIT - g + chars)
        return (bl, bh, cl, ch) if bl <= bh and cl <= ch and bh + ch >= 1 else None

    def trade(self, s: int, t: int) -> Flow[None]:
        """DECISION (the rulebook lets the groups exchange any bonus and character cards
        freely): ``s`` offers cards of its own one at a time (`give`, then `done`; `pass`
        withdraws), ``t`` answers the same way with cards of its own or declines (`pass`), and
        ``s`` accepts the answer or not. Each side gives at least one card, any number, even or
        not; nobody gives their last character; hand and group limits hold after the exchange.
        The cards offered are public while the trade is made (`trading`)."""
        p = self.p
        give = self.choices.on_card["give"]
        mine: list[int] = []
        theirs: list[int] = []
        self.trading = (s, t, mine, theirs)
        done = False
        while True:
            opts: list[Choice] = [PASS, *(give[x] for x in self._spare(s, mine))]
            if mine and self._answerable(s, t, mine):
                opts.append(DONE)
            c = yield from self.ask("offer", s, opts)
            if c.verb != "give":
                done = c.verb == "done"
                break
            mine.append(c.card)
        bounds = self._answerable(s, t, mine) if done else None
        while bounds is not None:
            bl, bh, cl, ch = bounds
            chars = sum(p.kind[y] == CHAR for y in theirs)
            opts = [PASS]
            if len(theirs) - chars < bh:
                opts += [give[y] for y in self.hand[t] if y not in theirs]
            if chars < ch:
                opts += [give[y] for y in self.group[t] if y not in theirs]
            if theirs and len(theirs) - chars >= bl and chars >= cl:
                opts.append(DONE)
            c = yield from self.ask("answer", t, opts)
            if c.verb != "give":
                done = c.verb == "done" and (yield from self.ask("accept", s, [PASS, ACCEPT])) == ACCEPT
                break
            theirs.append(c.card)
        self.trading = None
        if not done:
            if self.log is not None:
                self.log.append(("trade_declined", s, t,))
            return
        for a, b, cards in ((s, t, mine), (t, s, theirs)):
            for x in cards:
                if p.kind[x] == CHAR:
                    self.group[a].remove(x)
                    self.group[b].append(x)
                else:
                    self.hand[a].remove(x)
                    self.hand[b].append(x)
        if self.log is not None:
            self.log.append(("trade", s, t, [p.cid[x] for x in mine], [p.cid[y] for y in theirs],))

    def pvp(self, a: int, d: int) -> Flow[None]:
        """``a`` attacks ``d``. The loser gives the winner a random bonus card, loses a
        character when beaten by 5 or more, leaves the location and ends its turn; the winner's
        organisation may add its victory effects. They cannot fight again this turn."""
        p = self.p
        self.fought.add((min(a, d), max(a, d)))
        res, margin = yield from self.battle(a, t=d)
        if res == FLED:
            return
        w, l = (a, d) if res == WIN else (d, a)
        if self.log is not None:
            self.log.append(("pvp", w, l, margin,))
        for o in list(self.org[w]):
            if not p.victory[o]:
                continue
            self._foe = l
            yield from self.run(w, o, p.victory[o])
            self._foe = -1
        if self.hand[l] and self.room(w) > 0:      # a full hand takes none (DECISION: the loser keeps it)
            i = yield from self.pick_random("steal", self.hand[l])
            self.hand[w].append(self.hand[l].pop(i))
        yield from self.lose_battle(l, margin)
        self.off_road(l)

    # ------------------------------------------------------------------ the exploration phase
    def exploration_step(self, s: int) -> Flow[None]:
        p = self.p
        L = self.loc[s]
        holds = [m for m, g in self.open_goals(s) if g.kind == G_HOLD and p.loc_of_dix.get(g.location) == L]
        if holds:
            # DECISION: a hold goal counts each exploration phase the group spends at its
            # location in a row; a turn elsewhere, on the road or lost starts it again.
            if self.hold_loc[s] == L and self.hold_turn[s] == self.turn - 1:
                self.hold_n[s] += 1
            else:
                self.hold_n[s] = 1
            self.hold_loc[s], self.hold_turn[s] = L, self.turn
            for m in holds:
                if self.hold_n[s] >= self.goal(s, m).turns:
                    yield from self.complete_goal(s, m)
        while not self.lost[s] and self.loc[s] == L:
            opts: list[Choice] = [PASS]
            if not (p.solitary[L] and self.explored_at.get(L) == self.turn):
                opts.append(EXPLORE)
            dl, on_card = p.dix[L], self.choices.on_card
            for m, g in self.open_goals(s):
                if g.kind == G_SPEED:
                    opts.append(on_card["speed"][m])
                elif g.kind == G_BATTLE and g.location == dl and (not g.skill or self.has_skill(s, g.skill)):
                    opts.append(on_card["challenge"][m])
            opts += self.plays(s, EXPLORATION)
            c = yield from self.ask("explore", s, opts)
            v = c.verb
            if v == "pass":
                return
            if v == "explore":
                yield from self.explore(s, L)
                return
            if v == "speed":
                yield from self.speed_check(s, c.card)
                return
            if v == "challenge":
                yield from self.challenge(s, c.card)
                return
            self._claim = False
            yield from self.act(s, c)
            if self._claim:
                self._claim = False
                if not self.lost[s] and self.loc[s] == L:
                    yield from self.reward(s, L)
                return

    def challenge(self, s: int, m: int) -> Flow[None]:
        """DECISION: a battle goal is fought in the exploration phase at its location instead of
        exploring, once a turn (the manifest: "beat a foe ... at `location`", while a visit goal
        takes the location's mission reward). Losing is a lost battle: the group leaves."""
        res, margin = yield from self.battle(s, foe=self.goal(s, m).strength, mission=m)
        if res == WIN:
            yield from self.complete_goal(s, m)
        elif res == LOSE:
            yield from self.lose_battle(s, margin)
            self.off_road(s)

    def speed_check(self, s: int, m: int) -> Flow[None]:
        """DECISION: a Speed check goal is tried in the exploration phase instead of exploring,
        at any location, once a turn: d6 + group Speed reaching the difficulty."""
        p = self.p
        g = self.goal(s, m)
        d = self.resolve(D6)
        if self._rerolls(s):
            d = yield from self.reroll(s, d, 8)
        total = self.speed(s) + d
        if self.log is not None:
            self.log.append(("speed_check", s, p.cid[m], total, g.difficulty,))
        self.last_check = Check(s, total, g.difficulty)
        if total >= g.difficulty:
            yield from self.complete_goal(s, m)


    def explore(self, s: int, L: int) -> Flow[None]:
        p = self.p
        self.explored_at[L] = self.turn
        self.st_explored[p.dix[L]] += 1
        d = self.resolve(D6)
        if self._rerolls(s):
            d = yield from self.reroll(s, d, 4)
        result, count, ops = p.table[L][d]
        if self.log is not None:
            self.log.append(("explore", s, p.cid[L], d,))
        ok = True
        if result == EV:
            self._alarm = False
            for _ in range(count):
                ev = yield from self.draw_event()
                if ev < 0:
                    break
                r = yield from self.resolve_event(s, ev, L, lead=False)
                if r == FAIL:
                    ok = False
                    break
                if r == ALARM or self._alarm:      # DECISION: a false alarm ends the drawing
                    break
            self._alarm = False
        elif result == SPECIAL:
            yield from self.run(s, L, ops)
        if ok and not self.lost[s] and self.loc[s] == L:
            yield from self.reward(s, L)
        elif self.loc[s] == L:
            self.off_road(s)                        # the group leaves without a reward


    def reward(self, s: int, L: int) -> Flow[None]:
        p = self.p
        opts = self.rewards_here(s, L)
        if not opts:
            return
        c = yield from self.ask("reward", s, opts)
        kind, ops = p.rewards[L][c.slot]
        key = (p.dix[L], kind)
        self.st_reward[key] = self.st_reward.get(key, 0) + 1
        if self.log is not None:
            self.log.append(("reward", s, p.cid[L], REWARDS[kind],))
        if kind == R_BONUS:
            yield from self.op_draw_bonus(s, L, p.level[L])
        elif kind == R_HIRE:
            self.hired[s] = (L, self.turn)
            x = yield from self.draw_char()
            if x >= 0:
                self.join(s, x)
        elif kind == R_MISSION:
            yield from self.complete_goal(s, c.mission)
        else:
            yield from self.run(s, L, ops)
