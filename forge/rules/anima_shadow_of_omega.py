"""«Аніма: Тінь омеги» (Anima: Shadow of Omega) for 2-3 players, played from the card data in
``cards/anima_shadow_of_omega``.

State is plain lists of integer card handles (one handle per physical card) and per-seat
numbers; the whole game is one generator (`Match.flow`) on the shared core (forge/rules/core.py).
Where the source rulebook is open or silent the ruling is marked ``DECISION`` here and written
out in docs/rules-decisions.md (section «Аніма: Тінь омеги»).

A game: every seat secretly holds 2 basic missions; the first to finish a basic mission reveals
the final mission, which is everybody's; whoever finishes it first wins. A turn: the order is set
by group Speed (ties rolled with a d6) and kept for the whole turn; then every seat in that order
plays the discard phase, then every seat the movement phase, the interaction phase and the
exploration phase. Battles are d6 + Strength; a rival's die (a chance event) rolls for a monster.
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

from . import core
from .tally import spread
from .core import (Chance, Decision, Flow, InvariantViolation, Option, Requires, SEAT_NAMES, operation,
                   operations_of, passive)

PLAYERS = (2, 3)

REQUIRES = Requires({
    "character": ("strength", "speed", "skills", "activation", "phase", "effects"),
    "location": ("level", "exploration", "rewards", "trade", "effects"),
    "event": ("level", "strength", "defeat", "effects"),
    "mission": ("goals", "secret", "prize"),
    "bonus": ("skill", "timing", "phase", "rival", "victory", "defeat", "effects"),
})

OPTIONS = (
    Option("location_tree", bool, False,
           help="Optional rule: locations form a tree by level (three location decks; a group "
                "moves at most one level a turn and draws an event when it changes level)."),
    Option("both_basic", bool, False,
           help="Optional rule: both basic missions must be done before the final mission."),
    Option("turn_cap", int, 500, min=1,
           help="Safety net only: a game is stopped after this many turns (reported)."),
)

CHAR, LOC, EVENT, MISSION, BONUS = range(5)
TYPE_CODES = {"character": CHAR, "location": LOC, "event": EVENT, "mission": MISSION, "bonus": BONUS}
SKILL_BIT = {"magic": 1, "ki": 2, "trickery": 4}
PHASES = ("discard", "movement", "interaction", "exploration")
DISCARD, MOVEMENT, INTERACTION, EXPLORATION = range(4)
HAND_LIMIT = 5
GROUP_LIMIT = 4
KILL_MARGIN = 5
REST_BONUS = 2
# exploration table results and reward kinds
NOTHING, EV, SPECIAL = range(3)
RESULTS = {"nothing": NOTHING, "event": EV, "special": SPECIAL}
R_BONUS, R_HIRE, R_MISSION, R_SPECIAL = range(4)
REWARDS = ("bonus", "hire", "mission", "special")
# goals
G_VISIT, G_SPEED, G_HOLD, G_BATTLE = range(4)
GOALS = {"visit": G_VISIT, "speed_check": G_SPEED, "hold": G_HOLD, "battle": G_BATTLE}
# bonus subtypes and timings
B_SKILL, B_PLOT, B_ORG = range(3)
T_NORMAL, T_INTERRUPT, T_BATTLE = range(3)
# when a card or an ability can be used (read from its operations and timing)
W_NONE, W_NORMAL, W_BATTLE, W_REROLL, W_CANCEL_EVENT, W_CANCEL_MONSTER, W_CANCEL_BONUS, \
    W_REDIRECT, W_TRAVEL, W_CLAIM, W_GUARD = range(11)
# outcomes
PASS, FAIL, ALARM, WIN, LOSE, FLED, CANCELLED = range(7)
BATTLE_OPS = frozenset({"hinder", "flee"})
ROLL_KINDS = ("any", "battle", "exploration", "speed")
#: The d6 every roll of the game uses (scenarios script it as `rolls: {d6: [...]}`). The hot path
#: yields `Decision`s and resolves this chance directly, the plain forms of `ask` and `die`.
D6 = Chance("d6", range(1, 7))


class _Over(Exception):
    """Raised inside the flow when a seat completes the final mission: the game ends at once."""


def _ops(ops: Any) -> tuple:
    return tuple((op.name, op.args()) for op in (ops or ()))


def _window(ops: tuple, timing: int) -> tuple[int, int]:
    """(window, reroll kind bits) of a card or ability: where it may be used. DECISION: an
    ability's window follows from its operation (a battle boost, `hinder` and `flee` at the
    start of a battle; `reroll` right after a roll; `cancel` when its target appears;
    `redirect` when a rival announces a move; the rest in its owner's own phases)."""
    for name, a in ops:
        if name == "reroll":
            return W_REROLL, (15 if a["roll"] == "any" else 1 << ROLL_KINDS.index(a["roll"]))
        if name == "cancel":
            return {"event": W_CANCEL_EVENT, "monster": W_CANCEL_MONSTER,
                    "bonus": W_CANCEL_BONUS}[a["what"]], 0
        if name == "redirect":
            return W_REDIRECT, 0
        if name == "travel":
            return W_TRAVEL, 0
        if name == "claim_reward":
            return W_CLAIM, 0
        if name == "guardian":
            return W_GUARD, 0
    if timing == T_BATTLE:
        return W_BATTLE, 0
    for name, a in ops:
        if name in BATTLE_OPS or (name in ("boost", "weaken") and a["until"] == "battle"):
            return W_BATTLE, 0
    return (W_NORMAL if ops else W_NONE), 0


def _ongoing(ops: tuple) -> tuple[int, int]:
    """(strength, speed) changes of `boost`/`weaken` operations that last while a card is in
    play (an organisation, a character in the group, the location a group stands on)."""
    st = sp = 0
    for name, a in ops:
        if name in ("boost", "weaken") and a["until"] == "ongoing":
            v = a["amount"] if name == "boost" else -a["amount"]
            if a["stat"] == "strength":
                st += v
            else:
                sp += v
    return st, sp


def _faces(roll: str) -> range:
    lo, _, hi = roll.partition("-")
    return range(int(lo), int(hi or lo) + 1)


class Prepared(core.Prepared):
    """Static card tables (lists indexed by handle), shared by all matches of a configuration."""

    def __init__(self, game: Any, options: Mapping[str, Any], sets: Sequence[str]):
        super().__init__(game, options, sets)
        types = {c.type for c in game.cards}
        missing = set(TYPE_CODES) - types
        if missing:
            raise core.EngineError(f"no {', '.join(sorted(missing))} cards: this engine cannot play {game.id}")
        self.tree = bool(options.get("location_tree", False))
        self.both = bool(options.get("both_basic", False))
        self.cap = int(options.get("turn_cap", 500))
        if self.cap < 1:
            raise core.EngineError("turn_cap is at least 1")
        self.defs = [c for c in game.cards if c.set in self.sets]
        self.def_ids = [c.id for c in self.defs]
        dix_of = {c.id: i for i, c in enumerate(self.defs)}
        N = sum(c.copies for c in self.defs)
        z = [0] * N
        self.n = N
        self.cid: list[str] = []
        self.dix: list[int] = []
        self.kind: list[int] = []
        self.sub: list[str | None] = []
        self.ops: list[tuple] = [()] * N           # effects as (name, args)
        self.win = list(z)                         # usage window
        self.rkind = list(z)                       # reroll kinds (bits of ROLL_KINDS)
        self.level = list(z)
        # characters
        self.cstr, self.cspd, self.skill = list(z), list(z), list(z)
        self.rot_ability = [False] * N             # a rotate ability
        self.cphase = [-1] * N
        self.cmod = [(0, 0)] * N                   # ongoing (strength, speed) while in a group
        self.sleepless = [False] * N
        # locations
        self.table: list[tuple] = [()] * N         # die face 1..6 -> (result, events, ops); [0] unused
        self.rewards: list[tuple] = [()] * N       # ((kind, ops), ...)
        self.trade = [False] * N
        self.lair, self.solitary, self.rehire = list(z), [False] * N, [False] * N
        self.lmod = [(0, 0)] * N                   # ongoing (strength, speed) while a group stands here
        # events
        self.monster = [False] * N
        self.mstr = list(z)
        self.defeat: list[tuple] = [()] * N        # monsters and organisations
        self.grows, self.immune, self.unavoidable = list(z), list(z), [False] * N
        # missions
        self.final = [False] * N
        self.goals: list[tuple] = [()] * N         # ((kind, loc dix, difficulty, turns, strength, skill bits), ...)
        self.secret = [False] * N
        self.prize: list[tuple] = [()] * N
        # bonuses
        self.bsub, self.timing, self.bphase, self.rival = list(z), list(z), [-1] * N, [-1] * N
        self.victory: list[tuple] = [()] * N
        self.omod = [(0, 0)] * N
        self.duty: list[frozenset[str]] = [frozenset()] * N              # passive organisation rules by operation name
        self.pvp_hinder, self.needs = list(z), list(z)
        self.pvp_sleep = [False] * N               # an interrupt sleep card, usable in battles with groups
        self.handles_by_kind: list[list[int]] = [[] for _ in range(5)]
        for d, c in enumerate(self.defs):
            k = TYPE_CODES.get(c.type)
            if k is None:
                continue
            ops = _ops(c.effects)
            for _ in range(c.copies):
                h = len(self.cid)
                self.cid.append(c.id)
                self.dix.append(d)
                self.kind.append(k)
                self.sub.append(c.subtype)
                self.handles_of.setdefault(c.id, []).append(h)
                self.handles_by_kind[k].append(h)
                self.ops[h] = ops
                if k == CHAR:
                    self.cstr[h], self.cspd[h] = c.strength, c.speed
                    self.skill[h] = sum(SKILL_BIT[s] for s in c.skills)
                    self.rot_ability[h] = c.activation == "rotate" and bool(ops)
                    self.cphase[h] = PHASES.index(c.phase) if c.phase else -1
                    self.cmod[h] = _ongoing(ops) if c.activation == "passive" else (0, 0)
                    self.sleepless[h] = any(n == "sleepless" for n, _ in ops)
                    if self.rot_ability[h]:
                        self.win[h], self.rkind[h] = _window(ops, T_NORMAL)
                elif k == LOC:
                    self.level[h] = c.level
                    rows: list = [None] * 7
                    for row in c.exploration:
                        for f in _faces(row.roll):
                            rows[f] = (RESULTS[row.result], row.events or 0, _ops(row.ops))
                    for f in range(1, 7):
                        if rows[f] is None:       # check_data reports a table with a gap
                            rows[f] = (NOTHING, 0, ())
                    self.table[h] = tuple(rows)
                    self.rewards[h] = tuple((REWARDS.index(r.kind), _ops(r.ops)) for r in c.rewards)
                    self.trade[h] = bool(c.trade)
                    for name, a in ops:
                        if name == "lair":
                            self.lair[h] += a["amount"]
                        elif name == "solitary":
                            self.solitary[h] = True
                        elif name == "rehire":
                            self.rehire[h] = True
                    self.lmod[h] = _ongoing(ops)
                elif k == EVENT:
                    self.level[h] = c.level
                    self.monster[h] = c.subtype == "monster"
                    self.mstr[h] = c.strength or 0
                    self.defeat[h] = _ops(c.defeat)
                    for name, a in ops:
                        if name == "grows":
                            self.grows[h] += a["amount"]
                        elif name == "immune":
                            self.immune[h] |= SKILL_BIT[a["skill"]]
                        elif name == "unavoidable":
                            self.unavoidable[h] = True
                elif k == MISSION:
                    self.final[h] = c.subtype == "final"
                    self.secret[h] = bool(c.secret)
                    self.prize[h] = _ops(c.prize)
                    self.goals[h] = tuple(
                        (GOALS[g.goal], dix_of.get(g.location, -1) if g.location else -1,
                         g.difficulty or 0, g.turns or 1, g.strength or 0,
                         SKILL_BIT[g.skill] if g.skill else 0) for g in c.goals)
                else:
                    self.bsub[h] = {"skill": B_SKILL, "plot": B_PLOT, "organisation": B_ORG}[c.subtype]
                    self.timing[h] = {"normal": T_NORMAL, "interrupt": T_INTERRUPT, "battle": T_BATTLE}[c.timing]
                    self.skill[h] = SKILL_BIT[c.skill] if c.skill else 0
                    self.bphase[h] = PHASES.index(c.phase) if c.phase else -1
                    if self.bsub[h] == B_ORG:
                        self.win[h] = W_NORMAL
                        self.omod[h] = _ongoing(ops)
                        self.duty[h] = frozenset(n for n, _ in ops)
                        self.victory[h] = _ops(c.victory)
                        self.defeat[h] = _ops(c.defeat)
                        for name, a in ops:
                            if name == "hinder":
                                self.pvp_hinder[h] += a["amount"]
                            elif name == "needs_skill":
                                self.needs[h] |= SKILL_BIT[a["skill"]]
                    else:
                        self.win[h], self.rkind[h] = _window(ops, self.timing[h])
                        self.pvp_sleep[h] = (self.timing[h] == T_INTERRUPT and
                                             any(n == "sleep" and a["target"] != "own" for n, a in ops))
        for d, c in enumerate(self.defs):          # organisation rivals, by handle
            if c.type == "bonus" and c.subtype == "organisation" and c.rival in self.handles_of:
                for h in self.handles_of[c.id]:
                    self.rival[h] = self.handles_of[c.rival][0]
        # a location of each definition (missions name locations by id)
        self.loc_of_dix = {self.dix[h]: h for h in self.handles_by_kind[LOC]}
        self.basic = [h for h in self.handles_by_kind[MISSION] if not self.final[h]]
        self.finals = [h for h in self.handles_by_kind[MISSION] if self.final[h]]

    def new(self, players: int, seed: int, log: bool = False, deal: bool = True) -> "Match":
        m = Match(self, players, seed, log=log)
        if deal:
            m.begin()
        return m


