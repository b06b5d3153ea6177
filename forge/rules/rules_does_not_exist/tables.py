"""The rave game's rule constants, options and card tables: what every match shares, read by
the flow, the agents, the data checks and the printed rules alike (never typed twice)."""
from __future__ import annotations

from typing import Any, Mapping, NamedTuple, Sequence

from .. import core
from ..core import Option, Requires
from .choices import Choices

#: Seats the Basic mode is written for.
PLAYERS = (2, 5)

#: What the engine needs from the data: card types and their fields (`check` compares).
REQUIRES = Requires({"sound": ("bonus", "genres", "duration"),
                     "monster": ("level", "reward_souls", "reward_sounds", "failure"),
                     "class": ("effects",), "mercenary": ("effects",)},
                    optional=("class", "mercenary"))

SOUND, MONSTER, CLASS, MERC = range(4)
TYPE_CODES = {"sound": SOUND, "monster": MONSTER, "class": CLASS, "mercenary": MERC}
# The rule numbers. The rulebooks, cheat sheets and cards print them from `RULES`.
LIMIT = 5          # hand and inventory
DRAFT = 2          # Sound cards drawn at the start of a turn
HIRE_AT = 5        # a d6 of 5-6 hires a Mercenary
ESCAPE_AT = 5      # a d6 of 5-6 escapes a monster
MAX_MERCS = 3      # Mercenaries a player may have
MERC_HOLDS = 2     # Sound cards put under a Mercenary hired
MERC_CALLS = 2     # a Mercenary leaves after tossing in this many cards
CLASS_COST = 1     # souls a Class costs
SOULS_SOLO = 2     # souls a success earns alone
SOULS_SHARED = 1   # ... and each of the Host and the Rescuer together
RIVAL_LOSS = 2     # souls lost to a rival's success alone
RIVAL_LOSS_SHARED = 1  # ... and by each of the Host and the Rescuer together
RESET_COST = 1     # souls a Reset costs to stay in the game
RESET_CARDS = 5    # Sound cards drawn after paying for a Reset
GENTLE_CARDS = 9   # cards each player takes in the gentle round
GENRE_ONE = 50     # % a card's bonus grows by when another card of its lineup shares a genre
GENRE_TWO = 100    # ... two or more genres
OFFERS = 1         # trade offers each player may make in a turn (before the first lineup card)
ROLES = ("host", "rescuer", "invader")
NUMERIC_FX = ("hand", "inventory", "draft", "escape", "hire", "reroll", "host", "rescuer", "invader")
FIRST_PLAYER = ("roll", "gentle")


OPTIONS = (
    Option("first_player", str, "roll", choices=FIRST_PLAYER,
           help="Who starts: a die roll (roll), or the gentle round, «ніжний раунд» (gentle)."),
    Option("start_hand", int, LIMIT, choices=tuple(range(LIMIT + 1)),
           help="Sound cards dealt to each seat when the first player is rolled for."),
    Option("souls_to_win", int, 10, help="Souls that win the game."),
    Option("turn_cap", int, 2000,
           help="Safety net only: a game is stopped after this many turns (reported)."),
)

#: The rule numbers the printed rules quote, by name, with the options' defaults: the engine's
#: ``rules`` (the rulebook's, cheat sheet's and card faces' `rules`), so a rule changed here is
#: changed in print.
RULES: Mapping[str, int] = {
    "limit": LIMIT, "draft": DRAFT, "hire_at": HIRE_AT, "escape_at": ESCAPE_AT,
    "max_mercs": MAX_MERCS, "merc_holds": MERC_HOLDS, "merc_calls": MERC_CALLS,
    "class_cost": CLASS_COST, "souls_solo": SOULS_SOLO, "souls_shared": SOULS_SHARED,
    "rival_loss": RIVAL_LOSS, "rival_loss_shared": RIVAL_LOSS_SHARED, "reset_cost": RESET_COST,
    "reset_cards": RESET_CARDS, "gentle_cards": GENTLE_CARDS, "genre_one": GENRE_ONE,
    "genre_two": GENRE_TWO, "offers": OFFERS,
    **{o.name: o.default for o in OPTIONS if o.name in ("start_hand", "souls_to_win")}}


def _passive(effects: Sequence[Any], genre_bit: dict[str, int]) -> dict[str, Any]:
    """The owner abilities a Class's or Mercenary's ``effects`` give, aggregated."""
    fx: dict[str, Any] = {"hand": 0, "inventory": 0, "draft": 0, "escape": 0, "hire": 0, "reroll": 0,
          "host": 0, "rescuer": 0, "invader": 0, "genres": (), "choose": False, "boost": 0}
    genres = []
    for op in effects:
        a = op.args()
        if op.name == "raise_limit":
            fx[a["zone"]] += a["amount"]
        elif op.name == "draft_extra":
            fx["draft"] += a["count"]
        elif op.name == "bonus_souls":
            fx[a["role"]] += a["count"]
        elif op.name == "escape_bonus":
            fx["escape"] += a["add"]
        elif op.name == "hire_bonus":
            fx["hire"] += a["add"]
        elif op.name == "reroll_expectation":
            fx["reroll"] += a["count"]
        elif op.name == "genre_bonus":
            genres.append((genre_bit[a["genre"]], a["amount"]))
        elif op.name == "merc_choose":
            fx["choose"] = True
        elif op.name == "merc_boost":
            fx["boost"] += a["amount"]
    fx["genres"] = tuple(genres)
    return fx


