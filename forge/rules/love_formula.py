"""«Формула кохання» / Love Formula: the complete rules for 2-4 players, with the Chance,
#RelationshipGoals and promo expansions, played from the card data in ``cards/love_formula``.

State is plain lists of integer card handles (one handle per physical card). The flow of the
game is one generator (`Match._flow`) that yields a `Decision` whenever seats must choose and
receives their choices; nothing is copied per step. Where the rulebook is silent, the decision
taken is marked ``DECISION`` here and written out in docs/rules-decisions.md.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Iterator

from .core import (SEAT_NAMES, Chance, Decision, Engine, EngineError, Flow, InvariantViolation,
                   Match as BaseMatch, Option, Prepared as BasePrepared, Requires, operation,
                   operations_of)

#: Seats these rules are written for (the rulebook's 2-4): a manifest allowing more or fewer is a
#: `check` finding, and a match outside the range is refused.
PLAYERS = (2, 4)

#: Operations that act while their card is attached to a pair (or at scoring), never on play.
PASSIVE = frozenset({"pair_penalty", "pair_bonus", "fill_requirement", "lock_pair",
                     "end_pair_after", "protect_pair"})

PREP, PAIR, OBST, REACT, CONN, ACTION, CHANCE, GOAL, VP = range(9)
TYPE_CODES = {"preparation": PREP, "pair": PAIR, "obstacle": OBST, "reaction": REACT,
              "connection": CONN, "action": ACTION, "chance": CHANCE, "goal": GOAL, "vp": VP}
SUBTYPES = {"event": 0, "location": 1, "item": 2}
ROUNDS = 10
DRAFT = 12
GOAL_VARIANTS = ("standard", "same", "open", "hidden", "planned")


@dataclass(frozen=True)
class Config:
    """How a game is set up: which sets, and each choice the expansions' rulebooks offer."""

    sets: tuple[str, ...] = ("base",)
    #: #RelationshipGoals variant: standard, same (one VP value for every goal), open (VP cards
    #: face up), hidden (won VP cards stay face down until the end), planned (a chosen mix).
    goals_variant: str = "standard"
    #: For `same`: the VP every goal is worth; 0 draws a random VP card to set it.
    goals_same_value: int = 0
    #: For `planned`: how many "first" goals (the rest of X+1 are "end" goals); None: (X+2)//2.
    goals_planned_first: int | None = None
    #: For `planned`: the goals the players chose (card ids); empty: drawn by `goals_planned_first`.
    goals_planned: tuple[str, ...] = ()
    #: Promo jobs: "mix" (4 base + 4 promo shuffled) or "replace" (promo jobs only).
    promo_jobs: str = "mix"
    #: Promo replacements: (promo card id, copies) pairs; each copy takes the place of one copy
    #: of the base card it `replaces`. Promo cards not named here are simply added.
    promo_replace: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        if "base" not in self.sets:
            object.__setattr__(self, "sets", ("base", *self.sets))
        if self.goals_variant not in GOAL_VARIANTS:
            raise EngineError(f"unknown goals variant {self.goals_variant!r} "
                              f"(known: {', '.join(GOAL_VARIANTS)})")
        if self.goals_planned and "goals" not in self.sets:
            raise EngineError("goals_planned needs the #RelationshipGoals set: --sets base,goals")
        if self.goals_planned and self.goals_variant != "planned":
            raise EngineError("goals_planned names the goals of goals_variant=planned; "
                              "add --option goals_variant=planned")
        if self.promo_jobs not in ("mix", "replace"):
            raise EngineError("promo_jobs is 'mix' or 'replace'")

    def options(self) -> dict[str, Any]:
        """This configuration as the engine's option values (see `OPTIONS`)."""
        return {"goals_variant": self.goals_variant, "goals_same_value": self.goals_same_value,
                "goals_planned_first": self.goals_planned_first,
                "goals_planned": ",".join(self.goals_planned), "promo_jobs": self.promo_jobs,
                "promo_cards": "add",
                "promo_replace": ",".join(f"{c}:{n}" for c, n in self.promo_replace)}


def full_replacement(game: Any) -> tuple[tuple[str, int], ...]:
    """Every promo card that `replaces` a base card takes the place of all its copies."""
    return tuple((c.id, c.copies) for c in game.cards if c.set == "promo" and c.replaces)