class Match(core.Match):
    """One game. Seats 0..n-1 (A, B, C). ``loc[s]`` is the location handle the group of ``s``
    stands on, or -1 when it is on the road (at no location)."""

    p: Prepared

    def __init__(self, prep: Prepared, players: int, seed: int, log: bool = False):
        lo, hi = PLAYERS
        if not lo <= players <= hi:
            raise core.EngineError(f"Anima takes {lo}-{hi} players, not {players}")
        super().__init__(players, seed, log)
        p = self.p = prep
        n = players
        self.tree = p.tree
        self.limit = 2 * n
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
        self.last_battle: dict | None = None
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
        p = self.p
        v = self.t_str[s] + self.c_str[s] + self.b_str[s]
        for c in self.group[s]:
            if not self.asleep[c]:
                v += p.cstr[c]
            v += p.cmod[c][0]
        for o in self.org[s]:
            v += p.omod[o][0]
        if self.loc[s] >= 0:
            v += p.lmod[self.loc[s]][0]
        return v if v > 0 else 0

    def speed(self, s: int) -> int:
        p = self.p
        v = self.t_spd[s] + self.c_spd[s]
        for c in self.group[s]:
            if not self.asleep[c]:
                v += p.cspd[c]
            v += p.cmod[c][1]
        for o in self.org[s]:
            v += p.omod[o][1]
        if self.loc[s] >= 0:
            v += p.lmod[self.loc[s]][1]
        return v if v > 0 else 0

    def has_skill(self, s: int, bits: int) -> bool:
        """An awake character of the group has one of these skills."""
        skill, asleep = self.p.skill, self.asleep
        return any(skill[c] & bits and not asleep[c] for c in self.group[s])

    def duty(self, s: int, name: str) -> bool:
        return bool(self.org[s]) and name in self.p.duty[self.org[s][0]]

    def gain(self, s: int, h: int) -> Flow[None]:
        """A bonus card comes into the hand of ``s``; over the limit, they discard down to 5."""
        hand = self.hand[s]
        if len(hand) < HAND_LIMIT:
            hand.append(h)
            return
        self.revealed.append(h)                  # in view while the player chooses
        c = (_o[0] if len(_o := [("discard", x) for x in hand + [h]]) == 1 and self.auto
             else (yield Decision("limit", (s,), [_o]))[0])
        self.revealed.remove(h)
        if c[1] != h:
            hand.remove(c[1])
            hand.append(h)
        self.bonus_discard.append(c[1])

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

    def open_goals(self, s: int) -> list[tuple[int, tuple]]:
        """(mission, its current goal) for every mission ``s`` may work on now."""
        p = self.p
        out = [(m, p.goals[m][self.gi[m]]) for m in self.missions[s]]
        if self.may_final(s):
            f = self.final[0]
            if self.fgi[s] < len(p.goals[f]):
                out.append((f, p.goals[f][self.fgi[s]]))
        return out

    def complete_goal(self, s: int, m: int) -> Flow[None]:
        p = self.p
        if self.log is not None:
            self.log.append(("goal", s, p.cid[m],))
        if p.final[m]:
            self.fgi[s] += 1
            if self.fgi[s] >= len(p.goals[m]):
                self.winner = s
                self.st_mission_turn[p.dix[m]] = self.turn
                self.played.append((p.dix[m], s))
                if self.log is not None:
                    self.log.append(("win", s, p.cid[m],))
                raise _Over
            return
        self.gi[m] += 1
        if self.gi[m] < len(p.goals[m]):
            return
        self.missions[s].remove(m)
        self.done[s].append(m)
        self.st_mission_turn[p.dix[m]] = self.turn
        self.played.append((p.dix[m], s))
        if self.log is not None:
            self.log.append(("mission", s, p.cid[m],))
        if not self.final and self.final_deck:
            self.final.append(self.final_deck.pop())
            if self.log is not None:
                self.log.append(("final", p.cid[self.final[0]],))
        yield from self.run(s, m, p.prize[m])

    # ------------------------------------------------------------------ the game
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
                self.reached["phase"] += 1
                if not self.auto:
                    yield Decision("phase", (), [])
                self.phase = MOVEMENT
                for s in order:
                    if not self.lost[s]:
                        yield from self.movement_step(s)
                    if len(self.active) > self.limit:
                        yield from self.trim()
                self.reached["phase"] += 1
                if not self.auto:
                    yield Decision("phase", (), [])
                self.phase = INTERACTION
                for s in order:
                    if not self.lost[s] and self.loc[s] >= 0:
                        yield from self.interaction_step(s)
                self.reached["phase"] += 1
                if not self.auto:
                    yield Decision("phase", (), [])
                self.phase = EXPLORATION
                for s in order:
                    if not self.lost[s] and self.arrived[s] and self.loc[s] >= 0:
                        yield from self.exploration_step(s)
                self.reached["phase"] += 1
                if not self.auto:
                    yield Decision("phase", (), [])
                for s in range(n):
                    self.t_str[s] = self.t_spd[s] = 0
                self.phase = -1
                if self.turn % 10 == 0 or not self.auto:
                    self.check_invariants()
                self.reached["turn"] += 1
                if not self.auto:
                    yield Decision("turn", (), [])
        except _Over:
            pass
        self.finish(turns=self.turn, capped=self.capped)

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
        keep = yield from self.ask_all("keep", list(range(n)), [[("keep", c) for c in o] for o in offered])
        back = yield from self.ask_all("return", list(range(n)), [[("return", h) for h in d] for d in drawn])
        self.revealed.clear()
        for s in range(n):
            c = keep[s][1]
            self.st_kept[p.dix[c]] += 1
            self.join(s, c)
            self.char_deck.extend(x for x in offered[s] if x != c)
            self.hand[s].extend(x for x in drawn[s] if x != back[s][1])
            self.bonus_deck.append(back[s][1])
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

    # ------------------------------------------------------------------ using cards
    def _can(self, s: int, ops: tuple) -> bool:
        """Whether an own-phase card or ability would do something now (DECISION: the engine
        offers only cards that can take effect)."""
        if not ops:
            return False
        name, a = ops[0]
        if name == "draw_bonus":
            return len(self.hand[s]) <= HAND_LIMIT and bool(self.bonus_deck or self.bonus_discard)
        if name == "hire":
            if len(self.group[s]) >= GROUP_LIMIT:
                return False
            return bool(self.char_discard) if a["source"] == "discard" else bool(self.char_deck or self.char_discard)
        if name == "steal_bonus":
            L = self.loc[s]
            return L >= 0 and any(t != s and self.loc[t] == L and self.hand[t] for t in range(self.n))
        if name == "peek":
            return len(self._peek_deck(s, a["deck"])) >= 2
        if name == "sleep":
            return bool(self._sleep_targets(s, a["target"]))
        return True

    def _users(self, s: int, h: int) -> list[int]:
        """Characters of ``s`` who may play skill card ``h`` (awake, not rotated, with its
        skill; a rotated Magic character too while the organisation's free Magic play is left)."""
        p = self.p
        bits = p.skill[h]
        free = bits == 1 and not self.free_used[s] and self.duty(s, "free_magic")
        rot, asleep, skill = self.rot, self.asleep, p.skill
        return [c for c in self.group[s] if skill[c] & bits and not asleep[c] and (free or not rot[c])]

    def _card_options(self, s: int, h: int, verb: str = "play") -> list[tuple]:
        if self.p.bsub[h] == B_SKILL:
            return [(verb, h, c) for c in self._users(s, h)]
        return [(verb, h, -1)]

    def plays(self, s: int, phase: int) -> list[tuple]:
        """Cards of the hand and rotate abilities ``s`` may use in its own ``phase`` step."""
        p = self.p
        win, ops = p.win, p.ops
        out: list[tuple] = []
        for h in self.hand[s]:
            w = win[h]
            if w == W_NORMAL:
                if p.bphase[h] >= 0 and p.bphase[h] != phase:
                    continue
                if p.bsub[h] == B_ORG:
                    if self.org[s] or (p.needs[h] and not self.has_skill(s, p.needs[h])):
                        continue
                    out.append(("play", h, -1))
                elif self._can(s, ops[h]):
                    out += self._card_options(s, h)
            elif (w == W_TRAVEL and phase == MOVEMENT and self.active) or \
                    (w == W_CLAIM and phase == EXPLORATION and self._rewards(s, self.loc[s])):
                out += self._card_options(s, h)
        rot, asleep = self.rot, self.asleep
        for c in self.group[s]:
            if win[c] == W_NORMAL and not rot[c] and not asleep[c] and \
                    (p.cphase[c] < 0 or p.cphase[c] == phase) and self._can(s, ops[c]):
                out.append(("use", c))
        return out

    def play_card(self, s: int, h: int, c: int) -> Flow[bool]:
        """Play bonus card ``h`` (a skill card with character ``c``, who rotates): a rival may
        cancel it; then its operations resolve and it goes to the discard pile, or an
        organisation stays in front of its member. Returns False when it was cancelled."""
        p = self.p
        self.hand[s].remove(h)
        self.played.append((p.dix[h], s))
        if c >= 0:
            if p.skill[h] == 1 and not self.free_used[s] and self.duty(s, "free_magic"):
                self.free_used[s] = True
            else:
                self.rot[c] = True
        if self.log is not None:
            self.log.append(("play", s, p.cid[h],))
        self.revealed.append(h)
        countered = yield from self.counter(s, h)
        self.revealed.remove(h)
        if countered:
            self.bonus_discard.append(h)
            return False
        if p.bsub[h] == B_ORG:
            self.org[s].append(h)
            return True
        self.revealed.append(h)
        yield from self.run(s, h, p.ops[h])
        self.revealed.remove(h)
        self.bonus_discard.append(h)
        return True

    def use_ability(self, s: int, c: int) -> Flow[None]:
        self.rot[c] = True
        self.played.append((self.p.dix[c], s))
        if self.log is not None:
            self.log.append(("use", s, self.p.cid[c],))
        yield from self.run(s, c, self.p.ops[c])

    def act(self, s: int, choice: tuple) -> Flow[bool]:
        """Carry out a ``play`` or ``use`` option."""
        if choice[0] == "use":
            yield from self.use_ability(s, choice[1])
            return True
        return (yield from self.play_card(s, choice[1], choice[2]))

    def run(self, s: int, src: int, ops: tuple) -> Flow[None]:
        """Resolve operations for ``s`` (``src`` is the card they come from)."""
        if not ops:
            return
        self._abort = False
        table = OPS
        for name, args in ops:
            yield from table[name](self, s, src, **args)
            if self._abort:
                self._abort = False
                break

    def counter(self, s: int, h: int) -> Flow[bool]:
        """DECISION: when a seat plays a bonus card, every other seat (in turn order) that can
        may cancel it with a `cancel: bonus` card; that card itself cannot be cancelled."""
        p = self.p
        for t in self.order or range(self.n):
            if t == s or self.lost[t]:
                continue
            opts = [o for x in self.hand[t] if p.win[x] == W_CANCEL_BONUS for o in self._card_options(t, x)]
            opts += [("use", c) for c in self.group[t] if p.win[c] == W_CANCEL_BONUS and not self.rot[c]
                     and not self.asleep[c]]
            if not opts:
                continue
            c = (_o[0] if len(_o := [("pass",)] + opts) == 1 and self.auto
                 else (yield Decision("counter", (t,), [_o]))[0])
            if c[0] == "pass":
                continue
            if c[0] == "use":
                self.rot[c[1]] = True
                self.played.append((p.dix[c[1]], t))
            else:
                self.hand[t].remove(c[1])
                self.played.append((p.dix[c[1]], t))
                if c[2] >= 0:
                    self.rot[c[2]] = True
                self.bonus_discard.append(c[1])
            if self.log is not None:
                self.log.append(("counter", t, p.cid[h],))
            return True
        return False

    def window(self, s: int, w: int, extra: Any = None) -> list[tuple]:
        """Options of ``s`` to use a card or ability of window ``w`` (reroll kinds / level in
        ``extra``)."""
        p = self.p
        out: list[tuple] = []
        for h in self.hand[s]:
            if p.win[h] == w and self._fits(h, w, extra):
                out += self._card_options(s, h)
        for c in self.group[s]:
            if p.win[c] == w and not self.rot[c] and not self.asleep[c] and self._fits(c, w, extra):
                out.append(("use", c))
        return out

    def _fits(self, h: int, w: int, extra: Any) -> bool:
        if w == W_REROLL:
            return bool(self.p.rkind[h] & extra)
        if w in (W_CANCEL_EVENT, W_CANCEL_MONSTER):
            return any(n == "cancel" and a.get("level", 3) >= extra for n, a in self.p.ops[h])
        return True

    def _rerolls(self, s: int) -> bool:
        """Whether ``s`` holds a reroll card or an unused reroll ability at all (a quick test
        before the window)."""
        win = self.p.win
        for h in self.hand[s]:
            if win[h] == W_REROLL:
                return True
        for c in self.group[s]:
            if win[c] == W_REROLL and not self.rot[c]:
                return True
        return False

    def _armed(self, s: int) -> bool:
        """Whether ``s`` may have something for a battle window (a quick test)."""
        p = self.p
        win = p.win
        for h in self.hand[s]:
            w = win[h]
            if w == W_BATTLE or w == W_CANCEL_MONSTER or p.pvp_sleep[h]:
                return True
        for c in self.group[s]:
            w = win[c]
            if (w == W_BATTLE or w == W_CANCEL_MONSTER) and not self.rot[c]:
                return True
        return False

    def reroll(self, s: int, value: int, kind: int) -> Flow[int]:
        """After a roll of ``s``: it may reroll with a card or ability that rerolls this kind of
        roll (``kind``: a bit of ROLL_KINDS), keeping the new result; again while it can."""
        while True:
            opts = self.window(s, W_REROLL, kind)
            if not opts:
                return value
            c = (_o[0] if len(_o := [("pass",)] + opts) == 1 and self.auto
                 else (yield Decision("reroll", (s,), [_o]))[0])
            if c[0] == "pass":
                return value
            yield from self.act(s, c)
            value = self.resolve(D6)
            if self.log is not None:
                self.log.append(("reroll", s, value,))

    # ------------------------------------------------------------------ battles
    def battle(self, s: int, t: int = -1, monster: int = -1, foe: int = 0, lair: int = 0) -> Flow[tuple[int, int]]:
        """A battle of the group of ``s`` against seat ``t``, a monster, or a foe of Strength
        ``foe``. Returns (outcome, margin) from the side of ``s``: WIN, LOSE, FLED (avoided),
        CANCELLED (a monster sent away). Battle cards are played first (``s``, then ``t``),
        then each side rolls a d6 and may reroll; a rival's die (a chance) rolls for a monster
        or foe. A tie goes to the group against a monster or foe, and is rolled again between
        groups."""
        p = self.p
        self.b_str[s] = 0
        if t >= 0:
            self.b_str[t] = 0
            # the Unseen: the opponent of a member has less Strength in battles between groups
            for o in self.org[s]:
                self.b_str[t] -= p.pvp_hinder[o]
            for o in self.org[t]:
                self.b_str[s] -= p.pvp_hinder[o]
        self._foe_mod = 0
        self._flag = False                         # fled
        self._cancel = False
        self._battle = (s, t, monster)
        self._foe_str = foe
        if monster >= 0:
            self.st_fights[p.dix[monster]] += 1
            if p.ops[monster]:
                yield from self.run(s, monster, p.ops[monster])     # as the battle starts
        if self._armed(s):
            yield from self.battle_cards(s, t, monster)
        if t >= 0 and not self._flag and self._armed(t):
            yield from self.battle_cards(t, s, -1)
        if self._cancel:
            self._end_battle(s, t)
            return CANCELLED, 0
        if self._flag:
            self._end_battle(s, t)
            if self.log is not None:
                self.log.append(("fled", s,))
            return FLED, 0
        ds = self.resolve(D6)
        if self._rerolls(s):
            ds = yield from self.reroll(s, ds, 2)
        if t >= 0:
            dt = self.resolve(D6)
            if self._rerolls(t):
                dt = yield from self.reroll(t, dt, 2)
            mine, theirs = self.strength(s) + ds, self.strength(t) + dt
            while mine == theirs:                  # DECISION: a tie between groups is rolled again
                ds = self.resolve(D6)
                dt = self.resolve(D6)
                mine, theirs = self.strength(s) + ds, self.strength(t) + dt
        else:
            base = p.mstr[monster] + lair + p.grows[monster] * len(self.group[s]) if monster >= 0 else foe
            df = self.resolve(D6)
            mine = self.strength(s) + ds
            theirs = max(0, base + self._foe_mod) + df
        self._end_battle(s, t)
        self.last_battle = {"seat": s, "opponent": t, "monster": monster, "foe": foe,
                            "totals": (mine, theirs)}
        if self.log is not None:
            self.log.append(("battle", s, t, p.cid[monster] if monster >= 0 else foe, mine, theirs,))
        if mine >= theirs if t < 0 else mine > theirs:
            return WIN, mine - theirs
        if monster >= 0:
            self.st_mwins[p.dix[monster]] += 1
        return LOSE, theirs - mine

    def _end_battle(self, s: int, t: int) -> None:
        self.b_str[s] = 0
        if t >= 0:
            self.b_str[t] = 0
        self._battle = None

    def battle_cards(self, s: int, t: int, monster: int) -> Flow[None]:
        """The battle window of ``s``: battle cards and abilities, cancelling a monster, fleeing;
        `fight` (labelled `pass`) starts the dice."""
        p = self.p
        while not self._flag and not self._cancel:
            avoid = not (monster >= 0 and (p.unavoidable[monster] or self.duty(s, "no_avoid")))
            immune = p.immune[monster] if monster >= 0 else 0
            opts: list[tuple] = []
            for h in self.hand[s]:
                w = p.win[h]
                if w == W_BATTLE or (w == W_NORMAL and t >= 0 and p.pvp_sleep[h] and
                                     self._sleep_targets(s, "near")):
                    if p.skill[h] & immune:
                        continue
                    if not avoid and any(n == "flee" for n, _ in p.ops[h]):
                        continue
                    opts += self._card_options(s, h)
                elif w == W_CANCEL_MONSTER and monster >= 0 and avoid and self._fits(h, w, p.level[monster]) \
                        and not p.skill[h] & immune:
                    opts += self._card_options(s, h)
            for c in self.group[s]:
                if self.rot[c] or self.asleep[c]:
                    continue
                w = p.win[c]
                if w == W_BATTLE and (avoid or not any(n == "flee" for n, _ in p.ops[c])):
                    opts.append(("use", c))
                elif w == W_CANCEL_MONSTER and monster >= 0 and avoid and self._fits(c, w, p.level[monster]):
                    opts.append(("use", c))
            if not opts:
                return
            c = (_o[0] if len(_o := [("pass",)] + opts) == 1 and self.auto
                 else (yield Decision("battle", (s,), [_o]))[0])
            if c[0] == "pass":
                return
            yield from self.act(s, c)

    def lose_battle(self, s: int, margin: int, monster: int = -1) -> Flow[None]:
        """What losing costs: a loss by 5 or more kills a character of the owner's choice
        (DECISION: a monster whose defeat effects kill replaces that death with its own); the
        monster's and the organisation's defeat effects; the turn of ``s`` ends."""
        p = self.p
        fx = p.defeat[monster] if monster >= 0 else ()
        if margin >= KILL_MARGIN and not any(n == "kill" for n, _ in fx):
            yield from self.kill_one(s)
        if fx:
            yield from self.run(s, monster, fx)
        for o in list(self.org[s]):
            if p.defeat[o]:
                yield from self.run(s, o, p.defeat[o])
        self.lost[s] = True

    def kill_one(self, s: int) -> Flow[None]:
        if self.group[s]:
            c = (_o[0] if len(_o := [("lose", x) for x in self.group[s]]) == 1 and self.auto
                 else (yield Decision("kill", (s,), [_o]))[0])
            yield from self.die_char(s, c[1])

    def die_char(self, s: int, c: int) -> Flow[None]:
        """Character ``c`` dies, unless a guardian of the group rotates to make it sleep instead
        (DECISION: not a character that cannot sleep). A group left empty takes the top
        character of the deck as its new group, on the road, without its organisation, and its
        turn ends."""
        p = self.p
        if not p.sleepless[c]:
            guards = [g for g in self.group[s] if p.win[g] == W_GUARD and not self.rot[g] and not self.asleep[g]]
            if guards:
                g = (_o[0] if len(_o := [("pass",)] + [("guard", x) for x in guards]) == 1 and self.auto
                     else (yield Decision("guard", (s,), [_o]))[0])
                if g[0] == "guard":
                    self.rot[g[1]] = True
                    self.asleep[c] = True
                    self.played.append((p.dix[g[1]], s))
                    if self.log is not None:
                        self.log.append(("guard", s, p.cid[c],))
                    return
        self.leave_group(s, c)
        self.char_discard.append(c)
        self.st_died[p.dix[c]] += 1
        if self.log is not None:
            self.log.append(("dies", s, p.cid[c],))
        if not self.group[s]:
            self.bonus_discard.extend(self.org[s])
            self.org[s] = []
            x = yield from self.draw_char()
            if x >= 0:
                self.join(s, x)
            self.off_road(s)
            self.lost[s] = True
            self.wiped[s] += 1
            if self.log is not None:
                self.log.append(("new_group", s,))

    # ------------------------------------------------------------------ events
    def resolve_event(self, s: int, ev: int, L: int, lead: bool) -> Flow[int]:
        """Resolve event ``ev`` for the group of ``s`` at location ``L`` (a lead event stays on
        its location while a monster is not beaten). Returns PASS, FAIL or ALARM (the event is
        above the location's level: discarded, no effect)."""
        p = self.p
        self._ctx_loc = L
        if not lead:
            self.revealed.append(ev)
        self.played.append((p.dix[ev], s))
        if p.level[ev] > p.level[L]:
            self._discard_event(ev, L, lead)
            self.st_alarms += 1
            if self.log is not None:
                self.log.append(("false_alarm", s, p.cid[ev],))
            return ALARM
        if p.monster[ev]:
            res, margin = yield from self.battle(s, monster=ev, lair=p.lair[L] if lead else 0)
            if res in (WIN, CANCELLED):
                self._discard_event(ev, L, lead)
                return PASS
            if res == LOSE:
                yield from self.lose_battle(s, margin, ev)
            if not lead:
                self._discard_event(ev, L, lead)
            return FAIL
        opts = self.window(s, W_CANCEL_EVENT, p.level[ev])
        if opts:
            c = (_o[0] if len(_o := [("pass",)] + opts) == 1 and self.auto
                 else (yield Decision("cancel", (s,), [_o]))[0])
            if c[0] != "pass":
                self._cancel = False
                yield from self.act(s, c)
                if self._cancel:
                    self._cancel = False
                    self._discard_event(ev, L, lead)
                    return PASS
        if lead:                                   # a plain lead event is resolved and discarded
            del self.lead[L]
            self.lead_up.discard(L)
            self.faced.discard(L)
            self.revealed.append(ev)
        self._blocked = False
        yield from self.run(s, ev, p.ops[ev])
        self.revealed.remove(ev)
        self.event_discard.append(ev)
        blocked, self._blocked = self._blocked, False
        return FAIL if self.lost[s] or blocked else PASS

    def _discard_event(self, ev: int, L: int, lead: bool) -> None:
        if lead:
            del self.lead[L]
            self.lead_up.discard(L)
            self.faced.discard(L)
        else:
            self.revealed.remove(ev)
        self.event_discard.append(ev)

    # ------------------------------------------------------------------ the discard phase
    def discard_step(self, s: int) -> Flow[None]:
        p = self.p
        for o in list(self.org[s]):                # a duty that can no longer be met
            if p.needs[o] and not self.has_skill(s, p.needs[o]):
                self.org[s].remove(o)
                self.bonus_discard.append(o)
        discarded = False
        while not self.lost[s]:
            # DECISION: one voluntary discard in a discard step (a bonus card, a character or
            # the organisation): announce it (`discard`), then choose it (kind `drop`)
            opts = [("pass",)]
            if not discarded and (self.hand[s] or len(self.group[s]) > 1 or self.org[s]):
                opts.append(("discard",))
            opts += self.plays(s, DISCARD)
            c = (_o[0] if len(_o := opts) == 1 and self.auto
                 else (yield Decision("discard", (s,), [_o]))[0])
            v = c[0]
            if v == "pass":
                return
            if v == "discard":
                opts = [("drop", h) for h in self.hand[s]]
                if len(self.group[s]) > 1:
                    opts += [("dismiss", x) for x in self.group[s]]
                if self.org[s]:
                    opts.append(("leave",))
                c = (_o[0] if len(_o := opts) == 1 and self.auto
                     else (yield Decision("drop", (s,), [_o]))[0])
                v = c[0]
                discarded = True
            if v == "drop":
                self.hand[s].remove(c[1])
                self.bonus_discard.append(c[1])
                self.dropped.append((c[1], s))
            elif v == "dismiss":
                self.leave_group(s, c[1])
                self.char_discard.append(c[1])
                self.dismissed.append((c[1], s))
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
                    c = (_o[0] if len(_o := [("pass",)] + [("take", x) for x in cands]) == 1 and self.auto
                         else (yield Decision("pickup", (s,), [_o]))[0])
                    if c[0] == "take":
                        self.char_discard.remove(c[1])
                        self.join(s, c[1])
        if self.dropped:
            sizes = [len(self.hand[s]) for s in range(n)]
            low = min(sizes)
            few = [s for s in range(n) if sizes[s] == low]
            s = few[0]
            if len(few) == 1 and not self.lost[s] and low < HAND_LIMIT:
                cands = [h for h, by in self.dropped if by != s and h in self.bonus_discard]
                if cands:
                    c = (_o[0] if len(_o := [("pass",)] + [("take", x) for x in cands]) == 1 and self.auto
                         else (yield Decision("pickup", (s,), [_o]))[0])
                    if c[0] == "take":
                        self.bonus_discard.remove(c[1])
                        self.hand[s].append(c[1])

    # ------------------------------------------------------------------ the movement phase
    def moves(self, s: int) -> list[tuple]:
        """The announcements of the movement phase: `stay`, `go` (then the location), `new` (a
        new location: then from the deck or the discard pile), `rest`."""
        here = self.loc[s]
        opts: list[tuple] = [("stay",)] if here >= 0 else []
        self._goes = self.goes(s)                   # kept for the `go` and `new` choices
        self._news = self.news(s)
        if self._goes:
            opts.append(("go",))
        if self._news:
            opts.append(("new",))
        if not self.duty(s, "no_rest"):
            opts.append(("rest",))
        if not opts:
            # DECISION: a group with no legal move (on the road, with the location tree, no
            # level 1 location active, another seat exploring, a duty forbidding rest) waits
            opts.append(("stay",))
        return opts

    def goes(self, s: int) -> list[tuple]:
        here = self.loc[s]
        return [("go", L) for L in self.active if L != here and self.reachable(s, L)]

    def news(self, s: int) -> list[tuple]:
        if self.explorer >= 0 or len(self.active) > self.limit:
            return []
        opts: list[tuple] = []
        for i, deck in enumerate(self.loc_decks):
            if deck and (not self.tree or self._level_ok(s, i + 1)):
                opts.append(("new_deck", i + 1) if self.tree else ("new_deck",))
        lv = self.p.level
        opts += [("new_pick", L) for L in self.loc_discard if not self.tree or self._level_ok(s, lv[L])]
        return opts

    def _level_ok(self, s: int, level: int) -> bool:
        if self.ticket[s] == self.turn:
            return True
        return level == 1 if self.loc[s] < 0 else abs(level - self.p.level[self.loc[s]]) <= 1

    def movement_step(self, s: int) -> Flow[None]:
        p = self.p
        self._travel = False
        while not self.lost[s]:
            c = (_o[0] if len(_o := self.moves(s) + self.plays(s, MOVEMENT)) == 1 and self.auto
                 else (yield Decision("move", (s,), [_o]))[0])
            v = c[0]
            if v in ("play", "use"):
                self._travel = False
                yield from self.act(s, c)
                if self._travel:
                    self._travel = False
                    d = (_o[0] if len(_o := [("to", L) for L in self.active]) == 1 and self.auto
                         else (yield Decision("to", (s,), [_o]))[0])
                    yield from self.arrive(s, d[1], transit=False)
                    return
                continue
            if v == "stay":
                self.arrived[s] = self.loc[s] >= 0
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
                c = (_o[0] if len(_o := self._goes) == 1 and self.auto
                     else (yield Decision("go", (s,), [_o]))[0])
                L = yield from self.redirect(s, c[1])
                yield from self.arrive(s, L)
            else:
                c = (_o[0] if len(_o := self._news) == 1 and self.auto
                     else (yield Decision("new", (s,), [_o]))[0])
                v = c[0]
                if v == "new_deck":
                    L = self.loc_decks[c[1] - 1 if self.tree else 0].pop()
                else:
                    L = c[1]
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
            dests = [("to", x) for x in self.active if x != L and self.reachable(s, x)]
            if not dests:
                return L
            c = (_o[0] if len(_o := [("pass",)] + opts) == 1 and self.auto
                 else (yield Decision("redirect", (t,), [_o]))[0])
            if c[0] == "pass":
                continue
            self._redirect = False
            yield from self.act(t, c)
            if self._redirect:
                self._redirect = False
                d = (_o[0] if len(_o := dests) == 1 and self.auto
                     else (yield Decision("to", (t,), [_o]))[0])
                if self.log is not None:
                    self.log.append(("redirect", t, s, p.cid[d[1]],))
                return d[1]
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
        and the monster with it to the event discard pile). Any other seat may
        save the chosen one by discarding a bonus card (DECISION: while another candidate is
        left), and the explorer chooses again. DECISION: with nothing removable, the table stays
        over the limit (by one at most: nobody may explore meanwhile) and the last explorer
        tries again after each later move."""
        p = self.p
        chooser = self.explorer if self.explorer >= 0 else self._last_explorer
        self._last_explorer = chooser
        while len(self.active) > self.limit:
            taken = {L for L in self.loc if L >= 0}
            cands = [L for L in self.active if L not in taken and (L not in self.lead or L in self.faced)]
            if not cands or chooser < 0:
                return
            c = (_o[0] if len(_o := [("remove", L) for L in cands]) == 1 and self.auto
                 else (yield Decision("remove", (chooser,), [_o]))[0])
            L = c[1]
            saved = False
            if len(cands) > 1:
                for t in self.order:
                    if t == chooser or self.lost[t] or not self.hand[t]:
                        continue
                    d = (_o[0] if len(_o := [("pass",), ("save",)]) == 1 and self.auto
                         else (yield Decision("save", (t,), [_o]))[0])
                    if d[0] == "save":
                        d = (_o[0] if len(_o := [("pay", h) for h in self.hand[t]]) == 1 and self.auto
                             else (yield Decision("pay", (t,), [_o]))[0])
                        self.hand[t].remove(d[1])
                        self.bonus_discard.append(d[1])
                        if self.log is not None:
                            self.log.append(("save", t, p.cid[L],))
                        saved = True
                        break
            if saved:
                # the saved location is kept: the explorer chooses among the others
                cands.remove(L)
                c = (_o[0] if len(_o := [("remove", x) for x in cands]) == 1 and self.auto
                     else (yield Decision("remove", (chooser,), [_o]))[0])
                L = c[1]
            self.active.remove(L)
            self.loc_discard.append(L)
            if L in self.lead:
                self.event_discard.append(self.lead.pop(L))
                self.lead_up.discard(L)
                self.faced.discard(L)
            if self.log is not None:
                self.log.append(("removed", p.cid[L],))

    _last_explorer = -1
    _moving = -1
    _travel = False
    _redirect = False
    _cancel = False
    _claim = False
    _battle: tuple[int, int, int] | None = None
    _foe_mod = 0
    _foe_str = 0
    _blocked = False

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
        traded: set[int] = set()
        while not self.lost[s] and self.loc[s] == L:
            opts: list[tuple] = [("pass",)]
            gs = len(self.group[s])
            for t in range(self.n):
                if t != s and self.loc[t] == L and (min(s, t), max(s, t)) not in self.fought and \
                        abs(gs - len(self.group[t])) <= 1:
                    opts.append(("attack", t))
            if self.can_trade(s):
                opts += [("trade", t) for t in range(self.n) if t != s and t not in traded and self.can_trade(t)
                         and self._offers(s)]
            opts += self.plays(s, INTERACTION)
            c = (_o[0] if len(_o := opts) == 1 and self.auto
                 else (yield Decision("interact", (s,), [_o]))[0])
            v = c[0]
            if v == "pass":
                return
            if v == "attack":
                yield from self.pvp(s, c[1])
            elif v == "trade":
                traded.add(c[1])
                yield from self.trade(s, c[1])
            else:
                yield from self.act(s, c)

    def _offers(self, s: int) -> list[tuple]:
        out = [("give", h) for h in self.hand[s]]
        if len(self.group[s]) > 1:
            out += [("give", c) for c in self.group[s]]
        return out

    def trade(self, s: int, t: int) -> Flow[None]:
        """DECISION: a trade is one card for one card: ``s`` offers a bonus card or a character
        (never its last), ``t`` answers with one of its own or declines; hand and group limits
        hold after the swap."""
        p = self.p
        c = (_o[0] if len(_o := self._offers(s)) == 1 and self.auto
             else (yield Decision("offer", (s,), [_o]))[0])
        x = c[1]
        xk = p.kind[x]
        answers = [("pass",)]
        for y in self.hand[t] + (self.group[t] if len(self.group[t]) > 1 else []):
            yk = p.kind[y]
            if xk == yk:
                answers.append(("give", y))
            elif xk == CHAR:      # t gets a character, gives a bonus
                if len(self.group[t]) < GROUP_LIMIT and len(self.hand[s]) < HAND_LIMIT:
                    answers.append(("give", y))
            elif len(self.group[s]) < GROUP_LIMIT and len(self.hand[t]) < HAND_LIMIT:
                answers.append(("give", y))
        d = (_o[0] if len(_o := answers) == 1 and self.auto
             else (yield Decision("answer", (t,), [_o]))[0])
        if d[0] == "pass":
            if self.log is not None:
                self.log.append(("trade_declined", s, t,))
            return
        y = d[1]
        self._move_card(s, t, x)
        self._move_card(t, s, y)
        if self.log is not None:
            self.log.append(("trade", s, t, p.cid[x], p.cid[y],))

    def _move_card(self, a: int, b: int, x: int) -> None:
        if self.p.kind[x] == CHAR:
            self.group[a].remove(x)
            self.group[b].append(x)
        else:
            self.hand[a].remove(x)
            self.hand[b].append(x)

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
        if self.hand[l]:
            i = yield from self.pick_random("steal", self.hand[l])
            yield from self.gain(w, self.hand[l].pop(i))
        yield from self.lose_battle(l, margin)
        self.off_road(l)

    # ------------------------------------------------------------------ the exploration phase
    def exploration_step(self, s: int) -> Flow[None]:
        p = self.p
        L = self.loc[s]
        holds = [m for m, g in self.open_goals(s) if g[0] == G_HOLD and p.loc_of_dix.get(g[1]) == L]
        if holds:
            # DECISION: a hold goal counts each exploration phase the group spends at its
            # location in a row; a turn elsewhere, on the road or lost starts it again.
            if self.hold_loc[s] == L and self.hold_turn[s] == self.turn - 1:
                self.hold_n[s] += 1
            else:
                self.hold_n[s] = 1
            self.hold_loc[s], self.hold_turn[s] = L, self.turn
            for m in holds:
                if self.hold_n[s] >= p.goals[m][self.gi[m] if not p.final[m] else self.fgi[s]][3]:
                    yield from self.complete_goal(s, m)
        while not self.lost[s] and self.loc[s] == L:
            opts: list[tuple] = [("pass",)]
            if not (p.solitary[L] and self.explored_at.get(L) == self.turn):
                opts.append(("explore",))
            dl = p.dix[L]
            for m, g in self.open_goals(s):
                if g[0] == G_SPEED:
                    opts.append(("speed", m))
                elif g[0] == G_BATTLE and g[1] == dl and (not g[5] or self.has_skill(s, g[5])):
                    opts.append(("challenge", m))
            opts += self.plays(s, EXPLORATION)
            c = (_o[0] if len(_o := opts) == 1 and self.auto
                 else (yield Decision("explore", (s,), [_o]))[0])
            v = c[0]
            if v == "pass":
                return
            if v == "explore":
                yield from self.explore(s, L)
                return
            if v == "speed":
                yield from self.speed_check(s, c[1])
                return
            if v == "challenge":
                yield from self.challenge(s, c[1])
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
        p = self.p
        g = p.goals[m][self.fgi[s] if p.final[m] else self.gi[m]]
        res, margin = yield from self.battle(s, foe=g[4])
        if res == WIN:
            yield from self.complete_goal(s, m)
        elif res == LOSE:
            yield from self.lose_battle(s, margin)
            self.off_road(s)

    def speed_check(self, s: int, m: int) -> Flow[None]:
        """DECISION: a Speed check goal is tried in the exploration phase instead of exploring,
        at any location, once a turn: d6 + group Speed reaching the difficulty."""
        p = self.p
        g = p.goals[m][self.fgi[s] if p.final[m] else self.gi[m]]
        d = self.resolve(D6)
        if self._rerolls(s):
            d = yield from self.reroll(s, d, 8)
        total = self.speed(s) + d
        if self.log is not None:
            self.log.append(("speed_check", s, p.cid[m], total, g[2],))
        self.last_check = (s, total, g[2])
        if total >= g[2]:
            yield from self.complete_goal(s, m)

    last_check: tuple | None = None

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

    def _rewards(self, s: int, L: int) -> list[tuple]:
        """The reward options of ``s`` at ``L``."""
        if L < 0:
            return []
        p = self.p
        out: list[tuple] = []
        for i, (kind, ops) in enumerate(p.rewards[L]):
            if kind == R_BONUS:
                if len(self.hand[s]) < HAND_LIMIT and (self.bonus_deck or self.bonus_discard):
                    out.append(("reward", kind, i, -1))
            elif kind == R_HIRE:
                if len(self.group[s]) < GROUP_LIMIT and (self.char_deck or self.char_discard) \
                        and (self.hired[s] != (L, self.turn - 1) or p.rehire[L]) \
                        and not (p.trade[L] and self.duty(s, "no_hire_trade")):
                    out.append(("reward", kind, i, -1))
            elif kind == R_MISSION:
                dl = p.dix[L]
                for m, g in self.open_goals(s):
                    if g[0] == G_VISIT and g[1] == dl and (not g[5] or self.has_skill(s, g[5])):
                        out.append(("reward", kind, i, m))
            else:
                out.append(("reward", kind, i, -1))
        return out

    def reward(self, s: int, L: int) -> Flow[None]:
        p = self.p
        opts = self._rewards(s, L)
        if not opts:
            return
        c = (_o[0] if len(_o := opts) == 1 and self.auto
             else (yield Decision("reward", (s,), [_o]))[0])
        kind, ops = p.rewards[L][c[2]]
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
            yield from self.complete_goal(s, c[3])
        else:
            yield from self.run(s, L, ops)

    # ------------------------------------------------------------------ operations
    # Each runs for seat ``s`` (the player of the card, owner of the character, or the group
    # facing the event); ``src`` is the card it comes from.
    @operation("draw_bonus", count=int)
    def op_draw_bonus(self, s: int, src: int, count: int) -> Flow[None]:
        for _ in range(count):
            if len(self.hand[s]) >= HAND_LIMIT:
                break
            h = yield from self._draw(self.bonus_deck, self.bonus_discard)
            if h < 0:
                break
            self.hand[s].append(h)

    @operation("lose_bonus", count=int)
    def op_lose_bonus(self, s: int, src: int, count: int) -> Flow[None]:
        for _ in range(min(count, len(self.hand[s]))):
            c = (_o[0] if len(_o := [("discard", h) for h in self.hand[s]]) == 1 and self.auto
                 else (yield Decision("lose", (s,), [_o]))[0])
            self.hand[s].remove(c[1])
            self.bonus_discard.append(c[1])

    def _take_from(self, s: int, victims: list[int], count: int) -> Flow[None]:
        victims = [t for t in victims if self.hand[t]]
        if not victims:
            return
        t = victims[0]
        if len(victims) > 1:
            c = (_o[0] if len(_o := [("rob", x) for x in victims]) == 1 and self.auto
                 else (yield Decision("victim", (s,), [_o]))[0])
            t = c[1]
        for _ in range(count):
            if not self.hand[t]:
                break
            i = yield from self.pick_random("steal", self.hand[t])
            yield from self.gain(s, self.hand[t].pop(i))

    @operation("steal_bonus", count=int)
    def op_steal_bonus(self, s: int, src: int, count: int) -> Flow[None]:
        if self._foe >= 0:
            victims = [self._foe]
        else:
            L = self.loc[s]
            victims = [t for t in range(self.n) if t != s and L >= 0 and self.loc[t] == L]
        yield from self._take_from(s, victims, count)

    @operation("rob", count=int)
    def op_rob(self, s: int, src: int, count: int) -> Flow[None]:
        yield from self._take_from(s, [t for t in range(self.n) if t != s], count)

    @operation("hire", source=("deck", "discard"))
    def op_hire(self, s: int, src: int, source: str) -> Flow[None]:
        if len(self.group[s]) >= GROUP_LIMIT:
            return
        if source == "deck":
            x = yield from self.draw_char()
            if x >= 0:
                self.join(s, x)
        elif self.char_discard:
            c = (_o[0] if len(_o := [("recruit", x) for x in self.char_discard]) == 1 and self.auto
                 else (yield Decision("recruit", (s,), [_o]))[0])
            self.char_discard.remove(c[1])
            self.join(s, c[1])

    def _mod(self, s: int, stat: str, v: int, until: str) -> None:
        if until == "battle":
            if stat == "strength" and self._battle is not None:
                self.b_str[s] += v
        elif until == "turn":
            if stat == "strength":
                self.t_str[s] += v
            else:
                self.t_spd[s] += v
        elif until == "next_turn":
            if stat == "strength":
                self.n_str[s] += v
            else:
                self.n_spd[s] += v
        # `ongoing` lasts while its card is in play: read from the card tables

    @operation("boost", stat=("strength", "speed"), amount=int, until=("battle", "turn", "next_turn", "ongoing"))
    def op_boost(self, s: int, src: int, stat: str, amount: int, until: str) -> Flow[None]:
        self._mod(s, stat, amount, until)
        return
        yield

    @operation("weaken", stat=("strength", "speed"), amount=int, until=("battle", "turn", "next_turn", "ongoing"))
    def op_weaken(self, s: int, src: int, stat: str, amount: int, until: str) -> Flow[None]:
        self._mod(s, stat, -amount, until)
        return
        yield

    @operation("hinder", amount=int)
    def op_hinder(self, s: int, src: int, amount: int) -> Flow[None]:
        b = self._battle
        if b is not None:
            a, t, _ = b
            opp = t if s == a else a
            if opp >= 0:
                self.b_str[opp] -= amount
            else:
                self._foe_mod -= amount
        return
        yield

    @operation("lose_turn", which=("current", "next"))
    def op_lose_turn(self, s: int, src: int, which: str) -> Flow[None]:
        if which == "current":
            self.lost[s] = True
        else:
            self.skip[s] += 1
        return
        yield

    def _sleep_targets(self, s: int, target: str) -> list[int]:
        if target == "own":
            return [c for c in self.group[s] if self.can_sleep(c)]
        L = self.loc[s]
        out = []
        for t in range(self.n):
            if target == "near" and (t == s or L < 0 or self.loc[t] != L):
                continue
            out += [c for c in self.group[t] if self.can_sleep(c)]
        return out

    @operation("sleep", count=int, target=("own", "any", "near"))
    def op_sleep(self, s: int, src: int, count: int, target: str) -> Flow[None]:
        for _ in range(count):
            cands = self._sleep_targets(s, target)
            if not cands:
                return
            c = (_o[0] if len(_o := [("sleep", x) for x in cands]) == 1 and self.auto
                 else (yield Decision("sleep", (s,), [_o]))[0])
            self.asleep[c[1]] = True
            if self.log is not None:
                self.log.append(("asleep", self.p.cid[c[1]],))

    @operation("sleep_all", skill=("magic", "ki", "trickery"))
    def op_sleep_all(self, s: int, src: int, skill: str) -> Flow[None]:
        bit = SKILL_BIT[skill]
        for c in self.group[s]:
            if self.p.skill[c] & bit and self.can_sleep(c):
                self.asleep[c] = True
        return
        yield

    @operation("kill", count=int)
    def op_kill(self, s: int, src: int, count: int) -> Flow[None]:
        wiped = self.wiped[s]
        for _ in range(count):
            if self.wiped[s] != wiped:
                return                              # a new group is not struck again
            yield from self.kill_one(s)

    @operation("cull", below=int)
    def op_cull(self, s: int, src: int, below: int) -> Flow[None]:
        if len(self.group[s]) < below:
            yield from self.kill_one(s)

    @operation("reroll", roll=ROLL_KINDS)
    def op_reroll(self, s: int, src: int, roll: str) -> Flow[None]:
        """Acts in `reroll` (the window rolls again once the card or ability is used)."""
        return
        yield

    @operation("cancel", what=("event", "monster", "bonus"),
               level=core.Param(int, default=3, required=False))
    def op_cancel(self, s: int, src: int, what: str, level: int = 3) -> Flow[None]:
        """Events and monsters: marks the one being resolved as cancelled; bonus cards are
        cancelled in `counter`."""
        self._cancel = True
        return
        yield

    @operation("redirect")
    def op_redirect(self, s: int, src: int) -> Flow[None]:
        self._redirect = True
        return
        yield

    @operation("travel")
    def op_travel(self, s: int, src: int) -> Flow[None]:
        self._travel = True
        return
        yield

    @operation("claim_reward")
    def op_claim_reward(self, s: int, src: int) -> Flow[None]:
        self._claim = True
        return
        yield

    def _peek_deck(self, s: int, deck: str) -> list[int]:
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

    @operation("peek", deck=("event", "location", "bonus", "mission"), count=int)
    def op_peek(self, s: int, src: int, deck: str, count: int) -> Flow[None]:
        """DECISION: the player looks at the top cards and chooses the one to put on top; the
        others keep their order below it."""
        cards = self._peek_deck(s, deck)
        top = cards[-count:]
        if len(top) < 2:
            return
        c = (_o[0] if len(_o := [("top", h) for h in reversed(top)]) == 1 and self.auto
             else (yield Decision("peek", (s,), [_o]))[0])
        cards.remove(c[1])
        cards.append(c[1])

    @operation("draw_event", count=int)
    def op_draw_event(self, s: int, src: int, count: int) -> Flow[None]:
        L = self._ctx_loc
        if L < 0:
            return
        for _ in range(count):
            ev = yield from self.draw_event()
            if ev < 0:
                return
            r = yield from self.resolve_event(s, ev, L, lead=False)
            if r == FAIL:
                self._blocked = True               # the group did not get past it
                return
            if r == ALARM:
                self._alarm = True
                return

    @operation("flee")
    def op_flee(self, s: int, src: int) -> Flow[None]:
        """DECISION: the battle does not take place; the group does not get past a monster (it
        does not reach the location, or leaves it without a reward) but suffers nothing."""
        if self._battle is not None:
            self._flag = True
        return
        yield

    @operation("exchange")
    def op_exchange(self, s: int, src: int) -> Flow[None]:
        if not self.hand[s] or not self.bonus_discard:
            return
        c = (_o[0] if len(_o := [("give", h) for h in self.hand[s]]) == 1 and self.auto
             else (yield Decision("exchange", (s,), [_o]))[0])
        d = (_o[0] if len(_o := self._distinct(self.bonus_discard)) == 1 and self.auto
             else (yield Decision("take", (s,), [_o]))[0])
        self.hand[s].remove(c[1])
        self.bonus_discard.remove(d[1])
        self.bonus_discard.append(c[1])
        self.hand[s].append(d[1])

    def _distinct(self, cards: list[int]) -> list[tuple]:
        seen: set[str] = set()
        out = []
        cid = self.p.cid
        for h in cards:
            if cid[h] not in seen:
                seen.add(cid[h])
                out.append(("take", h))
        return out

    @operation("salvage")
    def op_salvage(self, s: int, src: int) -> Flow[None]:
        if not self.bonus_discard or len(self.hand[s]) >= HAND_LIMIT:
            return
        d = (_o[0] if len(_o := self._distinct(self.bonus_discard)) == 1 and self.auto
             else (yield Decision("take", (s,), [_o]))[0])
        self.bonus_discard.remove(d[1])
        self.hand[s].append(d[1])

    @operation("ticket")
    def op_ticket(self, s: int, src: int) -> Flow[None]:
        self.ticket[s] = self.turn + 1
        return
        yield

    @operation("unless_skill", skill=("magic", "ki", "trickery"))
    def op_unless_skill(self, s: int, src: int, skill: str) -> Flow[None]:
        if self.has_skill(s, SKILL_BIT[skill]):
            self._abort = True
        return
        yield

    @operation("fight", strength=int)
    def op_fight(self, s: int, src: int, strength: int) -> Flow[None]:
        res, margin = yield from self.battle(s, foe=strength)
        if res == LOSE:
            yield from self.lose_battle(s, margin)
            self.off_road(s)
        elif res == FLED:
            self.off_road(s)

    op_grows = passive("grows", "Monsters: +amount Strength per character of the group (`battle`).", amount=int)
    op_immune = passive("immune", "Monsters: skill cards of the skill are not offered (`battle_cards`).", skill=("magic", "ki", "trickery"))
    op_unavoidable = passive("unavoidable", "Monsters: no flee or cancel is offered (`battle_cards`).")
    op_lair = passive("lair", "Locations: its lead monster has +amount Strength (`resolve_event`).", amount=int)
    op_solitary = passive("solitary", "Locations: explored by one group a turn (`exploration_step`).")
    op_rehire = passive("rehire", "Locations: hiring on two turns in a row is allowed (`_rewards`).")
    op_sleepless = passive("sleepless", "Characters: never fall asleep (`can_sleep`).")
    op_guardian = passive("guardian", "Characters: rotate to turn a death into sleep (`die_char`).")
    op_no_avoid = passive("no_avoid", "Organisations: no flee or cancel against monsters (`battle_cards`).")
    op_no_trade = passive("no_trade", "Organisations: the member may not trade (`can_trade`).")
    op_no_rest = passive("no_rest", "Organisations: the member may not rest (`moves`).")
    op_trade_anywhere = passive("trade_anywhere", "Organisations: trading from any location (`can_trade`).")
    op_free_magic = passive("free_magic", "Organisations: the first Magic card a turn rotates nobody (`play_card`).")
    op_needs_skill = passive("needs_skill", "Organisations: discarded without a character of the skill (`discard_step`).", skill=("magic", "ki", "trickery"))
    op_no_hire_trade = passive("no_hire_trade", "Organisations: no hire reward at trade locations (`_rewards`).")

    # ------------------------------------------------------------------ the end
    def scores(self) -> list[int]:
        """DECISION: 10 for the winner, plus one per basic mission done (a capped game has no
        winner by the rules; it ranks by missions done, then goals reached)."""
        return [len(self.done[s]) + (10 if s == self.winner else 0) for s in range(self.n)]

    def tiebreak(self, seat: int) -> tuple:
        return (self.fgi[seat] + sum(self.gi[m] for m in self.missions[seat]),)

    def stats(self) -> dict:
        p = self.p
        ids = p.def_ids
        survivors = [0] * len(p.defs)
        for s in range(self.n):
            for c in self.group[s]:
                survivors[p.dix[c]] += 1
        return {
            "turns": self.turn, "capped": self.capped, "winner": self.winner,
            "missions": {ids[d]: t for d, t in self.st_mission_turn.items()},
            "final": ids[p.dix[self.final[0]]] if self.final else None,
            "fights": {ids[d]: k for d, k in enumerate(self.st_fights) if k},
            "monster_wins": {ids[d]: k for d, k in enumerate(self.st_mwins) if k},
            "explored": {ids[d]: k for d, k in enumerate(self.st_explored) if k},
            "rewards": {f"{ids[d]}:{REWARDS[k]}": v for (d, k), v in self.st_reward.items()},
            "offered": {ids[d]: k for d, k in enumerate(self.st_offered) if k},
            "dealt": {ids[d]: k for d, k in enumerate(self.st_dealt) if k},
            "kept": {ids[d]: k for d, k in enumerate(self.st_kept) if k},
            "joined": {ids[d]: k for d, k in enumerate(self.st_joined) if k},
            "died": {ids[d]: k for d, k in enumerate(self.st_died) if k},
            "alarms": self.st_alarms,
        }

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
    def view(self, seat: int) -> dict:
        """What ``seat`` may see: its own hand and missions (with progress); everyone's groups,
        organisations, positions, completed missions and non-secret missions under way; hand
        sizes; the active locations with their face-up lead events (a face-down one is shown as
        hidden); deck sizes and the discard piles."""
        p = self.p
        cid = p.cid

        def public(m: int) -> bool:
            return self.gi[m] > 0 and not p.secret[m]
        return {
            "seat": seat, "turn": self.turn, "phase": PHASES[self.phase] if self.phase >= 0 else None,
            "order": list(self.order),
            "hand": [cid[h] for h in self.hand[seat]],
            "missions": {cid[m]: self.gi[m] for m in self.missions[seat]},
            "final": cid[self.final[0]] if self.final else None,
            "final_progress": list(self.fgi),
            "groups": [[{"card": cid[c], "rotated": self.rot[c], "asleep": self.asleep[c]} for c in g]
                       for g in self.group],
            "organisations": [[cid[o] for o in x] for x in self.org],
            "at": [cid[L] if L >= 0 else None for L in self.loc],
            "done": [[cid[m] for m in x] for x in self.done],
            "under_way": [[cid[m] for m in self.missions[s] if public(m)] for s in range(self.n)],
            "hand_sizes": [len(h) for h in self.hand],
            "locations": {cid[L]: (cid[self.lead[L]] if L in self.lead_up else "hidden") if L in self.lead
                          else None for L in self.active},
            "decks": {"character": len(self.char_deck), "location": [len(d) for d in self.loc_decks],
                      "event": len(self.event_deck), "bonus": len(self.bonus_deck)},
            "discards": {"character": [cid[h] for h in self.char_discard],
                         "location": [cid[h] for h in self.loc_discard],
                         "event": [cid[h] for h in self.event_discard],
                         "bonus": [cid[h] for h in self.bonus_discard]},
            "strength": [self.strength(s) for s in range(self.n)],
            "speed": [self.speed(s) for s in range(self.n)],
            "skip": list(self.skip), "lost": list(self.lost),
            "decision": self.decision.kind if self.decision else None,
        }

    def label(self, option: tuple) -> str:
        """`play fire_lance veyla_moonweaver`, `go harrow_market`, `explore deck`, `attack B`,
        `reward mission lost_courier`, `speed lost_courier` ..."""
        verb = option[0]
        cid = self.p.cid
        if verb == "play":
            return f"play {cid[option[1]]}" + (f" {cid[option[2]]}" if option[2] >= 0 else "")
        if verb in ("attack", "trade", "rob"):
            return f"{verb} {SEAT_NAMES[option[1]]}"
        if verb == "new_deck":
            return "new deck" + (f" {option[1]}" if len(option) > 1 else "")
        if verb == "new_pick":
            return f"new {cid[option[1]]}"
        if verb == "reward":
            return f"reward {REWARDS[option[1]]}" + (f" {cid[option[3]]}" if option[3] >= 0 else "")
        return " ".join([verb] + [cid[a] for a in option[1:]])

    def state_digest(self) -> tuple:
        return (tuple((name, tuple(cards)) for name, cards in self.zones()),
                tuple(self.loc), tuple(self.lost), tuple(self.skip), tuple(self.fgi), tuple(self.gi),
                tuple(self.rot), tuple(self.asleep), tuple(sorted(self.lead_up)), tuple(sorted(self.faced)),
                self.turn, self.winner,
                tuple(self.n_str), tuple(self.n_spd), tuple(self.hold_n))


OPERATIONS = operations_of(Match)
#: Operation name -> the function that carries it out (the hot path's table).
OPS = {name: op.func for name, op in OPERATIONS.items()}


# ---------------------------------------------------------------------------------- statistics
def tally(prep: Prepared, stats: dict) -> dict:
    """One game's `Match.stats()` as counts that add up over games (see `statistics`): its
    length as a histogram entry, each mission done as a count and the turn it was done."""
    out = {key: stats[key] for key in ("fights", "monster_wins", "explored", "rewards", "offered",
                                       "kept", "joined", "died", "dealt")}
    out.update(turns={stats["turns"]: 1}, capped=int(stats["capped"]), alarms=stats["alarms"],
               completed={k: 1 for k in stats["missions"]}, turn_sum=dict(stats["missions"]),
               finals={stats["final"]: 1} if stats["final"] else {})
    return out


def statistics(prep: Prepared, totals: dict, games: int) -> dict:
    """The designer's figures from ``games`` games' tallies added up: game length in turns,
    completion rate and mean turn of each mission, each monster's win rate, how often each
    location is explored and which reward it gives, character pick and survival rates, turn-cap
    hits; with the text report's lines under "lines"."""
    n = games
    if not n:
        return {}
    acc = {k: totals.get(k, {}) for k in ("fights", "monster_wins", "explored", "rewards", "offered",
                                          "kept", "joined", "died", "dealt", "completed",
                                          "turn_sum", "finals")}
    defs = prep.defs
    missions = {}
    for c in defs:
        if c.type != "mission":
            continue
        done, turns = acc["completed"].get(c.id, 0), acc["turn_sum"].get(c.id, 0)
        # the rate is per game the mission was in play: dealt (basic) or revealed (final)
        inplay = acc["finals"].get(c.id, 0) if c.subtype == "final" else acc["dealt"].get(c.id, 0)
        missions[c.id] = {"kind": c.subtype, "in_play": inplay, "completed": done,
                          "rate": round(done / inplay, 4) if inplay else 0.0,
                          "mean_turn": round(turns / done, 2) if done else None}
    monsters = {c.id: {"level": c.level, "strength": c.strength,
                       "fights": acc["fights"].get(c.id, 0), "wins": acc["monster_wins"].get(c.id, 0),
                       "win_rate": round(acc["monster_wins"].get(c.id, 0) / acc["fights"][c.id], 4)
                       if acc["fights"].get(c.id) else 0.0}
                for c in defs if c.type == "event" and c.subtype == "monster"}
    locations = {}
    for c in defs:
        if c.type != "location":
            continue
        rw = {r.kind: acc["rewards"].get(f"{c.id}:{r.kind}", 0) for r in c.rewards}
        locations[c.id] = {"level": c.level, "explored_per_game": round(acc["explored"].get(c.id, 0) / n, 3),
                           "rewards": rw}
    characters = {}
    for c in defs:
        if c.type != "character":
            continue
        off, kept = acc["offered"].get(c.id, 0), acc["kept"].get(c.id, 0)
        joined, died = acc["joined"].get(c.id, 0), acc["died"].get(c.id, 0)
        characters[c.id] = {"pick_rate": round(kept / off, 4) if off else None, "joined": joined,
                            "survival": round(1 - died / joined, 4) if joined else None}
    out = {
        "turns": spread(totals["turns"]), "turn_cap": prep.cap,
        "turn_cap_hits": totals.get("capped", 0),
        "false_alarms_per_game": round(totals.get("alarms", 0) / n, 3),
        "missions": missions, "monsters": monsters, "locations": locations, "characters": characters,
    }
    names = {c.id: dict(c.name) for c in prep.defs}
    out["lines"] = {lang: _lines(out, n, names, lang) for lang in ("uk", "en")}
    return out


