"""The engine core: what every game's rules engine is built on. It names no game.

- `Match`: the base of every engine's match. The whole game is one generator, `flow()`, that
  yields a `Decision` whenever seats must choose (and receives their choices) and resolves chance
  (`Chance`: dice, shuffles, random draws) through the helpers `roll`, `die` and `shuffle`, from
  a scenario's scripted outcomes or from the game's seeded stream. The base keeps the replay log
  (`actions`: every choice and chance outcome), the event log, the conservation invariant over
  the engine's zones, results with tie-breaks, and the per-seat view agents read.
- `operation`: the decorator that registers an effect operation with its parameter schema;
  `check` compares the manifest and the cards with this registry.
- `Option`, `Requires`, `ScenarioKeys`, `Prepared` and the `Engine` protocol: what a game's
  engine module declares (docs/engines.md).
- `play_game`: the driver loop that plays one match with agents; given an `Offered`, it notes
  what the seats were offered (`actions` holds what they chose), for simulate's reports, at no
  cost when it is not given.

Hot path: nothing here copies state or formats text per step; `log` is None unless asked for.
"""
from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from fractions import Fraction
from itertools import product
from typing import (Any, Callable, ClassVar, Iterable, Iterator, Mapping, Protocol, Sequence,
                    runtime_checkable)

from ..errors import EngineError, IllegalAction, InvariantViolation

SEAT_NAMES = "ABCDEFGH"

__all__ = ["Agent", "Chance", "Decision", "Engine", "EngineError", "IllegalAction",
           "InvariantViolation", "Match", "Offered", "Operation", "Option", "Param", "Prepared", "Requires",
           "Rolled", "SEAT_NAMES", "actions_from_json", "ScenarioKeys", "Streams", "Violation", "chance_odds",
           "derive_seed", "operation", "operations_of", "play_game", "replay"]


def derive_seed(seed: int, *names: object) -> int:
    """A stable 64-bit seed for a named stream (independent of PYTHONHASHSEED)."""
    text = "/".join([str(seed), *map(str, names)]).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


class Streams:
    """Seeded random streams: one for the game (chance), one per agent (their own choices), so an
    agent that thinks more or less never changes the cards the others see."""

    def __init__(self, seed: int, seats: int):
        self.seed = seed
        self.game = random.Random(derive_seed(seed, "game"))
        self.agents = [random.Random(derive_seed(seed, "agent", s)) for s in range(seats)]


class Decision:
    """A decision point: ``seats`` must each pick one of their ``options`` (aligned lists).

    Several seats means a simultaneous (hidden) choice: all are collected, then applied together.
    Options are tuples ``(verb, *args)``; the engine makes them, an agent picks one of them; the
    options *are* the legal actions. A decision with no seats is a checkpoint (see
    `Match.checkpoint`): `step(())` goes on.
    """

    __slots__ = ("kind", "seats", "options")

    def __init__(self, kind: str, seats: tuple[int, ...] | list[int], options: list[list[tuple]]):
        self.kind = kind
        self.seats = tuple(seats)
        self.options = options

    def __repr__(self) -> str:
        return f"Decision({self.kind!r}, seats={self.seats}, options={[len(o) for o in self.options]})"


# ---------------------------------------------------------------------------------- chance

class Chance:
    """A chance event: one of ``outcomes`` (with ``weights``, or all equally likely).

    A flow resolves one with ``v = yield from self.roll(...)`` (or `die`, `shuffle`); it may also
    ``v = yield Chance(...)`` directly, and the driver resolves it the same way. The base resolves
    it, never an agent: from the outcomes a scenario scripted for its ``kind``
    (``match.script(kind, [...])``), else from the game's stream ``match.rng``.
    """

    __slots__ = ("kind", "outcomes", "weights")

    def __init__(self, kind: str, outcomes: Sequence, weights: Sequence[float] | None = None):
        if not outcomes:
            raise EngineError(f"chance {kind!r} has no outcomes")
        if weights is not None and len(weights) != len(outcomes):
            raise EngineError(f"chance {kind!r}: {len(weights)} weights for {len(outcomes)} outcomes")
        self.kind = kind
        self.outcomes = outcomes
        self.weights = weights

    def odds(self) -> dict[Any, Fraction]:
        """Exact probability of each outcome (equal outcomes add up)."""
        out: dict[Any, Fraction] = {}
        if self.weights is None:
            each = Fraction(1, len(self.outcomes))
            for o in self.outcomes:
                out[o] = out.get(o, 0) + each
        else:
            total = sum(Fraction(w) for w in self.weights)
            for o, w in zip(self.outcomes, self.weights):
                out[o] = out.get(o, 0) + Fraction(w) / total
        return out

    def sample(self, rng: random.Random) -> Any:
        """One outcome from ``rng``; unweighted, exactly ``rng.choice(outcomes)``."""
        if self.weights is None:
            return self.outcomes[rng._randbelow(len(self.outcomes))]
        return rng.choices(self.outcomes, self.weights)[0]

    def __repr__(self) -> str:
        return f"Chance({self.kind!r}, {list(self.outcomes)!r})"


