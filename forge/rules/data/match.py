"""The match of a game whose rules are data: zones and counters as plain lists, the compiled
setup and flow (`compile.Rules`) run as the core's generator flow."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence, TypeAlias

from ...errors import EngineError
from ..core import SEAT_NAMES, Flow, GameStats, InvariantViolation, Match, Prepared, View
from .base import BUDGET, CAP, MAX_VALUE, Action, GameOver
from .compile import Rules


def _bounded(v: int) -> int:
    """A score within the counters' bounds: an expression may multiply its way past any number
    a report can average."""
    return max(-MAX_VALUE, min(MAX_VALUE, v))


#: A zone as a seat sees it: its cards by id, or only how many it holds (hidden from the seat).
Seen: TypeAlias = list[str] | int


@dataclass(frozen=True, slots=True)
class RulesStats(GameStats):
    """One game's length: turns and rounds played, and whether the cap stopped it (each a
    count that adds up over games)."""

    turns: int
    rounds: int
    capped: bool


@dataclass(slots=True)
class RulesView(View):
    """What a seat sees of a game whose rules are data. Zones and counters are the designer's
    (named in rules.yaml), so they are mappings by name: a player's zone or counter maps to one
    entry per seat."""

    #: The seat whose turn it is, the direction of play (1 clockwise, -1 reversed), the round.
    turn: int
    direction: int
    round: int
    zones: dict[str, Seen | list[Seen]]
    counters: dict[str, int | str | list[int | str]]


class RulesPrepared(Prepared):
    """The rules compiled once for this configuration's cards."""

    def __init__(self, game: Any, options: Mapping[str, Any], sets: Sequence[str] | None = None):
        super().__init__(game, options, sets)
        self.dix: list[int] = []      # handle -> index into def_ids
        cards = [c for c in game.cards if c.set in self.sets]
        handles = []
        for i, card in enumerate(cards):
            for _ in range(card.copies):
                self.handles_of.setdefault(card.id, []).append(len(self.cid))
                self.cid.append(card.id)
                self.dix.append(i)
                handles.append(card)
        from . import rules_source
        doc, base, data = rules_source(game)
        self.rules = Rules(game, doc, base, data, handles)
        if self.rules.findings:
            raise EngineError(f"{game.id}: the rules do not compile: {self.rules.findings[0]} "
                              "(run `forge check`)")
        self.cap = int(self.options.get("cap") or CAP)
        self.budget = int(self.options.get("budget") or BUDGET)

    def new(self, players: int, seed: int, log: bool = False, deal: bool = True) -> "RulesMatch":
        m = RulesMatch(self, players, seed, log)
        if deal:
            m.begin()
        return m