class Prepared(BasePrepared):
    """Static card tables of one game and configuration, shared by all its matches."""

    def __init__(self, game: Any, config: Config):
        super().__init__(game, config.options(), config.sets)
        self.config = config
        unknown = set(config.sets) - set(game.manifest.sets)
        if unknown:
            raise EngineError(f"unknown set(s): {', '.join(sorted(unknown))}")
        defs = [c for c in game.cards if c.set in config.sets]
        self.defs = defs
        self.def_ids = [c.id for c in defs]
        key_index = {c.id: i for i, c in enumerate(defs)}
        all_ids = {c.id: c for c in game.cards}
        replace = dict(config.promo_replace)
        for pid in replace:
            if pid not in key_index or not all_ids[pid].replaces:
                raise EngineError(f"{pid!r} is not a promo card that replaces another")
        # physical cards
        self.cid: list[str] = []
        self.dix: list[int] = []
        self.type: list[int] = []
        self.sub: list[int] = []       # prep subtype code, obstacle/other: -1
        self.prio: list[int] = []
        self.tb: list[int] = []
        self.key: list[int] = []       # requirement key (def index of the card it counts as)
        self.req: list[frozenset] = []
        self.req_sub: list[dict] = []  # pair: requirement key -> subtype code
        self.vp_inc: list[int] = []
        self.vp_perf: list[int] = []
        self.dur: list[int] = []
        self.on_play: list[tuple] = []  # (op, args) that resolve when played
        self.all_ops: list[tuple] = []
        self.penalty: list[int] = []
        self.bonus: list[tuple] = []    # (count, perfect_only)
        self.fill: list[tuple] = []     # subtype codes or -1 for any
        self.locks: list[bool] = []
        self.ends: list[bool] = []
        self.protects: list[bool] = []
        self.trigger: list[str] = []
        self.is_job: list[bool] = []
        self.goal: list[tuple] = []     # (subtype, condition, counts, threshold)
        self.value: list[int] = []
        self.set_of: list[str] = []
        self.boxed: list[int] = []      # handles out of this game (replaced cards)
        removed: dict[str, int] = {}
        for c in defs:
            if c.set == "promo" and c.replaces and c.id in replace:
                removed[c.replaces] = removed.get(c.replaces, 0) + replace[c.id]
        for c in defs:
            i = key_index[c.id]
            t = TYPE_CODES[c.type]
            keep_copies = c.copies
            if c.set == "promo" and c.replaces and c.id in replace:
                keep_copies = min(replace[c.id], c.copies)
            elif c.id in removed:
                keep_copies = max(0, c.copies - removed[c.id])
            for n in range(c.copies):
                h = len(self.cid)
                self.cid.append(c.id)
                self.dix.append(i)
                self.type.append(t)
                self.set_of.append(c.set)
                self.sub.append(SUBTYPES.get(c.subtype, -1) if t == PREP else -1)
                self.prio.append(getattr(c, "priority", 0) or 0)
                self.tb.append(getattr(c, "tiebreak", 0) or 0)
                base = c.replaces if c.replaces in key_index else c.id
                self.key.append(key_index[base])
                if t == PAIR:
                    self.req.append(frozenset(key_index[r] for r in c.requires if r in key_index))
                    self.req_sub.append({key_index[r]: SUBTYPES[all_ids[r].subtype]
                                         for r in c.requires if r in key_index})
                    self.vp_inc.append(c.vp_incomplete)
                    self.vp_perf.append(c.vp_perfect)
                else:
                    self.req.append(frozenset())
                    self.req_sub.append({})
                    self.vp_inc.append(0)
                    self.vp_perf.append(0)
                self.dur.append(getattr(c, "duration", None) or 0)
                ops = tuple((op.name, op.args()) for op in c.effects)
                self.all_ops.append(ops)
                attaches = t in (OBST, CONN)
                self.on_play.append(tuple(o for o in ops if not (attaches and o[0] in PASSIVE)))
                self.penalty.append(sum(a["count"] for n_, a in ops if n_ == "pair_penalty"))
                self.bonus.append(tuple((a["count"], a["perfect_only"]) for n_, a in ops
                                        if n_ == "pair_bonus"))
                self.fill.append(tuple(SUBTYPES.get(a["subtype"], -1) for n_, a in ops
                                       if n_ == "fill_requirement"))
                self.locks.append(attaches and any(n_ == "lock_pair" for n_, _ in ops))
                self.ends.append(attaches and any(n_ == "end_pair_after" for n_, _ in ops))
                self.protects.append(attaches and any(n_ == "protect_pair" for n_, _ in ops))
                self.trigger.append(getattr(c, "trigger", "") or "")
                self.is_job.append(t == ACTION and c.subtype == "job")
                if t == GOAL:
                    self.goal.append((c.subtype, c.condition, c.counts, c.threshold))
                else:
                    self.goal.append(())
                self.value.append(getattr(c, "value", 0) or 0 if t == VP else 0)
                if n >= keep_copies:
                    self.boxed.append(h)
        self.n = len(self.cid)
        for h, cid in enumerate(self.cid):
            self.handles_of.setdefault(cid, []).append(h)
        self.names = {c.id: c.name for c in defs}

    def playable_ids(self) -> list[str]:
        """Ids of the cards a player can play in this configuration (for dead-card reports)."""
        boxed = set(self.boxed)
        out = set()
        for h in range(self.n):
            t = self.type[h]
            if h in boxed or t in (GOAL, VP):
                continue
            if self.is_job[h] and self.set_of[h] == "base" and self.config.promo_jobs == "replace" \
                    and "promo" in self.config.sets:
                continue
            out.add(self.cid[h])
        return sorted(out)

    def new(self, players: int, seed: int, log: bool = False, deal: bool = True) -> "Match":
        return Match(self, players, seed, log=log, deal=deal)


class Ctx:
    """What one resolving card knows: who resolves it, the card, the pair it is attached to,
    and (for reactions) the card and seat that triggered it."""

    __slots__ = ("seat", "card", "pair", "trig", "cancelled", "redirected")

    def __init__(self, seat: int, card: int, pair: int = -1, trig: "Ctx | None" = None):
        self.seat, self.card, self.pair, self.trig = seat, card, pair, trig
        self.cancelled = False
        self.redirected = False