def chance_odds(chances: Sequence[Chance] | Chance,
                combine: Callable[..., Any] | None = None) -> dict[Any, Fraction]:
    """Exact distribution of ``combine(*outcomes)`` over independent chance events, by
    enumerating every combination (``combine`` defaults to the tuple of outcomes, or the single
    outcome for one event). Keys come out sorted when they can be.

        chance_odds(Chance("d6", range(1, 7)))                        # {1: 1/6, ..., 6: 1/6}
        chance_odds([Chance("d6", range(1, 7))] * 2, lambda a, b: a + b)  # 2d6 totals
    """
    if isinstance(chances, Chance):
        chances = [chances]
    tables = [list(c.odds().items()) for c in chances]
    out: dict[Any, Fraction] = {}
    for combo in product(*tables):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        values = tuple(v for v, _ in combo)
        key = combine(*values) if combine else (values[0] if len(values) == 1 else values)
        out[key] = out.get(key, 0) + p
    try:
        return dict(sorted(out.items()))
    except TypeError:
        return out


_PAIR = object()


class Rolled(tuple):
    """A chance outcome in the replay log (``match.actions``): ``Rolled(kind, value)`` (or
    ``Rolled((kind, value))``). Decisions are logged as the tuple of choices made; a `Rolled`
    entry is told apart by its type."""

    __slots__ = ()

    def __new__(cls, kind: Any, value: Any = _PAIR):
        return tuple.__new__(cls, kind if value is _PAIR else (kind, value))

    @property
    def kind(self) -> str:
        return self[0]

    @property
    def value(self) -> Any:
        return self[1]


#: The hot path's constructor: ``_rolled((kind, value))`` without a Python-level ``__new__``.
_rolled = partial(tuple.__new__, Rolled)


# ---------------------------------------------------------------------------------- operations

@dataclass(frozen=True)
class Param:
    """One parameter of an operation: its type (int, str, bool), the words it may take
    (``choices``), and whether the card data may leave it out (``default`` is then used)."""

    type: type = int
    choices: tuple = ()
    default: Any = None
    required: bool = True
    help: str = ""

    def accepts(self, value: Any) -> bool:
        if self.type is int and (isinstance(value, bool) or not isinstance(value, int)):
            return False
        if not isinstance(value, self.type):
            return False
        return not self.choices or value in self.choices


def _param(spec: Any) -> Param:
    if isinstance(spec, Param):
        return spec
    if isinstance(spec, type):
        return Param(spec)
    if isinstance(spec, (tuple, list, frozenset, set)):
        words = tuple(spec)
        kind = type(words[0]) if words else str
        return Param(kind, words)
    raise EngineError(f"an operation parameter is a type, a tuple of choices or a Param, not {spec!r}")


@dataclass(frozen=True)
class Operation:
    """An effect operation an engine implements: its name, its parameters and the function
    (usually a method of the engine's `Match`) that carries it out."""

    name: str
    params: Mapping[str, Param]
    func: Callable | None = None
    help: str = ""

    def param_names(self) -> tuple[str, ...]:
        return tuple(self.params)


def operation(name: str, help: str = "", **params: Any) -> Callable[[Callable], Callable]:
    """Register the decorated method of a `Match` subclass as the effect operation ``name``::

        @operation("discard", count=int, source=("hand", "inventory"))
        def op_discard(self, ctx, count, source): ...

    A parameter is a type (int, str, bool), a tuple of the words it may take, or a `Param`.
    The subclass's ``OPERATIONS`` (and `operations_of`) is the registry ``check`` compares."""
    spec = {k: _param(v) for k, v in params.items()}

    def mark(func: Callable) -> Callable:
        func.__forge_operation__ = Operation(name, spec, func, help or (func.__doc__ or "").strip())
        return func
    return mark