class RulesMatch(Match):
    p: RulesPrepared
    #: The compiled rules: read-only, shared by a copy.
    SHARED = ("r",)

    def __init__(self, p: RulesPrepared, players: int, seed: int, log: bool = False):
        super().__init__(players, seed, log)
        self.p = p
        r = p.rules
        self.r = r
        self.gz: list[list[int]] = [[] for _ in range(r.n_global)]
        self.pz: list[list[list[int]]] = [[[] for _ in range(players)] for _ in range(r.n_player)]
        self.gc: list[Any] = [c.start for c in r.counter_list if not c.per_player]
        self.pc: list[list[Any]] = [[c.start] * players for c in r.counter_list if c.per_player]
        self.cur = 0          # whose turn it is
        self.dir = 1          # 1 clockwise, -1 reversed
        self.skips = 0        # players the next turn passes over
        self.target = -1      # the player chosen last (`choose_player`)
        self.round = 0
        self.turn = 0
        self.work = 0         # loop iterations and actions: the cap bounds them
        #: Cards visited and statements run (`spend`): the budget bounds them.
        self.spent = 0
        self.budget = p.budget
        self.resolving = 0    # cards resolving one within another (`resolve`, MAX_RESOLVE)
        #: (zone name, owner) -> {handle: the round it came}, for zones whose cards expire (a
        #: name, as a game's zone and a player's zone may have the same index)
        self.entered: dict[tuple[str, int], dict[int, int]] = {}
        self.capped = False
        self.dealt = False
        #: Where the flow stands, per nesting depth of its blocks (`flow`): what `resume` reads.
        self.at: list[Any] = []
        #: The options of the step under way, made before its `boundary` (`flow`).
        self.offered: list = []

    # ------------------------------------------------------------------ the flow
    def flow(self) -> Flow[None]:
        return self._to_the_end(resume=False)

    def resume(self) -> Flow[None]:
        """From the decision of the step under way (each step's is a `boundary`), by ``at``."""
        return self._to_the_end(resume=True)

    def _to_the_end(self, resume: bool) -> Flow[None]:
        """The setup (unless done) and the flow (from its start, or resumed) to the game's end:
        an end condition or the cap (`GameOver`)."""
        r = self.r
        try:
            if not self.dealt:
                first = r.zone_list[0]
                zone = self.gz[first.index] if not first.per_player else self.pz[first.index][0]
                zone.extend(range(len(self.p.cid)))
                f, g = r.setup
                if g:
                    yield from f(self, 0, -1)
                else:
                    f(self, 0, -1)
                self.dealt = True
            assert r.flow is not None
            yield from r.flow(self, resume)
        except GameOver as over:
            self.capped = over.capped
        self.budget = self.spent + self.p.budget      # the final scoring has a budget of its own
        scores = self.scores()
        self.finish(scores, turns=self.turn, capped=self.capped)

    def act(self, a: Action, s: int, option: tuple, source: Any = None) -> Flow[None]:
        """Carry out action ``a`` for seat ``s``: pay, move the card (from ``source`` when the
        card was set aside there, else from the action's zone), run its body; then the end
        conditions."""
        c = option[1] if len(option) > 1 else -1
        for where, n in a.cost:
            vals, i = where(self, s)
            vals[i] -= max(0, n(self, s, c))
        if c >= 0:
            self.played.append((self.p.dix[c], s))
            if a.to is not None:
                (source or a.source)(self, s).remove(c)   # type: ignore[misc]
                a.to(self, s).append(c)
        if a.gen:
            yield from a.body(self, s, c)
        else:
            a.body(self, s, c)
        self.work_step()
        self.check_end(s)

    def check_end(self, s: int) -> None:
        for cond in self.r.end:
            if cond(self, s, -1):
                raise GameOver()

    def work_step(self) -> None:
        self.work += 1
        if self.work > self.p.cap:
            raise GameOver(capped=True)

    def spend(self, n: int) -> None:
        """``n`` more units of work (cards a scan is about to visit, statements a block is about
        to run): past the budget the game stops as a timeout. Charged before the work is done,
        so what runs between two charges is bounded by the rules' size, not by the cards."""
        self.spent += n
        if self.spent > self.budget:
            raise GameOver(capped=True)

    def expire(self) -> None:
        """A round's end: cards that have lasted their rounds in an expiring zone move on. A
        card's round of arrival is the round at whose end it is first seen there."""
        for z, after, to in self.r.expiry:
            lists = self.pz[z.index] if z.per_player else [self.gz[z.index]]
            self.spend(sum(map(len, lists)))
            for owner, zl in enumerate(lists):
                key = (z.name, owner)
                came = self.entered.get(key, {})
                stay = []
                for h in zl:
                    start = came.get(h, self.round)
                    if self.round - start + 1 >= after(self, owner, h):
                        to(self, owner).append(h)
                    else:
                        stay.append(h)
                zl[:] = stay
                self.entered[key] = {h: came.get(h, self.round) for h in stay}

    def restock(self, zone: list[int], src: int, keep: int) -> bool:
        """Refill an empty zone from the global zone ``src`` (all but its top ``keep`` cards),
        shuffled; False when there is nothing to take."""
        pile = self.gz[src]
        moved = pile[:len(pile) - keep] if keep else pile[:]
        if not moved:
            return False
        self.spend(len(moved))
        del pile[:len(moved)]
        zone.extend(moved)
        self.shuffle_cards(zone, "restock")
        return True

    # ------------------------------------------------------------------ what the base needs
    def zones(self) -> Iterable[tuple[str, list[int]]]:
        for z in self.r.zone_list:
            if z.per_player:
                for s in range(self.n):
                    yield f"{z.name}[{SEAT_NAMES[s]}]", self.pz[z.index][s]
            else:
                yield z.name, self.gz[z.index]

    def invariants(self) -> None:
        for z in self.r.zone_list:
            if z.limit is None:
                continue
            lists = self.pz[z.index] if z.per_player else [self.gz[z.index]]
            if any(len(zl) > z.limit for zl in lists):
                raise InvariantViolation(f"zone {z.name} holds more than its limit of {z.limit}")

    def scores(self) -> list[int]:
        """The players' scores; a scoring past the budget (`spend`) makes the game a timeout
        with no scores (all 0), as an agent may ask for them mid-game too."""
        try:
            return [_bounded(self.r.score(self, s, -1)) for s in range(self.n)]
        except GameOver:
            self.capped = True
            return [0] * self.n

    def tiebreak(self, seat: int) -> tuple:
        try:
            return tuple(_bounded(f(self, seat, -1)) for f in self.r.tiebreak)
        except GameOver:
            self.capped = True
            return ()

    def view(self, seat: int) -> RulesView:
        """Public zones' cards, the seat's own cards in owner-only zones, and every hidden
        zone's size; every counter (counters are public)."""
        cid = self.p.cid
        zones: dict[str, Seen | list[Seen]] = {}
        for z in self.r.zone_list:
            if z.per_player:
                zones[z.name] = [[cid[h] for h in zl] if z.visibility == "public"
                                 or (z.visibility == "owner" and s == seat) else len(zl)
                                 for s, zl in enumerate(self.pz[z.index])]
            else:
                zl = self.gz[z.index]
                zones[z.name] = [cid[h] for h in zl] if z.visibility == "public" else len(zl)
        counters: dict[str, int | str | list[int | str]] = {
            c.name: list(self.pc[c.index]) if c.per_player else self.gc[c.index]
            for c in self.r.counter_list}
        d = self.decision
        return RulesView(seat, self.n, d.kind if d else None, turn=self.cur, direction=self.dir,
                         round=self.round, zones=zones, counters=counters)

    def label(self, option: tuple) -> str:
        if option[0] == "target":
            return f"target {SEAT_NAMES[option[1]]}"
        if len(option) > 1 and isinstance(option[1], int):
            return f"{option[0]} {self.p.cid[option[1]]}"
        return " ".join(map(str, option))

    def state_digest(self) -> tuple:
        return (super().state_digest(), tuple(self.gc), tuple(map(tuple, self.pc)), self.cur,
                self.dir)

    def stats(self) -> RulesStats:
        return RulesStats(self.turn, self.round, self.capped)


__all__ = ["RulesMatch", "RulesPrepared", "RulesStats", "RulesView", "Seen"]
