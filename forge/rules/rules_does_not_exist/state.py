"""The state of one rave game and what acts on it outside the turn's flow: zones, the owners'
abilities, limits, drawing, lineup strength, the end, invariants, and what a seat may see.
`operations.Operations` adds the card operations, `flow.Match` the turn itself."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from .. import core
from ..core import SEAT_NAMES, Flow, InvariantViolation
from .tables import (CLASS, LIMIT, MAX_MERCS, MERC, MONSTER, NUMERIC_FX, PLAYERS, SOULS_SHARED,
                     SOULS_SOLO, SOUND,
                     CardTables, Rave, Strength, lineup_strength)


@dataclass(frozen=True, slots=True)
class GameStats(core.GameStats):
    """One game's figures (`State.stats`), added up over games for `statistics`."""

    turns: int
    capped: bool
    resets: int
    #: Times each monster (by id) was invited, and satisfied.
    invited: dict[str, int]
    satisfied: dict[str, int]
    #: The Class of each winner ("" for none).
    winner_classes: list[str]

    def counts(self) -> dict:
        """The length as a histogram entry, a shared win as a fraction per winner's Class."""
        share = Fraction(1, max(1, len(self.winner_classes)))
        class_wins: dict[str, Fraction] = {}
        for c in self.winner_classes:
            class_wins[c or "(none)"] = class_wins.get(c or "(none)", 0) + share
        return {"turns": {self.turns: 1}, "capped": int(self.capped),
                "resets": self.resets, "with_reset": int(self.resets > 0),
                "invited": self.invited, "satisfied": self.satisfied, "class_wins": class_wins}


@dataclass(slots=True)
class View(core.View):
    """What a seat sees of the rave game (`State.view`), cards named by id."""

    #: This turn's Host (-1: none yet) and the expectation its rave must beat.
    host: int
    expectation: int
    #: The seat's own hand, and the number of face-down cards under each of its Mercenaries.
    hand: list[str]
    under: dict[str, int]
    #: Per seat: hand size, inventory, lineup, the boost a Mercenary gave each lineup card (in
    #: lineup order), Classes, Mercenaries, souls, whether it is still in the game.
    hand_sizes: list[int]
    inventories: list[list[str]]
    lineups: list[list[str]]
    lineup_boosts: list[list[int]]
    classes: list[list[str]]
    mercenaries: list[list[str]]
    souls: list[int]
    alive: list[bool]
    souls_to_win: int
    #: The monster invited this turn, the friend who came to help (-1: none), the monster row.
    guest: list[str]
    rescuer: int
    monsters: list[str]
    invaders: list[int]
    #: The Sound deck's size.
    deck: int


