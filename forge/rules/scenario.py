"""Scenarios: a YAML file sets up a position, plays scripted actions and asserts the outcome.

The format is documented in docs/scenarios.md (and docs/engines.md for engines). Public API::

    sc = load_scenario(path)          # .title, .story ({lang: text}), .data; ScenarioError if bad
    res = run_scenario(path)          # .passed, .failures, .title, .story, .log, .scores

A scenario file is untrusted input like a card file: `schema(engine)` is the one table of every
key it may hold and the type of each value (the common keys below plus the keys the game's
engine declares in its `Engine.scenario`), and the file is checked against it before anything is
played, so a typo or a wrong shape is a finding at its file:line, never an ignored key (a silent
PASS) or an engine traceback. What needs the game (card ids, sets, player counts) is checked in
`build`, still before the engine runs. Every failure names the line it is about. This runner
names no game: everything a game adds comes from its `Engine`.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from ..errors import EngineError, Finding, ForgeError
from ..load import Document, Loc, load_yaml
from ..model import load_game
from ..model.game import find_game, known_games
from . import ENGINES
from .core import SEAT_NAMES, Engine, IllegalAction, Match, Prepared, resolve_options


# The schema. A type is: `str` (non-blank text), `bool`, `Int`, `SEAT`, `Card`, a frozenset (one
# of these words), `[T]` (a list of T), `Map` (keys of one type to values of another), `Rec` (a
# mapping with known keys), a tuple (any one of its types) or None (nothing, for `key:` alone).
# `Opt` is an engine option (its own parser checks the value). The common keys are below; an
# engine declares its own in the same terms (its `Engine.scenario`), so this file names
# no game.

@dataclass(frozen=True)
class Int:
    """A whole number, within lo..hi when they are given (both or neither)."""
    lo: int | None = None
    hi: int | None = None


@dataclass(frozen=True)
class Card:
    """A card id of the game; `kinds` (card types or subtypes), when given, are the ones that
    fit here, so a card of the wrong kind is a finding, not an engine crash."""
    kinds: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Map:
    key: Any
    value: Any
    single: str = ""          # exactly one entry, of this form (an action line: `SEAT: action`)


@dataclass
class Rec:
    fields: dict[str, Any]
    required: tuple[str, ...] = ()


SEAT = object()               # a seat name among the scenario's players (A, B, ...)
ANY = Card()
N = Int()


@dataclass(frozen=True)
class Opt:
    """The value of an engine `Option`, checked by the option's own parser."""
    option: Any


def card(*kinds: str) -> Card:
    """A card id of one of these card types or subtypes."""
    return Card(frozenset(kinds))



def texts(locales: tuple[str, ...]) -> Rec:
    """A text written in each of the game's languages (`title:`, `story:`)."""
    return Rec({lang: str for lang in locales}, required=locales)


#: A script line that is a mapping: a check (`at:` with `legal`, `illegal`, `together`), or an
#: optional action (`maybe:`, with `at:` to wait for a decision of that kind).
CHECK = Rec({"at": str, "legal": [str], "illegal": [str], "together": [SEAT], "maybe": str})
#: What a check holds beside `at:`; none of it goes with `maybe:`.
_CHECKS = ("legal", "illegal", "together")
#: A scripted chance outcome: a number or a word (a card id for a random draw).
OUTCOME = (Int(), str)
#: `expect:` keys every engine has.
COMMON_EXPECT = {"order": [[SEAT]], "scores": Map(SEAT, N), "winners": [SEAT], "over": bool,
                 "asked": Map(SEAT, [str])}
#: Top-level keys every engine has (`seats`, `options`, `stop` and `expect` are completed from
#: the engine in `schema`, `title` and `story` from the game's languages).
COMMON = {"game": str, "players": Int(1, len(SEAT_NAMES)),
          "sets": [str], "seed": N, "deal": bool,
          "rolls": Map(str, [OUTCOME]),
          "actions": [Map(SEAT, (str, CHECK), single="SEAT: action")],
          "default": frozenset({"pass", "first"})}