_LINES: dict[str, dict[str, Any]] = {
    "en": {"length": "Game length: {mean} turns on average (median {median}, 90% within {p90}, "
                     "longest {max}); the turn cap of {cap} was hit in {capped} of {n} games",
           "missions": "Missions (completed in the share of games where in play; mean turn):",
           "mission": "  {kind}: {name}: {rate}, turn {turn}", "mission_never": "  {kind}: {name}: {rate}, never",
           "kinds": {"basic": "main", "final": "final"},
           "monsters": "Monsters (strength: fights, won by the monster):",
           "monster": "  {strength:>2} {name}: {fights} fights, {rate}",
           "locations": "Locations (explorations per game; rewards taken):",
           "location": "  level {level} {name}: {per_game}; {rewards}",
           "rewards": {"bonus": "bonus", "hire": "hire", "mission": "mission", "special": "special"},
           "characters": "Characters (kept when offered at setup; survival of those who joined a group):",
           "character": "  {name}: picked {pick}, survived {surv}",
           "never_offered": "never offered", "never_joined": "never joined",
           "never": "Monsters never fought in {n} games: {names}"},
    "uk": {"length": "Тривалість гри: у середньому {mean} ходу (медіана {median}, 90 % ігор — "
                     "до {p90}, найдовша — {max}); межу в {cap} ходів досягнуто в {capped} з {n} ігор",
           "missions": "Місії (частка виконаних серед ігор, де місія була в грі; середній хід):",
           "mission": "  {kind}: {name}: {rate}, хід {turn}", "mission_never": "  {kind}: {name}: {rate}, жодного разу",
           "kinds": {"basic": "основна", "final": "кінцева"},
           "monsters": "Почвари (сила: битви, перемоги почвари):",
           "monster": "  {strength:>2} {name}: битв — {fights}, {rate}",
           "locations": "Локації (досліджень за гру; узяті нагороди):",
           "location": "  рівень {level} {name}: {per_game}; {rewards}",
           "rewards": {"bonus": "бонус", "hire": "найм", "mission": "місія", "special": "особливе"},
           "characters": "Персонажі (залишені, коли їх пропонували на початку; вижили з тих, хто був у групі):",
           "character": "  {name}: залишили {pick}, вижили {surv}",
           "never_offered": "не пропонували", "never_joined": "не були в групі",
           "never": "Почвари, з якими не билися за {n} ігор: {names}"},
}


