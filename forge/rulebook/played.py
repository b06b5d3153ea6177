"""The played rules in words: what a rulebook or cheat sheet of a rules game (docs/rules.md)
prints as its setup, turn and end, made from the same `rules:` the engine plays, so the printed
turn cannot disagree with the simulated one.

`played_rules(game, lang)` reads the rules once the compiler has accepted them (a game whose
rules have findings gets nothing to print: `forge check` says why) and puts each construct into
words with the phrase of `phrases/<lang>.yaml` (forge's own; a language without one gets the
English phrases). The names a sentence needs (a zone "in" or "from", a counter's plural forms, a
field, a word, an action) are the game's own, in `templates/<game>/words.<lang>.yaml`
(`words.read_words`): a name it does not give prints as its id. Expressions read as clauses
(«на руці немає карт»), not as notation.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import yaml

from ..rules.data.base import MAX_REPEAT
from ..rules.data.tree import tree
from ..text.effects import render_operation
from ..text.plural import plural
from ..text.typography import quoted
from .words import read_words

PHRASES = Path(__file__).with_name("phrases")
#: A number whose plural form («карт», "cards") stands for one an expression gives.
MANY = 5


@dataclass(frozen=True)
class Line:
    """One line of a printed section: ``text`` at list ``depth`` (0 outermost); an action's
    line has its name as ``head`` (printed bold) and what it does on the lines under it."""

    depth: int
    text: str
    head: str = ""


@dataclass(frozen=True)
class Action:
    """An action of a step: its printed name and the lines that say when and how."""

    name: str
    label: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class PlayedRules:
    """A template's `played`: the setup, the flow of play (the turn) and the end, as lines;
    each step's actions by step name; the `defs:` the words file names, by name, each as a line
    with its name as ``head`` and what it is as ``text`` (how a score is counted); empty for a game
    without rules as data."""

    setup: tuple[Line, ...] = ()
    turn: tuple[Line, ...] = ()
    end: tuple[Line, ...] = ()
    steps: dict[str, tuple[Action, ...]] = field(default_factory=dict)
    defs: dict[str, Line] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.turn)


@lru_cache(maxsize=4)
def phrases(lang: str) -> dict:
    path = PHRASES / f"{lang}.yaml"
    return yaml.safe_load((path if path.is_file() else PHRASES / "en.yaml").read_text(encoding="utf-8"))


def played_rules(game: Any, lang: str) -> PlayedRules:
    """The played rules of `game` in `lang` (empty without rules, or with rules that have
    findings)."""
    from ..rules.data import compiled, rules_source
    if game.manifest.rules is None:
        return PlayedRules()
    data = rules_source(game)[2]
    if not isinstance(data, dict) or compiled(game).findings:
        return PlayedRules()
    return _Writer(game, lang, data).played()


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class _Writer:
    def __init__(self, game: Any, lang: str, data: dict):
        self.game, self.lang, self.data = game, lang, data
        self.p = phrases(lang)
        self.w = read_words(game, lang)[0].rules
        self.steps: dict[str, tuple[Action, ...]] = {}

    # ------------------------------------------------------------------ names
    def form(self, kind: str, name: str, form: str = "name") -> str:
        """A name's form ("name", "in", "from", ...); one not given is made from the name (a
        zone's by the phrases' `zone_forms`: "from deck"), a name not given is the id."""
        entry = (self.w.get(kind) or {}).get(name)
        if isinstance(entry, dict) and entry.get(form):
            return str(entry[form])
        base = entry.get("name") if isinstance(entry, dict) else entry
        base = str(base) if base else name.replace("_", " ")
        if kind == "zones" and form in self.p["zone_forms"]:
            return self.p["zone_forms"][form].format(name=base)
        return base

    def zone(self, zone: tuple, form: str) -> str:
        who, name = zone
        if who is None:
            return self.form("zones", name, form)
        own = (self.w.get("zones") or {}).get(name)
        if isinstance(own, dict) and own.get(f"{form}_{who}"):     # "in_all": «на руках усіх гравців»
            return str(own[f"{form}_{who}"])
        return self.p["of_player"].format(a=self.form("zones", name, form), player=self.p["players"][who])

    def zone_arg(self, text: Any, form: str, who: str = "me") -> str:
        """A zone an effect names (`hand`, `next.hand`); an effect's `who` names whose, for a
        zone each player has."""
        name = str(text)
        if "." in name:
            who, name = name.split(".", 1)
        spec = (self.data.get("zones") or {}).get(name)
        if not (isinstance(spec, dict) and spec.get("per") == "player"):
            who = "me"
        return self.zone((None if who == "me" else who, name), form)

    def limit(self, zone: Any) -> int | None:
        """The most cards the zone a move names holds, when its spec says."""
        spec = (self.data.get("zones") or {}).get(str(zone).rsplit(".", 1)[-1])
        return spec.get("limit") if isinstance(spec, dict) else None

    def cards(self, n: Any) -> str:
        """«карти», "cards": the word for `n` cards (for an expression, its many form)."""
        return plural(n if isinstance(n, int) else MANY, self.p["cards"], self.lang)

    def word(self, w: str) -> str:
        return self.form("words", w)

    def words(self, ws: list) -> str:
        ws = [self.word(str(w)) for w in ws]
        return ws[0] if len(ws) == 1 else self.p["list"].join(ws[:-1]) + self.p["or"] + ws[-1]

    def amount(self, counter: str, n: Any) -> tuple[str, str]:
        """(the number or the expression, the counter's word for it: its plural form for a
        number, its `many` form for an expression), as «2 монети», «стільки монет»."""
        forms = (self.w.get("counters") or {}).get(counter, {})
        forms = forms.get("forms") if isinstance(forms, dict) else None
        if not forms:
            name = self.form("counters", counter)
            return (str(n) if isinstance(n, int) else self.cond(n)), quoted(name, self.lang)
        if isinstance(n, int):
            return str(n), plural(n, forms, self.lang)
        return self.cond(n), forms[-1]

    # ------------------------------------------------------------------ expressions
    def expr(self, n: tuple) -> str:
        """An expression as words (a condition on the cards counted: `which`)."""
        p, kind = self.p, n[0]
        if kind in ("or", "and"):
            return self.join(kind, [self.expr(x) for x in n[1]], n[1])
        if kind == "not":
            return p["not"].format(a=self.expr(n[1]))
        if kind == "cmp":
            return self.compare(*n[1:])
        if kind == "arith":                 # a sum inside a product, or after a minus, in brackets
            a, b = (f"({self.expr(x)})" if x[0] == "arith" and x[1] in "+-" and
                    (n[1] in "*/%" or (n[1] == "-" and x is n[3])) else self.expr(x) for x in n[2:4])
            return p["arith"][n[1]].format(a=a, b=b)
        if kind == "neg":
            return p["neg"].format(a=self.expr(n[1]))
        if kind == "num":
            return str(n[1])
        if kind == "word":
            return self.word(n[1])
        if kind == "bool":
            return p["true" if n[1] else "false"]
        if kind == "name":
            name = n[1]
            if name in (self.data.get("defs") or {}):     # by its name, or else what it says
                return self.form("defs", name) if name in (self.w.get("defs") or {}) \
                    else self.expr(tree(self.data["defs"][name]))
            if name in p["name"]:
                return p["name"][name]
            return self.form("counters", name, "value")
        if kind == "counter":
            base = self.form("counters", n[2], "value")
            return base if n[1] == "me" else p["of_player"].format(a=base, player=p["players"][n[1]])
        if kind == "field":
            return p["field"].format(field=self.form("fields", n[1]))
        if kind == "top":
            return p["top"].format(field=self.form("fields", n[2]), zone=self.zone(n[1], "of"))
        if kind == "count":
            zone = self.zone(n[1], "in")
            if n[2] is None:
                return p["count"].format(zone=zone)
            return p["count_which"].format(zone=zone, which=self.which(n[2]))
        if kind in ("sum", "distinct", "run"):      # of the cards for which `where` holds
            field = self.form("fields", n[2], "of" if kind == "sum" else "name")
            text = p[kind].format(field=field, zone=self.zone(n[1], "in"))
            return text if n[3] is None else p["of_which"].format(a=text, which=self.which(n[3]))
        fn, args = n[1], [self.expr(a) for a in n[2]]
        if fn == "if":
            return p["if"].format(c=args[0], a=args[1], b=args[2])
        if fn in ("most", "least"):
            return p[fn].format(a=args[0])
        return p[fn].format(a=args[0], b=args[1])

    def join(self, kind: str, parts: list[str], nodes: list[tuple]) -> str:
        """Parts joined by «або» / «і»: an `or` of which a part is an `and` is joined by
        `or_group` (a semicolon: «and» binds first, as in the rules), an `and` of an `or` puts
        that part in brackets."""
        if kind == "or" and any(x[0] == "and" for x in nodes):
            return self.p["or_group"].join(parts)
        if kind == "and":
            parts = [f"({t})" if x[0] == "or" else t for t, x in zip(parts, nodes)]
        return self.p[kind].join(parts)

    def which(self, n: tuple) -> str:
        """A condition on the cards counted, as a relative clause."""
        if n[0] in ("or", "and"):
            return self.join(n[0], [self.which(x) for x in n[1]], n[1])
        entry = (self.w.get("defs") or {}).get(n[1]) if n[0] == "name" else None
        if isinstance(entry, dict) and entry.get("which"):
            return str(entry["which"])
        if n[0] == "cmp" and n[1] in ("==", "!=") and n[2][0] == "field":
            b = n[3]
            key = "field_which" if n[1] == "==" else "field_which_not"
            if b[0] not in ("word", "num"):
                key = "field_which_same" if n[1] == "==" else key
            return self.p[key].format(field=self.form("fields", n[2][1]), b=self.expr(b))
        return self.p["which"].format(a=self.expr(n))

    def compare(self, op: str, a: tuple, b: tuple) -> str:
        p = self.p
        if a[0] == "count" and b == ("num", 0) and op in ("==", "!=", ">"):
            key = "none" if op == "==" else "some"
            zone = self.zone(a[1], "in")
            if a[2] is None:
                return p[key].format(zone=zone)
            return p[key + "_which"].format(zone=zone, which=self.which(a[2]))
        if op in ("==", "!=") and (a[0] in ("word",) or b[0] == "word" or self.is_word(a)):
            if b[0] == "word" or a[0] == "word":
                a, b = (b, a) if a[0] == "word" else (a, b)
                return p["is" if op == "==" else "is_not"].format(a=self.expr(a), b=self.expr(b))
            return p["same" if op == "==" else "not_same"].format(a=self.expr(a), b=self.expr(b))
        return p["cmp"][op].format(a=self.expr(a), b=self.expr(b))

    def is_word(self, n: tuple) -> bool:
        """Does `n` hold a word (a word counter or an enum field)?"""
        if n[0] in ("name", "counter"):
            spec = (self.data.get("counters") or {}).get(n[-1])
            return isinstance(spec, dict) and bool(spec.get("values"))
        return n[0] in ("field", "top")

    def cond(self, text: Any) -> str:
        return self.expr(tree(text))

    def number(self, n: Any) -> str:
        """A count an effect takes: its digits, or the expression in words."""
        return str(n) if isinstance(n, int) else self.cond(n)

    # ------------------------------------------------------------------ effects
    def effects(self, body: Any, depth: int) -> list[Line]:
        out: list[Line] = []
        for st in body if isinstance(body, list) else [body]:
            out += self.effect(st, depth)
        return out

    def line(self, depth: int, key: str, **parts: Any) -> Line:
        return Line(depth, _cap(self.p[key].format(**parts)))

    def effect(self, st: Any, d: int) -> list[Line]:
        p = self.p
        if isinstance(st, str):
            st = {st: None}
        if "if" in st:
            out = [self.line(d, "if_then", c=self.cond(st["if"]))] + self.effects(st.get("then") or [], d + 1)
            if st.get("else"):
                out += [self.line(d, "else")] + self.effects(st["else"], d + 1)
            return out
        (key, arg), = st.items()
        spec = arg if isinstance(arg, dict) else {}
        if key == "move":
            who = spec.get("who", "me")
            src = self.zone_arg(spec.get("from"), "from", who)
            dst = self.zone_arg(spec.get("to"), "to", who)
            n = spec.get("count", 1)
            if spec.get("card"):
                return [self.line(d, "move_card", src=src, dst=dst)]
            if "where" in spec:                     # the top n (or all) of those for which it holds
                which = p["which_comma"].format(which=self.which(tree(spec["where"])))
                if spec.get("all"):
                    return [self.line(d, "move_all_which", src=src, dst=dst, which=which)]
                return [self.line(d, "move_n_which", n=self.number(n), cards=self.cards(n), src=src,
                                  dst=dst, which=which)]
            if spec.get("all"):
                return [self.line(d, "move_all", src=src, dst=dst)]
            limit = self.limit(spec.get("to"))
            if limit is not None and isinstance(n, int) and n >= limit:   # a row refilled
                return [self.line(d, "move_fill", src=src, dst=dst, n=limit,
                                  within=self.zone_arg(spec.get("to"), "in", who))]
            if n == 1:
                return [self.line(d, "move_top", src=src, dst=dst)]
            return [self.line(d, "move_n", n=self.number(n), cards=self.cards(n), src=src, dst=dst)]
        if key == "deal":
            n = spec.get("count", 1)
            if n == 1:
                return [self.line(d, "deal_one", src=self.zone_arg(spec.get("from"), "from"))]
            return [self.line(d, "deal", n=self.number(n), cards=plural(n if isinstance(n, int) else MANY, p["deal_cards"],
                                                          self.lang), src=self.zone_arg(spec.get("from"), "from"))]
        if key == "shuffle":
            return [self.line(d, "shuffle", zone=self.zone_arg(arg, "it"))]
        if key in ("gain", "lose"):
            who, n = spec.get("who", "me"), spec.get("amount", 1)
            shown, what = self.amount(spec.get("counter", ""), n)
            key += "" if isinstance(n, int) else "_by"
            if who == "me":
                return [self.line(d, key, n=shown, what=what)]
            return [self.line(d, key + "_who", player=p["player"][who], n=shown, what=what)]
        if key == "set":
            return [self.line(d, "set", counter=self.form("counters", spec.get("counter", "")),
                              value=self.cond(spec.get("to")))]
        if key == "choose":
            return [self.line(d, "choose", counter=self.form("counters", spec.get("counter", ""), "it"),
                              words=self.words(spec.get("from") or []))]
        if key == "choose_player":
            return [self.line(d, "choose_other" if spec.get("others") else "choose_player")]
        if key == "choose_card":
            src = self.zone_arg(spec.get("from"), "from", spec.get("who", "me"))
            by = spec.get("by", "me")
            which = self.p["which_comma"].format(which=self.which(tree(spec["where"]))) if "where" in spec else ""
            head = self.line(d, "choose_card", src=src, which=which) if by == "me" else \
                self.line(d, "choose_card_by", player=p["player"][by], src=src, which=which)
            return [head] + self.effects(spec.get("do") or [], d + 1)
        if key == "roll":
            counter = self.form("counters", spec.get("counter", ""))
            if "from" in spec:
                return [self.line(d, "roll_words", counter=counter, words=self.words(spec["from"]))]
            return [self.line(d, "roll", n=spec.get("sides", 6), counter=counter)]
        if key == "repeat":
            times = spec.get("times", MAX_REPEAT)
            tw = plural(times if isinstance(times, int) else MANY, p["times"], self.lang)
            head = self.line(d, "repeat_while", c=self.cond(spec["while"]), n=self.number(times), times=tw) \
                if "while" in spec else self.line(d, "repeat", n=self.number(times), times=tw)
            return [head] + self.effects(spec.get("do") or [], d + 1)
        if key == "each_player":
            if isinstance(arg, dict):               # {others: true, do: [...]}
                return [self.line(d, "each_other" if arg.get("others") else "each_player")] \
                    + self.effects(arg.get("do") or [], d + 1)
            return [self.line(d, "each_player")] + self.effects(arg or [], d + 1)
        if key == "top":
            return [self.line(d, "top_do", zone=self.zone_arg(spec.get("zone"), "of"))] \
                + self.effects(spec.get("do") or [], d + 1)
        if key == "skip":
            return [self.line(d, "skip") if arg in (None, 1) else self.line(d, "skip_n", n=self.number(arg))]
        if key == "turn":
            return [self.line(d, "turn_me") if arg == "me" else self.line(d, "turn", player=p["players"][arg])]
        if key in ("reverse", "resolve", "end"):
            return [self.line(d, key)]
        return [Line(d, self.operation(key, spec))]

    def operation(self, name: str, args: dict) -> str:
        """A declared operation's own printed text, with its arguments."""
        op = SimpleNamespace(name=name, args=lambda: dict(args))    # as a card's `Operation`
        return render_operation(self.game.manifest, op, self.lang)

    # ------------------------------------------------------------------ flow
    def flow(self, block: Any, d: int) -> list[Line]:
        if isinstance(block, list):
            return [x for b in block for x in self.flow(b, d)]
        kind = next(k for k in block if k not in ("count", "until", "order", "aside"))
        arg = block[kind]
        if kind in ("step", "together"):
            acts = self.step(arg)
            if kind == "step" and len(acts) == 1:       # no choice: the action itself
                return [Line(d, "", acts[0].label)] + [Line(d + 1 + x.depth, x.text) for x in acts[0].lines]
            out = [self.line(d, kind)]
            for a in acts:
                out += [Line(d + 1, "", a.label)] + [Line(d + 2 + x.depth, x.text) for x in a.lines]
            if "aside" in block:
                out.append(self.line(d + 1, "together_aside", zone=self.zone_arg(block["aside"], "to")))
            if "order" in block:
                out.append(self.line(d + 1, "together_order", a=self.cond(block["order"])))
            return out
        if kind == "do":
            return self.effects(arg, d)
        inner = self.flow(arg, d + 1)
        if kind == "turns":
            head = self.line(d, "turns_until", c=self.cond(block["until"])) if "until" in block \
                else self.line(d, "turns")
        elif kind == "rounds":
            n = block.get("count")
            head = self.line(d, "rounds_until", c=self.cond(block["until"])) if "until" in block \
                else self.line(d, "rounds", n=n, rounds=plural(n or MANY, self.p["rounds_words"], self.lang))
            inner += self.expiry(d + 1)
        elif kind == "each_player":
            head = self.line(d, "each_player")
        else:
            head = self.line(d, "loop", c=self.cond(block.get("until", False)))
        return [head] + inner

    def expiry(self, d: int) -> list[Line]:
        """What leaves a zone whose cards expire, at the end of each round (the engine's
        `expire`: the round a card came in counts)."""
        out = []
        for name, spec in (self.data.get("zones") or {}).items():
            rule = spec.get("expire") if isinstance(spec, dict) else None
            if isinstance(rule, dict):
                after = rule.get("after", 1)
                key = "expire" if isinstance(after, int) else "expire_by"
                out.append(self.line(d, key, zone=self.zone_arg(name, "in"), to=self.zone_arg(rule.get("to"), "to"),
                                     n=self.number(after), rounds=plural(after if isinstance(after, int) else MANY,
                                                                         self.p["rounds_words"], self.lang)))
        return out

    def step(self, name: str) -> tuple[Action, ...]:
        if name not in self.steps:
            self.steps[name] = tuple(self.action(a, spec) for a, spec in (self.data.get("actions") or {}).items()
                                     if spec.get("step") == name)
        return self.steps[name]

    def action(self, name: str, spec: dict) -> Action:
        lines: list[Line] = []
        if "from" in spec:
            lines.append(self.line(0, "action_card", src=self.zone_arg(spec["from"], "from")))
        if "if" in spec:
            lines.append(self.line(0, "action_if", c=self.cond(spec["if"])))
        if spec.get("cost"):
            for c, n in spec["cost"].items():
                shown, what = self.amount(c, n)
                lines.append(self.line(0, "action_cost" if isinstance(n, int) else "action_cost_by",
                                       n=shown, what=what))
        if "to" in spec:
            lines.append(self.line(0, "action_to", dst=self.zone_arg(spec["to"], "to")))
        lines += self.effects(spec.get("do") or [], 0)
        return Action(name, self.form("actions", name), tuple(lines))

    # ------------------------------------------------------------------ the whole
    def starts(self) -> list[Line]:
        """The counters that do not start at 0, as the setup's first lines."""
        out = []
        for name, spec in (self.data.get("counters") or {}).items():
            start = spec.get("start", 0) if isinstance(spec, dict) else 0
            if start not in (0, False) and not spec.get("values"):
                shown, what = self.amount(name, start)
                key = "start_each" if spec.get("per") == "player" else "start"
                out.append(self.line(0, key + ("" if isinstance(start, int) else "_by"), n=shown, what=what,
                                     counter=self.form("counters", name)))
        return out

    def played(self) -> PlayedRules:
        setup = tuple(self.starts() + self.effects(self.data.get("setup") or [], 0))
        turn = self.flow(self.data["flow"], 0)
        end = self.data.get("end") or {}
        when = end.get("when") or []
        lines = [self.line(0, "end_when", c=self.cond(c)) for c in (when if isinstance(when, list) else [when])]
        if "score" in end:
            lines.append(self.line(0, "score", a=self.cond(end["score"])))
            tb = end.get("tiebreak") or []
            tb = tb if isinstance(tb, list) else [tb]
            lines.append(self.line(0, "winner", a=self.p["list"].join(self.cond(t) for t in tb))
                         if tb else self.line(0, "winner_shared"))
        defs = self.data.get("defs") or {}
        named = {name: Line(0, self.cond(defs[name]), _cap(self.form("defs", name)))
                 for name in (self.w.get("defs") or {}) if name in defs}
        return PlayedRules(setup, tuple(turn), tuple(lines), dict(self.steps), named)
