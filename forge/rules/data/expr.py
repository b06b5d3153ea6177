"""The expression language of `rules:`: a small, closed grammar parsed once at load into Python
closures, each with its type checked. Nothing in it can run Python: there are no attribute
lookups, calls or names beyond the ones listed here, and every value is a whole number, a word,
a truth value or a card.

    expr   := or ;  or := and ('or' and)* ;  and := not ('and' not)* ;  not := 'not' not | cmp
    cmp    := sum (('=='|'!='|'<'|'<='|'>'|'>=') sum)?
    sum    := term (('+'|'-') term)* ;  term := unary (('*'|'/'|'%') unary)*
    unary  := '-' unary | atom
    atom   := NUMBER | 'WORD' | true | false | '(' expr ')' | NAME | PLAYER '.' NAME
            | card '.' FIELD | top '(' zone ')' '.' FIELD
            | count '(' zone [where expr] ')' | sum/distinct/run '(' zone [where expr] ',' FIELD ')'
            | min/max '(' expr ',' expr ')'
            | if '(' expr ',' expr ',' expr ')' | most/least '(' expr ')'
    zone   := NAME | PLAYER '.' NAME | all '.' NAME
    PLAYER := me | next | prev | target

A NAME is a definition (`defs:`), an effect's parameter, a counter (the acting player's, for a
per-player one) or `players`, `round`, `turn`. Inside `count(zone where ...)`, `card` is each
card counted. `/` and `%` by zero give 0. A closure is called as ``f(m, s, c)``: the match, the
acting seat and the card in focus (a handle, or -1). `most(e)` and `least(e)` are the largest and
smallest value of ``e`` over the players, each in turn as `me` (majorities). `run(zone, FIELD)`
is the length of the longest run of consecutive numbers among the cards' values (sequences).
"""
from __future__ import annotations

import re
from typing import Any, Callable

#: Characters in one expression, and brackets and operators nested in it: both bound the
#: parser's recursion and the closures' depth.
MAX_LENGTH = 1000
MAX_DEPTH = 40
MAX_OPERATORS = 200
#: Loops nested in one another: a `where` (over cards) or `most`/`least` (over players) inside
#: another, through definitions too. Each multiplies an evaluation's work by the cards or players
#: there are, so without a bound a short expression could take years.
MAX_LOOPS = 2
#: What one evaluation may cost outside its loops: its tokens, a definition's counted in full
#: wherever it is named (definitions naming definitions would otherwise multiply with no loop).
MAX_COST = 5000
#: The largest number a literal may write.
MAX_NUMBER = 1_000_000_000

INT, BOOL, WORD, CARD = "number", "truth value", "word", "card"
PLAYERS = ("me", "next", "prev", "target")
#: The functions an expression may call; nothing else is called.
FUNCTIONS = ("count", "sum", "distinct", "run", "top", "min", "max", "if", "most", "least")

_TOKEN = re.compile(r"\s*(?:(\d+)|'([a-z0-9_]*)'|([a-z_][a-z0-9_]*)|(==|!=|<=|>=|[-+*/%<>(),.]))")


class ExprError(Exception):
    """A problem in an expression, at character ``at`` of it."""

    def __init__(self, message: str, at: int = 0):
        super().__init__(message)
        self.at = at


class Scope:
    """What names mean where an expression stands; the compiler (`compile.py`) fills it."""

    def __init__(self, rules: Any, consts: dict[str, tuple[str, Any]] | None = None):
        self.rules = rules
        self.consts = consts or {}
        self.used: set[str] = set()     # parameters the expression read
        self.loops = 0                  # the deepest its loops nest (MAX_LOOPS)
        self.cost = 0                   # tokens, definitions' in full (MAX_COST)

    def name(self, name: str, at: int) -> tuple[str, Callable]:
        if name in self.consts:
            self.used.add(name)
            kind, value = self.consts[name]
            return kind, lambda m, s, c, v=value: v
        if name in self.rules.defs:
            return self.rules.defs[name]
        return self.rules.counter_ref(name, None, at)

    def def_loops(self, name: str) -> int:
        """How deep a definition's loops nest (0 for any other name)."""
        return self.rules.def_loops.get(name, 0) if name in self.rules.defs else 0

    def def_cost(self, name: str) -> int:
        """What evaluating a definition costs beyond naming it (0 for any other name)."""
        return self.rules.def_cost.get(name, 1) - 1 if name in self.rules.defs else 0