def _lines(out: dict, n: int, names: dict, lang: str) -> list[str]:
    """The report's lines in ``lang``, cards named as printed, numbers as the language writes."""
    w = _LINES[lang]
    name = lambda cid: names.get(cid, {}).get(lang, cid)  # noqa: E731
    dec = (lambda v: str(v).replace(".", ",")) if lang == "uk" else str  # noqa: E731
    pct = (lambda v: dec(f"{v:.1f}") + "\u00a0%") if lang == "uk" else (lambda v: f"{v:.1f}%")  # noqa: E731
    t = out["turns"]
    lines = [w["length"].format(mean=dec(t["mean"]), median=t["median"], p90=t["p90"], max=t["max"],
                                cap=out["turn_cap"], capped=out["turn_cap_hits"], n=n), w["missions"]]
    for mid, m in out["missions"].items():
        kind = w["kinds"].get(m["kind"], m["kind"])
        if m["mean_turn"] is not None:
            lines.append(w["mission"].format(kind=kind, name=name(mid), rate=pct(100 * m["rate"]),
                                             turn=dec(m["mean_turn"])))
        else:
            lines.append(w["mission_never"].format(kind=kind, name=name(mid), rate=pct(100 * m["rate"])))
    lines.append(w["monsters"])
    for mid, m in out["monsters"].items():
        lines.append(w["monster"].format(strength=m["strength"], name=name(mid), fights=m["fights"],
                                         rate=pct(100 * m["win_rate"])))
    lines.append(w["locations"])
    for lid, loc in out["locations"].items():
        rewards = ", ".join(f"{w['rewards'].get(k, k)} {v}" for k, v in loc["rewards"].items())
        lines.append(w["location"].format(level=loc["level"], name=name(lid),
                                          per_game=dec(loc["explored_per_game"]), rewards=rewards))
    lines.append(w["characters"])
    for cid, c in out["characters"].items():
        pick = pct(100 * c["pick_rate"]) if c["pick_rate"] is not None else w["never_offered"]
        surv = pct(100 * c["survival"]) if c["survival"] is not None else w["never_joined"]
        lines.append(w["character"].format(name=name(cid), pick=pick, surv=surv))
    never = [name(mid) for mid, m in out["monsters"].items() if not m["fights"]]
    if never:
        lines.append(w["never"].format(n=n, names=", ".join(never)))
    return lines