class Match(BaseMatch):
    """One game in progress. ``decision`` is what must be answered next; ``step()`` answers."""

    p: Prepared

    def __init__(self, prep: Prepared, players: int, seed: int, log: bool = False,
                 deal: bool = True):
        lo = max(prep.game.manifest.players.min, PLAYERS[0])
        hi = min(prep.game.manifest.players.max, PLAYERS[1])
        if not lo <= players <= hi:
            raise EngineError(f"Love Formula takes {lo}-{hi} players, not {players}")
        super().__init__(players, seed, log)
        self.p = prep
        n = players
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.pack: list[list[int]] = [[] for _ in range(n)]
        self.picked: list[list[int]] = [[] for _ in range(n)]
        self.pairs: list[list[int]] = [[] for _ in range(n)]
        self.unatt: list[list[int]] = [[] for _ in range(n)]
        self.att: dict[int, list[int]] = {}
        self.powner: dict[int, int] = {}
        self.on: dict[int, int] = {}
        self.ctrl: dict[int, int] = {}
        self.job_aside: list[int] = [-1] * n
        self.job_owner: dict[int, int] = {}
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.box: list[int] = []
        self.limbo: list[int] = []
        self.chance_deck: list[int] = []
        self.chance_discard: list[int] = []
        self.goal_deck: list[int] = []
        self.vp_deck: list[int] = []
        self.goals: list[int] = []
        self.goal_vp: list[int] = []
        self.goal_value: list[int] = []
        self.goal_claimed: list[list[int]] = []
        #: Whether the VP card under each goal lies face up (open variant: from the start;
        #: standard: once won; hidden: only at the end of the game; same: there is none).
        self.goal_open: list[bool] = []
        #: Same-VP variant: the value of every goal (0 until set).
        self.same_value = 0
        self.tokens: dict[int, int] = {}
        self.marks: list[list[int]] = []   # [pair, tokens, seat] protection marks
        self.banked = [0] * n
        self.skip = [0] * n
        self.extra_next = [0] * n
        self.moves_left = 0
        self.phase = 0
        self.round = 0
        self.revealer = -1
        self.rounds_done = 0
        self.drafts_done = 0
        self.chance = "chance" in prep.config.sets
        self.goals_on = "goals" in prep.config.sets
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
            firsts = [g for g in self.goal_deck if p.goal[g][0] == "first"][:min(first_n, count)]
            ends = [g for g in self.goal_deck if p.goal[g][0] == "end"][:count - len(firsts)]
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

    def flow(self) -> Flow[None]:
        """The whole game: the setup from the seed (jobs, decks, goals, the first chance
        revealer), then both play phases from the first draft."""
        self._setup()
        return (yield from self._flow(0, 0, True))

    # ------------------------------------------------------------------ the game's flow
    def _flow(self, phase: int, round_: int, draft: bool) -> Flow[None]:
        for ph in range(phase, 2):
            self.phase = ph
            if draft or ph > phase:
                yield from self._draft(ph)
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
                yield from self._round()
                self.rounds_done += 1
                self.check_invariants()
                if r == ROUNDS - 1 and ph == 0:
                    self._end_play_phase()
                yield from self.checkpoint("round_end")   # ... or after any round
        self._finish()

    def _draw_one(self) -> int:
        if not self.deck:
            if not self.discard:
                return -1
            self.deck, self.discard = self.discard, []
            self.shuffle_cards(self.deck)   # DECISION: an empty deck is refilled from the discard
            self._log("reshuffle")
        return self.deck.pop()

    def _draft(self, ph: int) -> Flow[None]:
        n = self.n
        for s in range(n):
            for _ in range(DRAFT):
                h = self._draw_one()
                if h >= 0:
                    self.pack[s].append(h)
        seats = tuple(range(n))
        shift = 1 if ph == 0 else -1   # clockwise to the left neighbour, then back
        while any(self.pack):
            options = [[("pick", h) for h in self.pack[s]] for s in seats]
            choices: list[tuple | None]
            if self.auto and all(len(o) <= 1 for o in options):
                choices = [o[0] if o else None for o in options]
            else:
                live = [s for s in seats if self.pack[s]]
                got = yield Decision("pick", live, [options[s] for s in live])
                choices = [None] * n
                for s, c in zip(live, got):
                    choices[s] = c
            for s in seats:
                c = choices[s]
                if c is not None:
                    self.pack[s].remove(c[1])
                    self.picked[s].append(c[1])
            self.pack = [self.pack[(s - shift) % n] for s in seats]

    def _playable(self, s: int) -> list[tuple]:
        t = self.p.type
        return [("play", h) for h in self.hand[s] if t[h] != REACT]

    def _round(self) -> Flow[None]:
        p, n = self.p, self.n
        if self.chance and self.chance_deck:
            self.revealer = (self.revealer + 1) % n
            yield from self._reveal_chance(self.revealer)
        seats, options = [], []
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
            if self.auto and all(len(o) == 1 for o in options):
                got = [o[0] for o in options]
            else:
                got = yield Decision("play", seats, options)
            for s, c in zip(seats, got):
                self.hand[s].remove(c[1])
                self.limbo.append(c[1])
                chosen.append((s, c[1]))
        # DECISION: an exact tie (copies of one card, or a promo card and the card it
        # replaces) is settled by drawing lots.
        lots = {s: self.random_float("lots") for s, _ in chosen} if len(chosen) > 1 else {}
        order = sorted(chosen, key=lambda sh: (-p.prio[sh[1]], -p.tb[sh[1]], lots.get(sh[0], 0)))
        self.orders.append([s for s, _ in order])
        self._log("reveal", self.phase, self.round, [(s, p.cid[h]) for s, h in order])
        for s, h in order:
            self.moves_left = 1 + self.extra_next[s]
            self.extra_next[s] = 0
            yield from self._move_window(s)
            self.played.append((p.dix[h], s))
            yield from self._play(s, h)
            yield from self._move_window(s)
        self.extra_next = [0] * n
        yield from self._end_round()

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

    # ------------------------------------------------------------------ pairs and preparations
    def locked(self, pair: int) -> bool:
        locks = self.p.locks
        return any(locks[c] for c in self.att[pair])

    def protected(self, pair: int) -> bool:
        pr = self.p.protects
        if any(pr[c] for c in self.att[pair]):
            return True
        return any(m[0] == pair for m in self.marks)

    def can_attach(self, q: int, pair: int) -> bool:
        p = self.p
        k = p.key[q]
        if k not in p.req[pair] or self.locked(pair):
            return False
        key, typ = p.key, p.type
        return not any(typ[c] == PREP and key[c] == k for c in self.att[pair])

    def _attach(self, card: int, pair: int) -> None:
        self.att[pair].append(card)
        self.on[card] = pair

    def _detach(self, card: int) -> int:
        pair = self.on.pop(card)
        self.att[pair].remove(card)
        return pair

    def _to_discard(self, h: int) -> None:
        """Discard a card; a job returns to its owner's hand instead."""
        self.tokens.pop(h, None)
        self.ctrl.pop(h, None)
        t = self.p.type[h]
        if self.p.is_job[h]:
            self.hand[self.job_owner[h]].append(h)
        elif t == CHANCE:
            self.chance_discard.append(h)
        else:
            self.discard.append(h)

    def _take_out(self, h: int) -> None:
        """Remove a card from wherever it is in play (limbo, attached, unattached, a pair)."""
        if h in self.on:
            self._detach(h)
            return
        if h in self.limbo:
            self.limbo.remove(h)
            return
        for s in range(self.n):
            if h in self.unatt[s]:
                self.unatt[s].remove(h)
                return
            if h in self.pairs[s]:
                self._remove_pair(h)
                return
            if h in self.hand[s]:
                self.hand[s].remove(h)
                return

    def _remove_pair(self, pair: int) -> None:
        s = self.powner.pop(pair)
        self.pairs[s].remove(pair)
        for c in self.att.pop(pair):
            self.on.pop(c, None)
            self._to_discard(c)
        self.marks = [m for m in self.marks if m[0] != pair]

    def _place_prep(self, s: int, q: int) -> Flow[None]:
        """Put preparation q into s's play area: attach, keep unattached, or settle the limit."""
        p = self.p
        opts: list[tuple] = [("attach", q, pr) for pr in self.pairs[s] if self.can_attach(q, pr)]
        clash = [u for u in self.unatt[s] if p.sub[u] == p.sub[q]]
        if clash:
            opts.append(("keep", q))     # keep the new one, discard the old one
            opts.append(("drop", q))     # discard the new one
        else:
            opts.append(("keep", q))
        c = yield from self.ask("place", s, opts)
        self.limbo.remove(q)
        if c[0] == "attach":
            self._attach(q, c[2])
        elif c[0] == "keep":
            for u in clash:
                self.unatt[s].remove(u)
                self._to_discard(u)
            self.unatt[s].append(q)
        else:
            self._to_discard(q)

    def move_options(self, s: int) -> list[tuple]:
        p = self.p
        opts: list[tuple] = [("pass",)]
        if self.moves_left > 0:
            subs = {p.sub[u] for u in self.unatt[s]}
            pairs = self.pairs[s]
            for q in self.unatt[s]:
                for pr in pairs:
                    if self.can_attach(q, pr):
                        opts.append(("move", q, pr))
            for pr in pairs:
                if self.locked(pr):
                    continue
                for q in self.att[pr]:
                    if p.type[q] != PREP:
                        continue
                    if p.sub[q] not in subs:
                        opts.append(("unattach", q))
                    for pr2 in pairs:
                        if pr2 != pr and self.can_attach(q, pr2):
                            opts.append(("move", q, pr2))
        for q in self.unatt[s]:
            opts.append(("scrap", q))    # you may discard unattached preparations in your turn
        return opts

    def _move_window(self, s: int) -> Flow[None]:
        while True:
            opts = self.move_options(s)
            if len(opts) == 1 and self.auto:
                return
            c = yield from self.ask("move", s, opts)
            verb = c[0]
            if verb == "pass":
                return
            q = c[1]
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
                self._attach(q, c[2])
            else:
                self.unatt[s].append(q)
            self._log("move", s, self.p.cid[q])
            self._check_goals(s)

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
            targets = [("target", pr) for o in range(self.n) if o != s
                       for pr in self.pairs[o] if not self.protected(pr)]
            if not targets:
                self.limbo.remove(h)
                self._to_discard(h)
                self._log("fizzle", s, p.cid[h])
                return
            c = yield from self.ask("target", s, targets)
            pr = c[1]
            yield from self._react("obstacle_played_on_your_pair", ctx, owner=self.powner[pr])
            if ctx.cancelled:
                return
            if ctx.redirected:
                own = [("target", x) for x in self.pairs[s] if not self.protected(x)]
                if not own:
                    self.limbo.remove(h)
                    self._to_discard(h)
                    return
                c = yield from self.ask("redirect", s, own)
                pr = c[1]
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
            own = [("target", x) for x in self.pairs[s]]
            if not own:
                self.limbo.remove(h)
                self._to_discard(h)   # DECISION: a connection with no pair of yours is discarded
                return
            c = yield from self.ask("target", s, own)
            self.limbo.remove(h)
            self._attach(h, c[1])
            self.ctrl[h] = s
            if p.dur[h]:
                self.tokens[h] = p.dur[h]
            ctx.pair = c[1]
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
        for name, args in self.p.on_play[ctx.card]:
            if ctx.cancelled:
                return
            yield from OPS[name](self, ctx, **args)
            self._check_goals(ctx.seat)

    def _react(self, trigger: str, ctx: Ctx, owner: int = -1) -> Flow[None]:
        """Open a reaction window: eligible seats may play a reaction whose trigger holds."""
        p = self.p
        if owner >= 0:
            candidates = [owner] if owner != ctx.seat else []
        else:
            candidates = [o for o in range(self.n) if o != ctx.seat]
        seats, options = [], []
        for o in candidates:
            mine = [("react", h) for h in self.hand[o] if p.trigger[h] == trigger]
            if mine:
                seats.append(o)
                options.append([("pass",)] + mine)
        if not seats:
            return
        got = yield Decision("react", seats, options)
        played = [(o, c[1]) for o, c in zip(seats, got) if c[0] == "react"]
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
    def _end_round(self) -> Flow[None]:
        expired = []
        for h in list(self.tokens):
            self.tokens[h] -= 1
            if self.tokens[h] <= 0:
                expired.append(h)
        for m in self.marks:
            m[1] -= 1
        self.marks = [m for m in self.marks if m[1] > 0]
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

    # ------------------------------------------------------------------ operations
    def _who(self, ctx: Ctx, who: str) -> Flow[list[int]]:
        s = ctx.seat
        if who == "you":
            return [s]
        if who == "all":
            return list(range(self.n))
        if who == "others":
            return [o for o in range(self.n) if o != s]
        if who == "pair_owner":
            return [self.powner[ctx.pair]] if ctx.pair in self.powner else []
        c = yield from self.ask("opponent", s, [("opponent", o) for o in range(self.n) if o != s])
        return [c[1]]

    @operation("draw", count=int, who=("you", "opponent", "pair_owner", "others", "all"))
    def op_draw(self, ctx: Ctx, count: int, who: str) -> Flow[None]:
        for s in (yield from self._who(ctx, who)):
            for _ in range(count):
                h = self._draw_one()
                if h < 0:
                    break
                self.hand[s].append(h)

    @operation("discard", count=int, who=("you", "opponent", "pair_owner", "others", "all"), source=("hand", "unattached"))
    def op_discard(self, ctx: Ctx, count: int, who: str, source: str) -> Flow[None]:
        seats = yield from self._who(ctx, who)
        p = self.p
        for _ in range(count):
            live, options = [], []
            for s in seats:
                pool = self.unatt[s] if source == "unattached" else \
                    [h for h in self.hand[s] if not p.is_job[h]]
                if pool:
                    live.append(s)
                    options.append([("discard", h) for h in pool])
            if not live:
                return
            if len(live) == 1:
                one = yield from self.ask("discard", live[0], options[0])
                got: tuple = (one,)
            elif self.auto and all(len(o) == 1 for o in options):
                got = tuple(o[0] for o in options)
            else:
                got = yield Decision("discard", live, options)
            for s, c in zip(live, got):
                (self.unatt[s] if source == "unattached" else self.hand[s]).remove(c[1])
                self._to_discard(c[1])

    @operation("dig", look=int, keep=int)
    def op_dig(self, ctx: Ctx, look: int, keep: int) -> Flow[None]:
        seen = []
        for _ in range(look):
            h = self._draw_one()
            if h < 0:
                break
            seen.append(h)
            self.limbo.append(h)
        for _ in range(min(keep, len(seen))):
            c = yield from self.ask("dig", ctx.seat, [("keep", h) for h in seen])
            seen.remove(c[1])
            self.limbo.remove(c[1])
            self.hand[ctx.seat].append(c[1])
        for h in seen:
            self.limbo.remove(h)
            self.discard.append(h)

    @operation("take_from_discard", card_type=("any", "preparation", "pair", "obstacle", "reaction", "connection", "action"))
    def op_take_from_discard(self, ctx: Ctx, card_type: str) -> Flow[None]:
        p = self.p
        want = None if card_type == "any" else TYPE_CODES[card_type]
        seen, opts = set(), []
        for h in self.discard:
            if (want is None or p.type[h] == want) and p.cid[h] not in seen:
                seen.add(p.cid[h])
                opts.append(("take", h))
        if not opts:
            return
        c = yield from self.ask("take", ctx.seat, opts)
        self.discard.remove(c[1])
        self.hand[ctx.seat].append(c[1])

    @operation("steal_preparation", source=("unattached", "any_pair", "affected_pair"))
    def op_steal_preparation(self, ctx: Ctx, source: str) -> Flow[None]:
        s, p = ctx.seat, self.p
        if source == "unattached":
            opts = [("steal", q) for o in range(self.n) if o != s for q in self.unatt[o]]
        elif source == "any_pair":
            opts = [("steal", q) for o in range(self.n) if o != s for pr in self.pairs[o]
                    if not self.locked(pr) for q in self.att[pr] if p.type[q] == PREP]
        else:
            pr = ctx.pair
            opts = [] if pr not in self.att or self.locked(pr) or self.powner[pr] == s else \
                [("steal", q) for q in self.att[pr] if p.type[q] == PREP]
        if not opts:
            return
        c = yield from self.ask("steal", s, opts)
        q = c[1]
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

    def _owner_of(self, q: int) -> int:
        if q in self.on:
            return self.powner[self.on[q]]
        for s in range(self.n):
            if q in self.unatt[s]:
                return s
        return -1

    @operation("steal_from_hand", count=int)
    def op_steal_from_hand(self, ctx: Ctx, count: int) -> Flow[None]:
        s = ctx.seat
        c = yield from self.ask("opponent", s, [("opponent", o) for o in range(self.n) if o != s])
        o = c[1]
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
        c = yield from self.ask("opponent", s, [("opponent", o) for o in range(self.n) if o != s])
        o = c[1]
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
            opts = [("remove", c) for pr in self.pairs[s] for c in self.att[pr] if p.type[c] == OBST]
            if not opts:
                return
            c = yield from self.ask("obstacle", s, [("stop",)] + opts)
            if c[0] == "stop":
                return
            self._detach(c[1])
            self._to_discard(c[1])

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
        c = yield from self.ask("protect", s, [("protect", pr) for pr in self.pairs[s]])
        self.marks.append([c[1], rounds, s])

    @operation("lock_pair", rounds=int)
    def op_lock_pair(self, ctx: Ctx, rounds: int) -> Flow[None]:
        return     # only acts while attached (obstacles): see `locked`
        yield

    # These act only while their card is attached (obstacles) or at scoring: see `Prepared`.
    @operation("end_pair_after", rounds=int)
    def op_end_pair_after(self, ctx: Ctx, rounds: int) -> Flow[None]:
        return
        yield

    @operation("pair_penalty", count=int)
    def op_pair_penalty(self, ctx: Ctx, count: int) -> Flow[None]:
        return
        yield

    @operation("pair_bonus", count=int, perfect_only=bool)
    def op_pair_bonus(self, ctx: Ctx, count: int, perfect_only: bool) -> Flow[None]:
        return
        yield

    @operation("fill_requirement", subtype=("any", "event", "location", "item"))
    def op_fill_requirement(self, ctx: Ctx, subtype: str) -> Flow[None]:
        return
        yield

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
            opts = [("discard", c) for c in self.att.get(pr, ()) if p.type[c] == want]
            if not opts:
                return
            c = yield from self.ask("discard", ctx.seat, opts)
            self._detach(c[1])
            self._to_discard(c[1])

    @operation("skip_turn", who=("you", "opponent", "pair_owner", "others", "all"))
    def op_skip_turn(self, ctx: Ctx, who: str) -> Flow[None]:
        for s in (yield from self._who(ctx, who)):
            self.skip[s] += 1

    @operation("swap_pair")
    def op_swap_pair(self, ctx: Ctx) -> Flow[None]:
        s = ctx.seat
        opts = [("swap", a, b) for a in self.pairs[s] for o in range(self.n) if o != s
                for b in self.pairs[o]]
        if not opts:
            return
        c = yield from self.ask("swap", s, opts)
        a, b = c[1], c[2]
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
        opts = [("void", pr) for o in range(self.n) if o != s for pr in self.pairs[o]]
        if not opts:
            return
        c = yield from self.ask("void", s, opts)
        pr = c[1]
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
        expired = []
        for h in list(self.tokens):
            self.tokens[h] -= count
            if self.tokens[h] <= 0:
                expired.append(h)
        for m in self.marks:
            m[1] -= count
        self.marks = [m for m in self.marks if m[1] > 0]
        yield from self._expire(expired)

    @operation("reveal_chance", count=int)
    def op_reveal_chance(self, ctx: Ctx, count: int) -> Flow[None]:
        for _ in range(count):
            yield from self._reveal_chance(ctx.seat)

    # ------------------------------------------------------------------ goals
    def count(self, s: int, kind: str, scoring: bool = False) -> int:
        p = self.p
        if kind == "pairs":
            return len(self.pairs[s])
        if kind == "perfect_dates":
            return sum(1 for pr in self.pairs[s] if self.perfect(pr, scoring))
        if kind == "clean_pairs":
            return sum(1 for pr in self.pairs[s] if not any(p.type[c] == OBST for c in self.att[pr]))
        if kind == "obstacles":
            return sum(1 for pr in self.pairs[s] for c in self.att[pr] if p.type[c] == OBST)
        if kind == "connections":
            return sum(1 for pr in self.pairs[s] for c in self.att[pr] if p.type[c] == CONN)
        preps = list(self.unatt[s]) + [c for pr in self.pairs[s] for c in self.att[pr]
                                       if p.type[c] == PREP]
        if kind == "preparations":
            return len(preps)
        sub = {"events": 0, "locations": 1, "items": 2}[kind]
        return sum(1 for q in preps if p.sub[q] == sub)

    def _goal_event(self, condition: str, s: int) -> None:
        if not self.goals_on:
            return
        for i, g in enumerate(self.goals):
            if not self.goal_claimed[i] and self.p.goal[g][1] == condition:
                self._claim(i, s)

    def _claim(self, i: int, s: int) -> None:
        self.goal_claimed[i].append(s)
        if self.p.config.goals_variant not in ("hidden", "same"):
            self.goal_open[i] = True     # the VP card is turned face up at once
        self.banked[s] += self.goal_value[i]
        self._log("goal", s, self.p.cid[self.goals[i]], self.goal_value[i])

    def _check_goals(self, first: int) -> None:
        """State goals ("first ..."), checked for the acting seat first, then clockwise."""
        if not self.goals_on:
            return
        p = self.p
        for i, g in enumerate(self.goals):
            if self.goal_claimed[i]:
                continue
            sub, cond, counts, thr = p.goal[g]
            if sub != "first" or cond not in ("first_perfect_date", "first_full_set", "first_to_reach"):
                continue
            for k in range(self.n):
                s = (first + k) % self.n
                if cond == "first_perfect_date":
                    need = thr or 2
                    ok = any(len(p.req[pr]) >= need and self.perfect(pr) for pr in self.pairs[s])
                elif cond == "first_full_set":
                    ok = len({p.sub[u] for u in self.unatt[s]}) == 3
                else:
                    ok = self.count(s, counts) >= (thr or 1)
                if ok:
                    self._claim(i, s)
                    break

    # ------------------------------------------------------------------ scoring
    def perfect(self, pair: int, scoring: bool = False) -> bool:
        p = self.p
        have = {p.key[c] for c in self.att[pair] if p.type[c] == PREP}
        missing = [k for k in p.req[pair] if k not in have]
        if not missing:
            return True
        if not scoring:
            return False
        for c in self.att[pair]:
            for sub in p.fill[c]:
                for k in missing:
                    if sub < 0 or p.req_sub[pair][k] == sub:
                        missing.remove(k)
                        break
        return not missing

    def pair_score(self, pair: int) -> int:
        p = self.p
        perfect = self.perfect(pair, scoring=True)
        v = p.vp_perf[pair] if perfect else p.vp_inc[pair]
        for c in self.att[pair]:
            for count, perfect_only in p.bonus[c]:
                if perfect or not perfect_only:
                    v += count
            v -= p.penalty[c]
        return max(0, v)

    def scores(self) -> list[int]:
        out = []
        for s in range(self.n):
            out.append(self.banked[s] + sum(self.pair_score(pr) for pr in self.pairs[s])
                       + self.count(s, "preparations"))
        return out

    def _finish(self) -> None:
        p = self.p
        end_goals = [0] * self.n
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

    def tiebreak(self, s: int) -> tuple:
        """After the score: more preparations, more pairs, fewer obstacles, more cards in hand."""
        return (self.count(s, "preparations"), len(self.pairs[s]), -self.count(s, "obstacles"),
                len(self.hand[s]))

    # ------------------------------------------------------------------ invariants
    def zones(self) -> Iterator[tuple[str, list[int]]]:
        for name in ("deck", "discard", "box", "limbo", "chance_deck", "chance_discard",
                     "goal_deck", "vp_deck", "goals", "goal_vp"):
            yield name, getattr(self, name)
        for s in range(self.n):
            for name in ("hand", "pack", "picked", "pairs", "unatt"):
                yield f"{name}[{SEAT_NAMES[s]}]", getattr(self, name)[s]
            if self.job_aside[s] >= 0:
                yield f"job_aside[{SEAT_NAMES[s]}]", [self.job_aside[s]]
        for pr, cards in self.att.items():
            yield f"attached[{self.p.cid[pr]}]", cards

    def invariants(self) -> None:
        """Raise InvariantViolation when the state breaks a rule of the game (the base has
        checked that every card is in exactly one zone)."""
        p = self.p
        for s in range(self.n):
            subs = [p.sub[u] for u in self.unatt[s]]
            if len(subs) != len(set(subs)) or any(p.type[u] != PREP for u in self.unatt[s]):
                raise InvariantViolation(f"seat {SEAT_NAMES[s]}: more than one unattached "
                                         "preparation of a subtype")
            for pr in self.pairs[s]:
                if p.type[pr] != PAIR or self.powner.get(pr) != s:
                    raise InvariantViolation(f"seat {SEAT_NAMES[s]}: {p.cid[pr]} is not its pair")
                keys = [p.key[c] for c in self.att[pr] if p.type[c] == PREP]
                if len(keys) != len(set(keys)) or not set(keys) <= p.req[pr]:
                    raise InvariantViolation(f"{p.cid[pr]}: preparations it does not require")
                if any(p.type[c] not in (PREP, OBST, CONN) for c in self.att[pr]):
                    raise InvariantViolation(f"{p.cid[pr]}: a card that cannot be attached")
            jobs = [h for h in self.hand[s] if p.is_job[h]]
            if self.job_aside[s] >= 0:
                jobs.append(self.job_aside[s])
            if any(self.job_owner.get(j) != s for j in jobs) or len(jobs) > 1:
                raise InvariantViolation(f"seat {SEAT_NAMES[s]}: holds a job card not its own")
        if set(self.att) != set(self.powner):
            raise InvariantViolation("attachment table and pair owners disagree")
        for h, t in self.tokens.items():
            if t < 0 or h not in self.on:
                raise InvariantViolation(f"{p.cid[h]}: heart tokens on a card not in play")
        if not 0 <= self.round < ROUNDS:
            raise InvariantViolation(f"round {self.round + 1} out of 1..{ROUNDS}")

    # ------------------------------------------------------------------ descriptions
    def label(self, option: tuple) -> str:
        """A readable action: `play kiss`, `attach beach yoshiro_natsuko`, `opponent B`."""
        verb, *args = option
        if verb == "opponent":
            return f"opponent {SEAT_NAMES[args[0]]}"
        return " ".join([verb] + [self.p.cid[a] for a in args])

    def view(self, seat: int) -> dict:
        """What ``seat`` sees: its own hand, draft pack and picks; everyone's table (pairs with
        their attached cards, unattached preparations, banked VP but for face-down VP cards won by
        others, claimed goals, heart tokens);
        only the sizes of other hands and of the decks. Face-down VP cards stay hidden.
        Agents read it once a decision, so it is built in one cheap pass (many zones are empty)."""
        cid = self.p.cid
        name, att = cid.__getitem__, self.att
        pairs = []
        for prs in self.pairs:
            table = {}
            for pr in prs:
                cards = att[pr]
                table[cid[pr]] = [*map(name, cards)] if cards else []
            pairs.append(table)
        hand, pack, picked = self.hand[seat], self.pack[seat], self.picked[seat]
        banked = self.banked[:]
        for i, who in enumerate(self.goal_claimed):   # face-down VP cards: only their owner
            if who and not self.goal_open[i]:          # knows what they are worth
                for s in who:
                    if s != seat:
                        banked[s] -= self.goal_value[i]
        return {
            "seat": seat, "players": self.n, "phase": self.phase, "round": self.round,
            "hand": [*map(name, hand)] if hand else [], "pack": [*map(name, pack)] if pack else [],
            "picked": [*map(name, picked)] if picked else [],
            "hand_sizes": [*map(len, self.hand)],
            "pairs": pairs,
            "unattached": [[*map(name, u)] if u else [] for u in self.unatt],
            "banked": banked, "discard": [*map(name, self.discard)],
            "deck": len(self.deck), "chance_deck": len(self.chance_deck),
            "goals": [{"goal": cid[g], "claimed": self.goal_claimed[i][:],
                       "vp": self.goal_value[i] if self.goal_open[i] or self.same_value
                       or seat in self.goal_claimed[i] else None}
                      for i, g in enumerate(self.goals)] if self.goals else [],
            "tokens": {cid[h]: t for h, t in self.tokens.items()} if self.tokens else {},
            "decision": self.decision.kind if self.decision else None,
        }

    def state_digest(self) -> tuple:
        """Everything that defines the position, for comparing two runs."""
        return (tuple((name, tuple(cards)) for name, cards in self.zones()),
                tuple(sorted(self.tokens.items())), tuple(map(tuple, self.marks)),
                tuple(self.banked), tuple(self.skip), self.phase, self.round,
                tuple(tuple(c) for c in self.goal_claimed), tuple(self.goal_open), self.revealer)