def _player(word: str) -> Callable[[Any, int], int]:
    if word == "me":
        return lambda m, s: s
    if word == "next":
        return lambda m, s: (s + m.dir) % m.n
    if word == "prev":
        return lambda m, s: (s - m.dir) % m.n
    return lambda m, s: m.target if m.target >= 0 else s


class _Parser:
    def __init__(self, text: str, scope: Scope):
        if len(text) > MAX_LENGTH:
            raise ExprError(f"an expression is at most {MAX_LENGTH} characters long")
        self.scope = scope
        self.toks: list[tuple[str, str, int]] = []
        pos = 0
        text = text.rstrip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m:
                raise ExprError(f"cannot read {text[pos:pos + 10].strip()!r}", pos)
            num, word, name, op = m.groups()
            at = m.start(m.lastindex or 0)
            if num is not None:
                if len(num) > 10 or int(num) > MAX_NUMBER:
                    raise ExprError(f"{num} is larger than {MAX_NUMBER:,}", at)
                self.toks.append(("num", num, at))
            elif word is not None:
                self.toks.append(("word", word, at))
            elif name is not None:
                self.toks.append(("name", name, at))
            else:
                self.toks.append(("op", op, at))
            pos = m.end()
        self.toks.append(("end", "", len(text)))
        if sum(1 for t in self.toks if t[0] == "op") > MAX_OPERATORS:
            raise ExprError(f"an expression has at most {MAX_OPERATORS} operators and brackets")
        self.i = 0
        self.depth = 0
        self.loops = 0      # loops around the part being parsed
        self.extra = 0      # the cost of the definitions named so far, beyond their names

    # -- tokens
    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def take(self) -> tuple[str, str, int]:
        t = self.toks[self.i]
        self.i += 1
        return t

    def accept(self, value: str) -> bool:
        kind, v, _ = self.peek()
        if kind in ("op", "name") and v == value:
            self.i += 1
            return True
        return False

    def expect(self, value: str) -> None:
        if not self.accept(value):
            kind, v, at = self.peek()
            raise ExprError(f"expected {value!r}, found {v or 'the end'!r}", at)

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError(f"nested more than {MAX_DEPTH} levels deep", self.peek()[2])

    def nest(self, loops: int, at: int) -> None:
        """The part being parsed adds ``loops`` loops inside those around it."""
        deepest = self.loops + loops
        if deepest > MAX_LOOPS:
            raise ExprError(f"loops nested more than {MAX_LOOPS} deep (a `where` or most()/least() "
                            "inside another, definitions included): each multiplies the work "
                            "by the cards or players there are", at)
        self.scope.loops = max(self.scope.loops, deepest)

    def loop(self, parse: Callable[[], tuple[str, Callable]]) -> tuple[str, Callable]:
        """``parse()`` inside one more loop (a `where`'s condition, most()'s value)."""
        self.nest(1, self.peek()[2])
        self.loops += 1
        out = parse()
        self.loops -= 1
        return out

    def looped(self, kind: str = BOOL) -> tuple[Callable, int]:
        """The body of a loop (a `where`'s condition, most()'s value) of type ``kind``, and its
        weight: the tokens it is written with, as what one pass of it costs (`RulesMatch.spend`
        is charged the passes times this; loops in it charge their own)."""
        start, extra = self.i, self.extra
        f = self.want(kind, self.loop(self.expr))
        return f, self.i - start + self.extra - extra

    # -- grammar
    def parse(self) -> tuple[str, Callable]:
        out = self.expr()
        kind, v, at = self.peek()
        if kind != "end":
            raise ExprError(f"unexpected {v!r}", at)
        self.scope.cost = len(self.toks) - 1 + self.extra
        if self.scope.cost > MAX_COST:
            raise ExprError(f"this costs {self.scope.cost:,} steps to evaluate, definitions named "
                            f"in it counted in full (at most {MAX_COST:,})")
        return out

    def expr(self) -> tuple[str, Callable]:
        self.deeper()
        t, f = self.conj()
        if self.peek()[1] == "or":
            parts = [self.want(BOOL, (t, f))]
            while self.accept("or"):
                parts.append(self.want(BOOL, self.conj()))
            t, f = BOOL, _or(parts)
        self.depth -= 1
        return t, f

    def conj(self) -> tuple[str, Callable]:
        t, f = self.neg()
        if self.peek()[1] == "and":
            parts = [self.want(BOOL, (t, f))]
            while self.accept("and"):
                parts.append(self.want(BOOL, self.neg()))
            t, f = BOOL, _and(parts)
        return t, f

    def neg(self) -> tuple[str, Callable]:
        if self.accept("not"):
            self.deeper()
            g = self.want(BOOL, self.neg())
            self.depth -= 1
            return BOOL, lambda m, s, c: not g(m, s, c)
        return self.cmp()

    def cmp(self) -> tuple[str, Callable]:
        left = self.sum()
        kind, op, at = self.peek()
        if kind == "op" and op in ("==", "!=", "<", "<=", ">", ">="):
            self.i += 1
            right = self.sum()
            if left[0] != right[0]:
                raise ExprError(f"{op} compares a {left[0]} with a {right[0]}", at)
            if op not in ("==", "!=") and left[0] != INT:
                raise ExprError(f"{op} compares numbers, not a {left[0]}", at)
            a, b = left[1], right[1]
            if hasattr(a, "const") and not hasattr(b, "const"):
                a, b = b, a                   # the constant on the right, folded
            words = getattr(a, "words", None)
            if words and hasattr(b, "const") and b.const not in words:
                shown = ", ".join(words[:12]) + (", ..." if len(words) > 12 else "")
                raise ExprError(f"{b.const!r} is never a value here (it is one of {shown})", at)
            return BOOL, _CMP[op](a, b)
        return left

    def sum(self) -> tuple[str, Callable]:
        t, f = self.term()
        while True:
            kind, op, at = self.peek()
            if kind == "op" and op in "+-" and op:
                self.i += 1
                a, b = self.want(INT, (t, f)), self.want(INT, self.term())
                f = (lambda m, s, c, a=a, b=b: a(m, s, c) + b(m, s, c)) if op == "+" \
                    else (lambda m, s, c, a=a, b=b: a(m, s, c) - b(m, s, c))
                t = INT
            else:
                return t, f

    def term(self) -> tuple[str, Callable]:
        t, f = self.unary()
        while True:
            kind, op, at = self.peek()
            if kind == "op" and op in ("*", "/", "%"):
                self.i += 1
                a, b = self.want(INT, (t, f)), self.want(INT, self.unary())
                f = _ARITH[op](a, b)
                t = INT
            else:
                return t, f

    def unary(self) -> tuple[str, Callable]:
        if self.accept("-"):
            self.deeper()
            g = self.want(INT, self.unary())
            self.depth -= 1
            return INT, lambda m, s, c: -g(m, s, c)
        return self.atom()

    def want(self, kind: str, got: tuple[str, Callable]) -> Callable:
        if got[0] != kind:
            raise ExprError(f"expected a {kind} here, got a {got[0]}", self.toks[max(0, self.i - 1)][2])
        return got[1]

    def atom(self) -> tuple[str, Callable]:
        kind, v, at = self.take()
        if kind == "num":
            return INT, _const(int(v))
        if kind == "word":
            return WORD, _const(v)
        if kind == "op" and v == "(":
            out = self.expr()
            self.expect(")")
            return out
        if kind != "name":
            raise ExprError(f"unexpected {v or 'end'!r}", at)
        if v in ("true", "false"):
            return BOOL, _const(v == "true")
        if v in FUNCTIONS and self.peek()[1] == "(":
            return self.call(v, at)
        if v == "card":
            self.expect(".")
            return self.field(None)
        if v in PLAYERS:
            self.expect(".")
            name, nat = self.ident()
            return self.scope.rules.counter_ref(name, _player(v), nat)
        if v == "players":
            return INT, lambda m, s, c: m.n
        if v in ("round", "turn"):
            return INT, (lambda m, s, c: m.round) if v == "round" else (lambda m, s, c: m.turn)
        self.nest(self.scope.def_loops(v), at)
        self.extra += self.scope.def_cost(v)
        return self.scope.name(v, at)

    def ident(self) -> tuple[str, int]:
        kind, v, at = self.take()
        if kind != "name":
            raise ExprError(f"expected a name, found {v or 'the end'!r}", at)
        return v, at

    def field(self, card: Callable | None) -> tuple[str, Callable]:
        name, at = self.ident()
        return self.scope.rules.field_ref(name, card, at)

    def zone(self) -> tuple[bool, Callable]:
        """(many, f): f(m, s) is one list of handles, or with ``many`` a list of such lists."""
        name, at = self.ident()
        who = None
        if name in (*PLAYERS, "all") and self.accept("."):
            who, (name, at) = name, self.ident()
        return self.scope.rules.zone_ref(name, who if who != "all" else None, who == "all", at,
                                         _player(who) if who in PLAYERS else None)

    def cards(self, many: bool, z: Callable) -> Callable:
        """f(m, s) -> the handles of a zone (every player's, with ``many``), those for which an
        optional `where EXPR` holds (`card` each one). Each call spends the cards it visits
        (`RulesMatch.spend`), before it visits them: a scan inside a `where` is a scan per card."""
        p, w = self.looped() if self.accept("where") else (None, 1)
        if many:
            def every(m: Any, s: int) -> list[int]:
                out = [h for zl in z(m, s) for h in zl]
                m.spent += len(out) * w          # `RulesMatch.spend`, inline: it is hot
                if m.spent > m.budget:
                    m.spend(0)
                return out if p is None else [h for h in out if p(m, s, h)]
            return every

        def one(m: Any, s: int) -> list[int]:
            zl = z(m, s)
            m.spent += len(zl) * w          # `RulesMatch.spend`, inline: it is hot
            if m.spent > m.budget:
                m.spend(0)
            return zl if p is None else [h for h in zl if p(m, s, h)]
        return one

    def call(self, fn: str, at: int) -> tuple[str, Callable]:
        self.expect("(")
        self.deeper()
        if fn in ("most", "least"):           # over every player, each in turn as `me`
            f, w = self.looped(INT)
            self.expect(")")
            self.depth -= 1
            pick = max if fn == "most" else min

            def over_players(m: Any, s: int, c: int) -> int:
                m.spend(m.n * w)
                return pick([f(m, p, c) for p in range(m.n)])
            return INT, over_players
        if fn in ("min", "max", "if"):
            args = [self.expr()]
            while self.accept(","):
                args.append(self.expr())
            self.expect(")")
            self.depth -= 1
            if fn == "if":
                if len(args) != 3:
                    raise ExprError("if(condition, then, else) takes three parts", at)
                cond, a, b = self.want(BOOL, args[0]), args[1], args[2]
                if a[0] != b[0]:
                    raise ExprError(f"if() gives a {a[0]} or a {b[0]}: give one kind", at)
                fa, fb = a[1], b[1]
                return a[0], lambda m, s, c: fa(m, s, c) if cond(m, s, c) else fb(m, s, c)
            if len(args) != 2 or any(a[0] != INT for a in args):
                raise ExprError(f"{fn}(a, b) takes two numbers", at)
            fa, fb = args[0][1], args[1][1]
            pick = min if fn == "min" else max
            return INT, lambda m, s, c: pick(fa(m, s, c), fb(m, s, c))
        many, z = self.zone()
        out: tuple[str, Callable]
        if fn == "count":
            if many and self.peek()[1] != "where":
                out = INT, lambda m, s, c: sum(map(len, z(m, s)))
            elif self.peek()[1] != "where":
                out = INT, lambda m, s, c: len(z(m, s))
            else:
                cards = self.cards(many, z)
                out = INT, lambda m, s, c: len(cards(m, s))
        elif fn == "top":
            if many:
                raise ExprError("top() takes one zone, not all players' zones", at)
            self.expect(")")
            self.depth -= 1
            self.expect(".")
            return self.field(lambda m, s, c: (z(m, s) or (-1,))[-1])
        else:
            cards = self.cards(many, z)
            self.expect(",")
            name, fat = self.ident()
            kind, value = self.scope.rules.field_ref(name, None, fat)
            table = self.scope.rules.table(name)
            if fn in ("sum", "run") and kind != INT:
                raise ExprError(f"{fn}() reads a number field; {name!r} holds a {kind}", fat)
            if fn == "sum":
                out = INT, lambda m, s, c: sum(table[h] for h in cards(m, s))
            elif fn == "run":
                out = INT, lambda m, s, c: _run({table[h] for h in cards(m, s)})
            else:
                out = INT, lambda m, s, c: len({table[h] for h in cards(m, s)} - {None})
        self.expect(")")
        self.depth -= 1
        return out


