"""The rules' numbers and the static card tables of «Аніма: Тінь омеги».

Everything here is fixed for a configuration: the engine's declarations (players, options, the
card fields it reads), the rule constants (`RULES` is what templates print), the codes the hot
path compares, and `Tables`, the card data as lists indexed by handle, built once by `prepare`
and shared by every match.
"""
from __future__ import annotations

from typing import Any, Mapping, NamedTuple, Sequence

from .. import core
from ..core import Chance, Option, Requires
from .choices import Choices

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
# the rules' numbers (the rulebook and cheat sheet print them from `RULES`)
HAND_LIMIT = 5
GROUP_LIMIT = 4
KILL_MARGIN = 5
REST_BONUS = 2
LOCATIONS_PER_PLAYER = 2
ATTACK_SPREAD = 1
#: DECISION: trades a player may propose to each other player in their interaction step (the
#: rulebook lets groups trade freely; a number keeps every game finite)
TRADE_OFFERS = 3
WIN_SCORE = 10
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
#: The d6 every roll of the game uses (scenarios script it as `rolls: {d6: [...]}`), resolved
#: with the core's plain `resolve`.
D6 = Chance("d6", range(1, 7))


#: The rule numbers the rulebook and cheat sheet print: the engine's `rules`, their templates'
#: `rules` (forge.rules.printed): `{{ rules.kill_margin }}`, never a second 5.
RULES: Mapping[str, int] = {
    "kill_margin": KILL_MARGIN,                    # a battle lost by this much or more kills
    "hand_limit": HAND_LIMIT, "group_limit": GROUP_LIMIT,
    "rest_bonus": REST_BONUS,                      # Strength and Speed for the next turn
    "locations_per_player": LOCATIONS_PER_PLAYER,  # active locations allowed per player
    "attack_spread": ATTACK_SPREAD,                # the most two groups' sizes may differ to fight
    "trade_offers": TRADE_OFFERS,                  # trades proposed to each player in one step
    "phases": len(PHASES),
}


class Effect(NamedTuple):
    """One operation of a card: its name and its arguments."""

    name: str
    args: dict[str, Any]


Effects = tuple[Effect, ...]


class Goal(NamedTuple):
    """One goal of a mission, as the engine and the agents read it."""

    kind: int          # G_VISIT, G_SPEED, G_HOLD or G_BATTLE
    location: int      # definition index of its location, -1 for none
    difficulty: int    # a Speed check's
    turns: int         # a hold goal's
    strength: int      # a battle goal's foe
    skill: int         # skill bits a character of the group needs (0: none)


class Row(NamedTuple):
    """One face of a location's exploration table."""

    result: int        # NOTHING, EV or SPECIAL
    events: int        # events drawn
    ops: Effects       # what a special result does


class Reward(NamedTuple):
    """One reward a location offers."""

    kind: int          # R_BONUS, R_HIRE, R_MISSION or R_SPECIAL
    ops: Effects       # what a special reward does


def effects(ops: Any) -> Effects:
    return tuple(Effect(op.name, op.args()) for op in (ops or ()))


def window_of(ops: Effects, timing: int) -> tuple[int, int]:
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


def ongoing(ops: Effects) -> tuple[int, int]:
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


def faces(roll: str) -> range:
    """The d6 faces of an exploration row's `roll` (`4-5`, `6`)."""
    lo, _, hi = roll.partition("-")
    return range(int(lo), int(hi or lo) + 1)