# ---------------------------------------------------------------------------------- check_data
def check_data(game: Any) -> Iterator:
    """Findings certain from the data alone, for `forge check`:

    - a mission goal at a location that is not in the game (or names none), or that needs a
      location's mission reward where the location offers none;
    - a goal, skill card or skill-bound rule whose skill no character has;
    - a monster (or a mission's or location's foe) whose Strength no group of the 4 strongest
      characters beats even rolling a 6 against the monster's 1; a Speed check no group of the
      4 fastest characters passes with a 6;
    - an exploration table that does not cover the faces 1-6 exactly once;
    - an event above every location's level (it never happens).
    """
    chars = [c for c in game.cards if c.type == "character"]
    locs = {c.id: c for c in game.cards if c.type == "location"}
    skills = {s for c in chars for s in (c.skills or ())}
    strengths = sorted((c.strength for c in chars for _ in range(c.copies)), reverse=True)
    speeds = sorted((c.speed for c in chars for _ in range(c.copies)), reverse=True)
    best_str = sum(strengths[:GROUP_LIMIT]) + 6
    best_spd = sum(speeds[:GROUP_LIMIT]) + 6
    top_level = max((c.level for c in locs.values()), default=0)

    def beatable(strength: int) -> bool:
        return best_str >= strength + 1          # a tie with a monster goes to the group

    for card in game.cards:
        if card.type == "mission":
            for i, g in enumerate(card.goals or ()):
                if g.goal in ("visit", "hold", "battle"):
                    if not g.location:
                        yield card.finding(("goals", i), "mission-unreachable",
                                           f"goal {i + 1} ({g.goal}) names no location, so "
                                           f"{card.id} can never be completed", "add `location:`")
                    elif g.location not in locs:
                        yield card.finding(("goals", i, "location"), "mission-unreachable",
                                           f"goal {i + 1} is at {g.location!r}, which is not a "
                                           f"location of the game, so {card.id} can never be completed")
                    elif g.goal != "hold" and not any(r.kind == "mission" for r in locs[g.location].rewards):
                        yield card.finding(("goals", i, "location"), "mission-unreachable",
                                           f"goal {i + 1} needs the mission reward of {g.location}, "
                                           "which offers none", "add a `mission` reward to the location")
                if g.goal == "speed_check" and (not g.difficulty or g.difficulty > best_spd):
                    yield card.finding(("goals", i), "mission-unreachable",
                                       f"goal {i + 1}: a Speed check of {g.difficulty} that no group "
                                       f"of 4 reaches even with a 6 (at most {best_spd})")
                if g.goal == "battle" and (not g.strength or not beatable(g.strength)):
                    yield card.finding(("goals", i), "monster-unbeatable",
                                       f"goal {i + 1}: a foe of Strength {g.strength} that no group of 4 "
                                       f"beats even with a 6 (at most {best_str})")
                if g.goal == "hold" and not g.turns:
                    yield card.finding(("goals", i), "mission-unreachable",
                                       f"goal {i + 1}: a hold goal needs `turns:`")
                if g.skill and g.skill not in skills:
                    yield card.finding(("goals", i, "skill"), "skill-unusable",
                                       f"goal {i + 1} needs a character with {g.skill}, and none has it")
        elif card.type == "bonus" and card.subtype == "skill" and card.skill and card.skill not in skills:
            yield card.finding(("skill",), "skill-unusable",
                               f"no character has the skill {card.skill!r}, so {card.id} can never be played")
        elif card.type == "event":
            if card.subtype == "monster" and card.strength and not beatable(card.strength):
                yield card.finding(("strength",), "monster-unbeatable",
                                   f"Strength {card.strength}: no group of the 4 strongest characters "
                                   f"(at most {best_str} with a 6) beats it, even against its 1")
            if top_level and card.level > top_level:
                yield card.finding(("level",), "event-never-happens",
                                   f"level {card.level} is above every location's level ({top_level})")
        elif card.type == "location":
            faces: list[int] = []
            for row in card.exploration or ():
                faces += list(_faces(row.roll))
                for j, op in enumerate(row.ops or ()):
                    if op.name == "fight" and not beatable(op.args()["strength"]):
                        yield card.finding(("exploration",), "monster-unbeatable",
                                           f"a foe of Strength {op.args()['strength']} no group beats")
            if sorted(faces) != [1, 2, 3, 4, 5, 6]:
                yield card.finding(("exploration",), "exploration-table",
                                   f"the exploration rows cover the faces {sorted(faces)}, not 1-6 "
                                   "exactly once")