def _run(values: set[int]) -> int:
    """The longest run of consecutive whole numbers in ``values`` (duplicates count once)."""
    best = 0
    for v in values:
        if v - 1 not in values:
            n = 1
            while v + n in values:
                n += 1
            best = max(best, n)
    return best


def _or(parts: list[Callable]) -> Callable:
    """``a or b or ...`` as one closure; constants folded (`true or x`, `false or x`)."""
    kept: list[Callable] = []
    for f in parts:
        if hasattr(f, "const"):
            if f.const:
                return f if not kept else (lambda m, s, c: True)
            continue
        kept.append(f)
    if not kept:
        return _const(False)
    if len(kept) == 1:
        return kept[0]
    if len(kept) == 2:
        return _pair(True, *kept)
    if len(kept) == 3:
        a, b, d = kept
        return lambda m, s, c: a(m, s, c) or b(m, s, c) or d(m, s, c)
    return lambda m, s, c: any(f(m, s, c) for f in kept)


def _and(parts: list[Callable]) -> Callable:
    """``a and b and ...`` as one closure; constants folded."""
    kept: list[Callable] = []
    for f in parts:
        if hasattr(f, "const"):
            if not f.const:
                return f if not kept else (lambda m, s, c: False)
            continue
        kept.append(f)
    if not kept:
        return _const(True)
    if len(kept) == 1:
        return kept[0]
    if len(kept) == 2:
        return _pair(False, *kept)
    if len(kept) == 3:
        a, b, d = kept
        return lambda m, s, c: a(m, s, c) and b(m, s, c) and d(m, s, c)
    return lambda m, s, c: all(f(m, s, c) for f in kept)