def passive(name: str, help: str, **params: Any) -> Callable:
    """An operation that does nothing when it resolves: its card changes a rule while it is in
    play, and the engine reads it where that rule applies (``help`` says where). Declared like
    any operation, so ``check`` knows it::

        op_bigger_hand = passive("bigger_hand", "the hand limit is higher", amount=int)"""
    def nothing(self: Any, *args: Any, **kwargs: Any) -> Iterator:
        return
        yield  # a generator, like every operation
    return operation(name, help, **params)(nothing)


def operations_of(cls: type) -> dict[str, Operation]:
    """The operations registered with `operation` on ``cls`` and its bases, by name."""
    out: dict[str, Operation] = {}
    for klass in reversed(cls.__mro__):
        for attr in vars(klass).values():
            op = getattr(attr, "__forge_operation__", None)
            if op is not None:
                out[op.name] = op
    return out


# ---------------------------------------------------------------------------------- declarations

@dataclass(frozen=True)
class Option:
    """An engine option (``forge simulate GAME --option name=value``; ``options:`` in a
    scenario). ``type`` is int, str, bool or float; ``choices``, when given, are the values it
    may take."""

    name: str
    type: type = str
    default: Any = None
    choices: tuple = ()
    help: str = ""
    #: Bounds of a number (either may be None).
    min: float | None = None
    max: float | None = None

    def parse(self, value: Any) -> Any:
        """The option's value from text (the command line) or from YAML; EngineError if bad."""
        if value is None and self.default is None:
            return None
        v = value
        try:
            if isinstance(value, str) and self.type is not str:
                if self.type is bool:
                    low = value.strip().lower()
                    if low not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                        raise ValueError(value)
                    v = low in ("true", "yes", "1", "on")
                else:
                    v = self.type(value.strip())
            elif self.type is float and isinstance(value, int) and not isinstance(value, bool):
                v = float(value)
        except ValueError:
            raise EngineError(f"option {self.name}: {value!r} is not {self.type.__name__}") from None
        if self.type is int and isinstance(v, bool) or not isinstance(v, self.type):
            raise EngineError(f"option {self.name}: {value!r} is not {self.type.__name__}")
        if self.choices and v not in self.choices:
            raise EngineError(f"option {self.name}: {value!r} is not one of "
                              f"{', '.join(map(str, self.choices))}")
        if (self.min is not None and v < self.min) or (self.max is not None and v > self.max):
            bounds = (f"{self.min} or more" if self.max is None else f"{self.max} or less"
                      if self.min is None else f"from {self.min} to {self.max}")
            raise EngineError(f"option {self.name}: {value!r} is not {bounds}")
        return v


