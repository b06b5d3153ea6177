"""The engine core: what every game's rules engine is built on. It names no game.

- `Match`: the base of every engine's match. The whole game is one generator, `flow()`, that
  yields a `Decision` whenever seats must choose (and receives their choices) and resolves chance
  (`Chance`: dice, shuffles, random draws) through the helpers `roll`, `die` and `shuffle`, from
  a scenario's scripted outcomes or from the game's seeded stream. The base keeps the replay log
  (`actions`: every choice and chance outcome), the event log, the conservation invariant over
  the engine's zones, results with tie-breaks, and the per-seat view agents read.
- `operation`: the decorator that registers an effect operation with its parameter schema;
  `check` compares the manifest and the cards with this registry.
- `Engine`: the one typed object an engine declares itself with (players, operations,
  `Option`s, `Requires`, agents, `ScenarioKeys`, hooks; docs/engines.md), and `Prepared`,
  the base of its static tables.
- `play_game`: the driver loop that plays one match with agents; given an `Offered`, it notes
  what the seats were offered (`actions` holds what they chose), for simulate's reports, at no
  cost when it is not given.

Hot path: nothing here copies state or formats text per step; `log` is None unless asked for.
"""
from __future__ import annotations

import inspect
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property, partial
from fractions import Fraction
from itertools import product
from typing import (TYPE_CHECKING, Any, Callable, ClassVar, Generator, Iterable, Mapping,
                    Sequence, TypeVar)

from ..errors import EngineError, IllegalAction, InvariantViolation
from . import copying
from .agents import AGENTS as GENERIC_AGENTS, Agent
from .streams import Streams, derive_seed
from .tally import GameStats

if TYPE_CHECKING:
    from .scenario import SetupContext

SEAT_NAMES = "ABCDEFGH"

_T = TypeVar("_T")
#: A piece of a game's flow: a generator that yields a `Decision` (or a `Chance`), is sent the
#: choices (or the outcome) and returns a ``_T``: ``x = yield from self.ask(...)``.
Flow = Generator[Any, Any, _T]

__all__ = ["Agent", "Chance", "Decision", "Engine", "EngineError", "GameStats", "IllegalAction",
           "InvariantViolation", "Match", "Offered", "Operation", "Option", "Param", "Prepared",
           "Requires", "Result", "Rolled", "SEAT_NAMES", "actions_from_json", "ScenarioKeys",
           "Streams", "View", "Violation", "chance_odds", "deal_anew", "derive_seed", "operation",
           "operations_of", "play_game", "replay"]


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
            return self.outcomes[rng._randbelow(len(self.outcomes))]  # type: ignore[attr-defined]
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
#: `Match.ask` fills the slots of a `Decision` itself: a Python-level ``__init__`` per decision
#: is about an eighth of what asking costs.
_new_decision = Decision.__new__


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
    #: ``func(match, *args, **params)``: a piece of the flow (``yield from op.func(...)``).
    func: Callable[..., Flow[Any]]
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
        setattr(func, "__forge_operation__",
                Operation(name, spec, func, help or (func.__doc__ or "").strip()))
        return func
    return mark


