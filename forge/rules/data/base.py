"""The base of the `rules:` compiler (`compile.Rules`): what a match's tables are made of (zones,
counters, actions), findings at the rules' file:line:col, and the names expressions and effects
refer to (counters, zones, card fields), each resolved once into a closure."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...errors import Finding
from ...load import Document
from .expr import BOOL, INT, WORD, ExprError, Scope, compile_expr, _player
from .shapes import SHAPES


#: A `repeat` runs its body at most this many times, however large its count; nested repeats
#: and every loop of the flow also count against the match's work cap (`Option` `cap`).
MAX_REPEAT = 1000
#: The defaults of the work cap (`Option` `cap`: actions and loop rounds) and of the budget
#: (`Option` `budget`: cards visited by scans and moves, statements run, `RulesMatch.spend`).
#: An action or loop round may cost up to players x cards^2 card visits (a `where` in a
#: `where`), so the cap alone does not bound a game's time; the budget does. The examples
#: spend well under 100,000 per game; 20,000,000 is some seconds of CPU at the worst.
CAP = 100_000
BUDGET = 20_000_000
#: How deep cards may resolve one another (`resolve` in a body): a card whose body resolves the
#: card on top of a pile it stays on would resolve itself without end; past this depth the match
#: stops as if capped (a timeout), far below Python's recursion limit.
MAX_RESOLVE = 50
#: A counter's bounds, and any count written in the rules.
MAX_VALUE = 1_000_000_000
VISIBILITY = ("hidden", "owner", "public")


class GameOver(Exception):
    """An end condition holds (or the work cap is reached): the flow stops, the match finishes."""

    def __init__(self, capped: bool = False):
        super().__init__()
        self.capped = capped


@dataclass
class Zone:
    name: str
    index: int
    per_player: bool
    visibility: str
    limit: int | None
    restock: int | None = None      # index of the global zone refilled from, or None
    keep: int = 0                   # cards left on top of it


@dataclass
class Counter:
    name: str
    index: int
    per_player: bool
    start: Any
    lo: int = -MAX_VALUE
    hi: int = MAX_VALUE
    values: tuple[str, ...] = ()    # a word counter's words

    @property
    def kind(self) -> str:
        return WORD if self.values else INT


@dataclass
class Action:
    name: str
    step: str
    source: Callable | None          # zone of the cards it plays, or None
    cond: Callable | None
    cost: list[tuple[Callable, Callable]]  # (counter slot getter, amount f(m, s, card))
    to: Callable | None
    body: Callable
    gen: bool


_NOOP = (lambda m, s, c: None, False)


class Compiler:
    """Findings and names; `effects.Effects`, `flow.FlowBlocks` and `compile.Rules` build on it."""

    def __init__(self, game: Any, doc: Document, base: tuple, handles: list[Any]):
        self.game, self.doc, self.base = game, doc, base
        self.findings: list[Finding] = []
        self.consts: dict = {}
        self.used: set[str] = set()
        self.handles = handles             # handle -> card model
        self.zones: dict[str, Zone] = {}
        self.counters: dict[str, Counter] = {}
        self.defs: dict[str, tuple[str, Callable]] = {}
        self.def_loops: dict[str, int] = {}     # how deep each definition's loops nest
        self.def_cost: dict[str, int] = {}      # what one evaluation of each costs (`Scope.cost`)
        self.actions: dict[str, Action] = {}
        self.steps: dict[str, list[Action]] = {}
        self.ops: dict[str, tuple[Any, Any]] = {}      # name -> (body data, loc)
        self.op_cache: dict[tuple, tuple[Callable, bool]] = {}
        self._compiling: list[str] = []
        self.tables: dict[str, list] = {}
        self.effects: list[tuple] = []     # handle -> ((fn, gen), ...) of its own effects
        self.named_steps: set[str] = set()
        self.has_end = False
        self._expiring: list[tuple[Zone, Any, tuple]] = []
        #: (zone, rounds a card lasts there, where it goes then): cards that last N rounds.
        self.expiry: list[tuple[Zone, Callable, Callable]] = []
        self.setup: tuple[Callable, bool] = _NOOP
        self.flow: Callable | None = None
        self.end: list[Callable] = []
        self.score: Callable = lambda m, s, c: 0
        self.tiebreak: list[Callable] = []


    # ------------------------------------------------------------------ findings
    def error(self, loc: tuple, message: str, code: str = "rules") -> None:
        self.findings.append(self.doc.finding(self.base + tuple(loc), code, message))

    def keys(self, spec: dict, shape: str, loc: tuple, where: str = "") -> None:
        """A key of ``spec`` that the construct ``shape`` has not (`shapes.SHAPES`) is a finding."""
        known = SHAPES[shape]
        for key in spec:
            if key not in known:
                self.error((*loc, key), f"unknown key {key!r}{where} (known: {', '.join(known)})")

    def mapping(self, data: Any, loc: tuple) -> dict:
        if data is None:
            return {}
        if not isinstance(data, dict):
            self.error(loc, f"{loc[-1]}: expected a mapping")
            return {}
        return data

    def expr(self, text: Any, loc: tuple, want: str | None = None,
             consts: dict | None = None) -> tuple[str, Callable] | None:
        scope = Scope(self, consts)
        try:
            got = compile_expr(text, scope, want)
        except ExprError as exc:
            self.error(loc, f"{exc} (in {str(text)[:60]!r})", "rules-expr")
            return None
        if consts is not None:
            self.used |= scope.used
        if loc[:1] == ("defs",):
            self.def_loops[loc[1]] = scope.loops
            self.def_cost[loc[1]] = scope.cost
        got[1].cost = scope.cost     # type: ignore[attr-defined]  # what a step's offer charges
        return got

    def number(self, value: Any, loc: tuple, lo: int = 0, hi: int = MAX_VALUE) -> int | None:
        if type(value) is not int or not lo <= value <= hi:
            self.error(loc, f"expected a whole number from {lo} to {hi:,}, got {str(value)[:30]!r}")
            return None
        return value

    # ------------------------------------------------------------------ names (for expr.py)
    def counter_ref(self, name: str, player: Callable | None, at: int) -> tuple[str, Callable]:
        ctr = self.counters.get(name)
        if ctr is None:
            raise ExprError(f"unknown name {name!r} (counters: {', '.join(self.counters) or 'none'}"
                            f"; definitions: {', '.join(self.defs) or 'none'})", at)
        k = ctr.index
        if not ctr.per_player:
            if player is not None:
                raise ExprError(f"{name!r} is a counter of the game, not of a player", at)
            f = lambda m, s, c: m.gc[k]   # noqa: E731
            f.gk = k                      # type: ignore[attr-defined]
        elif player is None:
            f = lambda m, s, c: m.pc[k][s]   # noqa: E731
        else:
            f = lambda m, s, c: m.pc[k][player(m, s)]   # noqa: E731
        return ctr.kind, _words(f, ctr.values)

    def zone_ref(self, name: str, who: str | None, many: bool, at: int,
                 player: Callable | None) -> tuple[bool, Callable]:
        z = self.zones.get(name)
        if z is None:
            raise ExprError(f"unknown zone {name!r} (zones: {', '.join(self.zones) or 'none'})", at)
        k = z.index
        if not z.per_player:
            if many or player is not None:
                raise ExprError(f"{name!r} is a zone of the game, not of each player", at)
            return False, lambda m, s: m.gz[k]
        if many:
            return True, lambda m, s: m.pz[k]
        if player is None:
            return False, lambda m, s: m.pz[k][s]
        return False, lambda m, s: m.pz[k][player(m, s)]

    def field_kind(self, name: str) -> tuple[str, tuple[str, ...]] | None:
        """The kind of a card field, and the words it may hold (an enum's values; the card
        ids, types and subtypes), or None when no card type has it."""
        types = self.game.manifest.card_types
        if name in ("id", "type", "subtype"):
            words = (tuple(c.id for c in self.game.cards) if name == "id" else tuple(types)
                     if name == "type" else tuple(k for t in types.values() for k in t.subtypes))
            return WORD, words
        for spec in types.values():
            f = spec.fields.get(name)
            if f is not None:
                return {"int": INT, "bool": BOOL}.get(f.type, WORD), tuple(f.values or ())
        return None

    def table(self, name: str) -> list:
        """The field's value on each handle, and at index -1 (no card, as `top` of an empty
        zone gives) nothing: None for a word, 0 for a number, false for a truth value, so a
        comparison never meets a value of another kind (a card without the field likewise)."""
        if name not in self.tables:
            got = self.field_kind(name)
            blank = {INT: 0, BOOL: False}.get(got[0] if got else WORD)
            self.tables[name] = [_or_blank(getattr(c, name, None), blank)
                                 for c in self.handles] + [blank]
        return self.tables[name]

    def field_ref(self, name: str, card: Callable | None, at: int) -> tuple[str, Callable]:
        """A card's field: the card in focus (``card`` None) or the one ``card`` gives."""
        got = self.field_kind(name)
        if got is None:
            raise ExprError(f"no card type has a field {name!r}", at)
        kind, words = got
        t = self.table(name)
        if card is None:
            f = lambda m, s, c: t[c]   # noqa: E731
            f.table = t                # type: ignore[attr-defined]
            return kind, _words(f, words)
        return kind, _words(lambda m, s, c: t[card(m, s, c)], words)

    # ------------------------------------------------------------------ argument helpers
    def zone_arg(self, text: Any, loc: tuple, who: Callable | None = None) -> Callable | None:
        """A zone named in an effect: `deck`, `hand` (the acting player's), `next.hand`."""
        if not isinstance(text, str):
            self.error(loc, "expected a zone name")
            return None
        owner, _, name = text.rpartition(".")
        player = None
        if owner:
            if owner not in ("me", "next", "prev", "target"):
                self.error(loc, f"{owner!r} is not a player (me, next, prev, target)")
                return None
            player = _player(owner)
        if player is None and who is not None and name in self.zones and self.zones[name].per_player:
            player = who                  # `who:` names the owner of the players' zones only
        try:
            many, f = self.zone_ref(name, owner or None, False, 0, player)
        except ExprError as exc:
            self.error(loc, str(exc))
            return None
        return f

    def zone_of(self, text: Any) -> Zone | None:
        return self.zones.get(text.rpartition(".")[2]) if isinstance(text, str) else None

    def slot(self, ctr: Counter, player: Callable | None) -> Callable:
        """f(m, s) -> (list, index) where the counter's value lives."""
        k = ctr.index
        if not ctr.per_player:
            return lambda m, s: (m.gc, k)
        if player is None:
            return lambda m, s: (m.pc[k], s)
        return lambda m, s: (m.pc[k], player(m, s))

    def who(self, spec: dict, loc: tuple) -> Callable | None:
        w = spec.get("who", "me")
        if w not in ("me", "next", "prev", "target"):
            self.error((*loc, "who"), "who: me, next, prev or target")
            return None
        return None if w == "me" else _player(w)

    def value(self, spec: Any, loc: tuple, want: str = INT) -> Callable | None:
        got = self.expr(spec, loc, want, self.consts)
        return got[1] if got else None


def _or_blank(value: Any, blank: Any) -> Any:
    return blank if value is None else value


def _words(f: Callable, words: tuple[str, ...]) -> Callable:
    """``f``, marked with the words it can give, so a comparison with any other is a finding."""
    if words:
        f.words = words   # type: ignore[attr-defined]
    return f
