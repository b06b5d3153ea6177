"""«Rules. Does Not Exist.»: the Basic mode (edition 0.8) for 2-5 players, played from the card
data in ``cards/rules_does_not_exist``.

State is plain lists of integer card handles (one handle per physical card); the flow of the
game is one generator (`Match.flow`) that yields a `Decision` whenever a seat must choose. Where
the source rulebook is silent or open, the ruling is marked ``DECISION`` here and written out in
docs/rules-decisions.md (section «Rules. Does Not Exist.») and in the rulebook's clarifications.

A turn (the Host is the seat whose turn it is):

1. draft 2 Sound cards (hand limit 5, extras to the inventory or the discard); roll the d20
   expectation; the opening window: buy a Class / hire a Mercenary (once a turn), trade, invite a
   monster by discarding a Sound card, pass, or start the rave;
2. the rave: the Host lays a lineup (calling a Rescuer and Mercenaries as needed); each other
   seat may then become an Invader with a lineup of its own; then every side may answer by
   adding cards, until a whole round of seats adds nothing;
3. the bounty: souls, rivalry losses, monster rewards, Mercenaries' new cards, d6 escapes and
   monster failures;
4. the wrap-up: one lineup card to the inventory, the shopping action if not used yet.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterator, Mapping, Sequence

from . import core
from .core import Flow, InvariantViolation, Option, Requires, SEAT_NAMES, operation, operations_of, passive
from .tally import spread

#: Seats the Basic mode is written for.
PLAYERS = (2, 5)

#: What the engine needs from the data: card types and their fields (`check` compares).
REQUIRES = Requires({"sound": ("bonus", "genres", "duration"),
                     "monster": ("level", "reward_souls", "reward_sounds", "failure"),
                     "class": ("effects",), "mercenary": ("effects",)},
                    optional=("class", "mercenary"))

SOUND, MONSTER, CLASS, MERC = range(4)
TYPE_CODES = {"sound": SOUND, "monster": MONSTER, "class": CLASS, "mercenary": MERC}
LIMIT = 5          # hand and inventory
DRAFT = 2
HIRE_AT = 5        # a d6 of 5-6 hires a Mercenary / escapes a monster
ESCAPE_AT = 5
MAX_MERCS = 3
ROLES = ("host", "rescuer", "invader")
NUMERIC_FX = ("hand", "inventory", "draft", "escape", "hire", "reroll", "host", "rescuer", "invader")
FIRST_PLAYER = ("roll", "gentle")


OPTIONS = (
    Option("first_player", str, "roll", choices=FIRST_PLAYER,
           help="Who starts: a die roll (roll), or the gentle round, «ніжний раунд» (gentle)."),
    Option("start_hand", int, 5, choices=tuple(range(LIMIT + 1)),
           help="Sound cards dealt to each seat when the first player is rolled for."),
    Option("souls_to_win", int, 10, help="Souls that win the game."),
    Option("turn_cap", int, 2000,
           help="Safety net only: a game is stopped after this many turns (reported)."),
)


def _passive(card: Any, genre_bit: dict[str, int]) -> dict:
    """The owner abilities of a Class or Mercenary card, aggregated."""
    fx = {"hand": 0, "inventory": 0, "draft": 0, "escape": 0, "hire": 0, "reroll": 0,
          "host": 0, "rescuer": 0, "invader": 0, "genres": (), "choose": False, "boost": 0}
    genres = []
    for op in card.effects:
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


class Prepared(core.Prepared):
    """Static card tables of the game, shared by all its matches."""

    def __init__(self, game: Any, options: Mapping[str, Any], sets: Sequence[str]):
        super().__init__(game, options, sets)
        if options.get("souls_to_win", 10) < 1 or options.get("turn_cap", 1) < 1:
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
        self.fx: list[dict] = []           # passive abilities of Classes and Mercenaries ({}: none)
        for d, c in enumerate(self.defs):
            if c.type not in TYPE_CODES:
                continue
            t = TYPE_CODES[c.type]
            fx = _passive(c, genre_bit) if t in (CLASS, MERC) else {}
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
        for h, i in enumerate(self.cid):
            self.handles_of.setdefault(i, []).append(h)

    def new(self, players: int, seed: int, log: bool = False, deal: bool = True) -> "Match":
        m = Match(self, players, seed, log=log)
        if deal:
            m.setup()
            m.begin()
        return m


def lineup_strength(p: "Prepared", cards: Sequence[int], boosts: Sequence[int],
                    extra: list[tuple[int, int]]) -> tuple[int, int]:
    """(bonus, duration) of a lineup of ``cards``; ``boosts`` are the Mercenary boosts of its
    first cards, ``extra`` the owner's (genre mask, bonus) from Class and Mercenaries.
    DECISION: each card counts its printed bonus plus those, times 1.5 when another card of the
    lineup shares one genre with it, times 2 when one shares two or more; the total is rounded
    down. The engine and the agents count with this one function."""
    gm, bonus, dur = p.gm, p.bonus, p.dur
    nb = len(boosts)
    twice = total = 0
    for i, h in enumerate(cards):
        g = gm[h]
        b = bonus[h] + (boosts[i] if i < nb else 0)
        for mask, amt in extra:
            if g & mask:
                b += amt
        best = 2
        for j, k in enumerate(cards):
            if j != i:
                common = g & gm[k]
                if common:
                    if common & (common - 1):
                        best = 4
                        break
                    best = 3
        twice += b * best
        total += dur[h]
    return twice // 2, total


class Match(core.Match):
    """One game. Seats 0..n-1 (A, B, ...), clockwise; the next seat is the one to the left."""

    p: Prepared

    def __init__(self, prep: Prepared, players: int, seed: int, log: bool = False):
        lo, hi = PLAYERS
        if not lo <= players <= hi:
            raise core.EngineError(f"Rules. Does Not Exist. takes {lo}-{hi} players, not {players}")
        super().__init__(players, seed, log)
        n = players
        self.p = prep
        opt = prep.options
        self.first_player = opt.get("first_player", "roll")
        self.start_hand = opt.get("start_hand", 5)
        self.souls_to_win = opt.get("souls_to_win", 10)
        self.turn_cap = opt.get("turn_cap", 2000)
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
        self.calls: dict[int, int] = {}           # Mercenary -> cards tossed this rave
        self.boost: dict[int, int] = {}           # lineup card -> bonus added by its Mercenary
        self.souls = [0] * n
        self._fx = [dict.fromkeys(NUMERIC_FX, 0) for _ in range(n)]
        self.alive = [True] * n
        self.skip = [0] * n
        self.out_turn = [-1] * n
        # the turn
        self.host = -1
        self.expect = 0
        self.rescuer = -1
        self.promise = 0
        self.invaders: list[int] = []
        self.match_point = False
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
        #: The last rave: expectation, (bonus, duration) of each lineup by owner, winner.
        self.last_rave: dict | None = None

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        """Deal the decks (not shuffled yet: `flow` shuffles them as chance events)."""
        p = self.p
        for h in range(p.n):
            t = p.type[h]
            (self.deck if t == SOUND else self.monsters if t == MONSTER
             else self.classes if t == CLASS else self.merc_deck).append(h)

    def flow(self) -> Flow[None]:
        if self.start_at >= 0:                 # a scenario's position
            yield from self.play_from(self.start_at)
            return
        yield from self.shuffle(self.deck)
        yield from self.shuffle(self.classes)
        yield from self.shuffle(self.merc_deck)
        if self.first_player == "gentle":
            self.first = yield from self._gentle_round()
        else:
            for s in range(self.n):
                for _ in range(self.start_hand):
                    yield from self._draw_to(self.hand[s])
            self.first = (yield from self.die(self.n, "first")) - 1   # DECISION: a die picks the first seat
        self._log("first", self.first)
        yield from self.play_from(self.first)

    def play_from(self, seat: int) -> Flow[None]:
        """Turns from ``seat`` on, until the game ends."""
        s = seat
        self.between = True
        while True:
            if self.turns >= self.turn_cap:
                self.capped = True
                break
            if self.alive[s]:
                self.turns += 1
                self.between = False
                yield from self.turn(s)
                self.between = True
                if self.turns % self.n == 0 or not self.auto:   # once a round of the table, or
                    self.check_invariants()        # every turn in a scenario
                yield from self.checkpoint("turn")
                if self.over():
                    break
            s = (s + 1) % self.n
        self._finish()

    def _gentle_round(self) -> Flow[int]:
        """«Ніжний раунд»: 9 cards each, one at a time; until a seat holds its 9th card it may
        lay cards from its hand into a lineup; the strongest lineup starts. Then the lineups go
        back to hand and everyone discards down to 5 (DECISION: ties are broken by lot)."""
        n = self.n
        for r in range(9):
            for s in range(n):
                yield from self._draw_to(self.hand[s])
                if r < 8:
                    while self.hand[s]:
                        c = yield from self.ask("gentle", s, [("done",)] + [("lay", h) for h in self.hand[s]])
                        if c[0] == "done":
                            break
                        self.hand[s].remove(c[1])
                        self.line[s].append(c[1])
        keys = [self.strength(s, self.line[s]) for s in range(n)]
        best = max(keys)
        tied = [s for s in range(n) if keys[s] == best]
        first = tied[0] if len(tied) == 1 else tied[(yield from self.die(len(tied), "lot")) - 1]
        self._log("gentle", keys, first)
        for s in range(n):
            self.hand[s].extend(self.line[s])
            self.line[s] = []
            while len(self.hand[s]) > LIMIT:
                c = yield from self.ask("drop", s, [("drop", h) for h in self.hand[s]])
                self.hand[s].remove(c[1])
                self.discard.append(c[1])
        return first

    # ------------------------------------------------------------------ helpers
    def fx(self, s: int, key: str) -> int:
        """The sum of ``key`` over the abilities of the Class and Mercenaries of ``s``."""
        return self._fx[s][key]

    def refx(self, s: int) -> None:
        """Recompute the ability table of ``s`` (after its Class or Mercenaries change)."""
        fx = self.p.fx
        cards = self.cls[s] + self.mercs[s]
        self._fx[s] = {k: sum(fx[c][k] for c in cards) for k in NUMERIC_FX}

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
            opts = ([("stash", h) for h in self.hand[s]] if room else []) + [("drop", h) for h in self.hand[s]]
            c = yield from self.ask("limit", s, opts)
            self.hand[s].remove(c[1])
            (self.inv[s] if c[0] == "stash" else self.discard).append(c[1])
        while len(self.inv[s]) > il:
            c = yield from self.ask("limit", s, [("drop_inv", h) for h in self.inv[s]])
            self.inv[s].remove(c[1])
            self.discard.append(c[1])

    def strength(self, owner: int, cards: list[int]) -> tuple[int, int]:
        """(bonus, duration) of ``owner``'s lineup of ``cards`` (see `lineup_strength`)."""
        p, boost = self.p, self.boost
        extra = [g for c in self.cls[owner] for g in p.fx[c]["genres"]] + \
                [g for m in self.mercs[owner] for g in p.fx[m]["genres"]] if owner >= 0 else []
        return lineup_strength(p, cards, [boost.get(h, 0) for h in cards] if boost else (), extra)

    def gain(self, s: int, role: str, solo: bool = True) -> int:
        """Souls a success in ``role`` earns (before monster rewards)."""
        return (2 if solo else 1) + self.fx(s, role)

    # ------------------------------------------------------------------ a turn
    def turn(self, h: int) -> Flow[None]:
        p, n = self.p, self.n
        if self.skip[h]:
            self.skip[h] -= 1
            self._log("skip", h)
            return
        self.host, self.rescuer, self.promise, self.invaders = h, -1, 0, []
        self.match_point = False
        self._log("turn", h, self.turns)
        # Step 1: expectation
        for _ in range(DRAFT + self.fx(h, "draft")):
            yield from self._draw_to(self.hand[h])
        yield from self.limits(h)
        self.expect = yield from self.die(20)
        for _ in range(self.fx(h, "reroll")):
            c = yield from self.ask("reroll", h, [("keep",), ("reroll",)])
            if c[0] == "keep":
                break
            self.expect = yield from self.die(20)
        shopped = False
        traded: set[int] = set()
        win = self.souls_to_win
        while True:
            opts: list[tuple] = [("rave",)]
            # DECISION: a pass is possible only before a monster is invited, and never on a turn
            # whose success would bring the Host to the winning souls (the match point).
            if not self.guest and self.souls[h] + self.gain(h, "host") < win:
                opts.append(("pass",))
            if not self.guest:
                opts += [("invite",)] if self._invitable() and (self.hand[h] or self.inv[h]) else []
            opts += [("trade", s) for s in range(n) if s != h and self.alive[s] and s not in traded
                     and self.hand[s] and self.hand[h]]
            if not shopped:
                opts += self._shop_options(h)
            c = yield from self.ask("open", h, opts)
            v = c[0]
            if v == "pass":
                self._log("pass", h)
                return
            if v == "rave":
                break
            if v in ("buy", "hire"):
                shopped = True
                yield from self._shop(h, v)
            elif v == "invite":
                yield from self._invite(h)
            elif v == "trade":
                traded.add(c[1])
                yield from self._trade(h, c[1])
        yield from self.rave(h)
        yield from self.bounty(h)
        # Step 4: wrap-up
        if self.alive[h]:
            if self.line[h]:
                c = yield from self.ask("keep", h, [("keep", x) for x in self.line[h]])
                self.line[h].remove(c[1])
                self.boost.pop(c[1], None)
                self.inv[h].append(c[1])
                yield from self.limits(h)
            if not shopped:
                opts = self._shop_options(h)
                if opts:
                    c = yield from self.ask("shop", h, [("end",)] + opts)
                    if c[0] != "end":
                        yield from self._shop(h, c[0])
        for s in range(n):
            for x in self.line[s]:
                self.boost.pop(x, None)
            self.discard.extend(self.line[s])
            self.line[s] = []
        self.monsters.extend(self.guest)
        self.guest = []
        self.calls.clear()
        for s in range(n):
            if self.alive[s]:
                yield from self.limits(s)

    def _shop_options(self, s: int) -> list[tuple]:
        opts = []
        if self.souls[s] >= 1 and self.classes:
            opts.append(("buy",))
        if len(self.mercs[s]) < MAX_MERCS and self.merc_deck and (self.hand[s] or self.inv[s]):
            opts.append(("hire",))
        return opts

    def _shop(self, s: int, verb: str) -> Flow[None]:
        p = self.p
        if verb == "buy":
            # One Class at a time: the old one goes back into the Class deck (DECISION).
            self.souls[s] -= 1
            yield from self._take_class(s)
            return
        c = yield from self.ask("hire", s, [("pay", x) for x in self.hand[s]] +
                                [("pay_inv", x) for x in self.inv[s]])
        (self.hand[s] if c[0] == "pay" else self.inv[s]).remove(c[1])
        self.discard.append(c[1])
        roll = yield from self.die(6)
        if roll + self.fx(s, "hire") >= HIRE_AT:
            i = yield from self.pick_random("mercenary", self.merc_deck)
            m = self.merc_deck.pop(i)
            self.mercs[s].append(m)
            self.refx(s)
            self.under[m] = []
            for _ in range(2):
                yield from self._draw_to(self.under[m])
            self.played.append((p.dix[m], s))
            self._log("hired", s, p.cid[m])
            yield from self.limits(s)        # a Mercenary may change a limit

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

    def _invitable(self) -> list[int]:
        lv = self.p.level
        return [m for m in self.monsters if lv[m] <= self.expect]

    def _invite(self, h: int) -> Flow[None]:
        p = self.p
        c = yield from self.ask("monster", h, [("invite", m) for m in self._invitable()])
        m = c[1]
        # DECISION: the card paid for the invitation comes from the hand or the inventory.
        d = yield from self.ask("pay", h, [("pay", x) for x in self.hand[h]] +
                                [("pay_inv", x) for x in self.inv[h]])
        (self.hand[h] if d[0] == "pay" else self.inv[h]).remove(d[1])
        self.discard.append(d[1])
        self.monsters.remove(m)
        self.guest = [m]
        self.invited[p.dix[m]] = self.invited.get(p.dix[m], 0) + 1
        self.played.append((p.dix[m], h))
        self._log("invite", h, p.cid[m])

    def _trade(self, h: int, s: int) -> Flow[None]:
        """DECISION: the Host offers one hand card for one of the other player's hand cards,
        which that player chooses, or declines."""
        c = yield from self.ask("offer", h, [("offer", x) for x in self.hand[h]])
        d = yield from self.ask("answer", s, [("decline",)] + [("give", x) for x in self.hand[s]])
        if d[0] == "give":
            self.hand[h].remove(c[1])
            self.hand[s].remove(d[1])
            self.hand[h].append(d[1])
            self.hand[s].append(c[1])
            self._log("trade", h, s)

    # ------------------------------------------------------------------ the rave
    def _owner(self, s: int) -> int:
        """Whose lineup ``s`` plays on: the Host's for the Host and the Rescuer, else its own."""
        return self.host if s in (self.host, self.rescuer) else s

    def rave_options(self, s: int, first: bool) -> list[tuple]:
        h, n = self.host, self.n
        opts: list[tuple] = [("stand",)]
        part = s == h or s == self.rescuer or s in self.invaders
        if part:
            opts += [("lay", x) for x in self.hand[s]] + [("lay_inv", x) for x in self.inv[s]]
            if s == h or s in self.invaders:
                opts += [("merc", m) for m in self.mercs[s] if self.under[m]]
            if s == h and self.rescuer < 0:
                k = self.p.rsounds[self.guest[0]] if self.guest else 0
                opts += [("call", t, j) for t in range(n) if t != h and self.alive[t]
                         and t not in self.invaders and t not in self._asked for j in range(k + 1)]
        elif first and s not in self._stayed and (self.hand[s] or self.inv[s] or
                                                  any(self.under[m] for m in self.mercs[s])):
            opts.append(("invade",))
        if self.match_point and s != h:
            # DECISION: at the match point anyone may add cards to any lineup (an Invader may
            # then be helped); a card added to another lineup never shares its rewards.
            targets = [h] + self.invaders
            for t in targets:
                if t != self._owner(s) and t != s:
                    opts += [("add", t, x) for x in self.hand[s]] + [("add_inv", t, x) for x in self.inv[s]]
        return opts

    def rave(self, h: int) -> Flow[None]:
        """Step 2: lay lineups until a whole round of seats adds nothing."""
        n = self.n
        self._asked: set[int] = set()
        self._stayed: set[int] = set()
        reward = self.p.rsouls[self.guest[0]] if self.guest else 0
        self.match_point = self.souls[h] + self.gain(h, "host") + reward >= self.souls_to_win
        order = [(h + i) % n for i in range(n)]
        first_round = True
        while True:
            acted = False
            for s in order:
                if not self.alive[s]:
                    continue
                while True:
                    opts = self.rave_options(s, first_round)
                    if len(opts) == 1:
                        break
                    c = yield from self.ask("rave", s, opts)
                    v = c[0]
                    if v == "stand":
                        if s not in (h, self.rescuer) and s not in self.invaders:
                            self._stayed.add(s)
                        break
                    acted = True
                    yield from self._rave_act(s, c)
            first_round = False
            if not acted:
                break

    def _rave_act(self, s: int, c: tuple) -> Flow[None]:
        p = self.p
        v = c[0]
        if v in ("lay", "lay_inv"):
            (self.hand[s] if v == "lay" else self.inv[s]).remove(c[1])
            self.line[self._owner(s)].append(c[1])
            self.played.append((p.dix[c[1]], s))
        elif v in ("add", "add_inv"):
            (self.hand[s] if v == "add" else self.inv[s]).remove(c[2])
            self.line[c[1]].append(c[2])
            self.played.append((p.dix[c[2]], s))
        elif v == "invade":
            self.invaders.append(s)
            self._log("invade", s)
        elif v == "merc":
            m = c[1]
            cards = self.under[m]
            fx = p.fx[m]
            if fx["choose"]:
                d = yield from self.ask("toss", s, [("toss", x) for x in cards])
                i = cards.index(d[1])
            else:
                i = yield from self.pick_random("toss", cards)
            x = cards.pop(i)
            if fx["boost"]:
                self.boost[x] = fx["boost"]
            self.line[s].append(x)
            self.played.append((p.dix[x], s))
            self.calls[m] = self.calls.get(m, 0) + 1
            # A Mercenary leaves after its second card, or after one for an Invader.
            if self.calls[m] >= 2 or s != self.host or not cards:
                yield from self._dismiss(s, m)
        elif v == "call":
            t, k = c[1], c[2]
            self._asked.add(t)
            d = yield from self.ask("rescue", t, [("decline",), ("accept",)])
            self._log("call", s, t, k, d[0])
            if d[0] == "accept":
                self.rescuer, self.promise = t, k
                self._stayed.discard(t)

    def _dismiss(self, s: int, m: int) -> Flow[None]:
        self.mercs[s].remove(m)
        self.refx(s)
        self.discard.extend(self.under.pop(m))
        self.calls.pop(m, None)
        self.merc_deck.append(m)
        self._log("dismiss", s, self.p.cid[m])
        yield from self.limits(s)

    # ------------------------------------------------------------------ the bounty
    def lineups(self) -> list[tuple[tuple[int, int], int]]:
        """((bonus, duration), owner) of the Host's lineup and every Invader's, in order."""
        return [(self.strength(o, self.line[o]), o) for o in [self.host] + self.invaders]

    def winner(self) -> int:
        """The owner of the winning lineup, or -1. It must beat the expectation by at least 1;
        the highest bonus wins, then the longest; DECISION: an exact tie goes to the Host, then
        to the Invader who came in first."""
        best, who = None, -1
        for key, o in self.lineups():
            if key[0] > self.expect and (best is None or key > best):
                best, who = key, o
        return who

    def bounty(self, h: int) -> Flow[None]:
        p = self.p
        w = self.winner()
        r = self.rescuer
        monster = self.guest[0] if self.guest else -1
        self.last_rave = {"expect": self.expect, "lineups": {o: k for k, o in self.lineups()},
                          "winner": w, "monster": monster, "host": h}
        self._log("rave", h, self.expect, [(o, k) for k, o in self.lineups()], w)
        winners: list[int] = []
        if w == h:
            winners = [h] if r < 0 else [h, r]
            if r < 0:
                self.souls[h] += self.gain(h, "host")
            else:
                self.souls[h] += self.gain(h, "host", solo=False)
                self.souls[r] += self.gain(r, "rescuer", solo=False)
            for i in self.invaders:
                self.souls[i] = max(0, self.souls[i] - 2)
        elif w >= 0:
            winners = [w]
            self.souls[w] += self.gain(w, "invader")
            for s in ([h] if r < 0 else [h, r]):
                self.souls[s] = max(0, self.souls[s] - (2 if r < 0 else 1))
        if monster >= 0 and w >= 0:
            d = p.dix[monster]
            self.satisfied[d] = self.satisfied.get(d, 0) + 1
            self.souls[w] += p.rsouls[monster]          # souls go to the Host (or the Invader) only
            share = self.promise if (w == h and r >= 0) else 0
            for i in range(p.rsounds[monster]):
                yield from self._draw_to(self.hand[r] if i < share else self.hand[w])
        for s in winners:
            for m in self.mercs[s]:
                yield from self._draw_to(self.under[m])
        for s in winners:
            yield from self.limits(s)
        if monster >= 0:
            losers = [s for s in [h] + ([r] if r >= 0 else []) + self.invaders if s not in winners]
            for s in losers:
                roll = yield from self.die(6)
                if roll + self.fx(s, "escape") >= ESCAPE_AT:
                    self._log("escape", s, roll)
                    continue
                self._log("failure", s, roll, p.cid[monster])
                for op, args in p.failure[monster]:
                    if not self.alive[s]:
                        break
                    yield from self.OPERATIONS[op].func(self, s, **args)

    # ------------------------------------------------------------------ operations
    # Monster failures act on ``s``, a failing player who did not escape. Class and Mercenary
    # abilities are passive: `Prepared` reads them into `fx` tables, and `Match.fx` sums them
    # for the owner; their methods below only register them (they never run on their own).
    @operation("discard", count=int, zone=("hand", "inventory"))
    def op_discard(self, s: int, count: int, zone: str) -> Flow[None]:
        cards = self.hand[s] if zone == "hand" else self.inv[s]
        for _ in range(min(count, len(cards))):
            c = yield from self.ask("discard", s, [("drop", x) for x in cards])
            cards.remove(c[1])
            self.discard.append(c[1])

    @operation("lose_souls", count=int)
    def op_lose_souls(self, s: int, count: int) -> Flow[None]:
        self.souls[s] = max(0, self.souls[s] - count)
        return
        yield

    @operation("lose_class")
    def op_lose_class(self, s: int) -> Flow[None]:
        self.classes.extend(self.cls[s])
        self.cls[s] = []
        self.refx(s)
        yield from self.limits(s)

    @operation("lose_mercenaries", count=int)
    def op_lose_mercenaries(self, s: int, count: int) -> Flow[None]:
        for _ in range(min(count, len(self.mercs[s]))):
            c = yield from self.ask("dismiss", s, [("dismiss", m) for m in self.mercs[s]])
            yield from self._dismiss(s, c[1])

    @operation("skip_turn")
    def op_skip_turn(self, s: int) -> Flow[None]:
        self.skip[s] += 1
        return
        yield

    @operation("reset")
    def op_reset(self, s: int) -> Flow[None]:
        """«Обнулення»: hand, inventory, Class and Mercenaries go; then pay a soul for 5 cards
        and a random Class, or leave; with no soul the player is out."""
        self.resets += 1
        self.discard.extend(self.hand[s])
        self.discard.extend(self.inv[s])
        self.hand[s], self.inv[s] = [], []
        self.classes.extend(self.cls[s])
        self.cls[s] = []
        for m in list(self.mercs[s]):
            self.mercs[s].remove(m)
            self.discard.extend(self.under.pop(m))
            self.calls.pop(m, None)
            self.merc_deck.append(m)
        self.refx(s)
        c = ("leave",)
        if self.souls[s] >= 1:
            c = yield from self.ask("reset", s, [("pay",), ("leave",)])
        self._log("reset", s, c[0])
        if c[0] == "pay":
            self.souls[s] -= 1
            for _ in range(5):
                yield from self._draw_to(self.hand[s])
            yield from self._take_class(s)
        else:
            # DECISION: a player who leaves returns their souls; their turns are skipped.
            self.alive[s] = False
            self.souls[s] = 0
            self.skip[s] = 0
            self.out_turn[s] = self.turns

    op_raise_limit = passive("raise_limit", "Passive: the owner's hand or inventory limit is higher (`hand_limit`, `inv_limit`).", zone=("hand", "inventory"), amount=int)
    op_draft_extra = passive("draft_extra", "Passive: more cards in the owner's draft (`turn`).", count=int)
    op_bonus_souls = passive("bonus_souls", "Passive: more souls for a success in that role (`gain`).", role=ROLES, count=int)
    op_escape_bonus = passive("escape_bonus", "Passive: added to the owner's d6 escape rolls (`bounty`).", add=int)
    op_hire_bonus = passive("hire_bonus", "Passive: added to the owner's d6 hiring rolls (`_shop`).", add=int)
    op_genre_bonus = passive("genre_bonus", "Passive: each card of the genre in the owner's lineup counts more (`strength`).", genre=str, amount=int)
    op_reroll_expectation = passive("reroll_expectation", "Passive: the owner may reroll the expectation d20 (`turn`).", count=int)
    op_merc_choose = passive("merc_choose", "Passive: the owner chooses the card this Mercenary tosses in (`_rave_act`).")
    op_merc_boost = passive("merc_boost", "Passive: cards this Mercenary tosses in count more (`strength`).", amount=int)

    # ------------------------------------------------------------------ the end
    def over(self) -> bool:
        live = [s for s in range(self.n) if self.alive[s]]
        return len(live) < 2 or any(self.souls[s] >= self.souls_to_win for s in live)

    def scores(self) -> list[int]:
        return list(self.souls)

    def tiebreak(self, seat: int) -> tuple:
        """Souls decide; a player still in the game beats one who left (they hold 0 souls), and
        with everyone out, those who left last win. DECISION: equal souls share the win."""
        return (1 if self.alive[seat] else 0, self.out_turn[seat])

    def _finish(self) -> None:
        self.finish(turns=self.turns, capped=self.capped)

    def stats(self) -> dict:
        """This game's figures for `simulate` (see `statistics`)."""
        p = self.p
        w = self.result.winners if self.result else []
        return {"turns": self.turns, "capped": self.capped, "resets": self.resets,
                "invited": {p.def_ids[d]: k for d, k in self.invited.items()},
                "satisfied": {p.def_ids[d]: k for d, k in self.satisfied.items()},
                "winner_classes": [p.cid[self.cls[s][0]] if self.cls[s] else "" for s in w]}

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
        for name, t in kinds:
            if any(p.type[h] != t for h in getattr(self, name)):
                raise InvariantViolation(f"{name}: a card of the wrong type")
        fx = p.fx
        for s in range(self.n):
            cards = self.cls[s] + self.mercs[s]
            if any(self._fx[s][k] != sum(fx[c][k] for c in cards) for k in NUMERIC_FX):
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
    def view(self, seat: int) -> dict:
        """What ``seat`` may see: its own hand and the face-down count under its Mercenaries;
        everyone's lineups (with the boost a Mercenary gave each card tossed in, in lineup
        order), inventories, Classes, Mercenaries and souls (all face up); the others' hand
        sizes only; the souls that win the game."""
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
        return {
            "seat": seat, "host": self.host, "expectation": self.expect,
            "hand": [*map(name, self.hand[seat])],
            "under": {cid[m]: len(self.under[m]) for m in mine} if mine else {},
            "hand_sizes": [*map(len, self.hand)],
            "inventories": inv, "lineups": lines, "lineup_boosts": boosts,
            "classes": cls, "mercenaries": mercs,
            "souls": self.souls[:], "alive": self.alive[:], "souls_to_win": self.souls_to_win,
            "guest": [*map(name, self.guest)] if self.guest else [], "rescuer": self.rescuer,
            "invaders": self.invaders[:], "deck": len(self.deck),
            "decision": self.decision.kind if self.decision else None,
        }

    # ------------------------------------------------------------------ descriptions
    def label(self, option: tuple) -> str:
        """`lay warmup_hum`, `call B 2`, `trade C`, `add B first_kick`, `invite vinyl_lich`."""
        verb, *args = option
        cid = self.p.cid
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


