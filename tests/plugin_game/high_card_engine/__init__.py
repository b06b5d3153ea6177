"""«High Card»: the complete example engine of docs/engines.md.

Rules: shuffle the 16 number cards, deal 3 to each player. Three tricks: everyone picks a card
from hand at once (hidden, revealed together); the highest value wins the trick and scores its
value (a tie is settled by a d6 roll-off, rolled again while tied). Then each played card's
effects resolve for the player who played it: `draw: {count}` draws cards, `gain: {count}` adds
points if that player won the trick. Highest score wins; then the most cards left in hand.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from forge.rules.core import (Engine, Flow, GameStats, Match, Option, Prepared, Requires, ScenarioKeys,
                              SEAT_NAMES, InvariantViolation, View, deal_anew, operation, operations_of)
from forge.rules.scenario import Card, Map, N, SetupContext


class HighCardPrepared(Prepared):
    def __init__(self, game: Any, options: Mapping[str, Any], sets: Sequence[str]):
        super().__init__(game, options, sets)
        # self.cid (handle -> card id) is the base's: it names cards in messages and counts them
        self.dix: list[int] = []      # handle -> index into def_ids
        self.value: list[int] = []
        self.ops: list[tuple] = []    # handle -> ((op name, {param: value}), ...)
        for i, card in enumerate(c for c in game.cards if c.set in self.sets):
            for _ in range(card.copies):
                self.handles_of.setdefault(card.id, []).append(len(self.cid))
                self.cid.append(card.id)
                self.dix.append(i)
                self.value.append(card.value)
                self.ops.append(tuple((op.name, op.args()) for op in card.effects))

    def new(self, players: int, seed: int, log: bool = False, deal: bool = True) -> "HighCardMatch":
        m = HighCardMatch(self, players, seed, log)
        if deal:
            m.begin()                            # flow() deals from the seed
        return m


@dataclass(slots=True)
class HighCardView(View):
    """What a seat sees (the base's seat, players and decision, then the game's own fields)."""

    hand: list[str]
    points: list[int]
    hand_sizes: list[int]
    deck: int


@dataclass(frozen=True, slots=True)
class HighCardStats(GameStats):
    """One game's figures (`stats`): each field a count, added up over games for `statistics`."""

    rolloffs: int


class HighCardMatch(Match):
    p: HighCardPrepared
    BOUNDARY = "trick"                           # `resume` carries on after any trick

    def __init__(self, p: HighCardPrepared, players: int, seed: int, log: bool = False):
        super().__init__(players, seed, log)
        self.p = p
        self.deck: list[int] = []
        self.hand: list[list[int]] = [[] for _ in range(players)]
        self.discard: list[int] = []
        self.points = [0] * players
        self.dealt = False
        self.tricks = 0
        self.rolloffs = 0

    # --- the whole game, one generator
    def flow(self) -> Flow[None]:
        if not self.dealt:                       # a scenario may have dealt by hand
            self.deck = list(range(len(self.p.cid)))
            yield from self.shuffle(self.deck)
            for _ in range(self.p.options["hand"]):
                for s in range(self.n):
                    self.draw(s)
        yield from self.resume()

    def resume(self) -> Flow[None]:
        """The tricks not played yet, and the end (the flow after a trick, for copies)."""
        while self.tricks < self.p.options["tricks"]:
            self.tricks += 1
            seats = [s for s in range(self.n) if self.hand[s]]
            if not seats:
                break
            picks = yield from self.ask_all("play", seats, [[("play", h) for h in self.hand[s]]
                                                            for s in seats])
            played = list(zip(seats, (c[1] for c in picks)))
            for s, h in played:
                self.hand[s].remove(h)
                self.played.append((self.p.dix[h], s))
            winner = yield from self.best(played)
            self.orders.append([winner])
            self.points[winner] += self.p.value[dict(played)[winner]]
            self._log("trick", SEAT_NAMES[winner])
            for s, h in played:
                for name, args in self.p.ops[h]:
                    yield from self.OPERATIONS[name].func(self, s, winner, **args)
                self.discard.append(h)
            yield from self.checkpoint("trick")
        self.finish()

    def best(self, played: list[tuple[int, int]]) -> Flow[int]:
        top = max(self.p.value[h] for _, h in played)
        tied = [s for s, h in played if self.p.value[h] == top]
        while len(tied) > 1:                     # a d6 roll-off, again while tied
            self.rolloffs += 1
            rolls = []
            for _ in tied:
                rolls.append((yield from self.die(6)))
            tied = [s for s, r in zip(tied, rolls) if r == max(rolls)]
        return tied[0]

    def draw(self, s: int) -> None:
        if self.deck:
            self.hand[s].append(self.deck.pop())

    # --- the effect operations, registered for `forge check`
    @operation("draw", count=int)
    def op_draw(self, seat: int, winner: int, count: int) -> Flow[None]:
        for _ in range(count):
            self.draw(seat)
        return
        yield

    @operation("gain", count=int)
    def op_gain(self, seat: int, winner: int, count: int) -> Flow[None]:
        if seat == winner:
            self.points[seat] += count
        return
        yield

    # --- what the base needs
    def zones(self):
        yield "deck", self.deck
        yield "discard", self.discard
        for s in range(self.n):
            yield f"hand[{SEAT_NAMES[s]}]", self.hand[s]

    def invariants(self) -> None:
        if any(v < 0 for v in self.points):
            raise InvariantViolation("negative points")

    def scores(self) -> list[int]:
        return list(self.points)

    def tiebreak(self, seat: int) -> tuple:
        return (len(self.hand[seat]),)

    def view(self, seat: int) -> HighCardView:
        return HighCardView(seat, self.n, self.decision.kind if self.decision else None,
                            hand=[self.p.cid[h] for h in self.hand[seat]], points=list(self.points),
                            hand_sizes=[len(h) for h in self.hand], deck=len(self.deck))

    def label(self, option: tuple) -> str:
        return f"{option[0]} {self.p.cid[option[1]]}"

    def stats(self) -> HighCardStats:
        return HighCardStats(rolloffs=self.rolloffs)


