"""The position of a game of Love Formula: every zone as lists of card handles, the rules that
read it (attachments, locks, goals, scoring, invariants) and what a seat may see of it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..core import (SEAT_NAMES, EngineError, GameStats as BaseStats, InvariantViolation,
                    Match as BaseMatch, View as BaseView)
from .tables import CHANCE, CONN, OBST, PAIR, PLAYERS, PREP, PREPARATION_VP, ROUNDS, Tables


class Ctx:
    """What one resolving card knows: who resolves it, the card, the pair it is attached to,
    and (for reactions) the card and seat that triggered it."""

    __slots__ = ("seat", "card", "pair", "trig", "cancelled", "redirected")

    def __init__(self, seat: int, card: int, pair: int = -1, trig: Ctx | None = None) -> None:
        self.seat, self.card, self.pair, self.trig = seat, card, pair, trig
        self.cancelled = False
        self.redirected = False


#: The names of each seat's zones in `State.zones`.
_SEAT_ZONES = [tuple(f"{zone}[{seat}]" for zone in ("hand", "pack", "picked", "pairs", "unatt"))
               for seat in SEAT_NAMES]
#: The types of card that may be attached to a pair.
ATTACHABLE = frozenset({PREP, OBST, CONN})


@dataclass(slots=True)
class Mark:
    """A pair protected (`protect_pair`) by ``seat`` for ``rounds`` more rounds."""

    pair: int
    rounds: int
    seat: int


class GoalView(NamedTuple):
    """A goal on the table as a seat sees it."""

    goal: str
    #: The seats that won it.
    claimed: list[int]
    #: Its VP card's value; None while face down and not the seat's own.
    vp: int | None


@dataclass(frozen=True, slots=True)
class GameStats(BaseStats):
    """One game's figures (`State.stats`), added up over games for `statistics`."""

    #: Times the empty deck was refilled from the discard pile; pairs an obstacle ended.
    reshuffles: int
    pairs_ended: int
    #: Each #RelationshipGoals goal in play (by id): the seats that won it (0: nobody).
    goals: dict[str, int]

    def counts(self) -> dict:
        """Each goal in play as one game it was in play, and one it was won in."""
        return {"reshuffles": self.reshuffles, "pairs_ended": self.pairs_ended,
                "goals_in_play": dict.fromkeys(self.goals, 1),
                "goals_won": {g: 1 for g, seats in self.goals.items() if seats}}


@dataclass(slots=True)
class View(BaseView):
    """What a seat sees of Love Formula (`State.view`), cards named by id."""

    phase: int
    round: int
    #: The seat's own hand, draft pack and picks.
    hand: list[str]
    pack: list[str]
    picked: list[str]
    #: Per seat: the size of its hand; its pairs ({pair: [attached cards]}); its unattached
    #: preparations; its banked VP (less the face-down VP cards of goals others won).
    hand_sizes: list[int]
    pairs: list[dict[str, list[str]]]
    unattached: list[list[str]]
    banked: list[int]
    discard: list[str]
    #: The sizes of the deck and of the chance deck.
    deck: int
    chance_deck: int
    goals: list[GoalView]
    #: Heart tokens on cards.
    tokens: dict[str, int]