def schema(engine: Engine, locales: tuple[str, ...] = ("uk", "en")) -> Rec:
    """The whole scenario schema for ``engine``: the common keys and the engine's own; titles
    and stories in each of `locales` (the game's languages)."""
    keys = engine.scenario
    fields = {"title": texts(locales), "story": texts(locales), **COMMON}
    fields.update(keys.setup)
    if keys.seat is not None:
        fields["seats"] = Map(SEAT, (keys.seat, None))
    fields["options"] = (Rec({o.name: Opt(o) for o in engine.options}), None)
    fields["stop"] = (frozenset({"game"}), Rec({k: N for k in keys.stops})) if keys.stops \
        else frozenset({"game"})
    fields["expect"] = Rec({**COMMON_EXPECT, **keys.expect})
    # `shows:` names the `expect:` keys a worked example states in print (forge/rulebook/scenarios.py)
    fields["shows"] = [frozenset({**COMMON_EXPECT, **keys.expect})]
    return Rec(fields, required=("title", "story"))


def placing(engine: Engine) -> tuple[str, ...]:
    """Keys that place cards by hand, so they cannot go with `deal: true`."""
    return ("seats", *engine.scenario.setup)


class ScenarioError(ForgeError):
    """A scenario file that cannot be read or set up; `findings` say where and why."""

    def __init__(self, findings: list[Finding]):
        self.findings = findings
        super().__init__("; ".join(map(str, findings)))


@dataclass
class Scenario:
    path: Path
    title: dict[str, str]
    story: dict[str, str]
    data: dict
    doc: Document
    #: (where, id, kind) of every card id in the file, checked against the game in `build`.
    cards: list[tuple[Loc, str, Card]] = field(default_factory=list)
    #: The game the scenario plays and its engine (a file that does not load has neither).
    game: Any = None
    engine: Engine | None = None

    def finding(self, loc: Loc | None, message: str, fix: str = "") -> Finding:
        """A finding at `loc`'s line, or about the whole file when `loc` is None."""
        if loc is None:
            return Finding(self.doc.name, 0, 0, "scenario", message, fix)
        return self.doc.finding(loc, "scenario", message, fix)

    def error(self, loc: Loc | None, message: str, fix: str = "") -> ScenarioError:
        return ScenarioError([self.finding(loc, message, fix)])


