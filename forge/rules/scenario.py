"""Scenarios: a YAML file sets up a position, plays scripted actions and asserts the outcome.

The format is documented in docs/scenarios.md. Public API::

    sc = load_scenario(path)          # .title, .story ({lang: text}), .data; ScenarioError if bad
    res = run_scenario(path)          # .passed, .failures, .title, .story, .log, .scores

A scenario file is untrusted input like a card file: `SCENARIO` below is the one table of every
key it may hold and the type of each value, and the file is checked against it before anything
is played, so a typo or a wrong shape is a finding at its file:line, never an ignored key (a
silent PASS) or an engine traceback. What needs the game (card ids, sets, player counts) is
checked in `build`, still before the engine runs. Every failure names the line it is about.
"""
from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Finding, ForgeError
from ..load import Document, Loc, load_yaml
from ..model import load_game
from ..model.game import all_games, cards_root
from .core import ENGINES, SEAT_NAMES, IllegalAction
from .love_formula import GOAL_VARIANTS, ROUNDS


# The schema. A type is: `str` (non-blank text), `bool`, `Int`, `SEAT`, `Card`, a frozenset (one
# of these words), `[T]` (a list of T), `Map` (keys of one type to values of another), `Rec` (a
# mapping with known keys), a tuple (any one of its types) or None (nothing, for `key:` alone).
# Only the tables below know Love Formula; `_Shape` knows no game, so an engine can later declare
# its own keys in the same terms.

@dataclass(frozen=True)
class Int:
    """A whole number, within lo..hi when they are given (both or neither)."""
    lo: int | None = None
    hi: int | None = None


@dataclass(frozen=True)
class Card:
    """A card id of the game; `kinds` (card types or subtypes), when given, are the ones that
    fit here, so a pair where a preparation goes is a finding, not an engine crash."""
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
PLAYABLE = Card(frozenset({"preparation", "pair", "obstacle", "reaction", "connection", "action"}))
N = Int()


def _card(*kinds: str) -> Card:
    return Card(frozenset(kinds))


TEXTS = Rec({"uk": str, "en": str}, required=("uk", "en"))
CHECK = Rec({"at": str, "legal": [str], "illegal": [str], "together": [SEAT]}, required=("at",))
OBSTACLE = Rec({"card": _card("obstacle"), "by": SEAT, "tokens": N}, required=("card",))
PAIR = Rec({"pair": _card("pair"), "attached": [_card("preparation", "connection")],
            "obstacles": [(_card("obstacle"), OBSTACLE)]}, required=("pair",))
SEAT_SPEC = Rec({"hand": [PLAYABLE], "job": _card("job"), "unattached": [_card("preparation")],
                 "pairs": [(_card("pair"), PAIR)], "vp": N})
SIZE_ZONES = ("deck", "discard", "box", "chance_deck", "chance_discard", "goal_deck", "vp_deck",
              "goals", "goal_vp")
EXPECT = Rec({
    "order": [[SEAT]], "scores": Map(SEAT, N), "winners": [SEAT], "banked": Map(SEAT, N),
    "zones": Map(SEAT, Rec({"pairs": Map(_card("pair"), ([ANY], None)), "unattached": [ANY],
                            "hand": [ANY], "hand_size": N, "job": (_card("job"), None)})),
    "discard": [ANY], "not_discarded": [ANY], "goals": Map(_card("goal"), ([SEAT], None)),
    "tokens": Map(ANY, N), "over": bool, "asked": Map(SEAT, [str]), "box": [ANY],
    "sizes": Map(frozenset(SIZE_ZONES), N),
    "goal_table": Rec({"first": N, "end": N, "vp_cards": N, "face_up": N, "values": [N]}),
    "vp_face_up": Map(_card("goal"), bool)})