OPERATIONS = operations_of(Match)
OPS = {name: op.func for name, op in OPERATIONS.items()}



# ---------------------------------------------------------------------------------- the engine
#: The engine's options (`forge simulate love_formula --option name=value`, scenario `options:`).
OPTIONS = (
    Option("goals_variant", str, "standard", GOAL_VARIANTS,
           "#RelationshipGoals: standard, same (one VP value for every goal), open (VP cards face "
           "up), hidden (won VP cards stay face down until the end), planned (a chosen mix)."),
    Option("goals_same_value", int, 0, (),
           "VP of every goal for goals_variant=same (0: a random VP card sets it).", min=0),
    Option("goals_planned_first", int, None, (),
           "For goals_variant=planned: how many \"first\" goals (default (players+2)//2).",
           min=0),
    Option("goals_planned", str, "", (),
           "For goals_variant=planned: the goals the players choose, `goal,goal,...` "
           "(default: drawn at random by goals_planned_first)."),
    Option("promo_jobs", str, "mix", ("mix", "replace"),
           "Promo jobs: mix (4 base + 4 promo shuffled) or replace (promo jobs only)."),
    Option("promo_cards", str, "add", ("add", "replace"),
           "Promo cards: add them, or replace every copy of the base cards they name."),
    Option("promo_replace", str, "", (),
           "Promo cards that replace base copies one by one: `card:copies,card:copies`."),
)
#: What the engine reads from the cards (checked by `forge check` against the manifest).
REQUIRES = Requires({
    "preparation": (), "pair": ("requires", "vp_incomplete", "vp_perfect"), "obstacle": (),
    "reaction": ("trigger",), "connection": (), "action": (),
    "chance": (), "goal": ("condition", "counts", "threshold"), "vp": ("value",)},
    optional=("chance", "goal", "vp"))