class Tables(core.Prepared):
    """Static card tables (lists indexed by handle), shared by all matches of a configuration.
    `flow.Prepared` adds the matches."""

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
        self.ops: list[Effects] = [()] * N         # effects
        self.win = list(z)                         # usage window
        self.rkind = list(z)                       # reroll kinds (bits of ROLL_KINDS)
        self.level = list(z)
        # characters
        self.cstr, self.cspd, self.skill = list(z), list(z), list(z)
        self.rot_ability = [False] * N             # a rotate ability
        self.cphase = [-1] * N
        # ongoing Strength and Speed while in play: a passive character in a group, the location
        # a group stands on, an organisation
        self.ongoing_str, self.ongoing_spd = list(z), list(z)
        self.sleepless = [False] * N
        # locations
        self.table: list[tuple[Row, ...]] = [()] * N   # die face 1..6 -> Row; [0] unused
        self.rewards: list[tuple[Reward, ...]] = [()] * N
        self.trade = [False] * N
        self.lair, self.solitary, self.rehire = list(z), [False] * N, [False] * N
        # events
        self.monster = [False] * N
        self.mstr = list(z)
        self.defeat: list[Effects] = [()] * N      # monsters and organisations
        self.grows, self.immune, self.unavoidable = list(z), list(z), [False] * N
        # missions
        self.final = [False] * N
        self.goals: list[tuple[Goal, ...]] = [()] * N
        self.secret = [False] * N
        self.prize: list[Effects] = [()] * N
        # bonuses
        self.bsub, self.timing, self.bphase, self.rival = list(z), list(z), [-1] * N, [-1] * N
        self.victory: list[Effects] = [()] * N
        self.duty: list[frozenset[str]] = [frozenset()] * N   # passive organisation rules by operation name
        self.pvp_hinder, self.needs = list(z), list(z)
        self.pvp_sleep = [False] * N               # an interrupt sleep card, usable in battles with groups
        self.handles_by_kind: list[list[int]] = [[] for _ in range(5)]
        for d, c in enumerate(self.defs):
            k = TYPE_CODES.get(c.type)
            if k is None:
                continue
            ops = effects(c.effects)
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
                    if c.activation == "passive":
                        self.ongoing_str[h], self.ongoing_spd[h] = ongoing(ops)
                    self.sleepless[h] = any(n == "sleepless" for n, _ in ops)
                    if self.rot_ability[h]:
                        self.win[h], self.rkind[h] = window_of(ops, T_NORMAL)
                elif k == LOC:
                    self.level[h] = c.level
                    rows: list[Row | None] = [None] * 7
                    for row in c.exploration:
                        for f in faces(row.roll):
                            rows[f] = Row(RESULTS[row.result], row.events or 0, effects(row.ops))
                    for f in range(1, 7):
                        if rows[f] is None:       # check_data reports a table with a gap
                            rows[f] = Row(NOTHING, 0, ())
                    self.table[h] = tuple(rows)  # type: ignore[arg-type]  # [0] stays None
                    self.rewards[h] = tuple(Reward(REWARDS.index(r.kind), effects(r.ops)) for r in c.rewards)
                    self.trade[h] = bool(c.trade)
                    for name, a in ops:
                        if name == "lair":
                            self.lair[h] += a["amount"]
                        elif name == "solitary":
                            self.solitary[h] = True
                        elif name == "rehire":
                            self.rehire[h] = True
                    self.ongoing_str[h], self.ongoing_spd[h] = ongoing(ops)
                elif k == EVENT:
                    self.level[h] = c.level
                    self.monster[h] = c.subtype == "monster"
                    self.mstr[h] = c.strength or 0
                    self.defeat[h] = effects(c.defeat)
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
                    self.prize[h] = effects(c.prize)
                    self.goals[h] = tuple(
                        Goal(GOALS[g.goal], dix_of.get(g.location, -1) if g.location else -1,
                             g.difficulty or 0, g.turns or 1, g.strength or 0,
                             SKILL_BIT[g.skill] if g.skill else 0) for g in c.goals)
                else:
                    self.bsub[h] = {"skill": B_SKILL, "plot": B_PLOT, "organisation": B_ORG}[c.subtype]
                    self.timing[h] = {"normal": T_NORMAL, "interrupt": T_INTERRUPT, "battle": T_BATTLE}[c.timing]
                    self.skill[h] = SKILL_BIT[c.skill] if c.skill else 0
                    self.bphase[h] = PHASES.index(c.phase) if c.phase else -1
                    if self.bsub[h] == B_ORG:
                        self.win[h] = W_NORMAL
                        self.ongoing_str[h], self.ongoing_spd[h] = ongoing(ops)
                        self.duty[h] = frozenset(n for n, _ in ops)
                        self.victory[h] = effects(c.victory)
                        self.defeat[h] = effects(c.defeat)
                        for name, a in ops:
                            if name == "hinder":
                                self.pvp_hinder[h] += a["amount"]
                            elif name == "needs_skill":
                                self.needs[h] |= SKILL_BIT[a["skill"]]
                    else:
                        self.win[h], self.rkind[h] = window_of(ops, self.timing[h])
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
        #: Every option of this configuration, made once (`choices.Choices`).
        self.choices = Choices(N, PLAYERS[1], 3, len(REWARDS), max(map(len, self.rewards), default=0))