def _const(v: Any) -> Callable:
    f = lambda m, s, c: v   # noqa: E731
    f.const = v             # type: ignore[attr-defined]
    return f


# `==` and `!=` of the forms rules write most (a card's field or a game counter against a word
# or against each other) read the tables themselves: one call instead of three. A field closure
# of the card in focus carries its table as `.table`, a game counter's its index as `.gk`.

# A comparison of a card's field carries `.test` (what it compares), so `and`/`or` of two parts
# write it inline instead of calling it (`_pair`): a card's condition, asked of every card in a
# hand for every option offered, is most of what a step costs.

def _test(f: Callable, test: tuple) -> Callable:
    f.test = test         # type: ignore[attr-defined]
    return f


def _eq(a: Callable, b: Callable) -> Callable:
    t, k = getattr(a, "table", None), getattr(a, "gk", None)
    if hasattr(b, "const"):
        v = b.const
        if t is not None:
            return _test(lambda m, s, c: t[c] == v, ("eq", t, v))
        if k is not None:
            return lambda m, s, c: m.gc[k] == v
        return lambda m, s, c: a(m, s, c) == v
    if t is not None and hasattr(b, "gk"):
        j = b.gk
        return _test(lambda m, s, c: t[c] == m.gc[j], ("eqg", t, j))
    return lambda m, s, c: a(m, s, c) == b(m, s, c)