class CardTables(core.Prepared):
    """Static card tables of the game, shared by all its matches (`flow.Prepared` adds the
    matches themselves)."""

    def __init__(self, game: Any, options: Mapping[str, Any], sets: Sequence[str]):
        super().__init__(game, options, sets)
        if options["souls_to_win"] < 1 or options["turn_cap"] < 1:
            raise core.EngineError("souls_to_win and turn_cap are at least 1")
        types = {c.type for c in game.cards}
        missing = {"sound", "monster"} - types
        if missing:
            raise core.EngineError(f"no {', '.join(sorted(missing))} cards: this engine cannot play {game.id}")
        spec = game.manifest.card_types["sound"].fields["genres"]
        self.genre_names = list(spec.of.values)
        genre_bit = {g: 1 << i for i, g in enumerate(self.genre_names)}
        self.defs = [c for c in game.cards if c.set in self.sets]
        self.def_ids = [c.id for c in self.defs]
        self.cid: list[str] = []
        self.dix: list[int] = []
        self.type: list[int] = []
        self.bonus: list[int] = []
        self.dur: list[int] = []
        self.gm: list[int] = []
        self.level: list[int] = []
        self.rsouls: list[int] = []
        self.rsounds: list[int] = []
        self.failure: list[tuple] = []
        #: The owner abilities of each card (`_passive`), all zero but on a Class or Mercenary.
        self.fx: list[dict[str, Any]] = []
        for d, c in enumerate(self.defs):
            if c.type not in TYPE_CODES:
                continue
            t = TYPE_CODES[c.type]
            fx = _passive(c.effects if t in (CLASS, MERC) else (), genre_bit)
            fail = tuple((op.name, op.args()) for op in c.failure) if t == MONSTER else ()
            for _ in range(c.copies):
                self.cid.append(c.id)
                self.dix.append(d)
                self.type.append(t)
                self.bonus.append(c.bonus if t == SOUND else 0)
                self.dur.append(c.duration if t == SOUND else 0)
                mask = 0
                if t == SOUND:
                    for g in c.genres:
                        mask |= genre_bit[g]
                self.gm.append(mask)
                self.level.append(c.level if t == MONSTER else 0)
                self.rsouls.append(c.reward_souls if t == MONSTER else 0)
                self.rsounds.append(c.reward_sounds if t == MONSTER else 0)
                self.failure.append(fail)
                self.fx.append(fx)
        self.n = len(self.cid)
        sounds = [b for b, t in zip(self.bonus, self.type) if t == SOUND]
        #: The mean printed bonus of a Sound card (what a card drawn blind is worth on average).
        self.mean_bonus = sum(sounds) / len(sounds) if sounds else 0.0
        #: Every option a match of these cards can offer (`choices.Choices`).
        self.choices = Choices(self.n, PLAYERS[1], max(self.rsounds, default=0))
        for h, i in enumerate(self.cid):
            self.handles_of.setdefault(i, []).append(h)


_new = tuple.__new__          # a NamedTuple made at C speed: this runs for every lineup
_ONE, _TWO = 100 + GENRE_ONE, 100 + GENRE_TWO    # a card's bonus in hundredths, by its match


class Strength(NamedTuple):
    """A lineup's strength; compared as a tuple: the higher bonus wins, then the longer."""

    bonus: int
    duration: int


class Rave(NamedTuple):
    """What a rave came to (`State.last_rave`, for a scenario's `expect: rave`)."""

    expect: int
    #: The strength of each lineup, by its owner.
    lineups: dict[int, Strength]
    #: The owner of the winning lineup, or -1.
    winner: int
    #: The invited monster, or -1.
    monster: int
    host: int


def lineup_strength(p: CardTables, cards: Sequence[int], boosts: Sequence[int],
                    extra: Sequence[tuple[int, int]]) -> Strength:
    """The `Strength` of a lineup of ``cards``; ``boosts`` are the Mercenary boosts of its
    first cards, ``extra`` the owner's (genre mask, bonus) from Class and Mercenaries.
    DECISION: each card counts its printed bonus plus those, `GENRE_ONE` % more when another card
    of the lineup shares one genre with it, `GENRE_TWO` % more when one shares two or more; the
    total is rounded down. The engine and the agents count with this one function."""
    gm, bonus, dur, one, two = p.gm, p.bonus, p.dur, _ONE, _TWO
    nb = len(boosts)
    hundredfold = total = 0
    for i, h in enumerate(cards):
        g = gm[h]
        b = bonus[h] + (boosts[i] if i < nb else 0)
        for mask, amt in extra:
            if g & mask:
                b += amt
        best = 100
        for j, k in enumerate(cards):
            if j != i:
                common = g & gm[k]
                if common:
                    if common & (common - 1):
                        best = two
                        break
                    best = one
        hundredfold += b * best
        total += dur[h]
    return _new(Strength, (hundredfold // 100, total))