def prepare(game: Any, options: Mapping[str, Any], sets: Sequence[str] | None = None) -> HighCardPrepared:
    return HighCardPrepared(game, options, sets or tuple(game.manifest.sets)[:1])


def statistics(prepared: HighCardPrepared, totals: dict, games: int) -> dict:
    """Game-specific figures for `forge simulate` (JSON `engine`, and report lines) from the
    games' `stats().counts()` added up."""
    per_game = totals.get("rolloffs", 0) / max(1, games)
    return {"rolloffs_per_game": round(per_game, 3),
            "lines": [f"d6 roll-offs per game: {per_game:.2f}"]}


def scenario_setup(match: HighCardMatch, data: dict, ctx: SetupContext) -> None:
    """Place the scenario's cards: `seats: {A: [ids]}` hands, `deck:` top first; or, with
    `deal: true`, let the flow shuffle and deal from the seed."""
    if data.get("deal"):
        return                                   # flow() deals from the seed
    for name, ids in (data.get("seats") or {}).items():
        match.hand[SEAT_NAMES.index(name)] += [ctx.take(cid, ("seats", name, i))
                                               for i, cid in enumerate(ids or [])]
    top = [ctx.take(cid, ("deck", i)) for i, cid in enumerate(data.get("deck") or [])]
    match.deck += ctx.rest() + top[::-1]         # drawn with pop(): the top is the end
    match.dealt = True


def scenario_expect(match: HighCardMatch, expect: dict, ctx: SetupContext) -> None:
    for name, size in (expect.get("hand_size") or {}).items():
        got = len(match.hand[SEAT_NAMES.index(name)])
        if got != size:
            ctx.fail(("hand_size", name), f"{name} holds {got} cards, expected {size}")


def redeal(match: HighCardMatch, seat: int, rng: Any) -> None:
    """The cards ``seat`` cannot see (the others' hands, the deck) dealt anew among those places
    (for the `search` agent); a trick's open choice then offers the others their new hands."""
    moved = deal_anew(rng, [match.deck, *(match.hand[s] for s in range(match.n) if s != seat)])
    d = match.decision
    for s, options in zip(d.seats, d.options) if d else ():
        if s != seat:
            options[:] = [("play", moved.get(h, h)) for _, h in options]


def smallest_agent(match: HighCardMatch, seat: int, options: list, rng: Any) -> tuple:
    """Always plays its lowest card (a sensible agent would be smarter)."""
    return min(options, key=lambda o: match.p.value[o[1]])


# --- the declaration: the one object the entry point names (`high_card_engine:ENGINE`)
ENGINE = Engine(
    name="high_card",
    players=(2, 4),
    prepare=prepare,
    operations=operations_of(HighCardMatch),
    options=(Option("tricks", int, 3, help="Tricks in a game."),
             Option("hand", int, 3, choices=(2, 3, 4), help="Cards dealt to each player.")),
    requires=Requires({"number": ("value", "effects")}),
    agents={"smallest": smallest_agent},                    # `random` comes with forge
    scenario=ScenarioKeys(
        setup={"deck": [Card(frozenset({"number"}))]},      # the deck, top card first
        seat=[Card(frozenset({"number"}))],                 # seats: {A: [ids in hand]}
        expect={"hand_size": Map(str, N)},                  # expect: {hand_size: {A: 2}}
        stops={"tricks": "trick"}),
    scenario_setup=scenario_setup,
    scenario_expect=scenario_expect,
    statistics=statistics,
    redeal=redeal,
)