def _ne(a: Callable, b: Callable) -> Callable:
    t, k = getattr(a, "table", None), getattr(a, "gk", None)
    if hasattr(b, "const"):
        v = b.const
        if t is not None:
            return _test(lambda m, s, c: t[c] != v, ("ne", t, v))
        if k is not None:
            return lambda m, s, c: m.gc[k] != v
        return lambda m, s, c: a(m, s, c) != v
    if t is not None and hasattr(b, "gk"):
        j = b.gk
        return lambda m, s, c: t[c] != m.gc[j]
    return lambda m, s, c: a(m, s, c) != b(m, s, c)


def _pair(either: bool, a: Callable, b: Callable) -> Callable:
    """``a or b`` (``either``) or ``a and b``, with a field comparison ``a`` (and ``b``, when
    both compare with game counters) written inline."""
    ta, tb = getattr(a, "test", None), getattr(b, "test", None)
    if ta is None:
        if either:
            return lambda m, s, c: a(m, s, c) or b(m, s, c)
        return lambda m, s, c: a(m, s, c) and b(m, s, c)
    kind, t, v = ta
    if kind == "eqg" and tb is not None and tb[0] == "eqg":
        _, u, w = tb
        if either:
            return lambda m, s, c: t[c] == m.gc[v] or u[c] == m.gc[w]
        return lambda m, s, c: t[c] == m.gc[v] and u[c] == m.gc[w]
    if kind == "eqg":
        if either:
            return lambda m, s, c: t[c] == m.gc[v] or b(m, s, c)
        return lambda m, s, c: t[c] == m.gc[v] and b(m, s, c)
    if kind == "eq":
        if either:
            return lambda m, s, c: t[c] == v or b(m, s, c)
        return lambda m, s, c: t[c] == v and b(m, s, c)
    if either:
        return lambda m, s, c: t[c] != v or b(m, s, c)
    return lambda m, s, c: t[c] != v and b(m, s, c)


