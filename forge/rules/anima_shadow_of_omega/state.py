"""A match's state and what reads it: zones, per-seat numbers, Strength and Speed, the goals a
seat may work on, the invariants, what a seat may see, and the per-game statistics.

The match is built in layers, each a subclass of the one below, so each module calls only what
is defined under it: `State` (here) < `cards.Cards` (using cards and abilities) <
`battles.Battles` (battles and events) < `operations.Operations` (the effect operations) <
`phases.Phases` (the four phases) < `flow.Match` (setup and the turn).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, NamedTuple, Sequence

from .. import core
from ..core import Flow, InvariantViolation, SEAT_NAMES
from .choices import NewDeck, OnCard, OnSeat, Play, RewardChoice, Verb
from .tables import (BONUS, B_ORG, CHAR, EVENT, G_HOLD, G_VISIT, GROUP_LIMIT, HAND_LIMIT, LOC,
                     LOCATIONS_PER_PLAYER, MISSION, PHASES, PLAYERS, R_BONUS, R_HIRE, R_MISSION,
                     REWARDS, WIN_SCORE, Goal, Tables)


class Fight(NamedTuple):
    """The battle under way: seat ``seat`` against seat ``opponent`` or ``monster`` (-1: none),
    for the goal of ``mission`` (a mission battle, announced; -1: none)."""

    seat: int
    opponent: int
    monster: int
    mission: int = -1


class Totals(NamedTuple):
    """The last battle's totals (die + Strength), ``mine`` for ``seat``."""

    seat: int
    opponent: int       # -1: a monster or a foe
    monster: int
    foe: int            # a foe's Strength (a mission's or a card's `fight`)
    mine: int
    theirs: int


class Check(NamedTuple):
    """The last Speed check: its total (die + Speed) against the difficulty."""

    seat: int
    total: int
    difficulty: int


class GroupCard(NamedTuple):
    """A character in a group, as every seat sees it."""

    card: str
    rotated: bool
    asleep: bool


class Decks(NamedTuple):
    """The sizes of the decks (a seat never sees their order)."""

    character: int
    location: list[int]
    event: int
    bonus: int


class Discards(NamedTuple):
    """The discard piles, face up."""

    character: list[str]
    location: list[str]
    event: list[str]
    bonus: list[str]


class Trade(NamedTuple):
    """A trade under way as the table sees it (`State.trading`): the seat offering, its
    partner, the cards each has put in so far, by id."""

    offerer: int
    partner: int
    offered: list[str]
    answer: list[str]


@dataclass(frozen=True, slots=True)
class GameStats(core.GameStats):
    """One game's figures (`State.stats`), added up over games for `statistics`; each
    {card id: count} holds only the cards it counted."""

    turns: int
    capped: bool
    winner: int
    #: {mission: the turn it was done}; the final mission drawn (None: none).
    missions: dict[str, int]
    final: str | None
    #: Per monster: fights and its wins; per location: explorations; {"location:reward": count}.
    fights: dict[str, int]
    monster_wins: dict[str, int]
    explored: dict[str, int]
    rewards: dict[str, int]
    #: Per character: offered, dealt, kept; per organisation: joined; per character: died.
    offered: dict[str, int]
    dealt: dict[str, int]
    kept: dict[str, int]
    joined: dict[str, int]
    died: dict[str, int]
    alarms: int

    def counts(self) -> dict:
        """The length as a histogram entry, each mission done as a count and the turn it was
        done."""
        return {"fights": self.fights, "monster_wins": self.monster_wins,
                "explored": self.explored, "rewards": self.rewards, "offered": self.offered,
                "kept": self.kept, "joined": self.joined, "died": self.died, "dealt": self.dealt,
                "turns": {self.turns: 1}, "capped": int(self.capped), "alarms": self.alarms,
                "completed": {k: 1 for k in self.missions}, "turn_sum": dict(self.missions),
                "finals": {self.final: 1} if self.final else {}}


