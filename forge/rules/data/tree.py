"""An expression of `rules:` as a tree, for the printed rules (forge/rulebook/played.py) to put
into words. It reads expressions the compiler (`expr.py`) has already accepted, with the same
tokens and precedence, so it checks nothing itself; a node is a tuple whose first item says what
it is:

    ("or", [n, ...])  ("and", [n, ...])  ("not", n)  ("cmp", op, a, b)  ("arith", op, a, b)
    ("neg", n)  ("num", 3)  ("word", "red")  ("bool", True)  ("name", "coins")
    ("counter", who, "coins")  ("field", "colour")  ("top", zone, "colour")
    ("count", zone, where or None)  ("sum" | "distinct" | "run", zone, "points", where or None)
    ("call", "min" | "max" | "if" | "most" | "least", [n, ...])

and a zone is ``(who, name)``, ``who`` one of None (the acting player's, or the game's), `next`,
`prev`, `target` or `all`.
"""
from __future__ import annotations

from typing import Any

from .expr import _TOKEN, PLAYERS

_CALLS = ("count", "sum", "distinct", "run", "top", "min", "max", "if", "most", "least")


def tree(text: Any) -> tuple:
    """The tree of an accepted expression (a string, or a number or truth value as YAML)."""
    if isinstance(text, bool):
        return ("bool", text)
    if isinstance(text, int):
        return ("num", text)
    toks: list[tuple[str, str]] = []
    pos, text = 0, str(text).rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m is not None, text        # the compiler read it
        num, word, name, op = m.groups()
        toks.append(("num", num) if num is not None else ("word", word) if word is not None
                    else ("name", name) if name is not None else ("op", op))
        pos = m.end()
    toks.append(("end", ""))
    return _Reader(toks).expr()


class _Reader:
    def __init__(self, toks: list[tuple[str, str]]):
        self.toks, self.i = toks, 0

    def peek(self) -> str:
        return self.toks[self.i][1]

    def take(self) -> tuple[str, str]:
        self.i += 1
        return self.toks[self.i - 1]

    def accept(self, value: str) -> bool:
        if self.toks[self.i][0] in ("op", "name") and self.peek() == value:
            self.i += 1
            return True
        return False

    def expr(self) -> tuple:
        parts = [self.conj()]
        while self.accept("or"):
            parts.append(self.conj())
        return parts[0] if len(parts) == 1 else ("or", parts)

    def conj(self) -> tuple:
        parts = [self.neg()]
        while self.accept("and"):
            parts.append(self.neg())
        return parts[0] if len(parts) == 1 else ("and", parts)

    def neg(self) -> tuple:
        return ("not", self.neg()) if self.accept("not") else self.cmp()

    def cmp(self) -> tuple:
        left = self.sum()
        op = self.peek()
        if self.toks[self.i][0] == "op" and op in ("==", "!=", "<", "<=", ">", ">="):
            self.i += 1
            return ("cmp", op, left, self.sum())
        return left

    def sum(self) -> tuple:
        out = self.term()
        while self.toks[self.i][0] == "op" and self.peek() in ("+", "-"):
            out = ("arith", self.take()[1], out, self.term())
        return out

    def term(self) -> tuple:
        out = self.unary()
        while self.toks[self.i][0] == "op" and self.peek() in ("*", "/", "%"):
            out = ("arith", self.take()[1], out, self.unary())
        return out

    def unary(self) -> tuple:
        return ("neg", self.unary()) if self.accept("-") else self.atom()

    def atom(self) -> tuple:
        kind, v = self.take()
        if kind == "num":
            return ("num", int(v))
        if kind == "word":
            return ("word", v)
        if v == "(":
            out = self.expr()
            self.accept(")")
            return out
        if v in ("true", "false"):
            return ("bool", v == "true")
        if v in _CALLS and self.peek() == "(":
            return self.call(v)
        if v == "card" and self.accept("."):
            return ("field", self.take()[1])
        if v in PLAYERS and self.accept("."):
            return ("counter", v, self.take()[1])
        return ("name", v)

    def zone(self) -> tuple:
        name = self.take()[1]
        if name in (*PLAYERS, "all") and self.accept("."):
            return (None if name == "me" else name, self.take()[1])
        return (None, name)

    def call(self, fn: str) -> tuple:
        self.accept("(")
        if fn in ("min", "max", "if", "most", "least"):
            args = [self.expr()]
            while self.accept(","):
                args.append(self.expr())
            self.accept(")")
            return ("call", fn, args)
        zone = self.zone()
        if fn == "top":
            self.accept(")")
            self.accept(".")
            return ("top", zone, self.take()[1])
        if fn == "count":
            where = self.expr() if self.accept("where") else None
            self.accept(")")
            return ("count", zone, where)
        where = self.expr() if self.accept("where") else None
        self.accept(",")
        field = self.take()[1]
        self.accept(")")
        return (fn, zone, field, where)