def tally(prep: Prepared, stats: dict) -> dict:
    """One game's `Match.stats()` as counts that add up over games (see `statistics`): its
    length as a histogram entry, a shared win as a fraction per winner's Class."""
    share = Fraction(1, max(1, len(stats["winner_classes"])))
    class_wins: dict[str, Fraction] = {}
    for c in stats["winner_classes"]:
        class_wins[c or "(none)"] = class_wins.get(c or "(none)", 0) + share
    return {"turns": {stats["turns"]: 1}, "capped": int(stats["capped"]),
            "resets": stats["resets"], "with_reset": int(stats["resets"] > 0),
            "invited": stats["invited"], "satisfied": stats["satisfied"], "class_wins": class_wins}


def statistics(prep: Prepared, totals: dict, games: int) -> dict:
    """The designer's figures from ``games`` games' tallies added up: game length in turns, how
    often each monster is invited and satisfied, each Class's share of wins, resets, turn-cap
    hits; with the text report's lines under "lines"."""
    n = games
    if not n:
        return {}
    invited, satisfied = totals.get("invited", {}), totals.get("satisfied", {})
    cls_wins, resets = totals.get("class_wins", {}), totals.get("resets", 0)
    monsters = sorted((c for c in prep.defs if c.type == "monster"), key=lambda c: c.level)
    names = {c.id: dict(c.name) for c in prep.defs}
    classes = [c.id for c in prep.defs if c.type == "class"] + ["(none)"]
    out = {
        "turns": spread(totals["turns"]),
        "turn_cap_hits": totals.get("capped", 0),
        "resets": {"total": resets, "per_game": round(resets / n, 4),
                   "games_with_reset": totals.get("with_reset", 0)},
        "monsters": {c.id: {"level": c.level, "invited": invited.get(c.id, 0),
                            "satisfied": satisfied.get(c.id, 0),
                            "satisfied_rate": round(satisfied.get(c.id, 0) / invited[c.id], 4)
                            if invited.get(c.id) else 0.0}
                     for c in monsters},
        "class_win_share": {c: round(float(cls_wins.get(c, 0) / n), 4) for c in classes},
    }
    out["lines"] = {lang: _lines(out, n, resets, names, lang) for lang in ("uk", "en")}
    return out