@dataclass(slots=True)
class View(core.View):
    """What a seat sees of Anima (`State.view`), cards named by id."""

    turn: int
    #: The phase under way (None between turns) and the seats' order this turn.
    phase: str | None
    order: list[int]
    #: The seat's own hand, and its missions with the goals done on each.
    hand: list[str]
    missions: dict[str, int]
    #: The final mission once revealed, and each seat's progress on it.
    final: str | None
    final_progress: list[int]
    #: Per seat: its group, organisations, location (None: on the road), completed missions,
    #: missions under way that are not secret, hand size, Strength, Speed, turns to skip,
    #: whether it lost.
    groups: list[list[GroupCard]]
    organisations: list[list[str]]
    at: list[str | None]
    done: list[list[str]]
    under_way: list[list[str]]
    hand_sizes: list[int]
    strength: list[int]
    speed: list[int]
    skip: list[int]
    lost: list[bool]
    #: The active locations: {location: its lead event, "hidden" when face down, None: none}.
    locations: dict[str, str | None]
    decks: Decks
    discards: Discards
    #: The trade under way (None: none), and the trades the seat in its interaction step has
    #: proposed to each seat so far (a seat may be asked `TRADE_OFFERS` times).
    trade: Trade | None
    proposed: list[int]


class State(core.Match):
    """One game's state. Seats 0..n-1 (A, B, C). ``loc[s]`` is the location handle the group of
    ``s`` stands on, or -1 when it is on the road (at no location)."""

    p: Tables
    # scratch state of the resolution under way (set by operations and read where they act)
    _last_explorer = -1
    _moving = -1
    _travel = False
    _redirect = False
    _cancel = False
    _claim = False
    _foe_mod = 0
    _blocked = False
    #: The battle under way (agents read it), and the Strength of a foe in it.
    in_battle: Fight | None = None
    foe_strength = 0
    last_check: Check | None = None
    #: The trade under way (agents read it): the seat offering, its partner, the cards each
    #: has put in so far.
    trading: tuple[int, int, list[int], list[int]] | None = None
    #: Trades the seat in its interaction step has proposed to each seat so far.
    proposed: list[int] = []

    def __init__(self, prep: Tables, players: int, seed: int, log: bool = False):
        lo, hi = PLAYERS
        if not lo <= players <= hi:
            raise core.EngineError(f"Anima takes {lo}-{hi} players, not {players}")
        super().__init__(players, seed, log)
        p = self.p = prep
        #: Every option this configuration offers, made once (`options.Choices`).
        self.choices = p.choices
        n = players
        self.tree = p.tree
        self.limit = LOCATIONS_PER_PLAYER * n
        # decks (top = end of the list) and discard piles
        self.char_deck: list[int] = []
        self.char_discard: list[int] = []
        self.loc_decks: list[list[int]] = [[], [], []] if p.tree else [[]]
        self.loc_discard: list[int] = []
        self.event_deck: list[int] = []
        self.event_discard: list[int] = []
        self.mission_deck: list[int] = []
        self.final_deck: list[int] = []
        self.final: list[int] = []               # the final mission, face up (0 or 1 card)
        self.bonus_deck: list[int] = []
        self.bonus_discard: list[int] = []
        self.active: list[int] = []              # active locations, in the order they came
        self.lead: dict[int, int] = {}           # location -> its lead event
        self.lead_up: set[int] = set()           # locations whose lead event is face up
        self.faced: set[int] = set()             # locations whose lead event a group has faced
        self.revealed: list[int] = []            # events being resolved, cards being played
        # per seat
        self.group: list[list[int]] = [[] for _ in range(n)]
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.missions: list[list[int]] = [[] for _ in range(n)]   # basic missions in progress
        self.done: list[list[int]] = [[] for _ in range(n)]       # completed missions
        self.org: list[list[int]] = [[] for _ in range(n)]
        self.loc = [-1] * n
        self.arrived = [False] * n
        self.lost = [False] * n
        self.skip = [0] * n
        self.fgi = [0] * n                       # progress on the final mission
        self.t_str, self.t_spd = [0] * n, [0] * n     # until the end of this turn
        self.n_str, self.n_spd = [0] * n, [0] * n     # for the next turn (rest, next_turn)
        self.c_str, self.c_spd = [0] * n, [0] * n     # this turn's share of last turn's `next`
        self.b_str = [0] * n                     # this battle
        self.hold_loc, self.hold_n, self.hold_turn = [-1] * n, [0] * n, [-2] * n
        self.hired = [(-1, -2)] * n              # (location, turn) of the last hire
        self.ticket = [-1] * n                   # turn on which the airship ticket may be used
        self.free_used = [False] * n
        self.wiped = [0] * n                     # groups wiped out (a new one formed)
        # per handle
        self.gi = [0] * p.n                      # mission handle -> goals done
        self.rot = [False] * p.n
        self.asleep = [False] * p.n
        # the turn
        self.turn = 0
        self.phase = -1
        self.order: list[int] = []
        self.explorer = -1
        self.fought: set[tuple[int, int]] = set()
        self.dismissed: list[tuple[int, int]] = []
        self.dropped: list[tuple[int, int]] = []
        self.explored_at: dict[int, int] = {}
        self.winner = -1
        self.capped = False
        self.dealt = False
        # scratch flags set by operations
        self._abort = self._flag = False
        self._foe = -1                            # the seat beaten in a battle (victory effects)
        self._ctx_loc = -1
        self._alarm = False
        self.last_battle: Totals | None = None
        # statistics (lists by def index, made into dicts by `stats`)
        d = len(p.defs)
        self.st_fights, self.st_mwins = [0] * d, [0] * d
        self.st_explored = [0] * d
        self.st_reward: dict[tuple[int, int], int] = {}
        self.st_offered, self.st_kept = [0] * d, [0] * d
        self.st_dealt = [0] * d
        self.st_joined, self.st_died = [0] * d, [0] * d
        self.st_mission_turn: dict[int, int] = {}
        self.st_alarms = 0

    # ------------------------------------------------------------------ small helpers
    def _draw(self, deck: list[int], discard: list[int]) -> Flow[int]:
        """Top card of a deck; an empty deck is refilled from its shuffled discard pile; -1 when
        both are empty."""
        if not deck:
            if not discard:
                return -1
            deck.extend(discard)
            discard.clear()
            yield from self.shuffle(deck)
            if self.log is not None:
                self.log.append(("reshuffle",))
        return deck.pop()

    def draw_event(self) -> Flow[int]:
        return (yield from self._draw(self.event_deck, self.event_discard))

    def draw_char(self) -> Flow[int]:
        return (yield from self._draw(self.char_deck, self.char_discard))

    def strength(self, s: int) -> int:
        return self._stat(s, self.t_str[s] + self.c_str[s] + self.b_str[s], self.p.cstr, self.p.ongoing_str, True)

    def speed(self, s: int) -> int:
        """DECISION: a sleeping member's Speed still counts (the rulebook takes away only the
        Strength of a character turned face down)."""
        return self._stat(s, self.t_spd[s] + self.c_spd[s], self.p.cspd, self.p.ongoing_spd, False)

    def _stat(self, s: int, v: int, own: Sequence[int], more: Sequence[int], awake: bool) -> int:
        """A group's Strength or Speed: `v` (its seat's counters) plus each member's own value
        (only an awake member's, when ``awake``) and what each member, organisation and its
        location add while in play; never below 0."""
        asleep = self.asleep
        for c in self.group[s]:
            if not (awake and asleep[c]):
                v += own[c]
            v += more[c]
        for o in self.org[s]:
            v += more[o]
        if self.loc[s] >= 0:
            v += more[self.loc[s]]
        return v if v > 0 else 0

    def has_skill(self, s: int, bits: int) -> bool:
        """An awake character of the group has one of these skills."""
        skill, asleep = self.p.skill, self.asleep
        return any(skill[c] & bits and not asleep[c] for c in self.group[s])

    def duty(self, s: int, name: str) -> bool:
        return bool(self.org[s]) and name in self.p.duty[self.org[s][0]]

    def room(self, s: int) -> int:
        """How many more bonus cards ``s`` may take: none at the hand limit, on every path (a
        battle's spoils, a theft, a draw), since the discard phase is the only time to discard
        by choice."""
        return HAND_LIMIT - len(self.hand[s])

    def join(self, s: int, c: int) -> None:
        self.group[s].append(c)
        self.rot[c] = self.asleep[c] = False
        self.st_joined[self.p.dix[c]] += 1
        self.played.append((self.p.dix[c], s))

    def leave_group(self, s: int, c: int) -> None:
        self.group[s].remove(c)
        self.rot[c] = self.asleep[c] = False

    def off_road(self, s: int) -> None:
        """The group leaves its location: it is on the road until it moves again."""
        self.loc[s] = -1
        self.arrived[s] = False
        self.hold_n[s] = 0

    def can_sleep(self, c: int) -> bool:
        return not self.asleep[c] and not self.p.sleepless[c]

    def sleep_targets(self, s: int, target: str) -> list[int]:
        """Characters a `sleep` of ``target`` (own, any, near) played by ``s`` may send to sleep."""
        if target == "own":
            return [c for c in self.group[s] if self.can_sleep(c)]
        L = self.loc[s]
        out = []
        for t in range(self.n):
            if target == "near" and (t == s or L < 0 or self.loc[t] != L):
                continue
            out += [c for c in self.group[t] if self.can_sleep(c)]
        return out

    def peek_deck(self, s: int, deck: str) -> list[int]:
        """The deck a `peek` of ``deck`` played by ``s`` looks at."""
        if deck == "event":
            return self.event_deck
        if deck == "bonus":
            return self.bonus_deck
        if deck == "mission":
            return self.mission_deck
        if not self.tree:
            return self.loc_decks[0]
        # DECISION: with the location tree, the deck of the level the group stands on
        return self.loc_decks[self.p.level[self.loc[s]] - 1 if self.loc[s] >= 0 else 0]

    def reachable(self, s: int, L: int) -> bool:
        """With the location tree, a group moves at most one level; on the road, only to level 1
        (DECISION, also at the start); the airship ticket lifts this for one turn."""
        if not self.tree or self.ticket[s] == self.turn:
            return True
        lv = self.p.level
        return lv[L] == 1 if self.loc[s] < 0 else abs(lv[L] - lv[self.loc[s]]) <= 1

    # ------------------------------------------------------------------ missions
    def may_final(self, s: int) -> bool:
        return bool(self.final) and len(self.done[s]) >= (2 if self.p.both else 1)

    def open_goals(self, s: int) -> list[tuple[int, Goal]]:
        """(mission, its current goal) for every mission ``s`` may work on now."""
        p = self.p
        out = [(m, p.goals[m][self.gi[m]]) for m in self.missions[s]]
        if self.may_final(s):
            f = self.final[0]
            if self.fgi[s] < len(p.goals[f]):
                out.append((f, p.goals[f][self.fgi[s]]))
        return out

    def holding(self, s: int) -> bool:
        """Whether a hold goal ``s`` works on lies at the location its group stands on (the
        group stays there without moving)."""
        L = self.loc[s]
        if L < 0:
            return False
        dl = self.p.dix[L]
        return any(g.kind == G_HOLD and g.location == dl for _, g in self.open_goals(s))

    def goal(self, s: int, m: int) -> Goal:
        """The goal of mission ``m`` that ``s`` works on now."""
        p = self.p
        return p.goals[m][self.fgi[s] if p.final[m] else self.gi[m]]

    def rewards_here(self, s: int, L: int) -> list[RewardChoice]:
        """The reward options of ``s`` at ``L``."""
        if L < 0:
            return []
        p = self.p
        made = self.choices.rewards
        out: list[RewardChoice] = []
        for i, (kind, ops) in enumerate(p.rewards[L]):
            if kind == R_BONUS:
                if self.room(s) > 0 and (self.bonus_deck or self.bonus_discard):
                    out.append(made[kind][i])
            elif kind == R_HIRE:
                if len(self.group[s]) < GROUP_LIMIT and (self.char_deck or self.char_discard) \
                        and (self.hired[s] != (L, self.turn - 1) or p.rehire[L]) \
                        and not (p.trade[L] and self.duty(s, "no_hire_trade")):
                    out.append(made[kind][i])
            elif kind == R_MISSION:
                dl = p.dix[L]
                for m, g in self.open_goals(s):
                    if g.kind == G_VISIT and g.location == dl and (not g.skill or self.has_skill(s, g.skill)):
                        out.append(self.choices.mission_reward(kind, i, m))
            else:
                out.append(made[kind][i])
        return out

    # ------------------------------------------------------------------ the end
    def scores(self) -> list[int]:
        """DECISION: 10 for the winner, plus one per basic mission done (a capped game has no
        winner by the rules; it ranks by missions done, then goals reached)."""
        return [len(self.done[s]) + (WIN_SCORE if s == self.winner else 0) for s in range(self.n)]

    def tiebreak(self, seat: int) -> tuple:
        return (self.fgi[seat] + sum(self.gi[m] for m in self.missions[seat]),)

    def stats(self) -> GameStats:
        """This game's figures for `statistics`."""
        p = self.p
        ids = p.def_ids

        def counts(per_def: list[int]) -> dict[str, int]:
            return {ids[d]: k for d, k in enumerate(per_def) if k}
        return GameStats(
            turns=self.turn, capped=self.capped, winner=self.winner,
            missions={ids[d]: t for d, t in self.st_mission_turn.items()},
            final=ids[p.dix[self.final[0]]] if self.final else None,
            fights=counts(self.st_fights), monster_wins=counts(self.st_mwins),
            explored=counts(self.st_explored),
            rewards={f"{ids[d]}:{REWARDS[k]}": v for (d, k), v in self.st_reward.items()},
            offered=counts(self.st_offered), dealt=counts(self.st_dealt), kept=counts(self.st_kept),
            joined=counts(self.st_joined), died=counts(self.st_died), alarms=self.st_alarms)

    # ------------------------------------------------------------------ invariants
    def zones(self) -> Iterator[tuple[str, list[int]]]:
        yield "char_deck", self.char_deck
        yield "char_discard", self.char_discard
        for i, d in enumerate(self.loc_decks):
            yield f"loc_deck[{i + 1}]", d
        yield "loc_discard", self.loc_discard
        yield "event_deck", self.event_deck
        yield "event_discard", self.event_discard
        yield "mission_deck", self.mission_deck
        yield "final_deck", self.final_deck
        yield "final", self.final
        yield "bonus_deck", self.bonus_deck
        yield "bonus_discard", self.bonus_discard
        yield "active", self.active
        yield "leads", list(self.lead.values())
        yield "revealed", self.revealed
        for s in range(self.n):
            a = SEAT_NAMES[s]
            yield f"group[{a}]", self.group[s]
            yield f"hand[{a}]", self.hand[s]
            yield f"missions[{a}]", self.missions[s]
            yield f"done[{a}]", self.done[s]
            yield f"org[{a}]", self.org[s]

    def invariants(self) -> None:
        p = self.p
        kind = p.kind
        for name, zone, k in (("char_deck", self.char_deck, CHAR), ("char_discard", self.char_discard, CHAR),
                              ("loc_discard", self.loc_discard, LOC), ("active", self.active, LOC),
                              ("event_deck", self.event_deck, EVENT), ("event_discard", self.event_discard, EVENT),
                              ("mission_deck", self.mission_deck, MISSION), ("final", self.final, MISSION),
                              ("bonus_deck", self.bonus_deck, BONUS), ("bonus_discard", self.bonus_discard, BONUS)):
            if any(kind[h] != k for h in zone):
                raise InvariantViolation(f"{name}: a card of the wrong type")
        for d in self.loc_decks:
            if any(kind[h] != LOC for h in d):
                raise InvariantViolation("a location deck holds another card")
        if any(not p.final[h] for h in self.final + self.final_deck) or any(p.final[h] for h in self.mission_deck):
            raise InvariantViolation("final and basic missions mixed up")
        if len(self.active) > self.limit + 1:
            raise InvariantViolation(f"{len(self.active)} active locations (limit {self.limit})")
        for L, ev in self.lead.items():
            if L not in self.active or kind[ev] != EVENT:
                raise InvariantViolation("a lead event off the active locations")
        in_group = set()
        for s in range(self.n):
            a = SEAT_NAMES[s]
            g = self.group[s]
            if not 1 <= len(g) <= GROUP_LIMIT and self.dealt:
                raise InvariantViolation(f"seat {a}: a group of {len(g)}")
            if any(kind[c] != CHAR for c in g):
                raise InvariantViolation(f"seat {a}: a non-character in the group")
            in_group.update(g)
            if len(self.hand[s]) > HAND_LIMIT or any(kind[h] != BONUS or p.bsub[h] == -1 for h in self.hand[s]):
                raise InvariantViolation(f"seat {a}: {len(self.hand[s])} cards in hand, or a non-bonus")
            if len(self.org[s]) > 1 or any(p.bsub[o] != B_ORG for o in self.org[s]):
                raise InvariantViolation(f"seat {a}: not one organisation")
            if any(p.final[m] or kind[m] != MISSION for m in self.missions[s] + self.done[s]):
                raise InvariantViolation(f"seat {a}: a final mission held")
            L = self.loc[s]
            if L >= 0 and (L not in self.active or L in self.lead):
                raise InvariantViolation(f"seat {a}: at {p.cid[L]}, not active or with a lead event")
            if self.skip[s] < 0:
                raise InvariantViolation(f"seat {a}: negative skip")
        for h in range(p.n):
            if (self.rot[h] or self.asleep[h]) and h not in in_group:
                raise InvariantViolation(f"{p.cid[h]}: rotated or asleep outside a group")
        if self.dealt and self.phase == -1 and self.revealed:
            raise InvariantViolation("cards left in resolution between turns")

    # ------------------------------------------------------------------ descriptions
    def view(self, seat: int) -> View:
        """What ``seat`` may see: its own hand and missions (with progress); everyone's groups,
        organisations, positions, completed missions and non-secret missions under way; hand
        sizes; the active locations with their face-up lead events (a face-down one is shown as
        hidden); deck sizes and the discard piles."""
        p = self.p
        cid = p.cid

        def public(m: int) -> bool:
            return self.gi[m] > 0 and not p.secret[m]
        return View(
            seat=seat, players=self.n, decision=self.decision.kind if self.decision else None,
            turn=self.turn, phase=PHASES[self.phase] if self.phase >= 0 else None,
            order=list(self.order),
            hand=[cid[h] for h in self.hand[seat]],
            missions={cid[m]: self.gi[m] for m in self.missions[seat]},
            final=cid[self.final[0]] if self.final else None,
            final_progress=list(self.fgi),
            groups=[[GroupCard(cid[c], self.rot[c], self.asleep[c]) for c in g]
                    for g in self.group],
            organisations=[[cid[o] for o in x] for x in self.org],
            at=[cid[L] if L >= 0 else None for L in self.loc],
            done=[[cid[m] for m in x] for x in self.done],
            under_way=[[cid[m] for m in self.missions[s] if public(m)] for s in range(self.n)],
            hand_sizes=[len(h) for h in self.hand],
            strength=[self.strength(s) for s in range(self.n)],
            speed=[self.speed(s) for s in range(self.n)],
            skip=list(self.skip), lost=list(self.lost),
            locations={cid[L]: (cid[self.lead[L]] if L in self.lead_up else "hidden")
                       if L in self.lead else None for L in self.active},
            decks=Decks(len(self.char_deck), [len(d) for d in self.loc_decks],
                        len(self.event_deck), len(self.bonus_deck)),
            discards=Discards([cid[h] for h in self.char_discard],
                              [cid[h] for h in self.loc_discard],
                              [cid[h] for h in self.event_discard],
                              [cid[h] for h in self.bonus_discard]),
            trade=Trade(tr[0], tr[1], [cid[h] for h in tr[2]], [cid[h] for h in tr[3]])
            if (tr := self.trading) else None,
            proposed=list(self.proposed))

    def label(self, option: tuple) -> str:
        """`play fire_lance veyla_moonweaver`, `go harrow_market`, `explore deck`, `attack B`,
        `reward mission lost_courier`, `speed lost_courier` ..."""
        cid = self.p.cid
        if isinstance(option, Play):
            return f"play {cid[option.card]}" + (f" {cid[option.user]}" if option.user >= 0 else "")
        if isinstance(option, OnSeat):
            return f"{option.verb} {SEAT_NAMES[option.seat]}"
        if isinstance(option, NewDeck):
            return f"new deck {option.deck}"
        if isinstance(option, RewardChoice):
            return f"reward {REWARDS[option.kind]}" + (f" {cid[option.mission]}" if option.mission >= 0 else "")
        if isinstance(option, OnCard):
            return f"new {cid[option.card]}" if option.verb == "new_pick" else f"{option.verb} {cid[option.card]}"
        if isinstance(option, Verb):
            return "new deck" if option.verb == "new_deck" else option.verb
        return super().label(option)

    def state_digest(self) -> tuple:
        return (tuple((name, tuple(cards)) for name, cards in self.zones()),
                tuple(self.loc), tuple(self.lost), tuple(self.skip), tuple(self.fgi), tuple(self.gi),
                tuple(self.rot), tuple(self.asleep), tuple(sorted(self.lead_up)), tuple(sorted(self.faced)),
                self.turn, self.winner,
                tuple(self.n_str), tuple(self.n_spd), tuple(self.hold_n))