SCENARIO = Rec({
    "title": TEXTS, "story": TEXTS, "game": str, "players": Int(1, len(SEAT_NAMES)),
    "sets": [str], "seed": N, "deal": bool,
    "options": (Rec({"goals_variant": frozenset(GOAL_VARIANTS), "goals_same_value": N,
                     "goals_planned_first": N, "promo_jobs": frozenset({"mix", "replace"}),
                     "promo_replace": (frozenset({"all"}), Map(ANY, N))}), None),
    "start": Rec({"phase": Int(1, 2), "round": Int(1, ROUNDS), "draft": bool, "score": bool}),
    "seats": Map(SEAT, (SEAT_SPEC, None)),
    "deck": [PLAYABLE], "discard": [PLAYABLE], "revealer": SEAT,
    "goals": [Rec({"goal": _card("goal"), "vp": _card("vp")}, required=("goal",))],
    "chance_deck": [_card("chance")], "chance_discard": [_card("chance")],
    "actions": [Map(SEAT, (str, CHECK), single="SEAT: action")], "default": frozenset({"pass", "first"}),
    "stop": (frozenset({"game"}), Rec({"rounds": N, "drafts": N})),
    "expect": EXPECT}, required=("title", "story"))
#: Keys that place cards by hand, so they cannot go with `deal: true`.
PLACING = ("start", "seats", "deck", "discard", "goals", "revealer", "chance_deck", "chance_discard")


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

    def finding(self, loc: Loc | None, message: str, fix: str = "") -> Finding:
        """A finding at `loc`'s line, or about the whole file when `loc` is None."""
        if loc is None:
            return Finding(self.doc.name, 0, 0, "scenario", message, fix)
        return self.doc.finding(loc, "scenario", message, fix)

    def error(self, loc: Loc, message: str, fix: str = "") -> ScenarioError:
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


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario and check it against `SCENARIO`; raise ScenarioError with every finding."""
    path = Path(path)
    doc, findings = load_yaml(path)
    if doc is None:
        raise ScenarioError(findings)
    data = doc.data
    players = data.get("players", 4) if isinstance(data, dict) else 4
    valid = isinstance(players, int) and 1 <= players <= len(SEAT_NAMES)
    shape = _Shape(doc, SEAT_NAMES[:players] if valid else SEAT_NAMES)
    shape.check(data, SCENARIO, ())
    if not shape.findings and data.get("deal"):
        shape.findings += [doc.finding((key,), "scenario", f"`deal: true` lets the engine set the "
                                       f"game up; it cannot go with `{key}:`") for key in PLACING
                           if key in data]
    if shape.findings:
        raise ScenarioError(shape.findings)
    return Scenario(path, dict(data["title"]), dict(data["story"]), data, doc, shape.cards)


def _path(loc: Loc) -> str:
    """`seats.A.pairs[0]`: the place in the file, as messages name it."""
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
        if isinstance(t, Int):
            return (isinstance(value, int) and not isinstance(value, bool)
                    and (t.lo is None or t.lo <= value <= t.hi))
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
        return {None: "nothing", str: "text", bool: "true or false",
                SEAT: f"a seat ({self.seats[0]}..{self.seats[-1]})"}[t]


def _game(sc: Scenario) -> Any:
    """The game the scenario names: a built-in game by id, never a path."""
    game_id = sc.data.get("game", "love_formula")
    known = sorted(p.name for p in all_games())
    if game_id not in known:
        raise sc.error(("game",), f"no game {game_id!r} (known: {', '.join(known)})")
    game, _ = load_game(cards_root() / game_id)
    if game is None:
        raise sc.error(("game",), f"the game {game_id!r} does not load",
                       f"run `forge check` on {game_id}")
    return game


def _card_findings(sc: Scenario, game: Any, in_play: dict) -> list[Finding]:
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


def build(sc: Scenario, game: Any = None):
    """Set up the scenario's position; returns the match, ready to play. What needs the game
    (sets, player count, card ids) is checked before the engine is given anything."""
    d = sc.data
    game = game or _game(sc)
    module = ENGINES.get(game.manifest.engine or "")
    if module is None:
        raise sc.error(("game",), f"{game.id} has no rules engine")
    sets = d.get("sets") or ["base"]
    n = d.get("players", 4)
    lo, hi = game.manifest.players.min, game.manifest.players.max
    problems = [sc.finding(("sets", i), f"{game.id} has no set {s!r} (known: "
                           f"{', '.join(game.manifest.sets)})")
                for i, s in enumerate(sets) if s not in game.manifest.sets]
    if not lo <= n <= hi:
        problems.append(sc.finding(("players",), f"{game.id} takes {lo}-{hi} players, not {n}"))
    if problems:
        raise ScenarioError(problems)
    opts = dict(d.get("options") or {})
    if opts.get("promo_replace") == "all":
        opts["promo_replace"] = module.full_replacement(game)
    elif "promo_replace" in opts:
        opts["promo_replace"] = tuple(opts["promo_replace"].items())
    try:
        prep = module.prepare(game, module.Config(sets=tuple(sets), **opts))
    except ValueError as exc:
        raise sc.error(("options",), str(exc)) from None
    problems = _card_findings(sc, game, prep.handles_of)
    if problems:
        raise ScenarioError(problems)
    m = prep.new(n, d.get("seed", 0), log=True, deal=False)
    m.auto = False    # every choice is asked, so scripted actions meet forced ones too
    if d.get("deal"):
        # the engine's own setup from the seed: jobs, goals and VP cards, decks, chance revealer;
        # the first draft is about to begin
        m._setup()
        m.start(0, 0, draft=True)
        return m
    pool = {cid: list(hs) for cid, hs in prep.handles_of.items()}
    for h in prep.boxed:
        pool[prep.cid[h]].remove(h)
        m.box.append(h)

    def take(cid: str, loc: Loc) -> int:
        if not pool[cid]:
            raise sc.error(loc, f"more copies of {cid!r} than the game has")
        return pool[cid].pop(0)

    def take_all(loc: Loc, cids: list[str]) -> list[int]:
        return [take(cid, loc + (i,)) for i, cid in enumerate(cids)]

    P = prep
    for name, spec in (d.get("seats") or {}).items():
        s, at = SEAT_NAMES.index(name), ("seats", name)
        spec = spec or {}
        m.hand[s].extend(take_all(at + ("hand",), spec.get("hand", [])))
        if "job" in spec:
            h = take(spec["job"], at + ("job",))
            m.job_owner[h] = s
            m.hand[s].append(h)
        m.unatt[s].extend(take_all(at + ("unattached",), spec.get("unattached", [])))
        for i, pspec in enumerate(spec.get("pairs", [])):
            pat = at + ("pairs", i)
            pspec = {"pair": pspec} if isinstance(pspec, str) else pspec
            pr = take(pspec["pair"], pat + ("pair",))
            m.pairs[s].append(pr)
            m.att[pr] = []
            m.powner[pr] = s
            for h in take_all(pat + ("attached",), pspec.get("attached", [])):
                m._attach(h, pr)
                if P.type[h] != 0:
                    m.ctrl[h] = s
                    if P.dur[h]:
                        m.tokens[h] = P.dur[h]
            for j, ob in enumerate(pspec.get("obstacles", [])):
                ob = {"card": ob} if isinstance(ob, str) else ob
                h = take(ob["card"], pat + ("obstacles", j))
                m._attach(h, pr)
                m.ctrl[h] = SEAT_NAMES.index(ob["by"]) if "by" in ob else (s + 1) % n
                tokens = ob.get("tokens", P.dur[h])
                if tokens:
                    m.tokens[h] = tokens
        m.banked[s] = spec.get("vp", 0)
    for i, g in enumerate(d.get("goals") or []):
        if "vp" not in g and not (m.p.config.goals_variant == "same"
                                  and m.p.config.goals_same_value):
            raise sc.error(("goals", i), f"goal {g['goal']!r} needs a `vp:` card "
                           "(or the same-VP variant with goals_same_value)")
        m.lay_goal(take(g["goal"], ("goals", i, "goal")),
                   take(g["vp"], ("goals", i, "vp")) if "vp" in g else -1)
    m.goals_on = bool(m.goals)
    m.discard.extend(take_all(("discard",), d.get("discard") or []))
    m.chance_discard.extend(take_all(("chance_discard",), d.get("chance_discard") or []))
    top = take_all(("deck",), d.get("deck") or [])
    chance_top = take_all(("chance_deck",), d.get("chance_deck") or [])
    rest = sorted(h for hs in pool.values() for h in hs)
    m.rng.shuffle(rest)
    for h in rest:
        t = P.type[h]
        if P.is_job[h]:
            m.box.append(h)
        elif t == 6:
            (m.chance_deck if m.chance else m.box).append(h)
        elif t == 7:
            (m.goal_deck if m.goals_on else m.box).append(h)
        elif t == 8:
            (m.vp_deck if m.goals_on else m.box).append(h)
        else:
            m.deck.append(h)
    m.deck.extend(reversed(top))              # the deck is drawn from its end
    m.chance_deck.extend(reversed(chance_top))
    if "revealer" in d:
        m.revealer = SEAT_NAMES.index(d["revealer"])
    start = d.get("start") or {}
    if start.get("score"):
        m.phase, m.round = 1, 9
        m.start(1, 10, draft=False)
    else:
        m.phase, m.round = start.get("phase", 1) - 1, start.get("round", 1) - 1
        m.start(m.phase, m.round, draft=start.get("draft", False))
    return m


def run_scenario(path: str | Path, game: Any = None) -> ScenarioResult:
    """Check, set up, play and assert one scenario file. Never raises for a bad file, a refused
    position or a failing expectation: each is a failure of the result, naming its line."""
    try:
        sc = load_scenario(path)
    except ScenarioError as exc:
        return ScenarioResult(Path(path), {}, {}, False, [str(f) for f in exc.findings])
    res = ScenarioResult(sc.path, sc.title, sc.story, False)

    def fail(loc: Loc | None, message: str) -> None:
        res.failures.append(str(sc.finding(loc, message)))

    try:
        m = build(sc, game)
    except ScenarioError as exc:
        res.failures += [str(f) for f in exc.findings]
        return res
    except Exception as exc:  # the engine refuses the position (an invariant, say)
        fail(None, f"the engine refuses this position: {type(exc).__name__}: {exc}")
        return res
    d, n = sc.data, m.n
    # each seat's queue of (where, action label or check)
    queues: list[list[tuple[Loc, Any]]] = [[] for _ in range(n)]
    for i, step in enumerate(d.get("actions") or []):
        (who, what), = step.items()
        queues[SEAT_NAMES.index(who)].append((("actions", i, who),
                                              what.strip() if isinstance(what, str) else what))
    default = d.get("default", "pass")
    stop = d.get("stop", "game")
    rounds_goal = stop.get("rounds") if isinstance(stop, dict) else None
    drafts_goal = stop.get("drafts") if isinstance(stop, dict) else None
    asked: list[list[str]] = [[] for _ in range(n)]
    last: Loc = ("actions",)      # the scripted line played last, which an engine error names
    guard = 0
    while m.decision is not None:
        if rounds_goal is not None and m.rounds_done >= rounds_goal:
            break
        if drafts_goal is not None and m.drafts_done >= drafts_goal:
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
            while queue and isinstance(queue[0][1], dict) and queue[0][1]["at"] == dec.kind:
                _check(*queue.pop(0), SEAT_NAMES[s], dec, labels, fail)
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
        if queue:
            loc, what = queue[0]
            more = f" (and {len(queue) - 1} line(s) after it)" if len(queue) > 1 else ""
            fail(loc, f"seat {SEAT_NAMES[s]}: {what!r} was never legal, or the check never "
                      f"reached{more}")
    res.log = list(m.log or [])
    res.orders = [[SEAT_NAMES[s] for s in o] for o in m.orders]
    scores = m.result["scores"] if m.result else m.scores()
    res.scores = scores
    _expect(m, d.get("expect") or {}, res, scores, asked, fail)
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


def _ids(m: Any, handles: list[int]) -> Counter:
    return Counter(m.p.cid[h] for h in handles)


def _expect(m: Any, exp: dict, res: ScenarioResult, scores: list[int], asked: list[list[str]],
            fail_at: Any) -> None:
    """Compare the outcome with `expect`; each mismatch is a failure at its key's line."""
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
            got = [SEAT_NAMES[s] for s in m.result["winners"]]
            if sorted(got) != sorted(exp["winners"]):
                fail("winners", f"winners: expected {exp['winners']}, got {got}")
    for name, v in (exp.get("banked") or {}).items():
        if m.banked[seat(name)] != v:
            fail("banked", name, f"banked VP of {name}: expected {v}, got {m.banked[seat(name)]}")
    for name, z in (exp.get("zones") or {}).items():
        s = seat(name)
        if "pairs" in z:
            got = {m.p.cid[pr]: _ids(m, m.att[pr]) for pr in m.pairs[s]}
            want = {k: Counter(v or []) for k, v in z["pairs"].items()}
            if got != want:
                fail("zones", name, "pairs", f"{name} pairs: expected {_show_ids(want)}, "
                                             f"got {_show_ids(got)}")
        for key, attr in (("unattached", "unatt"), ("hand", "hand")):
            if key in z:
                got = _ids(m, getattr(m, attr)[s])
                if got != Counter(z[key]):
                    fail("zones", name, key, f"{name} {key}: expected {sorted(z[key])}, "
                                             f"got {sorted(got.elements())}")
        if "hand_size" in z and len(m.hand[s]) != z["hand_size"]:
            fail("zones", name, "hand_size", f"{name} hand size: expected {z['hand_size']}, "
                                             f"got {len(m.hand[s])}")
        if "job" in z:
            jobs = [h for h in m.hand[s] if m.p.is_job[h]]
            if m.job_aside[s] >= 0:
                jobs.append(m.job_aside[s])
            got = [m.p.cid[h] for h in jobs]
            if got != ([z["job"]] if z["job"] else []):
                fail("zones", name, "job", f"{name} job: expected {z['job']}, got {got}")
    if "discard" in exp:
        have = _ids(m, m.discard)
        for i, cid in enumerate(exp["discard"]):
            if have[cid] <= 0:
                fail("discard", i, f"discard: {cid} is not in the discard pile")
            have[cid] -= 1
    if "not_discarded" in exp:
        have = _ids(m, m.discard)
        for i, cid in enumerate(exp["not_discarded"]):
            if have[cid]:
                fail("not_discarded", i, f"discard: {cid} should not be in the discard pile")
    for gid, who in (exp.get("goals") or {}).items():
        got = [sorted(SEAT_NAMES[s] for s in m.goal_claimed[i])
               for i, g in enumerate(m.goals) if m.p.cid[g] == gid]
        if not got:
            fail("goals", gid, f"goal {gid} is not in play")
        elif got[0] != sorted(who or []):
            fail("goals", gid, f"goal {gid}: expected {sorted(who or [])}, got {got[0]}")
    for cid, t in (exp.get("tokens") or {}).items():
        got = [m.tokens[h] for h in m.tokens if m.p.cid[h] == cid]
        if got != ([t] if t else []):
            fail("tokens", cid, f"tokens on {cid}: expected {t}, got {got or 0}")
    if "over" in exp and bool(m.result) != exp["over"]:
        fail("over", f"game over: expected {exp['over']}, got {bool(m.result)}")
    for name, kinds in (exp.get("asked") or {}).items():
        if asked[seat(name)] != kinds:
            fail("asked", name, f"{name} was asked {asked[seat(name)]}, expected {kinds}")
    if "box" in exp:
        got, want = _ids(m, m.box), Counter(exp["box"])
        if got != want:
            fail("box", f"box: expected {sorted(want.elements())}, got {sorted(got.elements())}")
    for zone, size in (exp.get("sizes") or {}).items():
        if len(getattr(m, zone)) != size:
            fail("sizes", zone, f"size of {zone}: expected {size}, got {len(getattr(m, zone))}")
    if "goal_table" in exp:
        P = m.p
        got = {"first": sum(1 for g in m.goals if P.goal[g][0] == "first"),
               "end": sum(1 for g in m.goals if P.goal[g][0] == "end"),
               "vp_cards": len(m.goal_vp), "face_up": sum(m.goal_open),
               "values": sorted(m.goal_value)}
        for key, want in exp["goal_table"].items():
            want = sorted(want) if key == "values" else want
            if got[key] != want:
                fail("goal_table", key, f"goal table {key}: expected {want}, got {got[key]}")
    for gid, up in (exp.get("vp_face_up") or {}).items():
        got = [m.goal_open[i] for i, g in enumerate(m.goals) if m.p.cid[g] == gid]
        if not got:
            fail("vp_face_up", gid, f"goal {gid} is not in play")
        elif got[0] != up:
            fail("vp_face_up", gid, f"VP card under {gid}: expected face "
                                    f"{'up' if up else 'down'}, got face {'up' if got[0] else 'down'}")


def _show_ids(d: dict) -> str:
    return "{" + ", ".join(f"{k}: {sorted(v.elements())}" for k, v in sorted(d.items())) + "}"