def passive(name: str, help: str, **params: Any) -> Callable:
    """An operation that does nothing when it resolves: its card changes a rule while it is in
    play, and the engine reads it where that rule applies (``help`` says where). Declared like
    any operation, so ``check`` knows it::

        op_bigger_hand = passive("bigger_hand", "the hand limit is higher", amount=int)"""
    def nothing(self: Any, *args: Any, **kwargs: Any) -> Flow[None]:
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
        v: Any = value
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
        typed = isinstance(v, self.type)          # (kept apart: v stays Any, not object)
        if self.type is int and isinstance(v, bool) or not typed:
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
    The engine's ``scenario_setup(match, data, ctx)`` and ``scenario_expect(match, expect,
    ctx)`` functions act on them."""

    setup: Mapping[str, Any] = field(default_factory=dict)
    seat: Any = None
    expect: Mapping[str, Any] = field(default_factory=dict)
    stops: Mapping[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------------------------- views, results

@dataclass(slots=True)
class View:
    """What one seat may see (`Match.view`): agents read this, never the match's hidden zones.
    The base holds the public facts every game has; an engine's view subclasses it with its own
    fields (its seat's hand, the table, the sizes of hidden zones), naming cards by id. Not
    frozen: a view is made afresh for each call (an agent that changes it changes only its own),
    and a frozen one costs 1.4 µs more to make (an agent may read a view at every decision: one
    built-in game's took 10 % longer with frozen views, 2 % more than with dicts now)."""

    seat: int
    players: int
    #: The kind of the open decision (None once the game is over).
    decision: str | None


@dataclass(frozen=True, slots=True)
class Result:
    """How a match ended (`Match.finish`): each seat's score, the seats with the best
    (score, *tiebreak), each seat's tie-break key; ``turns`` and ``capped`` for an engine that
    counts turns and stops at a turn cap (None and False for one that does not)."""

    scores: list[int]
    winners: list[int]
    tiebreak: list[tuple]
    turns: int | None = None
    capped: bool = False


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
        steps: list[Any] = []
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
    #: The prepared tables the match plays with (an engine sets it, and narrows its type).
    p: Prepared | None = None
    #: The checkpoint kind at which `resume` can carry the flow on (a turn's end), for `copy`;
    #: None: every copy replays the match from its seed, unless the engine marks its own
    #: points with `boundary`.
    BOUNDARY: ClassVar[str | None] = None
    #: Attributes a copy shares with its original: read-only tables (``p`` always is).
    SHARED: ClassVar[tuple[str, ...]] = ()

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
        #: Set when the game ends (`finish`).
        self.result: Result | None = None
        #: Resolution orders an engine records (lists of seats), for `expect: order`.
        self.orders: list[list[int]] = []
        #: Checkpoints reached, by kind (see `checkpoint`), for a scenario's `stop:`.
        self.reached: Counter = Counter()
        #: (card definition index, seat) of every card played, for dead-card reports.
        self.played: list[tuple[int, int]] = []
        self._gen: Flow[Any] | None = None
        self._script: dict[str, list] = {}
        #: The last boundary's snapshot (`copying`); () while there is none.
        self._snap: tuple = ()
        #: Take a snapshot at each boundary (on once the match has been copied, and in the
        #: replay that copies it).
        self._snapping = copying.replaying
        #: Check invariants; off while a copy passes again through states its original checked.
        self._checking = True

    # ------------------------------------------------------------------ the subclass's part
    def flow(self) -> Flow[Any]:
        """The whole game as one generator (setup already done, or done here)."""
        raise NotImplementedError
        yield

    def zones(self) -> Iterable[tuple[str, list[int]]]:
        """Every zone as (name, list of handles); each handle in exactly one of them."""
        return ()

    def total(self) -> int:
        """How many handles exist: the prepared tables' cards (0: skip the conservation check)."""
        return len(self.p.cid) if self.p is not None else 0

    def invariants(self) -> None:
        """The game's own invariants; raise InvariantViolation."""

    def stats(self) -> GameStats:
        """This game's figures for simulate's `Engine.statistics`: the engine's own `GameStats`,
        whose `counts` add up over games."""
        return GameStats()

    def scores(self) -> list[int]:
        return [0] * self.n

    def tiebreak(self, seat: int) -> tuple:
        """What breaks a tie on score, compared after it (bigger wins); () for a shared win."""
        return ()

    def view(self, seat: int) -> View:
        """What ``seat`` may see (agents read this, never the match's hidden zones). The base
        shows public facts only: the seat, the player count, the open decision's kind; an
        engine returns its own `View` subclass."""
        d = self.decision
        return View(seat, self.n, d.kind if d else None)

    def label(self, option: tuple) -> str:
        """A readable option, as scenarios write actions: ``verb arg ...``."""
        return " ".join(map(str, option))

    def state_digest(self) -> tuple:
        """Everything that defines the position, for comparing two runs."""
        return tuple((name, tuple(cards)) for name, cards in self.zones())

    def resume(self) -> Flow[Any]:
        """The flow from a `boundary` on, read from the attributes alone (what `copy` starts a
        copy with). Needed only when the flow has boundaries."""
        raise NotImplementedError
        yield

    # ------------------------------------------------------------------ copies
    def copy(self) -> Match:
        """An exact copy that shares no mutable state: played on with the same choices, it
        reaches the same states and result. The first copy of a match replays it from its
        seed; later ones cost a snapshot's copy and the turn so far (`copying`)."""
        return copying.copy(self)

    def reseed(self, seed: int) -> None:
        """New random streams from ``seed``, the game's and every agent's, and no scripted
        outcomes: a search does this to its copies (which carry the match's streams), so that
        the dice, shuffles and draws to come are sampled, never read from the match's future."""
        self.streams = Streams(seed, self.n)
        self.rng = self.streams.game
        self._script = {}

    # ------------------------------------------------------------------ results
    def winners(self) -> list[int]:
        """Seats with the best (score, *tiebreak)."""
        return self.result.winners if self.result else self._rank(self.scores())[0]

    def _rank(self, scores: list[int]) -> tuple[list[int], list[tuple]]:
        keys = [(scores[s], *self.tiebreak(s)) for s in range(self.n)]
        best = max(keys)
        return [s for s in range(self.n) if keys[s] == best], keys

    def finish(self, scores: list[int] | None = None, turns: int | None = None,
               capped: bool = False) -> Result:
        """End the game: record scores, winners and tie-break keys in ``result`` (with the turns
        played and whether the turn cap stopped the game, for an engine that counts them) and
        check the invariants. Call it last in `flow()`."""
        scores = self.scores() if scores is None else scores
        winners, keys = self._rank(scores)
        self.result = Result(scores, winners, keys, turns, capped)
        self._log("end", scores, winners)
        self.check_invariants()
        return self.result

    # ------------------------------------------------------------------ invariants
    def check_invariants(self) -> None:
        """Every handle in exactly one zone and none lost; then the game's `invariants()`."""
        if not self._checking:
            return
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
        """How a handle is named in messages: its card id."""
        return self.p.cid[h] if self.p is not None else str(h)

    # ------------------------------------------------------------------ driving
    def begin(self, gen: Flow[Any] | None = None) -> None:
        """Start the flow (``self.flow()`` unless another generator is given, e.g. a flow that
        resumes a scenario's position) and run it to its first decision."""
        self._gen = self.flow() if gen is None else gen
        self._advance(None)

    def _advance(self, choices: Any) -> None:
        gen = self._gen
        assert gen is not None, "begin() first"
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
    def ask(self, kind: str, seat: int, options: list) -> Flow[Any]:
        """``x = yield from self.ask(kind, seat, options)``: one seat chooses one option; a
        single option is taken without asking while ``auto`` is on. A choice given as a plain
        tuple (a replay log read back from JSON, `actions_from_json`) comes back as the offered
        option it equals, so a flow may read typed options by name."""
        if len(options) == 1 and self.auto:
            return options[0]
        d = _new_decision(Decision)         # Decision(kind, (seat,), [options]), without __init__
        d.kind, d.seats, d.options = kind, (seat,), [options]
        c, = yield d
        return options[options.index(c)] if type(c) is tuple else c

    def ask_all(self, kind: str, seats: Sequence[int], options: Sequence[list]) -> Flow[list]:
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
            out[i] = options[i][options[i].index(c)] if type(c) is tuple else c
        return out

    def checkpoint(self, kind: str) -> Flow[None] | tuple[()]:
        """``yield from self.checkpoint(kind)``: mark a point of the flow (end of a round, say).
        Counted in ``reached``; when ``auto`` is off (scenarios) it pauses there so a scenario can
        ``stop:`` at it. While ``auto`` is on nothing is yielded, so no generator is made: it
        gives ``()``, which ``yield from`` passes at once."""
        self.reached[kind] += 1
        if kind == self.BOUNDARY:
            self.boundary()
        return () if self.auto else self._pause(kind)

    def boundary(self) -> None:
        """Mark a point of the flow where the whole position is in the attributes, so that
        `resume` carries on from it: a copy starts from the last one (`copying`). Each `BOUNDARY`
        checkpoint is one; an engine whose flow can resume elsewhere calls it there."""
        if self._snapping:
            self._snap = copying.snapshot(self)

    @staticmethod
    def _pause(kind: str) -> Flow[None]:
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

    def roll(self, kind: str, outcomes: Sequence, weights: Sequence[float] | None = None) -> Flow[Any]:
        """``v = yield from self.roll(kind, outcomes, weights=None)``: a chance event."""
        return self.resolve(Chance(kind, outcomes, weights))
        yield

    def pick_random(self, kind: str, cards: list[int]) -> Flow[int]:
        """``i = yield from self.pick_random(kind, cards)``: the index of a card taken at random
        from ``cards``, as a chance over their card ids (``p.cid``), so a scenario scripts it by
        id (``rolls: {steal: [fire_lance]}``); copies of one card are alike."""
        assert self.p is not None, "pick_random names cards by the prepared tables' cid"
        cid = self.p.cid
        got = yield from self.roll(kind, [cid[h] for h in cards])
        for i, h in enumerate(cards):
            if cid[h] == got:
                return i
        return 0

    def die(self, sides: int, kind: str | None = None) -> Flow[int]:
        """``v = yield from self.die(6)``: one die, 1..sides (kind ``d{sides}`` by default)."""
        return self.resolve(Chance(kind or f"d{sides}", range(1, sides + 1)))
        yield

    def shuffle(self, cards: list, kind: str = "shuffle") -> Flow[None]:
        """``yield from self.shuffle(cards)``: shuffle in place (see `shuffle_cards`)."""
        self.shuffle_cards(cards, kind)
        return
        yield

    def _log(self, *event: Any) -> None:
        if self.log is not None:
            self.log.append(event)


def deal_anew(rng: random.Random, zones: Sequence[list[int]],
              kind: Callable[[int], Any] | None = None) -> dict[int, int]:
    """Deal the handles of ``zones`` (lists, changed in place) anew among them, each zone
    keeping its size and, given ``kind``, each place keeping the kind of card it held (a card
    of one kind goes only where one of its kind was). The handles are sorted before they are
    shuffled, so where each one lands depends on which handles the zones hold, their kinds and
    ``rng``, never on where it was: what an engine's `Engine.redeal` needs, so that a search
    cannot learn a hidden card's place. Returns {old handle: the handle now in its place}, for
    rewriting the options of a decision that named the old ones."""
    places: dict[Any, list[tuple[list[int], int]]] = {}
    for zone in zones:
        for i, h in enumerate(zone):
            places.setdefault(kind(h) if kind else None, []).append((zone, i))
    moved: dict[int, int] = {}
    for key in sorted(places, key=repr):
        slots = places[key]
        pool = sorted(zone[i] for zone, i in slots)
        rng.shuffle(pool)
        for (zone, i), h in zip(slots, pool):
            moved[zone[i]] = h
            zone[i] = h
    return moved


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
    its matches. Subclasses fill ``cid`` (handle -> card id), may narrow ``def_ids`` (card ids,
    indexed by the `played` def index), and implement `new`."""

    def __init__(self, game: Any, options: Mapping[str, Any], sets: Sequence[str] | None = None):
        self.game = game
        self.options = dict(options)
        #: The sets in play; None given: the manifest's first set (the base game).
        self.sets = tuple(sets) if sets else tuple(game.manifest.sets)[:1]
        self.def_ids: list[str] = [c.id for c in game.cards if c.set in self.sets]
        #: The card id of each handle (one handle per physical card in play).
        self.cid: list[str] = []
        #: {card id: [handles]}: the physical cards of each id (scenarios place cards from it).
        self.handles_of: dict[str, list[int]] = {}

    def new(self, players: int, seed: int, log: bool = False, deal: bool = True) -> Match:
        """A match; ``deal=False`` leaves it empty and not begun, for a scenario to set up."""
        raise NotImplementedError

    @cached_property
    def card_index(self) -> dict[str, int]:
        """{card id: its first handle}: agents read views that name cards by id, and every copy
        of a card shares its rows in the static tables. Built once, on first use."""
        return {cid: hs[0] for cid, hs in self.handles_of.items()}

    def playable_ids(self) -> list[str]:
        """Card ids a player can play (the dead-card report counts these): the cards in play."""
        return sorted(self.cards_in_play())

    def cards_in_play(self) -> set[str]:
        """Card ids in this configuration (a scenario may name only these)."""
        return set(self.handles_of) if self.handles_of else set(self.def_ids)


#: ``scenario_setup(match, data, ctx)`` / ``scenario_expect(match, expect, ctx)``.
ScenarioHook = Callable[[Any, dict, "SetupContext"], None]


@dataclass(frozen=True, eq=False)      # one object per engine: compared and hashed by identity
class Engine:
    """What a game's rules engine declares (docs/engines.md): one object per engine, named by
    its entry in the ``card_forge.engines`` group (``high_card = "high_card_engine:ENGINE"``).
    Every consumer (check, simulate, compare, scenarios, reports, rulebooks) reads these fields;
    a hook the engine does not have is None. Built with a field of the wrong type, it raises an
    EngineError naming the engine and the field, so a registered engine is always whole."""

    #: The manifest's `engine:` id.
    name: str
    #: (min, max) seats these rules are written for.
    players: tuple[int, int]
    #: ``prepare(game, options, sets=None) -> Prepared``: static tables per configuration.
    prepare: Callable[..., Prepared]
    #: ``operations_of(MyMatch)``: the effect operations and their parameter schemas.
    operations: Mapping[str, Operation]
    options: tuple[Option, ...] = ()
    #: Other names ``forge simulate --NAME VALUE`` accepts for an option.
    option_aliases: Mapping[str, str] = field(default_factory=dict)
    requires: Requires = field(default_factory=lambda: Requires())
    #: Agents beyond the generic ones (`forge.rules.agents.AGENTS`); the engine's win on a name.
    agents: Mapping[str, Agent] = field(default_factory=dict)
    #: How a report names each of ``agents`` per language: {agent: {lang: name}}.
    agent_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: How a report names each kind of decision (`ask`'s ``kind``), {kind: {lang: name}}, and
    #: each option's verb, {verb: {lang: name}}; one without a name is printed as its id.
    kind_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    verb_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: The agents a run seats when none are named.
    default_agents: tuple[str, ...] = ("random",)
    scenario: ScenarioKeys = field(default_factory=lambda: ScenarioKeys())
    scenario_setup: ScenarioHook | None = None
    scenario_expect: ScenarioHook | None = None
    #: ``describe_expect(expect, lang, words) -> list[str]``: the engine's `expect:` keys in words.
    describe_expect: Callable[[dict, str, Any], list[str]] | None = None
    #: What a score counts, per language: its plural forms (uk: one, few, many).
    score_unit: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: The rule numbers a rulebook prints, {name: number}: its templates read them as
    #: ``rules.NAME``, so print states the numbers the engine plays with.
    rules: Mapping[str, int] = field(default_factory=dict)
    #: ``check_data(game) -> findings`` certain from the card data alone (`forge check`).
    check_data: Callable[[Any], Iterable[Any]] | None = None
    #: ``statistics(prepared, totals, games) -> dict``: figures and report ``lines`` from the
    #: games' `Match.stats().counts()` added up.
    statistics: Callable[[Any, dict, int], dict] | None = None
    #: ``report_tables(figures, games, name, lang) -> [FigureTable | str]``: the figures
    #: ``statistics`` made, as the tables (and sentences) the PDF report typesets in ``lang``,
    #: ``name(card_id)`` naming a card as printed; None: the PDF prints the ``lines``.
    report_tables: Callable[[dict, int, Callable[[str], str], str], list] | None = None
    #: ``redeal(match, seat, rng) -> None``: deal again, in place and from ``rng``, every card
    #: ``seat`` cannot see among the places it could be (other hands, decks, face-down cards),
    #: keeping every zone's size and what is public, so that the result depends only on what
    #: the seat has seen (`deal_anew` does the dealing). The `search` agent samples the hidden
    #: cards this way on copies of the match; None: `search` cannot play this engine.
    redeal: Callable[[Any, int, random.Random], None] | None = None

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise EngineError(f"the rules engine {self.name!r} breaks the engine contract: "
                              + "; ".join(problems))

    def problems(self) -> list[str]:
        """Each field that does not fit the contract, in words naming it."""
        out = []
        if not (isinstance(self.name, str) and self.name.isidentifier()):
            out.append(f"name must be an identifier, not {self.name!r}")
        lo_hi = self.players
        if not (isinstance(lo_hi, tuple) and len(lo_hi) == 2 and all(type(x) is int for x in lo_hi)
                and 1 <= lo_hi[0] <= lo_hi[1] <= len(SEAT_NAMES)):
            out.append(f"players must be (min, max) within 1..{len(SEAT_NAMES)}, not {lo_hi!r}")
        if not (isinstance(self.operations, Mapping) and all(
                isinstance(o, Operation) and o.name == k for k, o in self.operations.items())):
            out.append("operations must map names to their Operation (use operations_of)")
        if not (isinstance(self.options, tuple) and all(isinstance(o, Option) for o in self.options)):
            out.append(f"options must be a tuple of Option, not {self.options!r}")
        names = {o.name for o in self.options if isinstance(o, Option)}
        if not (isinstance(self.option_aliases, Mapping) and all(
                isinstance(k, str) and v in names for k, v in self.option_aliases.items())):
            out.append("option_aliases must map names to declared options")
        if not isinstance(self.requires, Requires):
            out.append("requires must be a Requires")
        if not isinstance(self.scenario, ScenarioKeys):
            out.append("scenario must be a ScenarioKeys")
        if not (isinstance(self.agents, Mapping) and all(
                isinstance(k, str) and callable(a) for k, a in self.agents.items())):
            out.append("agents must map names to agent functions")
        for label, named in (("agent", self.agent_names), ("kind", self.kind_names),
                             ("verb", self.verb_names)):
            if not (isinstance(named, Mapping) and all(
                    isinstance(v, Mapping) and all(isinstance(t, str) for t in v.values())
                    for v in named.values())):
                out.append(f"{label}_names must map {label} names to {{lang: name}}")
        known = {*GENERIC_AGENTS, *self.agents} if isinstance(self.agents, Mapping) else set()
        if self.redeal is not None:
            known.add("search")
        if not (isinstance(self.default_agents, tuple) and self.default_agents
                and all(a in known for a in self.default_agents)):
            out.append(f"default_agents must be a tuple of known agents, not {self.default_agents!r}")
        if not (isinstance(self.score_unit, Mapping) and all(
                isinstance(v, tuple) and v and all(isinstance(w, str) for w in v)
                for v in self.score_unit.values())):
            out.append("score_unit must map languages to a tuple of plural forms")
        if not (isinstance(self.rules, Mapping) and all(
                isinstance(k, str) and k.isidentifier() and type(v) is int
                for k, v in self.rules.items())):
            out.append("rules must map identifiers to whole numbers")
        hooks: dict[str, tuple[Callable | None, tuple[str, ...]]] = {   # what each is called with
            "prepare": (self.prepare, ("game", "options", "sets")),
            "scenario_setup": (self.scenario_setup, ("match", "data", "ctx")),
            "scenario_expect": (self.scenario_expect, ("match", "expect", "ctx")),
            "describe_expect": (self.describe_expect, ("expect", "lang", "words")),
            "check_data": (self.check_data, ("game",)),
            "statistics": (self.statistics, ("prepared", "totals", "games")),
            "report_tables": (self.report_tables, ("figures", "games", "name", "lang")),
            "redeal": (self.redeal, ("match", "seat", "rng"))}
        for name, (hook, args) in hooks.items():
            if hook is None and name != "prepare":
                continue
            try:
                if hook is None:
                    raise TypeError(name)
                inspect.signature(hook).bind(*args)
            except TypeError:
                out.append(f"{name} must be a function taking ({', '.join(args)}) "
                           "(docs/engines.md)")
            except ValueError:      # a builtin without a signature: taken on trust
                pass
        return out


# ---------------------------------------------------------------------------------- the driver

class Offered:
    """What the seats of one game were offered and chose: every distinct option, the kind of
    each decision put to seats, and its choices (the tuple ``match.actions`` logs). Noted by
    `play_game` in three C calls a decision, with no Python call."""

    __slots__ = ("options", "kinds", "chosen")

    def __init__(self) -> None:
        self.options: set = set()
        self.kinds: list[str] = []
        self.chosen: list[tuple] = []


def play_game(match: Match, agents: list, rngs: list[random.Random], check: str = "round",
              offered: Offered | None = None) -> int:
    """Play ``match`` to its end with ``agents[seat](match, seat, options, rng)``.

    Returns the number of seat decisions made. ``check``: "step" checks invariants after every
    decision, "round" leaves it to the match (its checkpoints and the end), "off" never.
    ``offered``, when given, notes what every decision put to seats offered and got.
    """
    decisions = 0
    every = check == "step"
    if offered is not None:
        note, kind, chose = offered.options.update, offered.kinds.append, offered.chosen.append
    while True:
        d = match.decision
        if d is None:
            return decisions
        seats = d.seats
        if len(seats) == 1:
            s = seats[0]
            options = d.options[0]
            got: tuple = (agents[s](match, s, options, rngs[s]),)
            decisions += 1
            if offered is not None:
                note(options)
                kind(d.kind)
                chose(got)
        else:
            got = tuple(agents[s](match, s, opts, rngs[s]) for s, opts in zip(seats, d.options))
            decisions += len(seats)
            if offered is not None and seats:
                note(*d.options)
                kind(d.kind)
                chose(got)
        match.step(got)
        if every:
            match.check_invariants()