@dataclass
class ScenarioResult:
    path: Path
    title: dict[str, str]
    story: dict[str, str]
    passed: bool
    failures: list[str] = field(default_factory=list)
    log: list = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    orders: list[list[str]] = field(default_factory=list)

    def __str__(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {self.path}: {self.title.get('en', '')}"
        return "\n".join([head] + [f"  - {f}" for f in self.failures])


def _path(loc: Loc) -> str:
    """`seats.A.hand[0]`: the place in the file, as messages name it."""
    out = ""
    for key in loc:
        out += f"[{key}]" if isinstance(key, int) else f".{key}" if out else str(key)
    return out or "the scenario"


def _show(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _form(x: Any) -> str:
    """The YAML form of a value or of a schema type, to pick among the types of a tuple."""
    if isinstance(x, list):
        return "list"
    if isinstance(x, (dict, Map, Rec)):
        return "mapping"
    return "nothing" if x is None else "scalar"


class _Shape:
    """Walks the data along the schema, making a finding at the line of each wrong value, unknown
    key or missing key, and keeping the card ids for `build` to check against the game."""

    def __init__(self, doc: Document, seats: str):
        self.doc, self.seats = doc, seats
        self.findings: list[Finding] = []
        self.cards: list[tuple[Loc, str, Card]] = []

    def add(self, loc: Loc, message: str, fix: str = "") -> None:
        self.findings.append(self.doc.finding(loc, "scenario", message, fix))

    def check(self, value: Any, t: Any, loc: Loc) -> None:
        if isinstance(t, tuple):
            fits = [a for a in t if _form(a) == _form(value)]
            if fits and _form(value) in ("list", "mapping"):
                self.check(value, fits[0], loc)
            elif not any(self.leaf(value, a, loc) for a in fits):
                self.add(loc, f"{_path(loc)}: expected {self.describe(t)}, got {_show(value)}")
        elif isinstance(t, list) and isinstance(value, list):
            for i, item in enumerate(value):
                self.check(item, t[0], loc + (i,))
        elif isinstance(t, Map) and isinstance(value, dict):
            if t.single and len(value) != 1:
                self.add(loc, f"{_path(loc)}: write one `{t.single}` per line, not "
                         f"{len(value)} entries")
            for key, item in value.items():
                if not self.leaf(key, t.key, loc + (key,)):
                    self.add(loc + (key,), f"{_path(loc)}: {_show(key)} is not "
                             f"{self.describe(t.key)}")
                self.check(item, t.value, loc + (key,))
        elif isinstance(t, Rec) and isinstance(value, dict):
            for key, item in value.items():
                if key in t.fields:
                    self.check(item, t.fields[key], loc + (key,))
                else:
                    close = difflib.get_close_matches(str(key), t.fields, n=1)
                    self.add(loc + (key,), f"{_path(loc)}: unknown key {_show(key)} (known: "
                             f"{', '.join(t.fields)})", f"did you mean `{close[0]}`?" if close else "")
            for key in t.required:
                if key not in value:
                    self.add(loc, f"{_path(loc)}: `{key}:` is missing")
        elif not self.leaf(value, t, loc):
            self.add(loc, f"{_path(loc)}: expected {self.describe(t)}, got {_show(value)}")

    def leaf(self, value: Any, t: Any, loc: Loc) -> bool:
        """Whether `value` has the scalar type `t` (a collection type never fits here)."""
        if t is None:
            return value is None
        if t is bool:
            return isinstance(value, bool)
        if isinstance(t, Opt):
            try:
                t.option.parse(value)
            except EngineError:
                return False
            return value is not None and not isinstance(value, (list, dict))
        if isinstance(t, Int):
            return (isinstance(value, int) and not isinstance(value, bool)
                    and (t.lo is None or t.hi is None or t.lo <= value <= t.hi))
        if not isinstance(value, str) or not value.strip():
            return False
        if t is SEAT:
            return value in self.seats
        if isinstance(t, frozenset):
            return value in t
        if isinstance(t, Card):
            self.cards.append((loc, value, t))
        return t is str or isinstance(t, Card)

    def describe(self, t: Any, deep: bool = True) -> str:
        """What a type accepts, in words; what goes inside a collection only one level down."""
        if isinstance(t, tuple):
            return " or ".join(self.describe(a, deep) for a in t)
        if isinstance(t, (list, Map, Rec)) and not deep:
            return "a list" if isinstance(t, list) else "a mapping"
        if isinstance(t, list):
            return f"a list, each {self.describe(t[0], False)}"
        if isinstance(t, Map):
            return (f"a mapping of {self.describe(t.key, False)} to "
                    f"{self.describe(t.value, False)}")
        if isinstance(t, Rec):
            return f"a mapping with keys {', '.join(t.fields)}"
        if isinstance(t, Int):
            return "a whole number" + (f" from {t.lo} to {t.hi}" if t.lo is not None else "")
        if isinstance(t, frozenset):
            return " or ".join(f"`{w}`" for w in sorted(t))
        if isinstance(t, Card):
            return f"a {' or '.join(sorted(t.kinds))} card id" if t.kinds else "a card id"
        if isinstance(t, Opt):
            o = t.option
            return (" or ".join(f"`{w}`" for w in o.choices) if o.choices
                    else {int: "a whole number", bool: "true or false", float: "a number"}
                    .get(o.type, "text"))
        return {None: "nothing", str: "text", bool: "true or false",
                SEAT: f"a seat ({self.seats[0]}..{self.seats[-1]})"}[t]


_GAMES: dict[str, tuple[float, Any]] = {}


def _stamp(root: Path) -> float:
    try:
        return max([root.stat().st_mtime] + [p.stat().st_mtime for p in root.iterdir()])
    except OSError:
        return -1.0


def _load_game_cached(root: Path) -> Any:
    """A loaded game, reloaded when a file of its folder changes (many scenarios, one game)."""
    key, stamp = str(root.resolve()), _stamp(root)
    hit = _GAMES.get(key)
    if hit is None or hit[0] != stamp:
        game, _ = load_game(root)
        hit = _GAMES[key] = (stamp, game)
    return hit[1]


def _game_id(path: Path, data: dict, known: list[str]) -> str | None:
    """`game:`, else the folder the scenario lies in when a game has that id."""
    if isinstance(data.get("game"), str):
        return data["game"]
    folder = path.resolve().parent.name
    return folder if folder in known else None


def load_scenario(path: str | Path, loaded: Any = None) -> Scenario:
    """Read a scenario, find its game and engine, and check the file against the engine's
    schema; raise ScenarioError with every finding. `loaded`: a game the caller has loaded
    already (a rulebook's own), used whenever the scenario names its id: a rulebook's examples
    are played in the game it prints, wherever its folder is (a copy of a built-in game checked
    from outside its project plays its own cards, not the built-in ones), and it is not loaded
    again."""
    path = Path(path)
    doc, findings = load_yaml(path)
    if doc is None:
        raise ScenarioError(findings)
    data = doc.data
    if not isinstance(data, dict):
        raise ScenarioError([Finding(doc.name, 0, 0, "scenario", "a scenario is a mapping of keys")])
    known = known_games()
    if loaded is not None and loaded.id not in known:     # a rulebook's game not found from here
        known = [*known, loaded.id]
    sc = Scenario(path, {}, {}, data, doc)

    def stop(loc: Loc | None, message: str, fix: str = "") -> ScenarioError:
        return ScenarioError([sc.finding(loc, message, fix)])

    if "game" in data and not (isinstance(data["game"], str) and data["game"].strip()):
        raise stop(("game",), f"game: expected text, got {_show(data['game'])}")
    game_id = _game_id(path, data, known)

    if game_id is None:
        raise stop(None, "the scenario names no game", "add `game: <game id>` "
                   f"(known: {', '.join(known)})")
    if game_id not in known:
        raise stop(("game",) if "game" in data else None,
                   f"no game {game_id!r} (known: {', '.join(known)})")
    if loaded is not None and game_id == loaded.id:
        game = loaded
    else:
        root = find_game(game_id)
        game = None if root is None else _load_game_cached(root)
    if game is None:
        raise stop(("game",) if "game" in data else None, f"the game {game_id!r} does not load",
                   f"run `forge check` on {game_id}")
    try:
        engine = ENGINES.get(game.manifest.engine or "")
    except EngineError as exc:
        raise stop(("game",) if "game" in data else None, str(exc)) from None
    if engine is None:
        raise stop(("game",) if "game" in data else None, f"{game.id} has no rules engine")
    players = data.get("players", 4)
    valid = isinstance(players, int) and 1 <= players <= len(SEAT_NAMES)
    shape = _Shape(doc, SEAT_NAMES[:players] if valid else SEAT_NAMES)
    shape.check(data, schema(engine, tuple(game.manifest.locales)), ())
    steps = data.get("actions")
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        what = next(iter(step.values())) if isinstance(step, dict) and len(step) == 1 else None
        if isinstance(what, dict):
            loc = ("actions", i, next(iter(step)))
            if "maybe" in what and any(k in what for k in _CHECKS):
                shape.add(loc, f"{_path(loc)}: `maybe:` is an action, not a check: it cannot go "
                          f"with {', '.join(k for k in _CHECKS if k in what)}")
            elif "maybe" not in what and "at" not in what:
                shape.add(loc, f"{_path(loc)}: `at:` is missing", "a check says at which kind of "
                          "decision it is made: `{at: KIND, legal: [...]}`")
    if not shape.findings and data.get("deal"):
        shape.findings += [doc.finding((key,), "scenario", f"`deal: true` lets the engine set the "
                                       f"game up; it cannot go with `{key}:`")
                           for key in placing(engine) if key in data]
    if shape.findings:
        raise ScenarioError(shape.findings)
    return Scenario(path, dict(data["title"]), dict(data["story"]), data, doc, shape.cards,
                    game, engine)


def _card_findings(sc: Scenario, game: Any, in_play: set) -> list[Finding]:
    """Each card id of the file: known to the game, of a kind that fits where it stands, and in
    the sets the scenario plays with."""
    cards = {c.id: c for c in game.cards}
    out = []
    for loc, cid, want in sc.cards:
        card = cards.get(cid)
        if card is None:
            close = difflib.get_close_matches(cid, cards, n=1)
            out.append(sc.finding(loc, f"unknown card id {cid!r} in {game.id}",
                                  f"did you mean {close[0]!r}?" if close else ""))
        elif want.kinds and not want.kinds & {card.type, card.subtype}:
            out.append(sc.finding(loc, f"{cid!r} is a card of type {card.type}"
                                  f"{f' ({card.subtype})' if card.subtype else ''}; only "
                                  f"{' or '.join(sorted(want.kinds))} cards go here"))
        elif cid not in in_play:
            out.append(sc.finding(loc, f"{cid!r} is not in the sets this scenario plays with",
                                  f"add its set ({card.set}) to `sets:`"))
    return out


class SetupContext:
    """What an engine's ``scenario_setup(match, data, ctx)`` and ``scenario_expect(match,
    expect, ctx)`` get from the runner: card handles to place, seats by name, and findings or
    failures at a line of the file."""

    def __init__(self, sc: Scenario, prepared: Prepared, match: Match):
        self.sc, self.prepared, self.match = sc, prepared, match
        self.data = sc.data
        self.game = sc.game
        self.pool = {cid: list(hs) for cid, hs in prepared.handles_of.items()}
        self._cid = {h: cid for cid, hs in prepared.handles_of.items() for h in hs}
        self._fail: Callable[[Loc | None, str], None] | None = None

    def seat(self, name: str) -> int:
        """The index of seat ``name`` (A is 0)."""
        return SEAT_NAMES.index(name)

    def card_ids(self, handles: Iterable[int]) -> list[str]:
        """The card ids of ``handles``, sorted: what an `expect:` list of cards is compared with."""
        return sorted(self._cid[h] for h in handles)

    def remove(self, h: int) -> None:
        """Take handle ``h`` out of the pool of cards to place (the engine put it somewhere)."""
        self.pool[self._cid[h]].remove(h)

    def take(self, cid: str, loc: Loc) -> int:
        """The next unplaced handle of card ``cid``; a finding at ``loc`` when none is left."""
        hs = self.pool.get(cid)
        if not hs:
            raise self.error(loc, f"more copies of {cid!r} than the game has")
        return hs.pop(0)

    def take_all(self, loc: Loc, cids: list[str]) -> list[int]:
        return [self.take(cid, loc + (i,)) for i, cid in enumerate(cids)]

    def rest(self, shuffle: bool = True) -> list[int]:
        """Every handle not placed, in handle order, then shuffled with the match's stream
        (cards are always conserved); the pool is empty afterwards."""
        rest = sorted(h for hs in self.pool.values() for h in hs)
        for hs in self.pool.values():
            hs.clear()
        if shuffle:
            self.match.shuffle_cards(rest)
        return rest

    def error(self, loc: Loc, message: str, fix: str = "") -> ScenarioError:
        """A setup finding at ``loc`` (raise it)."""
        return self.sc.error(loc, message, fix)

    def fail(self, loc: Loc, message: str) -> None:
        """An expectation that does not hold, at ``expect`` + ``loc``."""
        assert self._fail is not None, "fail() is for scenario_expect, after the game"
        self._fail(("expect", *loc), message)


def build(sc: Scenario, game: Any = None) -> tuple[Match, SetupContext]:
    """Set up the scenario's position; returns the match, ready to play, and the context its
    engine's hooks get. What needs the game (sets, player count, card ids) is checked before the
    engine is given anything."""
    d = sc.data
    game = game or sc.game
    engine: Engine | None = sc.engine if game is sc.game else ENGINES.get(game.manifest.engine or "")
    if engine is None:
        raise sc.error(("game",), f"{game.id} has no rules engine")
    sets = d.get("sets") or [next(iter(game.manifest.sets))]
    n = d.get("players", 4)
    lo = max(game.manifest.players.min, engine.players[0])
    hi = min(game.manifest.players.max, engine.players[1])
    problems = [sc.finding(("sets", i), f"{game.id} has no set {s!r} (known: "
                           f"{', '.join(game.manifest.sets)})")
                for i, s in enumerate(sets) if s not in game.manifest.sets]
    if not lo <= n <= hi:
        problems.append(sc.finding(("players",), f"{game.id} takes {lo}-{hi} players, not {n}"))
    if problems:
        raise ScenarioError(problems)
    try:
        options = resolve_options(engine.options, dict(d.get("options") or {}))
        prep = engine.prepare(game, options, tuple(sets))
    except EngineError as exc:
        raise sc.error(("options",) if "options" in d else None, str(exc)) from None
    problems = _card_findings(sc, game, prep.cards_in_play())
    if problems:
        raise ScenarioError(problems)
    m = prep.new(n, d.get("seed", 0), log=True, deal=False)
    m.auto = False    # every choice is asked, so scripted actions meet forced ones too
    for kind, outcomes in (d.get("rolls") or {}).items():
        m.script(kind, outcomes)
    ctx = SetupContext(sc, prep, m)
    if engine.scenario_setup is not None:
        engine.scenario_setup(m, d, ctx)
    if m._gen is None:
        m.begin()
    return m, ctx


def run_scenario(path: str | Path, game: Any = None) -> ScenarioResult:
    """Check, set up, play and assert one scenario file. Never raises for a bad file, a refused
    position or a failing expectation: each is a failure of the result, naming its line."""
    try:
        sc = load_scenario(path, game)
    except ScenarioError as exc:
        return ScenarioResult(Path(path), {}, {}, False, [str(f) for f in exc.findings])
    res = ScenarioResult(sc.path, sc.title, sc.story, False)

    def fail(loc: Loc | None, message: str) -> None:
        res.failures.append(str(sc.finding(loc, message)))

    try:
        m, ctx = build(sc, game)
    except ScenarioError as exc:
        res.failures += [str(f) for f in exc.findings]
        return res
    except Exception as exc:  # the engine refuses the position (an invariant, say)
        fail(("seats",) if "seats" in sc.data else None,
             f"the engine refuses this position: {type(exc).__name__}: {exc}")
        return res
    d, n = sc.data, m.n
    engine = sc.engine
    assert engine is not None               # load_scenario found it
    stops = dict(engine.scenario.stops)
    # each seat's queue of (where, action label or check)
    queues: list[list[tuple[Loc, Any]]] = [[] for _ in range(n)]
    for i, step in enumerate(d.get("actions") or []):
        (who, what), = step.items()
        queues[SEAT_NAMES.index(who)].append((("actions", i, who),
                                              what.strip() if isinstance(what, str) else what))
    default = d.get("default", "pass")
    stop = d.get("stop", "game")
    limits = [(stops[k], v) for k, v in stop.items()] if isinstance(stop, dict) else []
    asked: list[list[str]] = [[] for _ in range(n)]
    last: Loc = ("actions",)      # the scripted line played last, which an engine error names
    guard = 0
    while m.decision is not None:
        if any(m.reached[kind] >= count for kind, count in limits):
            break
        guard += 1
        if guard > 20000:
            fail(last, "the scenario did not end (20000 decisions)")
            break
        dec = m.decision
        choices = []
        for s, opts in zip(dec.seats, dec.options):
            labels = [m.label(o) for o in opts]
            asked[s].append(dec.kind)
            queue = queues[s]
            while queue and isinstance(queue[0][1], dict) and queue[0][1].get("at", dec.kind) == dec.kind:
                loc, what = queue[0]
                if "maybe" not in what:
                    _check(*queue.pop(0), SEAT_NAMES[s], dec, labels, fail)
                elif what["maybe"].strip() in labels:
                    queue[0] = (loc, what["maybe"].strip())     # offered: taken below
                    break
                else:
                    queue.pop(0)                                 # not offered: left out
            if queue and queue[0][1] in labels:
                last, label = queue.pop(0)
                chosen = opts[labels.index(label)]
            elif default == "pass" and "pass" in labels:
                chosen = opts[labels.index("pass")]
            else:
                chosen = opts[0]
            choices.append(chosen)
        try:
            m.step(tuple(choices))
        except IllegalAction as exc:
            fail(last, f"illegal action: {exc}")
            break
        except Exception as exc:   # an invariant or an engine error: the scenario fails
            fail(last, f"the engine stopped at a `{dec.kind}` decision after this line: "
                       f"{type(exc).__name__}: {exc}")
            break
    for s, queue in enumerate(queues):
        # an optional action that no decision reached was never offered: not a failure
        queue = [q for q in queue if not (isinstance(q[1], dict) and "maybe" in q[1])]
        if queue:
            loc, what = queue[0]
            more = f" (and {len(queue) - 1} line(s) after it)" if len(queue) > 1 else ""
            fail(loc, f"seat {SEAT_NAMES[s]}: {what!r} was never legal, or the check never "
                      f"reached{more}")
    for kind, outcomes in (d.get("rolls") or {}).items():
        left = m.scripted(kind)
        if left:
            fail(("rolls", kind), f"rolls: {len(left)} scripted {kind} outcome(s) never used "
                                  f"({', '.join(map(str, left))})")
    res.log = list(m.log or [])
    res.orders = [[SEAT_NAMES[s] for s in o] for o in m.orders]
    try:
        scores = m.result.scores if m.result else m.scores()
    except Exception as exc:  # noqa: BLE001 - a position the engine cannot score
        fail(None, f"the engine cannot score this position: {type(exc).__name__}: {exc}")
        scores = [0] * n
    res.scores = scores
    exp = d.get("expect") or {}
    _expect(m, exp, res, scores, asked, fail)
    hook = engine.scenario_expect
    if hook is not None and exp:
        ctx._fail = fail
        try:
            hook(m, exp, ctx)
        except Exception as exc:  # noqa: BLE001 - an engine bug must not hide the others
            fail(("expect",), f"the engine could not check `expect:`: {type(exc).__name__}: {exc}")
    res.passed = not res.failures
    return res


def _check(loc: Loc, chk: dict, seat: str, dec: Any, labels: list[str], fail: Any) -> None:
    """A check in the script: what the engine offers this seat at this decision."""
    where = f"seat {seat} at its `{dec.kind}` decision"
    for a in chk.get("legal") or []:
        if a.strip() not in labels:
            fail(loc, f"{where}: `{a}` should be legal; offered: {labels}")
    for a in chk.get("illegal") or []:
        if a.strip() in labels:
            fail(loc, f"{where}: `{a}` should not be offered")
    if "together" in chk:
        got = sorted(SEAT_NAMES[s] for s in dec.seats)
        if got != sorted(chk["together"]):
            fail(loc, f"{where}: expected one choice made together by {sorted(chk['together'])}, "
                      f"got {got}")


def _expect(m: Any, exp: dict, res: ScenarioResult, scores: list[int], asked: list[list[str]],
            fail_at: Any) -> None:
    """Compare the outcome with the common `expect` keys; each mismatch is a failure at its
    key's line. The engine's `scenario_expect` checks its own keys."""
    def fail(*loc_and_message: Any) -> None:
        *loc, message = loc_and_message
        fail_at(("expect", *loc), message)

    seat = SEAT_NAMES.index
    if "order" in exp:
        want = exp["order"]
        if res.orders[:len(want)] != want:
            fail("order", f"order: expected {want}, got {res.orders[:len(want)]}")
    for name, v in (exp.get("scores") or {}).items():
        if scores[seat(name)] != v:
            fail("scores", name, f"score of {name}: expected {v}, got {scores[seat(name)]}")
    if "winners" in exp:
        if m.result is None:
            fail("winners", "winners: the game has not ended")
        else:
            got = [SEAT_NAMES[s] for s in m.result.winners]
            if sorted(got) != sorted(exp["winners"]):
                fail("winners", f"winners: expected {exp['winners']}, got {got}")
    if "over" in exp and bool(m.result) != exp["over"]:
        fail("over", f"game over: expected {exp['over']}, got {bool(m.result)}")
    for name, kinds in (exp.get("asked") or {}).items():
        if asked[seat(name)] != kinds:
            fail("asked", name, f"{name} was asked {asked[seat(name)]}, expected {kinds}")