def resolve_options(options_decl: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every declared option's value: the given one (parsed and checked) or its default.
    An option the engine does not declare is an EngineError naming the known ones."""
    known = {o.name: o for o in options_decl}
    out = {o.name: o.default for o in options_decl}
    for name, value in given.items():
        if name not in known:
            raise EngineError(f"unknown option {name!r} (known: {', '.join(known) or 'none'})")
        out[name] = known[name].parse(value)
    return out


@dataclass(frozen=True)
class Requires:
    """What an engine reads from the card data: ``types`` maps each card type it needs to the
    fields it reads on those cards (an empty tuple: only that the type exists), and ``optional``
    names types that may be absent. ``forge check`` reports a manifest whose `engine:` does not
    fit its cards as a finding, so the engine itself never meets a missing field."""

    types: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    optional: tuple[str, ...] = ()


@dataclass(frozen=True)
class ScenarioKeys:
    """The scenario keys an engine adds to the common ones (forge/rules/scenario.py):
    ``setup`` top-level keys, ``seat`` the shape of each entry of ``seats:``, ``expect`` keys
    under ``expect:``, ``stops`` the ``stop:`` counters (key -> checkpoint kind). Types are the
    scenario schema's (`forge.rules.scenario`: str, bool, Int, Card, SEAT, [T], Map, Rec ...).
    The engine module's ``scenario_setup(match, data, ctx)`` and ``scenario_expect(match, expect,
    ctx)`` functions act on them."""

    setup: Mapping[str, Any] = field(default_factory=dict)
    seat: Any = None
    expect: Mapping[str, Any] = field(default_factory=dict)
    stops: Mapping[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------------------------- errors, results

@dataclass
class Violation:
    """One broken invariant (or engine crash) with what reproduces it: the seed and the actions
    (choices and chance outcomes) in `Match.actions` form."""

    seed: int
    players: int
    message: str
    actions: list = field(default_factory=list)
    decision_index: int = 0

    def as_dict(self) -> dict:
        steps = []
        for step in self.actions:
            if isinstance(step, Rolled):
                value = step.value
                steps.append({"chance": step.kind,
                              "value": list(value) if isinstance(value, (list, tuple)) else value})
            else:
                steps.append([list(c) for c in step])
        return {"seed": self.seed, "players": self.players, "message": self.message,
                "decision_index": self.decision_index, "actions": steps}


def actions_from_json(steps: Sequence) -> list:
    """`Violation.as_dict()["actions"]` back into a `Match.actions` log (for `replay`)."""
    def tup(x: Any) -> Any:
        return tuple(tup(y) for y in x) if isinstance(x, list) else x
    out: list = []
    for step in steps:
        if isinstance(step, dict):
            out.append(Rolled((step["chance"], tup(step["value"]))))
        else:
            out.append(tuple(tup(c) for c in step))
    return out


# ---------------------------------------------------------------------------------- the match

class Match:
    """One game in progress; the base of every engine's match.

    A subclass writes the whole game as the generator `flow()` with the helpers below, lists its
    zones in `zones()` and computes `scores()`; the base drives it: ``decision`` is what must be
    answered next (None once over), ``step(choices)`` answers it with one option per seat named.
    """

    #: Operations registered with `@operation` on the subclass (filled per subclass).
    OPERATIONS: ClassVar[dict[str, Operation]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.OPERATIONS = operations_of(cls)

    def __init__(self, players: int, seed: int, log: bool = False):
        self.n = players
        self.seed = seed
        self.streams = Streams(seed, players)
        #: The game's random stream: every chance the base resolves draws from it.
        self.rng = self.streams.game
        #: Events for people (`_log`); None when switched off, as in simulations.
        self.log: list | None = [] if log else None
        #: The replay log: each decision's choices (a tuple) and each chance outcome (`Rolled`).
        self.actions: list = []
        #: Seat decisions made so far.
        self.decisions = 0
        self.decision: Decision | None = None
        #: Take a decision with a single option without asking; scenarios switch it off.
        self.auto = True
        #: Set when the game ends: {"scores": [...], "winners": [...], "tiebreak": [...]}.
        self.result: dict | None = None
        #: Resolution orders an engine records (lists of seats), for `expect: order`.
        self.orders: list[list[int]] = []
        #: Checkpoints reached, by kind (see `checkpoint`), for a scenario's `stop:`.
        self.reached: Counter = Counter()
        #: (card definition index, seat) of every card played, for dead-card reports.
        self.played: list[tuple[int, int]] = []
        self._gen: Iterator | None = None
        self._script: dict[str, list] = {}

    # ------------------------------------------------------------------ the subclass's part
    def flow(self) -> Iterator:
        """The whole game as one generator (setup already done, or done here)."""
        raise NotImplementedError
        yield

    def zones(self) -> Iterable[tuple[str, list[int]]]:
        """Every zone as (name, list of handles); each handle in exactly one of them."""
        return ()

    def total(self) -> int:
        """How many handles exist (0: skip the conservation check)."""
        return 0

    def invariants(self) -> None:
        """The game's own invariants; raise InvariantViolation."""

    def scores(self) -> list[int]:
        return [0] * self.n

    def tiebreak(self, seat: int) -> tuple:
        """What breaks a tie on score, compared after it (bigger wins); () for a shared win."""
        return ()

    def view(self, seat: int) -> dict:
        """What ``seat`` may see (agents read this, never the match's hidden zones). The base
        shows public facts only: the seat, the player count, the open decision's kind."""
        d = self.decision
        return {"seat": seat, "players": self.n, "decision": d.kind if d else None}

    def label(self, option: tuple) -> str:
        """A readable option, as scenarios write actions: ``verb arg ...``."""
        return " ".join(map(str, option))

    def state_digest(self) -> tuple:
        """Everything that defines the position, for comparing two runs."""
        return tuple((name, tuple(cards)) for name, cards in self.zones())

    # ------------------------------------------------------------------ results
    def winners(self) -> list[int]:
        """Seats with the best (score, *tiebreak)."""
        return self.result["winners"] if self.result else self._rank(self.scores())[0]

    def _rank(self, scores: list[int]) -> tuple[list[int], list[tuple]]:
        keys = [(scores[s], *self.tiebreak(s)) for s in range(self.n)]
        best = max(keys)
        return [s for s in range(self.n) if keys[s] == best], keys

    def finish(self, scores: list[int] | None = None) -> dict:
        """End the game: record scores, winners and tie-break keys in ``result`` and check the
        invariants. Call it last in `flow()`."""
        scores = self.scores() if scores is None else scores
        winners, keys = self._rank(scores)
        self.result = {"scores": scores, "winners": winners, "tiebreak": keys}
        self._log("end", scores, winners)
        self.check_invariants()
        return self.result

    # ------------------------------------------------------------------ invariants
    def check_invariants(self) -> None:
        """Every handle in exactly one zone and none lost; then the game's `invariants()`."""
        total = self.total()
        if total:
            seen = [0] * total
            try:
                for _, cards in self.zones():
                    for h in cards:
                        seen[h] += 1
            except IndexError:
                raise InvariantViolation(f"a handle outside 0..{total - 1} is in a zone") from None
            if seen.count(1) != total:
                bad = [h for h in range(total) if seen[h] != 1]
                where = {self.handle_name(h): [name for name, cards in self.zones() if h in cards]
                         for h in bad[:10]}
                raise InvariantViolation(f"cards not conserved across zones: {where}")
        self.invariants()

    def handle_name(self, h: int) -> str:
        """How a handle is named in messages (engines give the card id)."""
        return str(h)

    # ------------------------------------------------------------------ driving
    def begin(self, gen: Iterator | None = None) -> None:
        """Start the flow (``self.flow()`` unless another generator is given, e.g. a flow that
        resumes a scenario's position) and run it to its first decision."""
        self._gen = self.flow() if gen is None else gen
        self._advance(None)

    def _advance(self, choices: Any) -> None:
        gen = self._gen
        try:
            got = gen.send(choices)
            while type(got) is Chance:
                got = gen.send(self.resolve(got))
            self.decision = got
        except StopIteration:
            self.decision = None

    def step(self, choices: Sequence) -> None:
        """Answer the open decision with one option per seat in ``decision.seats``."""
        d = self.decision
        if d is None:
            raise IllegalAction("the game is over")
        if len(choices) != len(d.seats):
            raise IllegalAction(f"{len(d.seats)} choice(s) needed, got {len(choices)}")
        for c, opts in zip(choices, d.options):
            if c not in opts:
                raise IllegalAction(f"{c!r} is not a legal {d.kind} option")
        if d.seats:
            self.actions.append(choices)
            self.decisions += len(choices)
        self._advance(tuple(choices))

    # ------------------------------------------------------------------ flow helpers
    def ask(self, kind: str, seat: int, options: list) -> Iterator:
        """``x = yield from self.ask(kind, seat, options)``: one seat chooses one option; a
        single option is taken without asking while ``auto`` is on."""
        if len(options) == 1 and self.auto:
            return options[0]
        got = yield Decision(kind, (seat,), [options])
        return got[0]

    def ask_all(self, kind: str, seats: Sequence[int], options: Sequence[list]) -> Iterator:
        """``xs = yield from self.ask_all(kind, seats, options_per_seat)``: a simultaneous
        hidden choice; returns the choices aligned with ``seats``. Seats with no option are left
        out of the decision (their entry is None)."""
        live = [i for i, o in enumerate(options) if o]
        if self.auto and all(len(options[i]) == 1 for i in live):
            return [o[0] if o else None for o in options]
        if not live:
            return [None] * len(seats)
        got = yield Decision(kind, [seats[i] for i in live], [options[i] for i in live])
        out: list = [None] * len(seats)
        for i, c in zip(live, got):
            out[i] = c
        return out

    def checkpoint(self, kind: str) -> Iterator:
        """Mark a point of the flow (end of a round, say). Counted in ``reached``; when ``auto``
        is off (scenarios) it pauses there so a scenario can ``stop:`` at it."""
        self.reached[kind] += 1
        if not self.auto:
            yield Decision(kind, (), [])

    def script(self, kind: str, outcomes: Iterable) -> None:
        """Outcomes the next chances of ``kind`` take, in order (scenarios' ``rolls:``)."""
        self._script.setdefault(kind, []).extend(outcomes)

    def scripted(self, kind: str) -> list:
        """Scripted outcomes of ``kind`` not used yet."""
        return self._script.get(kind, [])

    def resolve(self, chance: Chance) -> Any:
        """The outcome of a chance event: scripted, else drawn from ``rng``; logged for replay.
        This is the plain-function form of `roll`, for code outside the flow (setup)."""
        queue = self._script.get(chance.kind) if self._script else None
        if queue:
            value = queue.pop(0)
            if value not in chance.outcomes:
                raise IllegalAction(f"scripted {chance.kind} {value!r} is not a possible outcome "
                                    f"({', '.join(map(str, chance.outcomes))})")
        else:
            value = chance.sample(self.rng)
        self.actions.append(_rolled((chance.kind, value)))
        return value

    def random_float(self, kind: str) -> float:
        """A number in [0, 1) (lots, tie-breaks): scripted, else exactly ``rng.random()``;
        logged for replay."""
        queue = self._script.get(kind) if self._script else None
        if queue:
            value = queue.pop(0)
            if not (isinstance(value, (int, float)) and 0 <= value < 1):
                raise IllegalAction(f"scripted {kind} {value!r} is not a number in [0, 1)")
        else:
            value = self.rng.random()
        self.actions.append(_rolled((kind, value)))
        return value

    def shuffle_cards(self, cards: list, kind: str = "shuffle") -> None:
        """Shuffle ``cards`` in place (the plain-function form of `shuffle`). Unscripted, it
        consumes the stream exactly like ``self.rng.shuffle(cards)``; a scripted outcome is the
        new order (the same cards; lists are drawn with ``pop()``, so the top is the end)."""
        queue = self._script.get(kind) if self._script else None
        if queue:
            order = list(queue.pop(0))
            if sorted(order) != sorted(cards):
                raise IllegalAction(f"scripted {kind} is not an order of the cards shuffled")
            cards[:] = order
        else:
            self.rng.shuffle(cards)
        self.actions.append(_rolled((kind, tuple(cards))))

    def roll(self, kind: str, outcomes: Sequence, weights: Sequence[float] | None = None) -> Iterator:
        """``v = yield from self.roll(kind, outcomes, weights=None)``: a chance event."""
        return self.resolve(Chance(kind, outcomes, weights))
        yield

    def die(self, sides: int, kind: str | None = None) -> Iterator:
        """``v = yield from self.die(6)``: one die, 1..sides (kind ``d{sides}`` by default)."""
        return self.resolve(Chance(kind or f"d{sides}", range(1, sides + 1)))
        yield

    def shuffle(self, cards: list, kind: str = "shuffle") -> Iterator:
        """``yield from self.shuffle(cards)``: shuffle in place (see `shuffle_cards`)."""
        self.shuffle_cards(cards, kind)
        return
        yield

    def _log(self, *event: Any) -> None:
        if self.log is not None:
            self.log.append(event)