from .anima_agents import AGENT_NAMES, AGENTS  # noqa: E402  (the agents read this module's Match)


def prepare(game: Any, options: Mapping[str, Any] | None = None,
            sets: Sequence[str] | None = None) -> Prepared:
    opts = core.resolve_options(OPTIONS, options or {})
    return Prepared(game, opts, sets or tuple(game.manifest.sets)[:1])


# ---------------------------------------------------------------------------------- scenarios
from .scenario import ANY, SEAT, Int, Map, N, Rec, SetupContext, card  # noqa: E402

_CHAR = card("character")
_LOC = card("location")
_EVENT = card("event")
_BONUS = card("bonus")
_MISSION = card("mission")
_CHARSPEC = Rec({"card": _CHAR, "rotated": bool, "asleep": bool}, required=("card",))
_MSPEC = Rec({"card": _MISSION, "progress": N}, required=("card",))
_LSPEC = Rec({"card": _LOC, "lead": _EVENT, "face_up": bool}, required=("card",))
_SIZES = ("char_deck", "char_discard", "loc_discard", "event_deck", "event_discard", "mission_deck",
          "final_deck", "bonus_deck", "bonus_discard", "active")
SCENARIO = core.ScenarioKeys(
    setup={"locations": [(_LOC, _LSPEC)], "final": _MISSION, "final_deck": [_MISSION], "turn": N,
           "event_deck": [_EVENT], "bonus_deck": [_BONUS], "character_deck": [_CHAR],
           "location_deck": [_LOC], "location_discard": [_LOC], "bonus_discard": [_BONUS],
           "character_discard": [_CHAR], "event_discard": [_EVENT]},
    seat=Rec({"group": [(_CHAR, _CHARSPEC)], "hand": [_BONUS], "missions": [(_MISSION, _MSPEC)],
              "done": [_MISSION], "organisation": card("organisation"), "at": _LOC, "skip": N,
              "rest": bool, "final_progress": N, "held": N, "hired_at": _LOC, "ticket": bool}),
    expect={
        "zones": Map(SEAT, Rec({"group": [ANY], "group_size": N, "hand": [ANY], "hand_size": N, "missions": [ANY],
                                "done": [ANY], "organisation": (frozenset({"none"}), card("organisation")),
                                "at": (frozenset({"none"}), _LOC)})),
        "locations": [ANY], "leads": Map(_LOC, (frozenset({"none"}), _EVENT)),
        "final": (frozenset({"none"}), _MISSION), "progress": Map(_MISSION, N),
        "final_progress": Map(SEAT, N), "held": Map(SEAT, N), "skip": Map(SEAT, N), "lost": [SEAT],
        "asleep": [ANY], "rotated": [ANY], "strength": Map(SEAT, Int()), "speed": Map(SEAT, Int()),
        "battle": Rec({"totals": [Int()], "winner": (SEAT, frozenset({"foe"}))}),
        "check": Rec({"total": N, "passed": bool}),
        "discards": Rec({"bonus": [ANY], "character": [ANY], "event": [ANY], "location": [ANY]}),
        "sizes": Map(frozenset(_SIZES), N), "turns": N, "winner": (SEAT, frozenset({"none"})),
        "explored": Map(_LOC, N), "alarms": N, "face_down": N},
    stops={"turns": "turn", "phases": "phase"})