_LINES = {
    "en": {"length": "Game length: {mean} turns on average (median {median}, 90% within {p90}, "
                     "longest {max}); turn cap hit in {cap} games",
           "resets": "Resets: {total} in all, {games} games with at least one",
           "monsters": "Monsters (level: invited / satisfied):",
           "monster": "  {level:>2} {name}: {invited} / {satisfied} ({rate:.0f}% satisfied)",
           "never": "Monsters never invited in {n} games: {names}",
           "unmet": "Monsters invited but never satisfied in {n} games: {names}",
           "classes": "Class held by the winner (share of wins): {shares}",
           "none": "no class"},
    "uk": {"length": "Тривалість гри: у середньому {mean} ходу (медіана {median}, 90 % ігор — "
                     "до {p90}, найдовша — {max}); межу ходів досягнуто в {cap} іграх",
           "resets": "Обнулень: {total} загалом, в {games} іграх хоча б одне",
           "monsters": "Монстри (рівень: запрошено / задоволено):",
           "monster": "  {level:>2} {name}: {invited} / {satisfied} (задоволено {rate:.0f} %)",
           "never": "Монстри, яких жодного разу не запросили за {n} ігор: {names}",
           "unmet": "Монстри, яких запрошували, але ні разу не задовольнили за {n} ігор: {names}",
           "classes": "Клас переможця (частка перемог): {shares}",
           "none": "без класу"},
}