def config_from(game: Any, options: Any = None, sets: Any = None) -> Config:
    """The `Config` of option values (as `OPTIONS` declares them) and sets."""
    from .core import resolve_options
    o = resolve_options(OPTIONS, dict(options or {}))
    replace: tuple[tuple[str, int], ...] = ()
    if o["promo_cards"] == "replace":
        replace = full_replacement(game)
    if o["promo_replace"]:
        pairs = []
        for item in o["promo_replace"].split(","):
            cid, _, n = item.strip().partition(":")
            if not cid or not n.strip().isdigit():
                raise EngineError(f"option promo_replace: {item!r} is not `card:copies`")
            pairs.append((cid, int(n)))
        replace = tuple(dict(replace, **dict(pairs)).items())
    return Config(sets=tuple(sets) if sets else ("base",), goals_variant=o["goals_variant"],
                  goals_same_value=o["goals_same_value"],
                  goals_planned_first=o["goals_planned_first"],
                  goals_planned=_planned_goals(game, o["goals_planned"]), promo_jobs=o["promo_jobs"],
                  promo_replace=replace)


def _planned_goals(game: Any, text: str) -> tuple[str, ...]:
    """The goal ids of the option `goals_planned`, each a goal card of the game, none twice."""
    ids = tuple(g.strip() for g in text.split(",") if g.strip())
    goals = {c.id for c in game.cards if c.type == "goal"}
    unknown = [g for g in ids if g not in goals]
    if unknown:
        raise EngineError(f"option goals_planned: {', '.join(unknown)} "
                          f"{'is not a goal' if len(unknown) == 1 else 'are not goals'} "
                          f"(goals: {', '.join(sorted(goals))})")
    twice = sorted({g for g in ids if ids.count(g) > 1})
    if twice:
        raise EngineError(f"option goals_planned: {', '.join(twice)} named twice")
    return ids


def prepare(game: Any, options: Any = None, sets: Any = None) -> Prepared:
    """Static tables for ``options`` (a mapping of option values, or a ready `Config`)."""
    config = options if isinstance(options, Config) else config_from(game, options, sets)
    return Prepared(game, config)


from .love_formula_agents import AGENT_NAMES, AGENTS  # noqa: E402  (agents read Match and the type codes)
from .love_formula_scenario import (SCENARIO, SCORE_UNIT, describe_expect,  # noqa: E402
                                    scenario_expect, scenario_setup)

#: The engine, registered as ``forge.rules.love_formula:ENGINE``.
ENGINE = Engine(
    "love_formula", PLAYERS, prepare, OPERATIONS, options=OPTIONS,
    # the flag `forge simulate` had before options were declared: `--goals-value N`
    option_aliases={"goals_value": "goals_same_value"},
    requires=REQUIRES, agents=AGENTS, agent_names=AGENT_NAMES, scenario=SCENARIO,
    scenario_setup=scenario_setup, scenario_expect=scenario_expect,
    describe_expect=describe_expect, score_unit=SCORE_UNIT)