def replay(match: Match, actions: Sequence, start: Callable[[Match], None] | None = None) -> Match:
    """Play ``actions`` (a `Match.actions` log) again on a fresh ``match`` built with the same
    seed: chance outcomes are scripted, choices stepped. ``start`` begins the flow (default
    ``match.begin()``, unless the match has begun already)."""
    for a in actions:
        if isinstance(a, Rolled):
            match.script(a.kind, [a.value])
    if start is not None:
        start(match)
    elif match._gen is None:
        match.begin()
    for a in actions:
        if not isinstance(a, Rolled):
            while match.decision is not None and not match.decision.seats:
                match.step(())
            match.step(a)
    return match


# ---------------------------------------------------------------------------------- engines

class Prepared:
    """Static tables of one game and configuration, built once by ``prepare`` and shared by all
    its matches. Subclasses set ``def_ids`` (card ids, indexed by the `played` def index) and
    implement `new`."""

    def __init__(self, game: Any, options: Mapping[str, Any], sets: Sequence[str] | None = None):
        self.game = game
        self.options = dict(options)
        #: The sets in play; None given: the manifest's first set (the base game).
        self.sets = tuple(sets) if sets else tuple(game.manifest.sets)[:1]
        self.def_ids: list[str] = [c.id for c in game.cards if c.set in self.sets]
        #: {card id: [handles]}: the physical cards of each id (scenarios place cards from it).
        self.handles_of: dict[str, list[int]] = {}

    def new(self, players: int, seed: int, log: bool = False, deal: bool = True) -> Match:
        """A match; ``deal=False`` leaves it empty and not begun, for a scenario to set up."""
        raise NotImplementedError

    def playable_ids(self) -> list[str]:
        """Card ids a player can play (the dead-card report counts these)."""
        return sorted(set(self.def_ids))

    def cards_in_play(self) -> set[str]:
        """Card ids in this configuration (a scenario may name only these)."""
        return set(self.handles_of) if self.handles_of else set(self.def_ids)