def _lines(out: dict, n: int, resets: int, names: dict, lang: str) -> list[str]:
    """The report's lines in ``lang``, cards named as printed."""
    w = _LINES[lang]
    name = lambda cid: names.get(cid, {}).get(lang, w["none"] if cid == "(none)" else cid)  # noqa: E731
    pct = (lambda v: f"{v:.1f}".replace(".", ",") + "\u00a0%") if lang == "uk" else (lambda v: f"{v:.1f}%")  # noqa: E731
    t = out["turns"]
    mean = str(t["mean"]).replace(".", ",") if lang == "uk" else t["mean"]
    lines = [w["length"].format(mean=mean, median=t["median"], p90=t["p90"], max=t["max"],
                                cap=out["turn_cap_hits"]),
             w["resets"].format(total=resets, games=out["resets"]["games_with_reset"]),
             w["monsters"]]
    for cid, m in out["monsters"].items():
        lines.append(w["monster"].format(level=m["level"], name=name(cid), invited=m["invited"],
                                         satisfied=m["satisfied"], rate=100 * m["satisfied_rate"]))
    never = [name(cid) for cid, m in out["monsters"].items() if not m["invited"]]
    if never:
        lines.append(w["never"].format(n=n, names=", ".join(never)))
    unmet = [name(cid) for cid, m in out["monsters"].items() if m["invited"] and not m["satisfied"]]
    if unmet:
        lines.append(w["unmet"].format(n=n, names=", ".join(unmet)))
    shares = sorted(out["class_win_share"].items(), key=lambda kv: -kv[1])
    lines.append(w["classes"].format(shares=", ".join(f"{name(c)} {pct(100 * v)}" for c, v in shares)))
    return lines