def scenario_setup(m: Match, d: dict, ctx: SetupContext) -> None:
    """Place a position at the start of a turn: the active locations (with their lead events,
    face down unless `face_up`), each seat's group, hand, missions (with goals already done),
    completed missions, organisation and location; the revealed final mission; the tops of the
    decks (first = top) and the discard piles. Every card not placed goes to its deck, shuffled;
    the game goes on with the next turn. With `deal: true` the engine sets up from the seed."""
    if d.get("deal"):
        return
    p = m.p
    seats_at: list[tuple[int, str, Any]] = []
    for i, spec in enumerate(d.get("locations") or []):
        spec = {"card": spec} if isinstance(spec, str) else spec
        L = ctx.take(spec["card"], ("locations", i, "card"))
        m.active.append(L)
        if "lead" in spec:
            m.lead[L] = ctx.take(spec["lead"], ("locations", i, "lead"))
            if spec.get("face_up"):               # a face-up lead has been faced already
                m.lead_up.add(L)
                m.faced.add(L)
    for name, spec in (d.get("seats") or {}).items():
        s, at = ctx.seat(name), ("seats", name)
        spec = spec or {}
        for i, cs in enumerate(spec.get("group", [])):
            cs = {"card": cs} if isinstance(cs, str) else cs
            c = ctx.take(cs["card"], at + ("group", i))
            m.group[s].append(c)
            m.rot[c] = bool(cs.get("rotated"))
            m.asleep[c] = bool(cs.get("asleep"))
        m.hand[s] += ctx.take_all(at + ("hand",), spec.get("hand", []))
        for i, ms in enumerate(spec.get("missions", [])):
            ms = {"card": ms} if isinstance(ms, str) else ms
            h = ctx.take(ms["card"], at + ("missions", i))
            if p.final[h]:
                raise ctx.error(at + ("missions", i), f"{ms['card']} is a final mission; it is "
                                "revealed with `final:`")
            m.missions[s].append(h)
            m.gi[h] = ms.get("progress", 0)
            if m.gi[h] >= len(p.goals[h]):
                raise ctx.error(at + ("missions", i), "progress must be below the number of goals")
        m.done[s] += ctx.take_all(at + ("done",), spec.get("done", []))
        if "organisation" in spec:
            m.org[s].append(ctx.take(spec["organisation"], at + ("organisation",)))
        if "at" in spec:
            seats_at.append((s, spec["at"], at + ("at",)))
        m.skip[s] = spec.get("skip", 0)
        m.fgi[s] = spec.get("final_progress", 0)
        if spec.get("rest"):
            m.n_str[s] = m.n_spd[s] = REST_BONUS
        if spec.get("ticket"):
            m.ticket[s] = 1 + d.get("turn", 0)
        if "held" in spec:
            m.hold_n[s] = spec["held"]
            m.hold_turn[s] = d.get("turn", 0)
    for s, lid, loc in seats_at:
        Ls = [L for L in m.active if p.cid[L] == lid]
        if not Ls:
            raise ctx.error(loc, f"{lid} is not among the scenario's `locations:`")
        m.loc[s] = Ls[0]
        if m.hold_n[s]:
            m.hold_loc[s] = Ls[0]
    for s in range(m.n):
        name = SEAT_NAMES[s]
        spec = (d.get("seats") or {}).get(name) or {}
        if "hired_at" in spec:
            Ls = [L for L in m.active if p.cid[L] == spec["hired_at"]]
            if not Ls:
                raise ctx.error(("seats", name, "hired_at"), f"{spec['hired_at']} is not active")
            m.hired[s] = (Ls[0], d.get("turn", 0))
    if "final" in d:
        h = ctx.take(d["final"], ("final",))
        if not p.final[h]:
            raise ctx.error(("final",), f"{d['final']} is not a final mission")
        m.final.append(h)
    tops = {key: ctx.take_all((key,), d.get(key) or []) for key in
            ("event_deck", "bonus_deck", "character_deck", "location_deck", "final_deck")}
    for i, h in enumerate(tops["final_deck"]):
        if not p.final[h]:
            raise ctx.error(("final_deck", i), f"{p.cid[h]} is not a final mission")
    m.loc_discard += ctx.take_all(("location_discard",), d.get("location_discard") or [])
    m.bonus_discard += ctx.take_all(("bonus_discard",), d.get("bonus_discard") or [])
    m.char_discard += ctx.take_all(("character_discard",), d.get("character_discard") or [])
    m.event_discard += ctx.take_all(("event_discard",), d.get("event_discard") or [])
    rest = ctx.rest(shuffle=True)
    kind = p.kind
    m.char_deck = [h for h in rest if kind[h] == CHAR] + tops["character_deck"][::-1]
    m.event_deck = [h for h in rest if kind[h] == EVENT] + tops["event_deck"][::-1]
    m.bonus_deck = [h for h in rest if kind[h] == BONUS] + tops["bonus_deck"][::-1]
    m.mission_deck = [h for h in rest if kind[h] == MISSION and not p.final[h]]
    m.final_deck = [h for h in rest if kind[h] == MISSION and p.final[h]] + tops["final_deck"][::-1]
    locs = [h for h in rest if kind[h] == LOC]
    if m.tree:
        m.loc_decks = [[h for h in locs if p.level[h] == lv] + [h for h in tops["location_deck"][::-1]
                                                              if p.level[h] == lv] for lv in (1, 2, 3)]
    else:
        m.loc_decks = [locs + tops["location_deck"][::-1]]
    m.turn = d.get("turn", 0)
    m.dealt = True
    for s in range(m.n):
        name = SEAT_NAMES[s]
        if not 1 <= len(m.group[s]) <= GROUP_LIMIT:
            raise ctx.error(("seats", name), f"seat {name} needs a group of 1-{GROUP_LIMIT} characters")
        if len(m.hand[s]) > HAND_LIMIT:
            raise ctx.error(("seats", name), f"seat {name} holds more than {HAND_LIMIT} bonus cards")
        if m.loc[s] >= 0 and m.loc[s] in m.lead:
            raise ctx.error(("seats", name, "at"), "a group cannot stand where a lead event waits")
    if len(m.active) > m.limit:
        raise ctx.error(("locations",), f"more than {m.limit} active locations")