class State(BaseMatch):
    """A game's position and the rules that read it; `flow.Match` plays it."""

    p: Tables

    def __init__(self, prep: Tables, players: int, seed: int, log: bool = False) -> None:
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
        self.marks: list[Mark] = []
        self.banked = [0] * n
        self.skip = [0] * n
        self.extra_next = [0] * n
        self.moves_left = 0
        #: The current round's turns still to play: (seat, card) in order.
        self.turns: list[tuple[int, int]] = []
        self.phase = 0
        self.round = 0
        self.revealer = -1
        self.rounds_done = 0
        self.drafts_done = 0
        self.chance = "chance" in prep.config.sets
        self.goals_on = "goals" in prep.config.sets
        # statistics
        self.reshuffles = 0
        self.pairs_ended = 0

    # ------------------------------------------------------------------ pairs and preparations
    def locked(self, pair: int) -> bool:
        locks = self.p.locks
        for c in self.att[pair]:
            if locks[c]:
                return True
        return False

    def protected(self, pair: int) -> bool:
        pr = self.p.protects
        if any(pr[c] for c in self.att[pair]):
            return True
        return any(m.pair == pair for m in self.marks)

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
        self.marks = [m for m in self.marks if m.pair != pair]

    def _owner_of(self, q: int) -> int:
        if q in self.on:
            return self.powner[self.on[q]]
        for s in range(self.n):
            if q in self.unatt[s]:
                return s
        return -1

    def _draw_one(self) -> int:
        if not self.deck:
            if not self.discard:
                return -1
            self.deck, self.discard = self.discard, []
            self.shuffle_cards(self.deck)   # DECISION: an empty deck is refilled from the discard
            self.reshuffles += 1
            self._log("reshuffle")
        return self.deck.pop()

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
                       + PREPARATION_VP * self.count(s, "preparations"))
        return out

    def tiebreak(self, s: int) -> tuple:
        """After the score: more preparations, more pairs, fewer obstacles, more cards in hand."""
        return (self.count(s, "preparations"), len(self.pairs[s]), -self.count(s, "obstacles"),
                len(self.hand[s]))

    # ------------------------------------------------------------------ invariants
    def zones(self) -> list[tuple[str, list[int]]]:
        """Every zone, named (a list: the invariants read them after every round)."""
        out = [("deck", self.deck), ("discard", self.discard), ("box", self.box),
               ("limbo", self.limbo), ("chance_deck", self.chance_deck),
               ("chance_discard", self.chance_discard), ("goal_deck", self.goal_deck),
               ("vp_deck", self.vp_deck), ("goals", self.goals), ("goal_vp", self.goal_vp)]
        for s, names in enumerate(_SEAT_ZONES[:self.n]):
            out += zip(names, (self.hand[s], self.pack[s], self.picked[s], self.pairs[s],
                               self.unatt[s]))
            if self.job_aside[s] >= 0:
                out.append((f"job_aside[{SEAT_NAMES[s]}]", [self.job_aside[s]]))
        cid = self.p.cid
        out += [(f"attached[{cid[pr]}]", cards) for pr, cards in self.att.items()]
        return out

    def invariants(self) -> None:
        """Raise InvariantViolation when the state breaks a rule of the game (the base has
        checked that every card is in exactly one zone)."""
        p = self.p
        typ, key = p.type, p.key
        for s in range(self.n):
            unatt = self.unatt[s]
            if unatt:
                subs = [p.sub[u] for u in unatt]
                if len(subs) != len(set(subs)) or any(typ[u] != PREP for u in unatt):
                    raise InvariantViolation(f"seat {SEAT_NAMES[s]}: more than one unattached "
                                             "preparation of a subtype")
            for pr in self.pairs[s]:
                if typ[pr] != PAIR or self.powner.get(pr) != s:
                    raise InvariantViolation(f"seat {SEAT_NAMES[s]}: {p.cid[pr]} is not its pair")
                att = self.att[pr]
                if not att:
                    continue
                keys = [key[c] for c in att if typ[c] == PREP]
                if len(keys) != len(set(keys)) or not p.req[pr].issuperset(keys):
                    raise InvariantViolation(f"{p.cid[pr]}: preparations it does not require")
                if any(typ[c] not in ATTACHABLE for c in att):
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

    def view(self, seat: int) -> View:
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
        return View(
            seat=seat, players=self.n, decision=self.decision.kind if self.decision else None,
            phase=self.phase, round=self.round,
            hand=[*map(name, hand)] if hand else [], pack=[*map(name, pack)] if pack else [],
            picked=[*map(name, picked)] if picked else [],
            hand_sizes=[*map(len, self.hand)], pairs=pairs,
            unattached=[[*map(name, u)] if u else [] for u in self.unatt],
            banked=banked, discard=[*map(name, self.discard)],
            deck=len(self.deck), chance_deck=len(self.chance_deck),
            goals=[GoalView(cid[g], self.goal_claimed[i][:],
                            self.goal_value[i] if self.goal_open[i] or self.same_value
                            or seat in self.goal_claimed[i] else None)
                   for i, g in enumerate(self.goals)] if self.goals else [],
            tokens={cid[h]: t for h, t in self.tokens.items()} if self.tokens else {})

    def stats(self) -> GameStats:
        """This game's figures for `simulate` (see `statistics`)."""
        cid = self.p.cid
        return GameStats(self.reshuffles, self.pairs_ended,
                         {cid[g]: len(self.goal_claimed[i]) for i, g in enumerate(self.goals)})

    def state_digest(self) -> tuple:
        """Everything that defines the position, for comparing two runs."""
        return (tuple((name, tuple(cards)) for name, cards in self.zones()),
                tuple(sorted(self.tokens.items())), tuple((m.pair, m.rounds, m.seat) for m in self.marks),
                tuple(self.banked), tuple(self.skip), self.phase, self.round,
                tuple(tuple(c) for c in self.goal_claimed), tuple(self.goal_open), self.revealer)