OPERATIONS = operations_of(Match)

#: Operations that act when a monster's failure strikes, and those that are owner abilities.
FAILURE_OPS = frozenset({"discard", "lose_souls", "lose_class", "lose_mercenaries", "skip_turn",
                         "reset"})
ABILITY_OPS = frozenset(OPERATIONS) - FAILURE_OPS
MERC_ONLY = frozenset({"merc_choose", "merc_boost"})


def check_data(game: Any) -> Iterator:
    """Findings certain from the data alone (no game needs to be played), for `forge check`:

    - a monster that no Host's own lineup (hand and inventory at their limits, every card at
      double bonus) could beat, or whose level no d20 reaches: it can never be satisfied;
    - an operation where it can never act: an owner ability in a monster's `failure`, a failure
      operation among a Class's or Mercenary's abilities, a Mercenary ability on a Class, a
      `genre_bonus` for a genre no Sound card carries;
    - a Sound deck too small to deal the gentle round at the most players.
    """
    sounds = [c for c in game.cards if c.type == "sound"]
    bonuses = sorted((c.bonus for c in sounds for _ in range(c.copies)), reverse=True)
    size = LIMIT * 2
    best = 2 * sum(bonuses[:size])           # an upper bound: every card doubled
    genres = {g for c in sounds for g in c.genres}
    for card in game.cards:
        if card.type == "monster":
            if card.level > 20:
                yield card.finding(("level",), "monster-unreachable",
                                   f"level {card.level}: no d20 expectation reaches it, so "
                                   f"{card.id} can never be invited", "use a level of 1-20")
            elif card.level >= best:
                yield card.finding(("level",), "monster-unbeatable",
                                   f"level {card.level}: no lineup of a Host's {size} cards "
                                   f"(at most {best} bonus) beats it", "lower the level")
            for i, op in enumerate(card.failure):
                if op.name in ABILITY_OPS:
                    yield card.finding(("failure", i), "operation-never-applies",
                                       f"{op.name!r} is an owner ability; in a monster's failure "
                                       "it never acts", "use a failure operation "
                                       f"({', '.join(sorted(FAILURE_OPS))})")
        elif card.type in ("class", "mercenary"):
            for i, op in enumerate(card.effects):
                if op.name in FAILURE_OPS:
                    yield card.finding(("effects", i), "operation-never-applies",
                                       f"{op.name!r} acts only in a monster's failure; on a "
                                       f"{card.type} it never acts")
                elif op.name in MERC_ONLY and card.type == "class":
                    yield card.finding(("effects", i), "operation-never-applies",
                                       f"{op.name!r} acts only on a Mercenary's own cards; on a "
                                       "Class it never acts")
                elif op.name == "genre_bonus" and op.args()["genre"] not in genres:
                    yield card.finding(("effects", i), "operation-never-applies",
                                       f"no Sound card has the genre {op.args()['genre']!r}, so "
                                       "this bonus never applies")
    deal = 9 * min(game.manifest.players.max, PLAYERS[1])
    total = sum(c.copies for c in sounds)
    if total < deal:
        yield game.manifest_finding(("sets",), "deck-too-small",
                                    f"{total} Sound cards cannot deal the gentle round's 9 cards "
                                    f"to {min(game.manifest.players.max, PLAYERS[1])} players ({deal})")