_CMP: dict[str, Callable[[Callable, Callable], Callable]] = {
    "==": _eq, "!=": _ne,
    "<": lambda a, b: lambda m, s, c: a(m, s, c) < b(m, s, c),
    "<=": lambda a, b: lambda m, s, c: a(m, s, c) <= b(m, s, c),
    ">": lambda a, b: lambda m, s, c: a(m, s, c) > b(m, s, c),
    ">=": lambda a, b: lambda m, s, c: a(m, s, c) >= b(m, s, c),
}


def _div(x: int, y: int) -> int:
    return x // y if y else 0


def _mod(x: int, y: int) -> int:
    return x % y if y else 0


_ARITH: dict[str, Callable[[Callable, Callable], Callable]] = {
    "*": lambda a, b: lambda m, s, c: a(m, s, c) * b(m, s, c),
    "/": lambda a, b: lambda m, s, c: _div(a(m, s, c), b(m, s, c)),
    "%": lambda a, b: lambda m, s, c: _mod(a(m, s, c), b(m, s, c)),
}


def compile_expr(text: Any, scope: Scope, want: str | None = None) -> tuple[str, Callable]:
    """(type, closure) of an expression (a string, or a number or truth value written as YAML);
    ExprError when it does not parse or check, or is not of the type ``want``."""
    if isinstance(text, bool):
        text = "true" if text else "false"
    elif isinstance(text, int):
        text = str(text) if text >= 0 else f"-{-text}"
    if not isinstance(text, str):
        raise ExprError(f"expected an expression (text), got {type(text).__name__}")
    p = _Parser(text, scope)
    kind, f = p.parse()
    if want is not None and kind != want:
        raise ExprError(f"expected a {want}, but this gives a {kind}")
    return kind, f
