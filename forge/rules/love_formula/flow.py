"""«Формула кохання» / Love Formula: the flow of a game (setup, two drafts, two play phases of
`ROUNDS` rounds, scoring), played from the card data in ``cards/love_formula``.

State is plain lists of integer card handles (one handle per physical card). The flow of the
game is one generator (`Match._flow`) that yields a `Decision` whenever seats must choose and
receives their choices; nothing is copied per step. Where the rulebook is silent, the decision
taken is marked ``DECISION`` (here, in `state` and in `resolve`) and written out in
docs/rules-decisions.md.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..core import Chance, Flow
from .actions import PASS, OnCard, Onto, Verb
from .operations import Operations
from .options import Config, config_from
from .tables import CHANCE, DRAFT, GOAL, PREP, REACT, ROUNDS, VP, Tables


class Match(Operations):
    """One game in progress. ``decision`` is what must be answered next; ``step()`` answers."""

    BOUNDARY = "turn_end"

    def __init__(self, prep: Tables, players: int, seed: int, log: bool = False,
                 deal: bool = True) -> None:
        super().__init__(prep, players, seed, log)
        if deal:
            self.begin()

    # ------------------------------------------------------------------ setup and driving
    def _setup(self) -> None:
        p, cfg = self.p, self.p.config
        boxed = set(p.boxed)
        self.box.extend(p.boxed)
        jobs_base = [h for h in range(p.n) if p.is_job[h] and p.set_of[h] == "base" and h not in boxed]
        jobs_promo = [h for h in range(p.n) if p.is_job[h] and p.set_of[h] == "promo" and h not in boxed]
        jobs = jobs_promo if (jobs_promo and cfg.promo_jobs == "replace") else jobs_base + jobs_promo
        unused_jobs = [h for h in jobs_base + jobs_promo if h not in jobs]
        self.shuffle_cards(jobs)
        for s in range(self.n):
            self.job_aside[s] = jobs[s]
            self.job_owner[jobs[s]] = s
        self.box.extend(jobs[self.n:] + unused_jobs)
        taken = boxed | set(jobs_base) | set(jobs_promo)
        for h in range(p.n):
            if h in taken:
                continue
            t = p.type[h]
            if t == CHANCE:
                self.chance_deck.append(h)
            elif t == GOAL:
                self.goal_deck.append(h)
            elif t == VP:
                self.vp_deck.append(h)
            else:
                self.deck.append(h)
        self.shuffle_cards(self.deck)
        self.shuffle_cards(self.chance_deck)
        if self.goals_on:
            self._setup_goals()
        else:
            self.box.extend(self.goal_deck + self.vp_deck)
            self.goal_deck, self.vp_deck = [], []
        if self.chance:
            # DECISION: first revealer by lot
            self.revealer = (self.resolve(Chance("revealer", range(self.n))) - 1) % self.n
        else:
            self.box.extend(self.chance_deck)
            self.chance_deck = []

    def _setup_goals(self) -> None:
        p, cfg = self.p, self.p.config
        self.shuffle_cards(self.goal_deck)
        self.shuffle_cards(self.vp_deck)
        count = self.n + 1
        if cfg.goals_planned:       # the players chose the goals
            chosen = [p.handles_of[g][0] for g in cfg.goals_planned]
        elif cfg.goals_variant == "planned":
            # DECISION: X+1 goals as in the standard game, (X+2)//2 of them "first" goals unless
            # the players ask for another number; more "first" goals than X+1 gives X+1 of them,
            # and a kind that runs out is made up from the other.
            first_n = cfg.goals_planned_first if cfg.goals_planned_first is not None else (self.n + 2) // 2
            firsts = [g for g in self.goal_deck if p.goal[g].kind == "first"][:min(first_n, count)]
            ends = [g for g in self.goal_deck if p.goal[g].kind == "end"][:count - len(firsts)]
            chosen = firsts + ends
            chosen += [g for g in self.goal_deck if g not in chosen][:count - len(chosen)]
        else:
            chosen = self.goal_deck[:count]
        self.goal_deck = [g for g in self.goal_deck if g not in chosen]
        for g in chosen:
            self.lay_goal(g)

    def lay_goal(self, g: int, vp: int = -1) -> None:
        """Put goal ``g`` in play with VP card ``vp`` under it (-1: the top of the VP deck).

        Same-VP variant: no VP card is laid ("instead of laying one VP card per goal"); every
        goal is worth the agreed value, or the value of a random VP card, which stays in the
        VP deck (DECISION). Open variant: the VP card lies face up from the start.
        """
        p, cfg = self.p, self.p.config
        self.goals.append(g)
        self.goal_claimed.append([])
        if cfg.goals_variant == "same":
            if vp >= 0:
                self.vp_deck.append(vp)
            if not self.same_value:
                self.same_value = cfg.goals_same_value or p.value[self.vp_deck[-1]]
            self.goal_value.append(self.same_value)
            self.goal_open.append(False)
            return
        if vp < 0:
            vp = self.vp_deck.pop()
        self.goal_vp.append(vp)
        self.goal_value.append(p.value[vp])
        self.goal_open.append(cfg.goals_variant == "open")

    def start(self, phase: int, round_: int, draft: bool) -> None:
        """Start (or, for scenarios, resume) the flow at a play phase and round (0-based)."""
        self.begin(self._flow(phase, round_, draft))

    def resume(self) -> Flow[None]:
        """After a turn: the round's other ``turns``, then on from there. After a pick of a
        draft (the only time cards are held as ``picked``): the draft's other picks, then on."""
        if any(self.picked):
            return self._flow(self.phase, 0, True, picking=True)
        return self._flow(self.phase, self.round, False, turns=True)

    def flow(self) -> Flow[None]:
        """The whole game: the setup from the seed (jobs, decks, goals, the first chance
        revealer), then both play phases from the first draft."""
        self._setup()
        return (yield from self._flow(0, 0, True))

    # ------------------------------------------------------------------ the game's flow
    def _flow(self, phase: int, round_: int, draft: bool, turns: bool = False,
              picking: bool = False) -> Flow[None]:
        """From a play phase and round (0-based), after that phase's draft if ``draft``; with
        ``turns``, that round goes on from its ``turns`` still to play; with ``picking``, the
        draft goes on from the packs in hand."""
        for ph in range(phase, 2):
            self.phase = ph
            if draft or ph > phase:
                yield from self._draft(ph, deal=not picking)
                picking = False
                for s in range(self.n):
                    self.hand[s].extend(self.picked[s])
                    self.picked[s] = []
                self.drafts_done += 1
                yield from self.checkpoint("draft_end")   # a scenario can stop after a draft
            for s in range(self.n):
                if self.job_aside[s] >= 0:
                    self.hand[s].append(self.job_aside[s])
                    self.job_aside[s] = -1
            first = round_ if ph == phase and not draft else 0
            for r in range(first, ROUNDS):
                self.round = r
                yield from (self._turns() if turns else self._round())
                turns = False
                self.rounds_done += 1
                self.check_invariants()
                if r == ROUNDS - 1 and ph == 0:
                    self._end_play_phase()
                yield from self.checkpoint("round_end")   # ... or after any round
        self._finish()

    def _draft(self, ph: int, deal: bool = True) -> Flow[None]:
        """Deal the packs (unless ``deal`` is off: a copy goes on from the packs in hand), then
        pick and pass them on until they are empty. After each pick is a copy's `BOUNDARY`."""
        n = self.n
        if deal:
            for s in range(n):
                for _ in range(DRAFT):
                    h = self._draw_one()
                    if h >= 0:
                        self.pack[s].append(h)
        seats = tuple(range(n))
        shift = 1 if ph == 0 else -1   # clockwise to the left neighbour, then back
        pick = self.p.on_card["pick"]
        while any(self.pack):
            options = [[pick[h] for h in self.pack[s]] for s in seats]
            choices = yield from self.ask_all("pick", seats, options)
            for s in seats:
                c = choices[s]
                if c is not None:
                    self.pack[s].remove(c.card)
                    self.picked[s].append(c.card)
            self.pack = [self.pack[(s - shift) % n] for s in seats]
            yield from self.checkpoint("turn_end")

    def _playable(self, s: int) -> list[OnCard]:
        t, play = self.p.type, self.p.on_card["play"]
        return [play[h] for h in self.hand[s] if t[h] != REACT]

    def _round(self) -> Flow[None]:
        p, n = self.p, self.n
        if self.chance and self.chance_deck:
            self.revealer = (self.revealer + 1) % n
            yield from self._reveal_chance(self.revealer)
        seats: list[int] = []
        options: list[list[OnCard]] = []
        for s in range(n):
            if self.skip[s]:
                self.skip[s] -= 1
                self._log("skip", s)
                continue
            opts = self._playable(s)
            if opts:
                seats.append(s)
                options.append(opts)
        chosen: list[tuple[int, int]] = []
        if seats:
            got = yield from self.ask_all("play", seats, options)
            for s, c in zip(seats, got):
                self.hand[s].remove(c.card)
                self.limbo.append(c.card)
                chosen.append((s, c.card))
        # DECISION: an exact tie (copies of one card, or a promo card and the card it
        # replaces) is settled by drawing lots.
        lots = {s: self.random_float("lots") for s, _ in chosen} if len(chosen) > 1 else {}
        order = sorted(chosen, key=lambda sh: (-p.prio[sh[1]], -p.tb[sh[1]], lots.get(sh[0], 0)))
        self.orders.append([s for s, _ in order])
        if self.log is not None:
            self._log("reveal", self.phase, self.round, [(s, p.cid[h]) for s, h in order])
        self.turns = order
        yield from self._turns()

    def _turns(self) -> Flow[None]:
        """The round's ``turns`` in order (each a seat's move window, card, move window), then
        its end. After each turn is a copy's `BOUNDARY`: what is left of the round is in
        ``turns``."""
        p = self.p
        while self.turns:
            s, h = self.turns.pop(0)
            self.moves_left = 1 + self.extra_next[s]
            self.extra_next[s] = 0
            yield from self._move_window(s)
            self.played.append((p.dix[h], s))
            yield from self._play(s, h)
            yield from self._move_window(s)
            yield from self.checkpoint("turn_end")
        self.extra_next = [0] * self.n
        yield from self._tick(1)   # a heart token off every card that carries them

    def _end_play_phase(self) -> None:
        for s in range(self.n):
            for h in self.hand[s]:
                if self.p.is_job[h]:
                    self.job_aside[s] = h
                else:
                    self.discard.append(h)
            self.hand[s] = []
        if self.chance:
            self.chance_deck.extend(self.chance_discard)
            self.chance_discard = []
            self.shuffle_cards(self.chance_deck)
        self._log("end_phase", self.phase)

    # ------------------------------------------------------------------ moving preparations
    def move_options(self, s: int) -> list[Verb | OnCard | Onto]:
        """What seat ``s`` may do in its move window: pass, move (or unattach) one preparation
        while it has moves left, and discard unattached preparations at any time."""
        p = self.p
        opts: list[Verb | OnCard | Onto] = [PASS]
        on_card = p.on_card
        if self.moves_left > 0:
            subs = {p.sub[u] for u in self.unatt[s]}
            pairs = self.pairs[s]
            for q in self.unatt[s]:
                for pr in pairs:
                    if self.can_attach(q, pr):
                        opts.append(Onto("move", q, pr))
            for pr in pairs:
                if self.locked(pr):
                    continue
                for q in self.att[pr]:
                    if p.type[q] != PREP:
                        continue
                    if p.sub[q] not in subs:
                        opts.append(on_card["unattach"][q])
                    for pr2 in pairs:
                        if pr2 != pr and self.can_attach(q, pr2):
                            opts.append(Onto("move", q, pr2))
        scrap = on_card["scrap"]     # you may discard unattached preparations in your turn
        opts += [scrap[q] for q in self.unatt[s]]
        return opts

    def _move_window(self, s: int) -> Flow[None]:
        while True:
            opts = self.move_options(s)
            if len(opts) == 1 and self.auto:
                return
            c = yield from self.ask("move", s, opts)
            verb = c.verb
            if verb == "pass":
                return
            q = c.card
            if verb == "scrap":
                self.unatt[s].remove(q)
                self._to_discard(q)
                self._check_goals(s)
                continue
            self.moves_left -= 1
            if q in self.on:
                self._detach(q)
            else:
                self.unatt[s].remove(q)
            if verb == "move":
                self._attach(q, c.pair)
            else:
                self.unatt[s].append(q)
            self._log("move", s, self.p.cid[q])
            self._check_goals(s)

    # ------------------------------------------------------------------ the end
    def _finish(self) -> None:
        """Judge the "end" goals on the final position, then score."""
        p = self.p
        if self.goals_on:
            for i, g in enumerate(self.goals):
                sub, cond, counts, thr = p.goal[g]
                if sub != "end" or self.goal_claimed[i]:
                    continue
                vals = [self.count(s, counts, scoring=True) for s in range(self.n)]
                if cond == "most":
                    best = max(vals)
                    who = [s for s in range(self.n) if best >= 1 and vals[s] == best]
                elif cond == "fewest":
                    live = [s for s in range(self.n) if self.pairs[s]]
                    low = min((vals[s] for s in live), default=None)
                    who = [s for s in live if vals[s] == low]
                else:
                    who = [s for s in range(self.n) if vals[s] >= (thr or 1)]
                for s in who:
                    self._claim(i, s)
            if self.p.config.goals_variant == "hidden":   # won VP cards are revealed at the end
                for i in range(len(self.goals)):
                    if self.goal_claimed[i]:
                        self.goal_open[i] = True
        self.finish()


class Prepared(Tables):
    """The card tables of one game and configuration, and the matches played with them."""

    def new(self, players: int, seed: int, log: bool = False, deal: bool = True) -> Match:
        return Match(self, players, seed, log=log, deal=deal)


def prepare(game: Any, options: Config | Mapping[str, Any] | None = None,
            sets: Sequence[str] | None = None) -> Prepared:
    """Static tables for ``options`` (a mapping of option values, or a ready `Config`)."""
    config = options if isinstance(options, Config) else config_from(game, options, sets)
    return Prepared(game, config)


OPERATIONS = Match.OPERATIONS
#: The operations' functions by name: the table `Resolve._effects` calls.
OPS = Match.ops