from .rave_agents import AGENT_NAMES, AGENTS  # noqa: E402  (the agents read this module's Match)


def prepare(game: Any, options: Mapping[str, Any] | None = None,
            sets: Sequence[str] | None = None) -> Prepared:
    opts = core.resolve_options(OPTIONS, options or {})
    return Prepared(game, opts, sets or tuple(game.manifest.sets)[:1])


# ---------------------------------------------------------------------------------- scenarios
from .scenario import ANY, SEAT, Map, N, Rec, SetupContext, card  # noqa: E402
from .rave_scenario_text import SCORE_UNIT, describe_expect  # noqa: E402  (rulebook examples)

_SOUND = card("sound")
_MERC = Rec({"card": card("mercenary"), "under": [_SOUND]}, required=("card",))
_ZONES = ("deck", "discard", "monsters", "classes", "merc_deck")
SCENARIO = core.ScenarioKeys(
    setup={"turn": SEAT, "deck": [_SOUND], "discard": [_SOUND]},
    seat=Rec({"hand": [_SOUND], "inventory": [_SOUND], "class": card("class"),
              "mercenaries": [(card("mercenary"), _MERC)], "souls": N, "skip": N, "out": bool}),
    expect={
        "souls": Map(SEAT, N),
        "zones": Map(SEAT, Rec({"hand": [ANY], "hand_size": N, "inventory": [ANY],
                                "inventory_size": N, "class": (card("class"), None),
                                "mercenaries": [ANY], "under": Map(card("mercenary"), N)})),
        "out": [SEAT], "skip": Map(SEAT, N), "resets": N, "turns": N,
        "rave": Rec({"expectation": N, "winner": (SEAT, frozenset({"none"})),
                     "bonus": Map(SEAT, N), "duration": Map(SEAT, N)}),
        "invited": Map(card("monster"), N), "satisfied": Map(card("monster"), N),
        "discard": [ANY], "sizes": Map(frozenset(_ZONES), N)},
    stops={"turns": "turn"})


