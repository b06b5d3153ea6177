"""The match of «Аніма: Тінь омеги» and its flow: setup, the turn (order by Speed, then each
phase for every seat in that order), the end; and `Prepared`, which makes matches.

Where the source rulebook is open or silent the ruling is marked ``DECISION`` in this package and
written out in docs/rules-decisions.md (section «Аніма: Тінь омеги»).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .. import core
from .cards import Over
from .phases import Phases
from .state import Flow
from .tables import (BONUS, CHAR, D6, DISCARD, EVENT, EXPLORATION, INTERACTION, LOC, MOVEMENT,
                     OPTIONS, Tables)


class Match(Phases):
    """One game: the whole of it is the generator `flow`."""

    BOUNDARY = "turn"
    SHARED = ("choices",)

    def flow(self) -> Flow[None]:
        try:
            if not self.dealt:
                yield from self.setup()
            n = self.n
            while True:
                if self.turn >= self.p.cap:
                    self.capped = True
                    break
                self.turn += 1
                self.start_turn()
                order = self.order
                self.phase = DISCARD
                for s in order:
                    if not self.lost[s]:
                        yield from self.discard_step(s)
                yield from self.pickups()
                yield from self.checkpoint("phase")
                self.phase = MOVEMENT
                for s in order:
                    if not self.lost[s]:
                        yield from self.movement_step(s)
                    if len(self.active) > self.limit:
                        yield from self.trim()
                yield from self.checkpoint("phase")
                self.phase = INTERACTION
                for s in order:
                    if not self.lost[s] and self.loc[s] >= 0:
                        yield from self.interaction_step(s)
                yield from self.checkpoint("phase")
                self.phase = EXPLORATION
                for s in order:
                    if not self.lost[s] and self.arrived[s] and self.loc[s] >= 0:
                        yield from self.exploration_step(s)
                yield from self.checkpoint("phase")
                for s in range(n):
                    self.t_str[s] = self.t_spd[s] = 0
                self.phase = -1
                if self.turn % 10 == 0 or not self.auto:
                    self.check_invariants()
                yield from self.checkpoint("turn")
        except Over:
            pass
        self.finish(turns=self.turn, capped=self.capped)

    def resume(self) -> Flow[None]:
        """After a turn, `flow` carries on from the attributes (the game is dealt)."""
        return self.flow()

    def setup(self) -> Flow[None]:
        p = self.p
        n = self.n
        hk = p.handles_by_kind
        self.char_deck = list(hk[CHAR])
        self.event_deck = list(hk[EVENT])
        self.bonus_deck = list(hk[BONUS])
        self.mission_deck = list(p.basic)
        self.final_deck = list(p.finals)
        if self.tree:
            self.loc_decks = [[h for h in hk[LOC] if p.level[h] == lv] for lv in (1, 2, 3)]
        else:
            self.loc_decks = [list(hk[LOC])]
        for deck in (self.char_deck, *self.loc_decks, self.event_deck, self.mission_deck,
                     self.final_deck, self.bonus_deck):
            yield from self.shuffle(deck)
        for s in range(n):
            for _ in range(2):
                if self.mission_deck:
                    self.missions[s].append(self.mission_deck.pop())
                    self.st_dealt[p.dix[self.missions[s][-1]]] += 1
        offered = [[self.char_deck.pop() for _ in range(2)] for _ in range(n)]
        drawn = [[self.bonus_deck.pop() for _ in range(4)] for _ in range(n)]
        for s in range(n):
            for c in offered[s]:
                self.st_offered[p.dix[c]] += 1
            self.revealed += offered[s] + drawn[s]      # in the players' hands while they choose
        cards = self.choices.cards
        keep = yield from self.ask_all("keep", list(range(n)), [cards("keep", o) for o in offered])
        back = yield from self.ask_all("return", list(range(n)), [cards("return", d) for d in drawn])
        self.revealed.clear()
        for s in range(n):
            c = keep[s].card
            self.st_kept[p.dix[c]] += 1
            self.join(s, c)
            self.char_deck.extend(x for x in offered[s] if x != c)
            self.hand[s].extend(x for x in drawn[s] if x != back[s].card)
            self.bonus_deck.append(back[s].card)
        yield from self.shuffle(self.char_deck)
        yield from self.shuffle(self.bonus_deck)
        # DECISION: as many starting locations as players, each with a face-down event (with the
        # location tree, from the level 1 deck).
        for _ in range(n):
            if self.loc_decks[0]:
                L = self.loc_decks[0].pop()
                self.active.append(L)
                ev = yield from self.draw_event()
                if ev >= 0:
                    self.lead[L] = ev
        self.dealt = True
        if self.log is not None:
            self.log.append(("setup",))

    def start_turn(self) -> None:
        """Wake and unrotate every character; last turn's `next turn` effects apply now; lost
        turns are taken; the order of play is set by group Speed, ties rolled with a d6
        (again while tied), and is kept for the whole turn."""
        n = self.n
        rot, asleep = self.rot, self.asleep
        for s in range(n):
            for c in self.group[s]:
                rot[c] = asleep[c] = False
            self.c_str[s], self.c_spd[s] = self.n_str[s], self.n_spd[s]
            self.n_str[s] = self.n_spd[s] = 0
            self.t_str[s] = self.t_spd[s] = 0
            self.arrived[s] = False
            self.free_used[s] = False
            self.lost[s] = False
            if self.skip[s]:
                self.skip[s] -= 1
                self.lost[s] = True
                if self.log is not None:
                    self.log.append(("skip", s,))
        self.explorer = -1
        self.fought = set()
        self.dismissed = []
        self.dropped = []
        speeds = [self.speed(s) for s in range(n)]
        self.order = self.rank(sorted(range(n), key=lambda s: -speeds[s]), speeds)
        self.orders.append(list(self.order))
        if self.log is not None:
            self.log.append(("turn", self.turn, list(self.order), speeds,))

    def rank(self, seats: list[int], keys: list[int]) -> list[int]:
        """``seats`` sorted by ``keys`` (highest first); equal keys are settled by d6 rolls,
        higher first, rolled again among those still tied."""
        out: list[int] = []
        i = 0
        while i < len(seats):
            j = i
            while j < len(seats) and keys[seats[j]] == keys[seats[i]]:
                j += 1
            tied = seats[i:j]
            if len(tied) == 1:
                out.append(tied[0])
            else:
                rolls = [0] * self.n
                for s in tied:
                    rolls[s] = self.resolve(D6)
                tied.sort(key=lambda s: -rolls[s])
                out += self.rank(tied, rolls)
            i = j
        return out


class Prepared(Tables):
    """The card tables of a configuration, and the matches played with them."""

    def new(self, players: int, seed: int, log: bool = False, deal: bool = True) -> Match:
        m = Match(self, players, seed, log=log)
        if deal:
            m.begin()
        return m


def prepare(game: Any, options: Mapping[str, Any] | None = None,
            sets: Sequence[str] | None = None) -> Prepared:
    opts = core.resolve_options(OPTIONS, options or {})
    return Prepared(game, opts, sets or tuple(game.manifest.sets)[:1])


OPERATIONS = Match.OPERATIONS
#: Operation name -> the function that carries it out (the hot path's table).
OPS = Match.OPS
