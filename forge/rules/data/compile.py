"""`rules:` compiled: the vocabulary read once into tables and closures, and checked as it is read.

Checking and compiling are one pass: each construct is compiled where it stands, and what does
not compile is a finding at its file:line:col (an unknown zone, counter, field, operation or card;
an expression that does not parse or has the wrong type; an effect body that reads a parameter
its operation does not declare, or never reads one it does; a step no flow block reaches, an
action in a step nothing names; a game with no end). `Rules` then holds what a match runs: the
zone and counter tables, the setup, the flow and the actions as closures (docs/rules.md).

Effects compile to ``f(m, s, c)`` (the match, the acting seat, the card in focus); those that can
ask a seat or resolve chance are generators (``yield from f(m, s, c)``), the others plain calls,
and a block is a plain function unless one of its statements is a generator.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ...errors import Finding
from ...load import Document
from .expr import BOOL, INT, WORD, ExprError, Scope, compile_expr, _player

#: A `repeat` runs its body at most this many times, however large its count; nested repeats
#: and every loop of the flow also count against the match's work cap (`Option` `cap`).
MAX_REPEAT = 1000
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
    cost: list[tuple[Callable, int]]  # (counter slot getter, amount)
    to: Callable | None
    body: Callable
    gen: bool


_NOOP = (lambda m, s, c: None, False)


class Rules:
    """One game's rules, compiled for the cards in play, ``handles`` (handle -> card model);
    ``findings`` holds what did not compile, at ``doc``'s lines (under ``base``)."""

    def __init__(self, game: Any, doc: Document, base: tuple, data: Any, handles: list[Any]):
        self.game, self.doc, self.base = game, doc, base
        self.findings: list[Finding] = []
        self.consts: dict = {}
        self.used: set[str] = set()
        self.handles = handles             # handle -> card model
        self.zones: dict[str, Zone] = {}
        self.counters: dict[str, Counter] = {}
        self.defs: dict[str, tuple[str, Callable]] = {}
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
        if not isinstance(data, dict):
            self.error((), "rules: expected a mapping (zones, counters, setup, flow, actions, "
                       "effects, end)")
            return
        known = ("zones", "counters", "defs", "setup", "flow", "actions", "effects", "end")
        for key in data:
            if key not in known:
                self.error((key,), f"unknown key {key!r} in rules (known: {', '.join(known)})")
        self.read_zones(data.get("zones"))
        self.read_counters(data.get("counters"))
        for name, text in self.mapping(data.get("defs"), ("defs",)).items():
            got = self.expr(text, ("defs", name))
            if got is not None:
                self.defs[name] = got
        self.read_expiry()
        self.read_ops(data.get("effects"))
        self.effects = [self.card_effects(card) for card in handles]
        self.setup = self.block(data.get("setup") or [], ("setup",))
        self.read_actions(data.get("actions"))
        self.read_end(data.get("end"))
        flow = data.get("flow")
        if flow is None:
            self.error((), "rules: no `flow:` (the rounds, turns and steps of play)")
        else:
            self.flow = self.flow_block(flow, ("flow",))
        for name, acts in self.steps.items():
            if name not in self.named_steps:
                for a in acts:
                    self.error(("actions", a.name, "step"), f"step {name!r} is never reached: no "
                               "flow block names it (`step:` or `together:`), so this action "
                               "can never be taken")
        if not self.has_end:
            self.error(("end",) if "end" in data else (), "the game has no end: give `end: when:` "
                       "a condition, or a flow loop a `count:` or `until:`")

    # ------------------------------------------------------------------ findings
    def error(self, loc: tuple, message: str, code: str = "rules") -> None:
        self.findings.append(self.doc.finding(self.base + tuple(loc), code, message))

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
        """The field's value on each handle, and None at index -1 (no card)."""
        if name not in self.tables:
            self.tables[name] = [getattr(c, name, None) for c in self.handles] + [None]
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

    # ------------------------------------------------------------------ declarations
    def read_zones(self, data: Any) -> None:
        zones = self.mapping(data, ("zones",))
        if not zones:
            self.error(("zones",) if data is not None else (), "rules: no `zones:` (every card "
                       "in play starts in the first zone listed)")
        gi = pi = 0
        restocks: list[tuple[Zone, Any, tuple]] = []
        for name, spec in zones.items():
            loc = ("zones", name)
            spec = self.mapping(spec, loc)
            for key in spec:
                if key not in ("per", "visibility", "limit", "restock", "expire"):
                    self.error((*loc, key), f"unknown key {key!r} (known: per, visibility, limit, "
                               "restock, expire)")
            per = spec.get("per", "game")
            if per not in ("game", "player"):
                self.error((*loc, "per"), "per: `game` (one zone) or `player` (one each)")
            vis = spec.get("visibility", "public")
            if vis not in VISIBILITY:
                self.error((*loc, "visibility"), f"visibility: one of {', '.join(VISIBILITY)}")
            limit = spec.get("limit")
            if limit is not None:
                limit = self.number(limit, (*loc, "limit"), 0, 100_000)
            z = Zone(name, pi if per == "player" else gi, per == "player", vis, limit)
            if per == "player":
                pi += 1
            else:
                gi += 1
            self.zones[name] = z
            if "restock" in spec:
                restocks.append((z, spec["restock"], (*loc, "restock")))
            if "expire" in spec:
                self._expiring.append((z, spec["expire"], (*loc, "expire")))
        for z, spec, loc in restocks:
            spec = self.mapping(spec, loc)
            src = self.zones.get(spec.get("from", ""))
            if src is None or src.per_player or z.per_player:
                self.error(loc, "restock: {from: ZONE, keep: N} refills a zone of the game from "
                           "another zone of the game")
                continue
            z.restock = src.index
            z.keep = self.number(spec.get("keep", 0), (*loc, "keep"), 0, 1000) or 0
        self.n_global, self.n_player = gi, pi
        self.zone_list = list(self.zones.values())

    def read_counters(self, data: Any) -> None:
        gi = pi = 0
        for name, spec in self.mapping(data, ("counters",)).items():
            loc = ("counters", name)
            if name in self.zones:
                self.error(loc, f"{name!r} is a zone already")
            spec = self.mapping(spec, loc)
            for key in spec:
                if key not in ("per", "start", "min", "max", "values"):
                    self.error((*loc, key), f"unknown key {key!r} (known: per, start, min, max, values)")
            per = spec.get("per", "game")
            if per not in ("game", "player"):
                self.error((*loc, "per"), "per: `game` (one counter) or `player` (one each)")
            values = spec.get("values") or ()
            if values and not (isinstance(values, list) and all(isinstance(v, str) for v in values)):
                self.error((*loc, "values"), "values: a list of words")
                values = ()
            lo = self.number(spec.get("min", -MAX_VALUE), (*loc, "min"), -MAX_VALUE) or 0 \
                if "min" in spec else -MAX_VALUE
            hi = self.number(spec.get("max", MAX_VALUE), (*loc, "max"), -MAX_VALUE) \
                if "max" in spec else MAX_VALUE
            hi = MAX_VALUE if hi is None else hi
            start = spec.get("start", values[0] if values else max(lo, min(0, hi)))
            if values and start not in values:
                self.error((*loc, "start"), f"start: one of {', '.join(values)}")
            elif not values and (type(start) is not int or not lo <= start <= hi):
                self.error((*loc, "start"), f"start: a whole number from {lo} to {hi}")
            ctr = Counter(name, pi if per == "player" else gi, per == "player", start, lo, hi,
                          tuple(values))
            if per == "player":
                pi += 1
            else:
                gi += 1
            self.counters[name] = ctr
        self.counter_list = list(self.counters.values())

    def read_expiry(self) -> None:
        """`expire: {after: EXPR, to: ZONE}`: at the end of each round, a card that has been in
        the zone for `after` rounds (the round it came included; `card` is the card) moves on."""
        for z, spec, loc in self._expiring:
            spec = self.mapping(spec, loc)
            after = self.value(spec.get("after", 1), (*loc, "after"))
            to = self.zone_arg(spec.get("to"), (*loc, "to"))
            if after is not None and to is not None:
                self.expiry.append((z, after, to))

    def read_ops(self, data: Any) -> None:
        declared = self.game.manifest.operations
        for name, body in self.mapping(data, ("effects",)).items():
            if name not in declared:
                self.error(("effects", name), f"{name!r} is not an operation the manifest "
                           f"declares (operations: {', '.join(declared) or 'none'})")
                continue
            self.ops[name] = (body, ("effects", name))
        for name, spec in declared.items():   # each body checked once, its params as placeholders
            if name not in self.ops:
                continue
            for p, ps in spec.params.items():
                if ps.type in ("list", "object", "effects"):
                    self.error(("effects", name), f"{name!r}: a body reads whole numbers, words and "
                               f"truth values; its parameter {p!r} is a {ps.type}", "rules-params")
            consts = {p: (self.param_kind(ps), self.placeholder(ps)) for p, ps in spec.params.items()}
            self.used = set()
            self.op_body(name, consts)
            for p in spec.params:
                if p not in self.used:
                    self.error(("effects", name), f"the body of {name!r} never reads its "
                               f"parameter {p!r}", "rules-params")

    @staticmethod
    def param_kind(spec: Any) -> str:
        return {"int": INT, "bool": BOOL}.get(spec.type, WORD)

    def arg(self, args: dict, name: str, spec: Any) -> Any:
        """A card's value of a parameter: given, else its default, else the placeholder (an
        optional parameter left out never reaches an expression as None)."""
        v = args.get(name)
        if v is None:
            v = spec.default if spec.default is not None else self.placeholder(spec)
        return v

    @staticmethod
    def placeholder(spec: Any) -> Any:
        return {"int": spec.min or 0, "bool": False}.get(spec.type, (spec.values or ("",))[0])

    def op_body(self, name: str, consts: dict) -> tuple[Callable, bool]:
        key = (name, repr(sorted((k, v[1]) for k, v in consts.items())))
        if key in self.op_cache:
            return self.op_cache[key]
        if name in self._compiling:
            self.error(self.ops[name][1], f"operation {name!r} calls itself (through "
                       f"{' -> '.join(self._compiling)}): effects may not recurse")
            return _NOOP
        self._compiling.append(name)
        body, loc = self.ops[name]
        self.consts = consts
        got = self.block(body, loc)
        self._compiling.pop()
        self.op_cache[key] = got
        return got

    def card_effects(self, card: Any) -> tuple:
        out = []
        for op in card.effects:
            if op.name not in self.ops:
                continue       # check_engine reports an operation without a body
            spec = self.game.manifest.operations[op.name]
            args = op.args()
            saved = self.consts
            self.used = set()
            out.append(self.op_body(op.name, {p: (self.param_kind(ps), self.arg(args, p, ps))
                                              for p, ps in spec.params.items()}))
            self.consts = saved
        return tuple(out)

    def read_actions(self, data: Any) -> None:
        for name, spec in self.mapping(data, ("actions",)).items():
            loc = ("actions", name)
            spec = self.mapping(spec, loc)
            for key in spec:
                if key not in ("step", "from", "if", "cost", "to", "do"):
                    self.error((*loc, key), f"unknown key {key!r} (known: step, from, if, cost, to, do)")
            step = spec.get("step")
            if not isinstance(step, str):
                self.error(loc, "an action names its `step:`")
                continue
            self.consts = {}
            source = to = None
            if "from" in spec:
                source = self.zone_arg(spec["from"], (*loc, "from"))
            if "to" in spec:
                if source is None:
                    self.error((*loc, "to"), "`to:` moves the card played: give `from:` too")
                to = self.zone_arg(spec["to"], (*loc, "to"))
            cond = None
            if "if" in spec:
                got = self.expr(spec["if"], (*loc, "if"), BOOL)
                cond = got[1] if got else None
                if getattr(cond, "const", True) is False:
                    self.error((*loc, "if"), f"action {name!r} can never be taken: its "
                               "condition is always false")
            cost = []
            for cname, amount in self.mapping(spec.get("cost"), (*loc, "cost")).items():
                ctr = self.counters.get(cname)
                n = self.number(amount, (*loc, "cost", cname), 0)
                if ctr is None or ctr.values:
                    self.error((*loc, "cost", cname), f"cost: {cname!r} is not a number counter")
                elif n is not None:
                    cost.append((self.slot(ctr, None), n))
            body, gen = self.block(spec.get("do") or [], (*loc, "do"))
            a = Action(name, step, source, cond, cost, to, body, gen)
            self.actions[name] = a
            self.steps.setdefault(step, []).append(a)

    def read_end(self, data: Any) -> None:
        spec = self.mapping(data, ("end",))
        for key in spec:
            if key not in ("when", "score", "tiebreak"):
                self.error(("end", key), f"unknown key {key!r} (known: when, score, tiebreak)")
        self.consts = {}
        when = spec.get("when") or []
        for i, text in enumerate(when if isinstance(when, list) else [when]):
            got = self.expr(text, ("end", "when", i) if isinstance(when, list) else ("end", "when"), BOOL)
            if got:
                self.end.append(got[1])
                self.has_end = True
        if "score" in spec:
            got = self.expr(spec["score"], ("end", "score"), INT)
            if got:
                self.score = got[1]
        tb = spec.get("tiebreak") or []
        for i, text in enumerate(tb if isinstance(tb, list) else [tb]):
            got = self.expr(text, ("end", "tiebreak", i), INT)
            if got:
                self.tiebreak.append(got[1])

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

    # ------------------------------------------------------------------ effects
    def block(self, data: Any, loc: tuple) -> tuple[Callable, bool]:
        if not isinstance(data, list):
            data = [data]
            single = True
        else:
            single = False
        parts = [self.statement(st, loc if single else (*loc, i)) for i, st in enumerate(data)]
        if not parts:
            return _NOOP
        if len(parts) == 1:
            return parts[0]
        if not any(g for _, g in parts):
            fns = [f for f, _ in parts]

            def run(m: Any, s: int, c: int) -> None:
                for f in fns:
                    f(m, s, c)
            return run, False
        steps = parts

        def run_gen(m: Any, s: int, c: int) -> Iterator:
            for f, g in steps:
                if g:
                    yield from f(m, s, c)
                else:
                    f(m, s, c)
        return run_gen, True

    def statement(self, st: Any, loc: tuple) -> tuple[Callable, bool]:
        if isinstance(st, str):
            key, arg = st, None
        elif isinstance(st, dict) and "if" in st:
            return self.st_if(st, loc)
        elif isinstance(st, dict) and len(st) == 1:
            key, arg = next(iter(st.items()))
        else:
            self.error(loc, "an effect is one primitive: `reverse` or `{move: {...}}`")
            return _NOOP
        fn = getattr(self, f"st_{key}", None) if isinstance(key, str) and key.isidentifier() else None
        if fn is not None:
            return fn(arg if arg is not None else {}, (*loc, key) if arg is not None else loc)
        if key in self.ops:
            return self.st_call(key, arg, loc)
        self.error(loc, f"unknown effect {key!r} (primitives: {', '.join(PRIMITIVES)}; operations "
                   f"with a body: {', '.join(self.ops) or 'none'})")
        return _NOOP

    def st_call(self, name: str, arg: Any, loc: tuple) -> tuple[Callable, bool]:
        spec = self.game.manifest.operations[name]
        args = self.mapping(arg, loc)
        consts = {}
        for p, ps in spec.params.items():
            if p not in args:
                self.error(loc, f"{name}: missing parameter {p!r}")
                return _NOOP
            consts[p] = (self.param_kind(ps), args[p])
        saved, used = self.consts, self.used
        got = self.op_body(name, consts)
        self.consts, self.used = saved, used
        return got

    def st_move(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        spec = self.mapping(spec, loc)
        for key in spec:
            if key not in ("from", "to", "count", "all", "card", "who"):
                self.error((*loc, key), f"unknown key {key!r} (known: from, to, count, all, card, who)")
        who = self.who(spec, loc)
        src = self.zone_arg(spec.get("from"), (*loc, "from"), who)
        dst = self.zone_arg(spec.get("to"), (*loc, "to"), who)
        if src is None or dst is None:
            return _NOOP
        zsrc, zdst = self.zone_of(spec["from"]), self.zone_of(spec["to"])
        limit = zdst.limit if zdst else None
        if spec.get("card"):
            def move_card(m: Any, s: int, c: int) -> None:
                zl = src(m, s)
                if c in zl and (limit is None or len(dst(m, s)) < limit):
                    zl.remove(c)
                    dst(m, s).append(c)
            return move_card, False
        count = None if spec.get("all") else self.value(spec.get("count", 1), (*loc, "count"))
        restock = zsrc.restock if zsrc is not None else None
        keep = zsrc.keep if zsrc is not None else 0

        def move(m: Any, s: int, c: int) -> None:
            a, b = src(m, s), dst(m, s)
            n = len(a) if count is None else min(count(m, s, c), MAX_REPEAT)
            for _ in range(n):
                if not a:
                    if restock is None or not m.restock(a, restock, keep):
                        return
                if limit is not None and len(b) >= limit:
                    return
                b.append(a.pop())
        return move, False

    def st_deal(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        spec = self.mapping(spec, loc)
        move, _ = self.st_move({"from": spec.get("from"), "to": spec.get("to"),
                                "count": spec.get("count", 1)}, loc)

        def deal(m: Any, s: int, c: int) -> None:
            for i in range(m.n):
                move(m, (m.cur + i * m.dir) % m.n, c)
        return deal, False

    def st_shuffle(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        z = self.zone_arg(spec, loc)
        if z is None:
            return _NOOP
        return (lambda m, s, c: m.shuffle_cards(z(m, s))), False

    def st_gain(self, spec: Any, loc: tuple, sign: int = 1) -> tuple[Callable, bool]:
        spec = self.mapping(spec, loc)
        ctr = self.counters.get(spec.get("counter", ""))
        if ctr is None or ctr.values:
            self.error(loc, f"{loc[-1]}: {{counter: NAME, amount: N}} names a number counter "
                       f"(counters: {', '.join(self.counters) or 'none'})")
            return _NOOP
        amount = self.value(spec.get("amount", 1), (*loc, "amount"))
        where = self.slot(ctr, self.who(spec, loc))
        lo, hi = ctr.lo, ctr.hi
        if amount is None:
            return _NOOP

        def gain(m: Any, s: int, c: int) -> None:
            vals, i = where(m, s)
            vals[i] = max(lo, min(hi, vals[i] + sign * amount(m, s, c)))
        return gain, False

    def st_lose(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        return self.st_gain(spec, loc, -1)

    def st_set(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        spec = self.mapping(spec, loc)
        ctr = self.counters.get(spec.get("counter", ""))
        if ctr is None:
            self.error(loc, f"set: {{counter: NAME, to: VALUE}} names a counter (counters: "
                       f"{', '.join(self.counters) or 'none'})")
            return _NOOP
        value = self.value(spec.get("to"), (*loc, "to"), ctr.kind)
        where = self.slot(ctr, self.who(spec, loc))
        if value is None:
            return _NOOP
        if ctr.values:
            words = set(ctr.values)
            if hasattr(value, "const") and value.const not in words:
                self.error((*loc, "to"), f"{value.const!r} is not a value of {ctr.name} "
                           f"({', '.join(ctr.values)})")

            def set_word(m: Any, s: int, c: int) -> None:
                v = value(m, s, c)
                if v in words:
                    vals, i = where(m, s)
                    vals[i] = v
            return set_word, False
        lo, hi = ctr.lo, ctr.hi

        def set_number(m: Any, s: int, c: int) -> None:
            vals, i = where(m, s)
            vals[i] = max(lo, min(hi, value(m, s, c)))
        return set_number, False

    def st_choose(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        spec = self.mapping(spec, loc)
        ctr = self.counters.get(spec.get("counter", ""))
        if ctr is None or not ctr.values:
            self.error(loc, "choose: {counter: NAME, from: [words]} names a word counter")
            return _NOOP
        words = spec.get("from", list(ctr.values))
        if not isinstance(words, list) or not words or any(w not in ctr.values for w in words):
            self.error((*loc, "from"), f"from: a list of {ctr.name}'s words ({', '.join(ctr.values)})")
            return _NOOP
        options = [("choose", w) for w in words]
        where = self.slot(ctr, None)
        kind = f"choose_{ctr.name}"

        def choose(m: Any, s: int, c: int) -> Iterator:
            got = yield from m.ask(kind, s, options)
            vals, i = where(m, s)
            vals[i] = got[1]
        return choose, True

    def st_choose_card(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        """The player picks one card of a zone (for which `where` holds); `do` runs with it in
        focus. No card to pick: nothing happens."""
        spec = self.mapping(spec, loc)
        for key in spec:
            if key not in ("from", "where", "do", "who"):
                self.error((*loc, key), f"unknown key {key!r} (known: from, where, do, who)")
        z = self.zone_arg(spec.get("from"), (*loc, "from"), self.who(spec, loc))
        where = self.value(spec["where"], (*loc, "where"), BOOL) if "where" in spec else None
        body, gen = self.block(spec.get("do") or [], (*loc, "do"))
        if z is None:
            return _NOOP

        def choose_card(m: Any, s: int, c: int) -> Iterator:
            opts = [("pick", h) for h in z(m, s) if where is None or where(m, s, h)]
            if not opts:
                return
            got = yield from m.ask("choose_card", s, opts)
            if gen:
                yield from body(m, s, got[1])
            else:
                body(m, s, got[1])
        return choose_card, True

    def st_choose_player(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        spec = self.mapping(spec, loc)
        others = bool(spec.get("others", True))

        def choose_player(m: Any, s: int, c: int) -> Iterator:
            seats = [p for p in range(m.n) if not (others and p == s)]
            got = yield from m.ask("choose_player", s, [("target", p) for p in seats])
            m.target = got[1]
        return choose_player, True

    def st_roll(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        """A die into a number counter, or one of some words (at random) into a word counter."""
        spec = self.mapping(spec, loc)
        ctr = self.counters.get(spec.get("counter", ""))
        if ctr is not None and ctr.values:
            words = spec.get("from", list(ctr.values))
            if not isinstance(words, list) or not words or any(w not in ctr.values for w in words):
                self.error((*loc, "from"), f"from: a list of {ctr.name}'s words")
                return _NOOP
            where = self.slot(ctr, None)
            kind = ctr.name

            def draw_word(m: Any, s: int, c: int) -> Iterator:
                v = yield from m.roll(kind, words)
                vals, i = where(m, s)
                vals[i] = v
            return draw_word, True
        sides = self.number(spec.get("sides", 6), (*loc, "sides"), 2, 1000)
        if ctr is None or sides is None:
            self.error(loc, "roll: {sides: N, counter: NAME} puts a die's result in a number "
                       "counter; {counter: NAME, from: [words]} a word drawn at random in a word one")
            return _NOOP
        where = self.slot(ctr, self.who(spec, loc))

        def roll(m: Any, s: int, c: int) -> Iterator:
            v = yield from m.die(sides)
            vals, i = where(m, s)
            vals[i] = max(ctr.lo, min(ctr.hi, v))
        return roll, True

    def st_if(self, st: dict, loc: tuple) -> tuple[Callable, bool]:
        for key in st:
            if key not in ("if", "then", "else"):
                self.error((*loc, key), f"unknown key {key!r} in if (known: if, then, else)")
        cond = self.value(st["if"], (*loc, "if"), BOOL)
        then, g1 = self.block(st.get("then") or [], (*loc, "then"))
        other, g2 = self.block(st.get("else") or [], (*loc, "else"))
        if cond is None:
            return _NOOP
        if g1 or g2:
            def if_gen(m: Any, s: int, c: int) -> Iterator:
                f, g = (then, g1) if cond(m, s, c) else (other, g2)
                if g:
                    yield from f(m, s, c)
                else:
                    f(m, s, c)
            return if_gen, True

        def if_(m: Any, s: int, c: int) -> None:
            (then if cond(m, s, c) else other)(m, s, c)
        return if_, False

    def st_repeat(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        spec = self.mapping(spec, loc)
        for key in spec:
            if key not in ("times", "while", "do"):
                self.error((*loc, key), f"unknown key {key!r} (known: times, while, do)")
        body, gen = self.block(spec.get("do") or [], (*loc, "do"))
        times = self.value(spec["times"], (*loc, "times")) if "times" in spec else None
        cond = self.value(spec["while"], (*loc, "while"), BOOL) if "while" in spec else None
        if times is None and cond is None:
            self.error(loc, f"repeat: give `times:` or `while:` (at most {MAX_REPEAT} times)")
            return _NOOP

        def rounds(m: Any, s: int, c: int) -> range:
            return range(min(MAX_REPEAT, max(0, times(m, s, c))) if times else MAX_REPEAT)

        if gen:
            def repeat_gen(m: Any, s: int, c: int) -> Iterator:
                for _ in rounds(m, s, c):
                    if cond is not None and not cond(m, s, c):
                        return
                    m.work_step()
                    yield from body(m, s, c)
            return repeat_gen, True

        def repeat(m: Any, s: int, c: int) -> None:
            for _ in rounds(m, s, c):
                if cond is not None and not cond(m, s, c):
                    return
                m.work_step()
                body(m, s, c)
        return repeat, False

    def st_each_player(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        body, gen = self.block(spec, loc)
        if gen:
            def each_gen(m: Any, s: int, c: int) -> Iterator:
                for i in range(m.n):
                    yield from body(m, (s + i * m.dir) % m.n, c)
            return each_gen, True

        def each(m: Any, s: int, c: int) -> None:
            for i in range(m.n):
                body(m, (s + i * m.dir) % m.n, c)
        return each, False

    def st_top(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        spec = self.mapping(spec, loc)
        z = self.zone_arg(spec.get("zone"), (*loc, "zone"))
        body, gen = self.block(spec.get("do") or [], (*loc, "do"))
        if z is None:
            return _NOOP
        if gen:
            def top_gen(m: Any, s: int, c: int) -> Iterator:
                zl = z(m, s)
                if zl:
                    yield from body(m, s, zl[-1])
            return top_gen, True

        def top(m: Any, s: int, c: int) -> None:
            zl = z(m, s)
            if zl:
                body(m, s, zl[-1])
        return top, False

    def st_skip(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        n = self.value(spec if spec != {} else 1, loc)
        if n is None:
            return _NOOP

        def skip(m: Any, s: int, c: int) -> None:
            m.skips += n(m, s, c)
        return skip, False

    def st_turn(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        """`turn: next`: the turn passes at once to that player (the flow goes on from them)."""
        if spec not in ("me", "next", "prev", "target"):
            self.error(loc, "turn: me, next, prev or target")
            return _NOOP
        player = _player(spec)

        def turn(m: Any, s: int, c: int) -> None:
            m.cur = player(m, s)
        return turn, False

    def st_reverse(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        def reverse(m: Any, s: int, c: int) -> None:
            m.dir = -m.dir
        return reverse, False

    def st_resolve(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        """The card in focus resolves its own effects (its operations, with their bodies)."""
        effects = self.effects

        def resolve(m: Any, s: int, c: int) -> Iterator:
            if c >= 0:
                for f, g in effects[c]:
                    if g:
                        yield from f(m, s, c)
                    else:
                        f(m, s, c)
        return resolve, True

    def st_end(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        self.has_end = True

        def end(m: Any, s: int, c: int) -> None:
            raise GameOver()
        return end, False

    # ------------------------------------------------------------------ flow
    def flow_block(self, data: Any, loc: tuple) -> Callable:
        """A flow block compiled to a generator function ``f(m)``."""
        if isinstance(data, list):
            parts = [self.flow_block(b, (*loc, i)) for i, b in enumerate(data)]

            def seq(m: Any) -> Iterator:
                for f in parts:
                    yield from f(m)
            return seq
        if not (isinstance(data, dict) and data):
            self.error(loc, "a flow block is a mapping: step, together, do, turns, rounds, "
                       "each_player or loop")
            return _nothing
        kinds = [k for k in data if k in FLOW_KINDS]
        if len(kinds) != 1:
            self.error(loc, f"a flow block has exactly one of {', '.join(FLOW_KINDS)}")
            return _nothing
        kind = kinds[0]
        extra = set(data) - {kind, "count", "until"}
        for key in extra:
            self.error((*loc, key), f"unknown key {key!r} in a {kind} block")
        arg = data[kind]
        self.consts = {}
        if kind in ("step", "together"):
            if not isinstance(arg, str) or arg not in self.steps:
                self.error((*loc, kind), f"no action has step {arg!r} (steps: "
                           f"{', '.join(self.steps) or 'none'})")
                return _nothing
            self.named_steps.add(arg)
            return self.step_block(arg) if kind == "step" else self.together_block(arg)
        if kind == "do":
            body, gen = self.block(arg, (*loc, kind))

            def do(m: Any) -> Iterator:
                if gen:
                    yield from body(m, m.cur, -1)
                else:
                    body(m, m.cur, -1)
                m.check_end(m.cur)
            return do
        inner = self.flow_block(arg, (*loc, kind))
        count = until = None
        if "count" in data:
            count = self.number(data["count"], (*loc, "count"), 0, MAX_REPEAT)
            self.has_end = True
        if "until" in data:
            got = self.expr(data["until"], (*loc, "until"), BOOL)
            until = got[1] if got else None
            if getattr(until, "const", None) is False:
                self.error((*loc, "until"), "this loop never ends: its condition is always false")
            self.has_end = True
        if kind == "each_player":
            def each_player(m: Any) -> Iterator:
                first = m.cur
                for i in range(m.n):
                    m.cur = (first + i * m.dir) % m.n
                    yield from inner(m)
                m.cur = first
            return each_player

        expiry = self.expiry

        def loop(m: Any) -> Iterator:
            i = 0
            while count is None or i < count:
                if until is not None and until(m, m.cur, -1):
                    return
                i += 1
                m.work_step()
                if kind == "turns":
                    m.turn += 1
                    yield from inner(m)
                    m.cur = (m.cur + m.dir * (1 + m.skips)) % m.n
                    m.skips = 0
                    yield from m.checkpoint("turn")
                elif kind == "rounds":
                    m.round += 1
                    yield from inner(m)
                    if expiry:
                        m.expire()
                    yield from m.checkpoint("round")
                else:
                    yield from inner(m)
        return loop

    def options(self, acts: list[Action]) -> Callable:
        """f(m, s) -> the legal options of a step: one per card (by card id) a card action may
        play, one for an action without cards; each only when its condition holds and its cost
        can be paid."""
        cid = [c.id for c in self.handles]

        def offer(m: Any, s: int) -> list:
            out: list[tuple] = []
            for a in acts:
                if a.cost and any(where(m, s)[0][where(m, s)[1]] < n for where, n in a.cost):
                    continue
                if a.source is None:
                    if a.cond is None or a.cond(m, s, -1):
                        out.append((a.name,))
                    continue
                seen = set()
                cond = a.cond
                for h in a.source(m, s):
                    k = cid[h]
                    if k not in seen and (cond is None or cond(m, s, h)):
                        seen.add(k)
                        out.append((a.name, h))
            return out
        return offer

    def step_block(self, name: str) -> Callable:
        offer = self.options(self.steps[name])
        by_name = {a.name: a for a in self.steps[name]}

        def step(m: Any) -> Iterator:
            s = m.cur
            opts = offer(m, s)
            if not opts:
                return
            got = yield from m.ask(name, s, opts)
            yield from m.act(by_name[got[0]], s, got)
        return step

    def together_block(self, name: str) -> Callable:
        offer = self.options(self.steps[name])
        by_name = {a.name: a for a in self.steps[name]}

        def together(m: Any) -> Iterator:
            seats = list(range(m.n))
            got = yield from m.ask_all(name, seats, [offer(m, s) for s in seats])
            for s, o in zip(seats, got):
                if o is not None:
                    yield from m.act(by_name[o[0]], s, o)
        return together


def _words(f: Callable, words: tuple[str, ...]) -> Callable:
    """``f``, marked with the words it can give, so a comparison with any other is a finding."""
    if words:
        f.words = words   # type: ignore[attr-defined]
    return f


def _nothing(m: Any) -> Iterator:
    return
    yield


PRIMITIVES = tuple(k[3:] for k in vars(Rules) if k.startswith("st_") and k not in ("st_call", "st_if")) \
    + ("if",)
FLOW_KINDS = ("step", "together", "do", "turns", "rounds", "each_player", "loop")