def scenario_expect(m: Match, e: dict, ctx: SetupContext) -> None:
    """Check this game's `expect:` keys (docs/scenarios.md and docs/rules-decisions.md)."""
    from collections import Counter
    got: object         # what each key finds, of that key's type
    p = m.p
    cid = p.cid
    seat = SEAT_NAMES.index
    for name, z in (e.get("zones") or {}).items():
        s = seat(name)
        for key, zone in (("group", m.group[s]), ("hand", m.hand[s]), ("missions", m.missions[s]),
                          ("done", m.done[s])):
            if key in z and ctx.card_ids(zone) != sorted(z[key]):
                ctx.fail(("zones", name, key), f"{name}'s {key}: {ctx.card_ids(zone)}, expected {sorted(z[key])}")
        if "group_size" in z and len(m.group[s]) != z["group_size"]:
            ctx.fail(("zones", name, "group_size"), f"{name}'s group: {len(m.group[s])}, expected {z['group_size']}")
        if "hand_size" in z and len(m.hand[s]) != z["hand_size"]:
            ctx.fail(("zones", name, "hand_size"), f"{name} holds {len(m.hand[s])}, expected {z['hand_size']}")
        if "organisation" in z:
            got = cid[m.org[s][0]] if m.org[s] else "none"
            if got != z["organisation"]:
                ctx.fail(("zones", name, "organisation"), f"{name}'s organisation: {got}, expected {z['organisation']}")
        if "at" in z:
            got = cid[m.loc[s]] if m.loc[s] >= 0 else "none"
            if got != z["at"]:
                ctx.fail(("zones", name, "at"), f"{name}'s group is at {got}, expected {z['at']}")
    if "locations" in e and ctx.card_ids(m.active) != sorted(e["locations"]):
        ctx.fail(("locations",), f"active locations: {ctx.card_ids(m.active)}, expected {sorted(e['locations'])}")
    for lid, ev in (e.get("leads") or {}).items():
        Ls = [L for L in m.active if cid[L] == lid]
        got = cid[m.lead[Ls[0]]] if Ls and Ls[0] in m.lead else "none"
        if got != ev:
            ctx.fail(("leads", lid), f"lead event at {lid}: {got}, expected {ev}")
    if "final" in e:
        got = cid[m.final[0]] if m.final else "none"
        if got != e["final"]:
            ctx.fail(("final",), f"final mission: {got}, expected {e['final']}")
    for mid, v in (e.get("progress") or {}).items():
        got = [m.gi[h] for h in p.handles_of.get(mid, [])]
        if v not in got:
            ctx.fail(("progress", mid), f"{mid}: {got} goal(s) done, expected {v}")
    for key, table in (("final_progress", m.fgi), ("held", m.hold_n), ("skip", m.skip)):
        for name, v in (e.get(key) or {}).items():
            if table[seat(name)] != v:
                ctx.fail((key, name), f"{key} of {name}: {table[seat(name)]}, expected {v}")
    if "lost" in e:
        got = sorted(SEAT_NAMES[s] for s in range(m.n) if m.lost[s])
        if got != sorted(e["lost"]):
            ctx.fail(("lost",), f"turn lost by {got}, expected {sorted(e['lost'])}")
    for key, flags in (("asleep", m.asleep), ("rotated", m.rot)):
        if key in e:
            got = sorted(cid[h] for h in range(p.n) if flags[h])
            if got != sorted(e[key]):
                ctx.fail((key,), f"{key}: {got}, expected {sorted(e[key])}")
    for key, f in (("strength", m.strength), ("speed", m.speed)):
        for name, v in (e.get(key) or {}).items():
            if f(seat(name)) != v:
                ctx.fail((key, name), f"{key} of {name}: {f(seat(name))}, expected {v}")
    if "battle" in e:
        b, want = m.last_battle, e["battle"]
        if b is None:
            ctx.fail(("battle",), "no battle was fought")
        else:
            if "totals" in want and list(b["totals"]) != want["totals"]:
                ctx.fail(("battle", "totals"), f"battle totals {list(b['totals'])}, expected {want['totals']}")
            if "winner" in want:
                mine, theirs = b["totals"]
                won = mine >= theirs if b["opponent"] < 0 else mine > theirs
                got = SEAT_NAMES[b["seat"]] if won else (SEAT_NAMES[b["opponent"]] if b["opponent"] >= 0 else "foe")
                if got != want["winner"]:
                    ctx.fail(("battle", "winner"), f"the battle was won by {got}, expected {want['winner']}")
    if "check" in e:
        c, want = m.last_check, e["check"]
        if c is None:
            ctx.fail(("check",), "no Speed check was made")
        else:
            if "total" in want and c[1] != want["total"]:
                ctx.fail(("check", "total"), f"Speed check total {c[1]}, expected {want['total']}")
            if "passed" in want and (c[1] >= c[2]) != want["passed"]:
                ctx.fail(("check", "passed"), f"Speed check passed: {c[1] >= c[2]}, expected {want['passed']}")
    piles = {"bonus": m.bonus_discard, "character": m.char_discard, "event": m.event_discard,
             "location": m.loc_discard}
    for key, want in (e.get("discards") or {}).items():
        missing = Counter(want) - Counter(cid[h] for h in piles[key])
        if missing:
            ctx.fail(("discards", key), f"not in the {key} discard pile: {sorted(missing.elements())}")
    for zone, v in (e.get("sizes") or {}).items():
        got = len(getattr(m, zone))
        if got != v:
            ctx.fail(("sizes", zone), f"{zone} holds {got} cards, expected {v}")
    if "turns" in e and m.turn != e["turns"]:
        ctx.fail(("turns",), f"turns: {m.turn}, expected {e['turns']}")
    if "winner" in e:
        got = SEAT_NAMES[m.winner] if m.winner >= 0 else "none"
        if got != e["winner"]:
            ctx.fail(("winner",), f"winner: {got}, expected {e['winner']}")
    for lid, v in (e.get("explored") or {}).items():
        got = m.st_explored[p.def_ids.index(lid)]
        if got != v:
            ctx.fail(("explored", lid), f"{lid} explored {got} time(s), expected {v}")
    if "face_down" in e:
        got = sum(1 for L in m.lead if L not in m.lead_up)
        if got != e["face_down"]:
            ctx.fail(("face_down",), f"face-down lead events: {got}, expected {e['face_down']}")
    if "alarms" in e and m.st_alarms != e["alarms"]:
        ctx.fail(("alarms",), f"false alarms: {m.st_alarms}, expected {e['alarms']}")


from .anima_scenario_text import SCORE_UNIT, describe_expect  # noqa: E402


#: The engine, registered as ``forge.rules.anima_shadow_of_omega:ENGINE``.
ENGINE = core.Engine(
    "anima_shadow_of_omega", PLAYERS, prepare, OPERATIONS, options=OPTIONS, requires=REQUIRES,
    agents=AGENTS, agent_names=AGENT_NAMES,
    # `forge simulate` seats pursuers unless told otherwise: random play dismisses characters
    # and picks fights at random, so a random group rarely grows strong enough for a final
    # mission and about a third of random games reach the turn cap (`--agents random` still
    # plays them).
    default_agents=("pursuer",),
    scenario=SCENARIO, scenario_setup=scenario_setup, scenario_expect=scenario_expect,
    describe_expect=describe_expect, score_unit=SCORE_UNIT, check_data=check_data, tally=tally,
    statistics=statistics)