class State(core.Match):
    """One game. Seats 0..n-1 (A, B, ...), clockwise; the next seat is the one to the left."""

    p: CardTables

    def __init__(self, prep: CardTables, players: int, seed: int, log: bool = False):
        lo, hi = PLAYERS
        if not lo <= players <= hi:
            raise core.EngineError(f"Rules. Does Not Exist. takes {lo}-{hi} players, not {players}")
        super().__init__(players, seed, log)
        n = players
        self.p = prep
        self.choices = prep.choices
        opt = prep.options
        self.first_player = opt["first_player"]
        self.start_hand = opt["start_hand"]
        self.souls_to_win = opt["souls_to_win"]
        self.turn_cap = opt["turn_cap"]
        # zones
        self.deck: list[int] = []          # Sound deck, top = end
        self.discard: list[int] = []       # Sound discard
        self.monsters: list[int] = []      # the monster row (face up)
        self.guest: list[int] = []         # the monster invited this turn
        self.classes: list[int] = []       # Class deck
        self.merc_deck: list[int] = []     # Mercenary deck
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.inv: list[list[int]] = [[] for _ in range(n)]
        self.line: list[list[int]] = [[] for _ in range(n)]
        self.cls: list[list[int]] = [[] for _ in range(n)]
        self.mercs: list[list[int]] = [[] for _ in range(n)]
        self.under: dict[int, list[int]] = {}     # Mercenary -> its face-down cards
        #: The cards of the trade offer under way, shown to its partner (`redeal` keeps them).
        self.terms: tuple[int, ...] = ()
        self.calls: dict[int, int] = {}           # Mercenary -> cards tossed this rave
        self.boost: dict[int, int] = {}           # lineup card -> bonus added by its Mercenary
        self.souls = [0] * n
        self._fx = [dict.fromkeys(NUMERIC_FX, 0) for _ in range(n)]
        #: Per seat, the (genre mask, bonus) its Class and Mercenaries add to its lineup's cards.
        self._genres: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.alive = [True] * n
        self.skip = [0] * n
        self.out_turn = [-1] * n
        # the turn
        self.turn_seat = -1                       # whose turn it is (or was, between turns)
        self.host = -1
        self.expect = 0
        self.rescuer = -1
        self.promise = 0
        self.invaders: list[int] = []
        self.match_point = False
        self.host_out = False             # the Host was Reset this turn: its turn is over
        self.won = False                  # a success brought someone to the winning souls
        self.first = 0
        self.between = False              # between two turns (limits hold)
        # statistics
        self.turns = 0
        self.capped = False
        self.resets = 0
        self.invited: dict[int, int] = {}     # monster def index -> times invited
        self.satisfied: dict[int, int] = {}   # monster def index -> times some lineup won
        #: A scenario that placed the cards itself starts at this seat's turn (no deal).
        self.start_at = -1
        #: The last rave held (None: none yet), and with a log on, every rave in order.
        self.last_rave: Rave | None = None
        self.raves: list[Rave] = []

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        """Deal the decks (not shuffled yet: `flow` shuffles them as chance events)."""
        p = self.p
        for h in range(p.n):
            t = p.type[h]
            (self.deck if t == SOUND else self.monsters if t == MONSTER
             else self.classes if t == CLASS else self.merc_deck).append(h)

    # ------------------------------------------------------------------ helpers
    def fx(self, s: int, key: str) -> int:
        """The sum of ``key`` over the abilities of the Class and Mercenaries of ``s``."""
        return self._fx[s][key]

    def refx(self, s: int) -> None:
        """Recompute the ability table of ``s`` and the genre bonuses it adds to its lineup
        (after its Class or Mercenaries change): `strength` reads them at every rave step."""
        self._fx[s] = self._abilities(s)
        self._genres[s] = self._genre_bonuses(s)

    def _abilities(self, s: int) -> dict[str, int]:
        """The abilities of the Class and Mercenaries of ``s``, summed."""
        cards = self.cls[s] + self.mercs[s]
        if not cards:
            return dict.fromkeys(NUMERIC_FX, 0)
        fx = self.p.fx
        return {k: sum(fx[c][k] for c in cards) for k in NUMERIC_FX}

    def _genre_bonuses(self, s: int) -> list[tuple[int, int]]:
        """The (genre mask, bonus) of the Class and Mercenaries of ``s``."""
        fx = self.p.fx
        return [g for c in self.cls[s] + self.mercs[s] for g in fx[c]["genres"]]

    def hand_limit(self, s: int) -> int:
        return LIMIT + self.fx(s, "hand")

    def inv_limit(self, s: int) -> int:
        return LIMIT + self.fx(s, "inventory")

    def _draw(self) -> Flow[int]:
        """Top card of the Sound deck; an empty deck is refilled from the shuffled discard
        (DECISION); with both empty, -1 (nothing is drawn)."""
        if not self.deck:
            if not self.discard:
                return -1
            self.deck, self.discard = self.discard, []
            yield from self.shuffle(self.deck)
            self._log("reshuffle")
        return self.deck.pop()

    def _draw_to(self, zone: list[int]) -> Flow[int]:
        h = yield from self._draw()
        if h >= 0:
            zone.append(h)
        return h

    def limits(self, s: int) -> Flow[None]:
        """Bring the hand and inventory of ``s`` within their limits: extra hand cards go to the
        inventory while it has room, or to the discard, as the player chooses."""
        hl, il = self.hand_limit(s), self.inv_limit(s)
        while len(self.hand[s]) > hl:
            room = len(self.inv[s]) < il
            pick = self.choices.picks
            opts = (pick("stash", self.hand[s]) if room else []) + pick("drop", self.hand[s])
            c = yield from self.ask("limit", s, opts)
            self.hand[s].remove(c[1])
            (self.inv[s] if c[0] == "stash" else self.discard).append(c[1])
        while len(self.inv[s]) > il:
            c = yield from self.ask("limit", s, self.choices.picks("drop_inv", self.inv[s]))
            self.inv[s].remove(c[1])
            self.discard.append(c[1])

    def strength(self, owner: int, cards: list[int]) -> Strength:
        """(bonus, duration) of ``owner``'s lineup of ``cards`` (see `lineup_strength`)."""
        boost = self.boost
        return lineup_strength(self.p, cards, [boost.get(h, 0) for h in cards] if boost else (),
                               self._genres[owner] if owner >= 0 else ())

    def gain(self, s: int, role: str, solo: bool = True) -> int:
        """Souls a success in ``role`` earns (before monster rewards)."""
        return (SOULS_SOLO if solo else SOULS_SHARED) + self.fx(s, role)

    def _take_class(self, s: int) -> Flow[None]:
        """A random Class from the deck; a Class already held goes back into the deck."""
        p = self.p
        if not self.classes:
            return
        i = yield from self.pick_random("class", self.classes)
        k = self.classes.pop(i)
        self.classes.extend(self.cls[s])
        self.cls[s] = [k]
        self.refx(s)
        self.played.append((p.dix[k], s))
        self._log("class", s, p.cid[k])
        yield from self.limits(s)

    def _dismiss(self, s: int, m: int) -> Flow[None]:
        self.mercs[s].remove(m)
        self.refx(s)
        self.discard.extend(self.under.pop(m))
        self.calls.pop(m, None)
        self.merc_deck.append(m)
        self._log("dismiss", s, self.p.cid[m])
        yield from self.limits(s)

    # ------------------------------------------------------------------ the end
    def over(self) -> bool:
        """Ten souls reached by a success (`won`), or fewer than two players left."""
        return self.won or sum(self.alive) < 2

    def scores(self) -> list[int]:
        return list(self.souls)

    def tiebreak(self, seat: int) -> tuple:
        """Souls decide; a player still in the game beats one who left (they hold 0 souls), and
        with everyone out, those who left last win. DECISION: equal souls share the win."""
        return (1 if self.alive[seat] else 0, self.out_turn[seat])

    def _finish(self) -> None:
        self.finish(turns=self.turns, capped=self.capped)

    def stats(self) -> GameStats:
        """This game's figures for `simulate` (see `statistics`)."""
        p = self.p
        w = self.result.winners if self.result else []
        return GameStats(turns=self.turns, capped=self.capped, resets=self.resets,
                         invited={p.def_ids[d]: k for d, k in self.invited.items()},
                         satisfied={p.def_ids[d]: k for d, k in self.satisfied.items()},
                         winner_classes=[p.cid[self.cls[s][0]] if self.cls[s] else "" for s in w])

    # ------------------------------------------------------------------ invariants
    def zones(self) -> Iterator[tuple[str, list[int]]]:
        for name in ("deck", "discard", "monsters", "guest", "classes", "merc_deck"):
            yield name, getattr(self, name)
        for s in range(self.n):
            for name in ("hand", "inv", "line", "cls", "mercs"):
                yield f"{name}[{SEAT_NAMES[s]}]", getattr(self, name)[s]
        for m, cards in self.under.items():
            yield f"under[{self.p.cid[m]}]", cards

    def invariants(self) -> None:
        p = self.p
        kinds = (("deck", SOUND), ("discard", SOUND), ("monsters", MONSTER), ("guest", MONSTER),
                 ("classes", CLASS), ("merc_deck", MERC))
        types = p.type.__getitem__
        for name, t in kinds:
            cards = getattr(self, name)
            if [*map(types, cards)].count(t) != len(cards):
                raise InvariantViolation(f"{name}: a card of the wrong type")
        for s in range(self.n):
            if self._fx[s] != self._abilities(s) or self._genres[s] != self._genre_bonuses(s):
                raise InvariantViolation(f"seat {SEAT_NAMES[s]}: ability table out of date")
        if set(self.under) != {m for s in range(self.n) for m in self.mercs[s]}:
            raise InvariantViolation("Mercenaries and the cards under them disagree")
        for s in range(self.n):
            seat = SEAT_NAMES[s]
            if self.souls[s] < 0:
                raise InvariantViolation(f"seat {seat}: negative souls")
            if len(self.cls[s]) > 1 or len(self.mercs[s]) > MAX_MERCS:
                raise InvariantViolation(f"seat {seat}: more than one Class or {MAX_MERCS} Mercenaries")
            if any(p.type[c] != CLASS for c in self.cls[s]) or any(p.type[m] != MERC for m in self.mercs[s]):
                raise InvariantViolation(f"seat {seat}: a card of the wrong type in front of it")
            if any(p.type[x] != SOUND for x in self.hand[s] + self.inv[s] + self.line[s]):
                raise InvariantViolation(f"seat {seat}: a non-Sound card in hand, inventory or lineup")
            if not self.alive[s] and (self.hand[s] or self.inv[s] or self.cls[s] or self.mercs[s]):
                raise InvariantViolation(f"seat {seat}: out of the game but holds cards")
        if self.between:                  # between turns every limit holds
            for s in range(self.n):
                if len(self.hand[s]) > self.hand_limit(s) or len(self.inv[s]) > self.inv_limit(s):
                    raise InvariantViolation(f"seat {SEAT_NAMES[s]}: over its hand or inventory limit")

    # ------------------------------------------------------------------ descriptions
    def view(self, seat: int) -> View:
        """What ``seat`` may see: its own hand and the face-down count under its Mercenaries;
        everyone's lineups (with the boost a Mercenary gave each card tossed in, in lineup
        order), inventories, Classes, Mercenaries and souls (all face up); the others' hand
        sizes only; the souls that win the game; the monster row (face up)."""
        cid = self.p.cid
        name, boost = cid.__getitem__, self.boost
        # built once a decision for the agents: one pass over the seats (most zones are empty)
        inv, lines, boosts, cls, mercs = [], [], [], [], []
        for iv, x, c, r in zip(self.inv, self.line, self.cls, self.mercs):
            inv.append([*map(name, iv)] if iv else [])
            lines.append([*map(name, x)] if x else [])
            boosts.append([boost.get(h, 0) for h in x] if boost and x else [0] * len(x))
            cls.append([*map(name, c)] if c else [])
            mercs.append([*map(name, r)] if r else [])
        mine = self.mercs[seat]
        return View(
            seat=seat, players=self.n, decision=self.decision.kind if self.decision else None,
            host=self.host, expectation=self.expect,
            hand=[*map(name, self.hand[seat])],
            under={cid[m]: len(self.under[m]) for m in mine} if mine else {},
            hand_sizes=[*map(len, self.hand)],
            inventories=inv, lineups=lines, lineup_boosts=boosts, classes=cls, mercenaries=mercs,
            souls=self.souls[:], alive=self.alive[:], souls_to_win=self.souls_to_win,
            guest=[*map(name, self.guest)] if self.guest else [], rescuer=self.rescuer,
            monsters=[*map(name, self.monsters)], invaders=self.invaders[:], deck=len(self.deck))

    # ------------------------------------------------------------------ descriptions
    def label(self, option: tuple) -> str:
        """`lay warmup_hum`, `call B 2`, `trade C`, `want 1`, `accept`, `add B first_kick`,
        `invite vinyl_lich`."""
        verb, *args = option
        cid = self.p.cid
        if verb == "want":                # an offer's terms: the cards put are named before
            return f"want {args[1]}"
        if verb == "accept":
            return verb
        if verb == "call":
            return f"call {SEAT_NAMES[args[0]]} {args[1]}"
        if verb == "trade":
            return f"trade {SEAT_NAMES[args[0]]}"
        if verb in ("add", "add_inv"):
            return f"{verb} {SEAT_NAMES[args[0]]} {cid[args[1]]}"
        return " ".join([verb] + [cid[a] for a in args])

    def state_digest(self) -> tuple:
        return (tuple((name, tuple(cards)) for name, cards in self.zones()), tuple(self.souls),
                tuple(self.alive), tuple(self.skip), self.turns, self.host, self.expect)
