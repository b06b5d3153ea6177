"""`rules:` compiled: the vocabulary read once into tables and closures, and checked as it is read.

Checking and compiling are one pass: each construct is compiled where it stands, and what does
not compile is a finding at its file:line:col (an unknown zone, counter, field, operation or card;
an expression that does not parse or has the wrong type; an effect body that reads a parameter
its operation does not declare, or never reads one it does; a step no flow block reaches, an
action in a step nothing names; a game with no end). `Rules` then holds what a match runs: the
zone and counter tables, the setup, the flow and the actions as closures (docs/rules.md).

The compiler is built in layers, each module on the one before: `base` (tables, findings, the
names expressions read), `effects` (the primitives and the operations' bodies), `flow` (flow
blocks and the options of a step), and here the declarations that tie them together.
"""
from __future__ import annotations

from typing import Any

from ...load import Document
from .base import MAX_VALUE, VISIBILITY, Action, Counter, Zone
from .expr import BOOL, INT
from .flow import FlowBlocks
from .says import mismatches


class Rules(FlowBlocks):
    """One game's rules, compiled for the cards in play, ``handles`` (handle -> card model);
    ``findings`` holds what did not compile, at ``doc``'s lines (under ``base``)."""

    def __init__(self, game: Any, doc: Document, base: tuple, data: Any, handles: list[Any]):
        super().__init__(game, doc, base, handles)
        if not isinstance(data, dict):
            self.error((), "rules: expected a mapping (zones, counters, setup, flow, actions, "
                       "effects, end)")
            return
        self.keys(data, "rules", (), " in rules")
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
            self.keys(spec, "zone", loc)
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
            self.keys(spec, "counter", loc)
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
            texts = {lang: spec.text[lang] for lang in self.game.manifest.locales}
            said = list(mismatches(name, spec.params, texts, self.ops[name][0]))
            if said:                # one finding at the body (a place holds one of a kind)
                self.error(("effects", name), "; ".join(said) + ": change the text or the body "
                           "so that they agree", "rules-text")

    def read_actions(self, data: Any) -> None:
        for name, spec in self.mapping(data, ("actions",)).items():
            loc = ("actions", name)
            spec = self.mapping(spec, loc)
            self.keys(spec, "action", loc)
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
                n = self.value(amount, (*loc, "cost", cname))   # `card` is the card played
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
        self.keys(spec, "end", ("end",))
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