def scenario_setup(m: Match, d: dict, ctx: SetupContext) -> None:
    """Place a position: seats' hands, inventories, Classes, Mercenaries (with the cards under
    them), souls, skipped turns, players out; the top of the Sound deck and the discard; every
    other card goes to its deck (monsters to the face-up row), shuffled. The game resumes with
    the turn of `turn` (default A). With `deal: true` the engine deals from the seed."""
    if d.get("deal"):
        m.setup()
        return
    p = m.p
    for name, spec in (d.get("seats") or {}).items():
        s, at = ctx.seat(name), ("seats", name)
        spec = spec or {}
        m.hand[s] += ctx.take_all(at + ("hand",), spec.get("hand", []))
        m.inv[s] += ctx.take_all(at + ("inventory",), spec.get("inventory", []))
        if "class" in spec:
            m.cls[s].append(ctx.take(spec["class"], at + ("class",)))
        for i, ms in enumerate(spec.get("mercenaries", [])):
            ms = {"card": ms} if isinstance(ms, str) else ms
            merc = ctx.take(ms["card"], at + ("mercenaries", i, "card"))
            m.mercs[s].append(merc)
            m.under[merc] = ctx.take_all(at + ("mercenaries", i, "under"), ms.get("under", []))
        m.refx(s)
        m.souls[s] = spec.get("souls", 0)
        m.skip[s] = spec.get("skip", 0)
        if spec.get("out"):
            if m.hand[s] or m.inv[s] or m.cls[s] or m.mercs[s]:
                raise ctx.error(at + ("out",), f"seat {name} is out of the game but holds cards")
            m.alive[s], m.souls[s], m.out_turn[s] = False, 0, 0
    top = ctx.take_all(("deck",), d.get("deck", []))
    m.discard += ctx.take_all(("discard",), d.get("discard", []))
    rest = ctx.rest(shuffle=True)
    sounds = [h for h in rest if p.type[h] == SOUND]
    m.deck = sounds + top[::-1]           # drawn with pop(): the top is the end
    m.monsters = [h for h in rest if p.type[h] == MONSTER]
    m.classes = [h for h in rest if p.type[h] == CLASS]
    m.merc_deck = [h for h in rest if p.type[h] == MERC]
    m.start_at = ctx.seat(d.get("turn", "A"))
    for s in range(m.n):
        if len(m.hand[s]) > m.hand_limit(s) or len(m.inv[s]) > m.inv_limit(s):
            raise ctx.error(("seats", SEAT_NAMES[s]), f"seat {SEAT_NAMES[s]} is over its hand or "
                            "inventory limit")