Agent = Callable[[Match, int, list, random.Random], tuple]


@runtime_checkable
class Engine(Protocol):
    """What an engine module provides (docs/engines.md). Registered under the entry-point
    group ``card_forge.engines`` (``name = "package.module"``)."""

    NAME: str
    PLAYERS: tuple[int, int]
    OPERATIONS: Mapping[str, Operation]
    OPTIONS: Sequence[Option]
    REQUIRES: Requires
    AGENTS: Mapping[str, Agent]
    SCENARIO: ScenarioKeys

    def prepare(self, game: Any, options: Mapping[str, Any],
                sets: Sequence[str] | None = None) -> Prepared: ...


#: Attributes every engine module must have (`check_engine_module`).
REQUIRED_ATTRS = ("NAME", "PLAYERS", "OPERATIONS", "prepare")


def check_engine_module(module: Any) -> list[str]:
    """What an engine module lacks or gets wrong, in words (empty: it fits the contract)."""
    out = [f"no {a}" for a in REQUIRED_ATTRS if not hasattr(module, a)]
    players = getattr(module, "PLAYERS", (1, 1))
    if not (isinstance(players, tuple) and len(players) == 2 and 1 <= players[0] <= players[1]
            <= len(SEAT_NAMES)):
        out.append(f"PLAYERS must be (min, max) within 1..{len(SEAT_NAMES)}, not {players!r}")
    ops = getattr(module, "OPERATIONS", {})
    if not isinstance(ops, Mapping) or not all(isinstance(o, Operation) for o in ops.values()):
        out.append("OPERATIONS must map names to Operation (use @operation and operations_of)")
    for o in getattr(module, "OPTIONS", ()):
        if not isinstance(o, Option):
            out.append(f"OPTIONS holds {o!r}, not an Option")
    return out


