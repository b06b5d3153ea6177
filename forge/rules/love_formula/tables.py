"""Love Formula's rule constants and static card tables: what the rules fix, and what each
physical card of a configured game is, computed once from the card data and shared by every
match of that configuration."""
from __future__ import annotations

from typing import Any, NamedTuple

from ..core import EngineError, Prepared as BasePrepared, Requires
from .actions import ON_CARD_VERBS, OnCard
from .options import Config

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
#: Rounds of a play phase, and cards each player is dealt for a draft.
ROUNDS = 10
DRAFT = 12
#: VP every preparation in a play area scores at the end, attached or not.
PREPARATION_VP = 1
#: The rule numbers the rulebook and the cheat sheet print (`rules` in their templates).
RULES = {"rounds": ROUNDS, "draft": DRAFT, "preparation_vp": PREPARATION_VP}

#: What the engine reads from the cards (checked by `forge check` against the manifest).
REQUIRES = Requires({
    "preparation": (), "pair": ("requires", "vp_incomplete", "vp_perfect"), "obstacle": (),
    "reaction": ("trigger",), "connection": (), "action": (),
    "chance": (), "goal": ("condition", "counts", "threshold"), "vp": ("value",)},
    optional=("chance", "goal", "vp"))


class Goal(NamedTuple):
    """A goal card: ``kind`` "first" (claimed the moment it holds) or "end" (judged on the final
    position), its ``condition``, what it ``counts`` ("" when nothing) and its ``threshold``
    (None: the rule's)."""

    kind: str
    condition: str
    counts: str
    threshold: int | None


class Tables(BasePrepared):
    """Static card tables of one game and configuration: one row per physical card (handle)."""

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
        self.req: list[frozenset[int]] = []
        self.req_sub: list[dict[int, int]] = []  # pair: requirement key -> subtype code
        self.vp_inc: list[int] = []
        self.vp_perf: list[int] = []
        self.dur: list[int] = []
        #: (operation, arguments) that resolve when the card is played.
        self.on_play: list[tuple[tuple[str, dict[str, Any]], ...]] = []
        self.all_ops: list[tuple[tuple[str, dict[str, Any]], ...]] = []
        self.penalty: list[int] = []
        self.bonus: list[tuple[tuple[int, bool], ...]] = []   # (count, perfect_only)
        self.fill: list[tuple[int, ...]] = []     # subtype codes or -1 for any
        self.locks: list[bool] = []
        self.ends: list[bool] = []
        self.protects: list[bool] = []
        self.trigger: list[str] = []
        self.is_job: list[bool] = []
        self.goal: dict[int, Goal] = {}           # goal handles only
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
                    self.goal[h] = Goal(c.subtype, c.condition, c.counts or "", c.threshold)
                self.value.append(getattr(c, "value", 0) or 0 if t == VP else 0)
                if n >= keep_copies:
                    self.boxed.append(h)
        self.n = len(self.cid)
        for h, cid in enumerate(self.cid):
            self.handles_of.setdefault(cid, []).append(h)
        self.names = {c.id: c.name for c in defs}
        #: {verb: the option `verb card` of every handle}, e.g. ``on_card["play"][h]``.
        self.on_card = {verb: [OnCard(verb, h) for h in range(self.n)] for verb in ON_CARD_VERBS}

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