def scenario_expect(m: Match, e: dict, ctx: SetupContext) -> None:
    """Check this game's `expect:` keys (docs/scenarios.md)."""
    from collections import Counter
    got: object         # what each key finds, of that key's type
    seat = SEAT_NAMES.index
    for name, v in (e.get("souls") or {}).items():
        if m.souls[seat(name)] != v:
            ctx.fail(("souls", name), f"{name} has {m.souls[seat(name)]} souls, expected {v}")
    for name, z in (e.get("zones") or {}).items():
        s = seat(name)
        for key, zone in (("hand", m.hand[s]), ("inventory", m.inv[s]), ("mercenaries", m.mercs[s])):
            if key in z and ctx.card_ids(zone) != sorted(z[key]):
                ctx.fail(("zones", name, key), f"{name}'s {key}: {ctx.card_ids(zone)}, expected {sorted(z[key])}")
        for key, zone in (("hand_size", m.hand[s]), ("inventory_size", m.inv[s])):
            if key in z and len(zone) != z[key]:
                ctx.fail(("zones", name, key), f"{name}'s {key}: {len(zone)}, expected {z[key]}")
        if "class" in z:
            got = m.p.cid[m.cls[s][0]] if m.cls[s] else None
            if got != z["class"]:
                ctx.fail(("zones", name, "class"), f"{name}'s Class: {got}, expected {z['class']}")
        for mid, k in (z.get("under") or {}).items():
            got = [len(m.under[x]) for x in m.mercs[s] if m.p.cid[x] == mid]
            if got != [k]:
                ctx.fail(("zones", name, "under", mid), f"cards under {mid}: {got or 'not in play'}, expected {k}")
    if "out" in e:
        got = sorted(SEAT_NAMES[s] for s in range(m.n) if not m.alive[s])
        if got != sorted(e["out"]):
            ctx.fail(("out",), f"out of the game: {got}, expected {sorted(e['out'])}")
    for name, v in (e.get("skip") or {}).items():
        if m.skip[seat(name)] != v:
            ctx.fail(("skip", name), f"{name} skips {m.skip[seat(name)]} turn(s), expected {v}")
    for key, got in (("resets", m.resets), ("turns", m.turns)):
        if key in e and got != e[key]:
            ctx.fail((key,), f"{key}: {got}, expected {e[key]}")
    if "rave" in e:
        r, want = m.last_rave, e["rave"]
        if r is None:
            ctx.fail(("rave",), "no rave was held")
        else:
            if "expectation" in want and r["expect"] != want["expectation"]:
                ctx.fail(("rave", "expectation"), f"expectation {r['expect']}, expected {want['expectation']}")
            if "winner" in want:
                got = SEAT_NAMES[r["winner"]] if r["winner"] >= 0 else "none"
                if got != want["winner"]:
                    ctx.fail(("rave", "winner"), f"the rave was won by {got}, expected {want['winner']}")
            for key, i in (("bonus", 0), ("duration", 1)):
                for name, v in (want.get(key) or {}).items():
                    k = r["lineups"].get(seat(name))
                    if k is None or k[i] != v:
                        ctx.fail(("rave", key, name), f"{name}'s lineup {key}: "
                                 f"{k[i] if k else 'no lineup'}, expected {v}")
    for key, table in (("invited", m.invited), ("satisfied", m.satisfied)):
        for mid, v in (e.get(key) or {}).items():
            got = sum(k for d, k in table.items() if m.p.def_ids[d] == mid)
            if got != v:
                ctx.fail((key, mid), f"{mid} {key} {got} time(s), expected {v}")
    if "discard" in e:
        have = Counter(m.p.cid[h] for h in m.discard)
        missing = Counter(e["discard"]) - have
        if missing:
            ctx.fail(("discard",), f"not in the discard: {sorted(missing.elements())}")
    for zone, v in (e.get("sizes") or {}).items():
        got = len(getattr(m, zone))
        if got != v:
            ctx.fail(("sizes", zone), f"{zone} holds {got} cards, expected {v}")


#: The engine, registered as ``forge.rules.rules_does_not_exist:ENGINE``.
ENGINE = core.Engine(
    "rules_does_not_exist", PLAYERS, prepare, OPERATIONS, options=OPTIONS, requires=REQUIRES,
    agents=AGENTS, agent_names=AGENT_NAMES, scenario=SCENARIO, scenario_setup=scenario_setup,
    scenario_expect=scenario_expect, describe_expect=describe_expect, score_unit=SCORE_UNIT,
    check_data=check_data, tally=tally, statistics=statistics)