# ---------------------------------------------------------------------------------- the driver

class Offered:
    """What the seats of one game were offered: every distinct option, and the kind of each
    decision put to seats (its choices follow in ``match.actions``, in the same order). Noted
    by `play_game` in C calls, with no Python call and nothing kept alive per decision."""

    __slots__ = ("options", "kinds")

    def __init__(self) -> None:
        self.options: set = set()
        self.kinds: list[str] = []


def play_game(match: Match, agents: list, rngs: list[random.Random], check: str = "round",
              offered: Offered | None = None) -> int:
    """Play ``match`` to its end with ``agents[seat](match, seat, options, rng)``.

    Returns the number of seat decisions made. ``check``: "step" checks invariants after every
    decision, "round" leaves it to the match (its checkpoints and the end), "off" never.
    ``offered``, when given, notes what every decision put to seats offered.
    """
    decisions = 0
    every = check == "step"
    while True:
        d = match.decision
        if d is None:
            return decisions
        seats = d.seats
        if offered is not None and seats:
            offered.options.update(*d.options)
            offered.kinds.append(d.kind)
        if len(seats) == 1:
            s = seats[0]
            match.step((agents[s](match, s, d.options[0], rngs[s]),))
            decisions += 1
        else:
            match.step(tuple(agents[s](match, s, opts, rngs[s]) for s, opts in zip(seats, d.options)))
            decisions += len(seats)
        if every:
            match.check_invariants()
