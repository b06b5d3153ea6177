"""Effects: the primitives an operation's body, an action's `do:` and the setup are made of,
compiled to ``f(m, s, c)`` (the match, the acting seat, the card in focus). Those that can ask a
seat or resolve chance are generators (``yield from f(m, s, c)``), the others plain calls, and a
block is a plain function unless one of its statements is a generator."""
from __future__ import annotations

from typing import Any, Callable, Iterator

from .base import _NOOP, CAP, MAX_REPEAT, MAX_RESOLVE, Compiler, GameOver
from ..core import SEAT_NAMES
from .expr import BOOL, INT, WORD, _player
from .shapes import PRIMITIVE_SHAPES

#: A `move` of at most this many cards, as written, is not charged to the budget on its own,
#: nor a block or `each_player` of at most this many statements (the players at the most):
#: what runs uncharged is bounded by these, and normal games do not pay for charging it.
FEW = 8
SMALL = 64


class Effects(Compiler):
    """The effect primitives (`st_NAME`) and the operations' bodies."""

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
        # a large block spends its statements (`RulesMatch.spend`): operations calling
        # operations twice each would otherwise multiply their work with no loop at all
        n = sum(_size_of(f) for f, _ in parts)
        rounds = sum(_rounds_of(f) for f, _ in parts)
        if not any(g for _, g in parts):
            fns = [f for f, _ in parts]

            def run(m: Any, s: int, c: int) -> None:
                for f in fns:
                    f(m, s, c)

            def run_spent(m: Any, s: int, c: int) -> None:
                m.spend(n)
                for f in fns:
                    f(m, s, c)
            return _mark(run if n <= SMALL else run_spent, rounds, n), False
        steps = parts

        def run_gen(m: Any, s: int, c: int) -> Iterator:
            if n > SMALL:
                m.spend(n)
            for f, g in steps:
                if g:
                    yield from f(m, s, c)
                else:
                    f(m, s, c)
        return _mark(run_gen, rounds, n), True

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
            if key in PRIMITIVE_SHAPES and isinstance(arg, dict):
                self.keys(arg, key, (*loc, key))
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
        if "where" in spec:
            return self.move_where(src, dst, count, limit, spec["where"], (*loc, "where"))
        restock = zsrc.restock if zsrc is not None else None
        keep = zsrc.keep if zsrc is not None else 0
        # a few cards, as written, are the statement's own cost (its block's charge): most moves
        # draw one, and charging each would cost normal games more than the bound is worth
        few = getattr(count, "const", MAX_REPEAT) <= FEW

        def move(m: Any, s: int, c: int) -> None:
            a, b = src(m, s), dst(m, s)
            n = len(a) if count is None else max(0, min(count(m, s, c), MAX_REPEAT))
            if not few:
                m.spend(n)
            for _ in range(n):
                if not a:
                    if restock is None or not m.restock(a, restock, keep):
                        return
                if limit is not None and len(b) >= limit:
                    return
                b.append(a.pop())
        return move, False

    def move_where(self, src: Callable, dst: Callable, count: Callable | None, limit: int | None,
                   where: Any, loc: tuple) -> tuple[Callable, bool]:
        """`move` with `where:`: the top `count` cards (or `all`) of those for which `where`
        holds (`card` is each), in their order; the others stay. No restock: what matches is
        what there is."""
        cond = self.value(where, loc, BOOL)
        if cond is None:
            return _NOOP

        def move(m: Any, s: int, c: int) -> None:
            a, b = src(m, s), dst(m, s)
            n = len(a) if count is None else min(count(m, s, c), MAX_REPEAT)
            m.spend(len(a))
            picked = [h for h in reversed(a) if cond(m, s, h)][:n]
            if limit is not None:
                picked = picked[:max(0, limit - len(b))]
            taken = set(picked)
            a[:] = [h for h in a if h not in taken]
            b.extend(picked)
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
        """The player (`by:` another: the one who picks) picks one card of a zone (for which
        `where` holds); `do` runs with it in focus. `from: others.ZONE` (or `all.ZONE`) offers
        the cards of that zone of every other player (of every player), and makes the owner of
        the card picked the `target`. No card to pick: nothing happens."""
        spec = self.mapping(spec, loc)
        by = None
        if spec.get("by", "me") not in ("me", "next", "prev", "target"):
            self.error((*loc, "by"), "by: me, next, prev or target")
        elif spec.get("by", "me") != "me":
            by = _player(spec["by"])
        source = spec.get("from")
        owners, _, name = source.rpartition(".") if isinstance(source, str) else ("", "", "")
        if owners in ("others", "all"):
            zone = self.zones.get(name)
            if zone is None or not zone.per_player or "who" in spec:
                self.error((*loc, "from"), f"{owners}.ZONE names a zone of each player (and no "
                           "`who:`)")
                return _NOOP
            k, skip_me = zone.index, owners == "others"
            z = None
        else:
            z = self.zone_arg(source, (*loc, "from"), self.who(spec, loc))
            if z is None:
                return _NOOP
        where = self.value(spec["where"], (*loc, "where"), BOOL) if "where" in spec else None
        body, gen = self.block(spec.get("do") or [], (*loc, "do"))

        def choose_card(m: Any, s: int, c: int) -> Iterator:
            owner: dict[int, int] = {}
            if z is None:
                for p in range(m.n):
                    if not (skip_me and p == s):
                        owner.update((h, p) for h in m.pz[k][p])
                cards = list(owner)
            else:
                cards = z(m, s)
            m.spend(len(cards))
            opts = [("pick", h) for h in cards if where is None or where(m, s, h)]
            if not opts:
                return
            got = yield from m.ask("choose_card", s if by is None else by(m, s), opts)
            if owner:
                m.target = owner[got[1]]
            if gen:
                yield from body(m, s, got[1])
            else:
                body(m, s, got[1])
        return _mark(choose_card, _rounds_of(body), 1 + _size_of(body)), True

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
        self.keys(st, "if", loc, " in if")
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
            return _mark(if_gen, max(_rounds_of(then), _rounds_of(other)),
                         1 + max(_size_of(then), _size_of(other))), True

        def if_(m: Any, s: int, c: int) -> None:
            (then if cond(m, s, c) else other)(m, s, c)
        return _mark(if_, max(_rounds_of(then), _rounds_of(other)),
                     1 + max(_size_of(then), _size_of(other))), False

    def st_repeat(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        spec = self.mapping(spec, loc)
        body, gen = self.block(spec.get("do") or [], (*loc, "do"))
        times = self.value(spec["times"], (*loc, "times")) if "times" in spec else None
        cond = self.value(spec["while"], (*loc, "while"), BOOL) if "while" in spec else None
        if times is None and cond is None:
            self.error(loc, f"repeat: give `times:` or `while:` (at most {MAX_REPEAT} times)")
            return _NOOP

        # repeats of written counts nested past the work cap stop every game that reaches them
        inner = _rounds_of(body)
        total = getattr(times, "const", 0) * (1 + inner)
        if total > CAP >= inner:
            self.error(loc, f"repeats nested here run {total:,} rounds each time, past the work "
                       f"cap of {CAP:,}: a game that gets here stops as a timeout", "rules-cap")

        def rounds(m: Any, s: int, c: int) -> range:
            return range(min(MAX_REPEAT, max(0, times(m, s, c))) if times else MAX_REPEAT)

        if gen:
            def repeat_gen(m: Any, s: int, c: int) -> Iterator:
                for _ in rounds(m, s, c):
                    if cond is not None and not cond(m, s, c):
                        return
                    m.work_step()
                    yield from body(m, s, c)
            return _mark(repeat_gen, total, 1 + _size_of(body)), True

        def repeat(m: Any, s: int, c: int) -> None:
            for _ in rounds(m, s, c):
                if cond is not None and not cond(m, s, c):
                    return
                m.work_step()
                body(m, s, c)
        return _mark(repeat, total, 1 + _size_of(body)), False

    def st_each_player(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        """The effects for each player in turn order from the acting one, each as `me`;
        `{others: true, do: [...]}` leaves the acting player out ("each opponent")."""
        first = 0
        if isinstance(spec, dict) and "do" in spec:
            self.keys(spec, "each_player", loc)
            first = 1 if spec.get("others") else 0
            spec, loc = spec["do"], (*loc, "do")
        body, gen = self.block(spec, loc)
        inner = _size_of(body)
        size = 1 + len(SEAT_NAMES) * inner        # at the most players
        spent = size > SMALL
        if gen:
            def each_gen(m: Any, s: int, c: int) -> Iterator:
                if spent:
                    m.spend(m.n * inner)
                for i in range(first, m.n):
                    yield from body(m, (s + i * m.dir) % m.n, c)
            return _mark(each_gen, _rounds_of(body), size), True

        def each(m: Any, s: int, c: int) -> None:
            if spent:
                m.spend(m.n * inner)
            for i in range(first, m.n):
                body(m, (s + i * m.dir) % m.n, c)
        return _mark(each, _rounds_of(body), size), False

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
            return _mark(top_gen, _rounds_of(body), 1 + _size_of(body)), True

        def top(m: Any, s: int, c: int) -> None:
            zl = z(m, s)
            if zl:
                body(m, s, zl[-1])
        return _mark(top, _rounds_of(body), 1 + _size_of(body)), False

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
        """The card in focus resolves its own effects (its operations, with their bodies),
        looked up as it runs: an operation's body, where it may stand too, is compiled before
        the cards' effects are."""
        def resolve(m: Any, s: int, c: int) -> Iterator:
            if c < 0:
                return
            if m.resolving >= MAX_RESOLVE:
                raise GameOver(capped=True)
            effects = m.r.effects[c]
            m.spend(len(effects))      # two in a body would multiply down a chain of resolves
            m.resolving += 1
            for f, g in effects:
                if g:
                    yield from f(m, s, c)
                else:
                    f(m, s, c)
            m.resolving -= 1
        return resolve, True

    def st_end(self, spec: Any, loc: tuple) -> tuple[Callable, bool]:
        self.has_end = True

        def end(m: Any, s: int, c: int) -> None:
            raise GameOver()
        return end, False


def _mark(f: Callable, rounds: int, size: int) -> Callable:
    """``f``, marked with the `repeat` rounds of written counts it runs (`st_repeat`) and the
    statements one run of it runs, a round of each repeat in it and every player counted
    (`block`)."""
    f.rounds, f.size = rounds, size       # type: ignore[attr-defined]
    return f


def _rounds_of(f: Callable) -> int:
    return getattr(f, "rounds", 0)


def _size_of(f: Callable) -> int:
    return getattr(f, "size", 1)


PRIMITIVES = tuple(k[3:] for k in vars(Effects) if k.startswith("st_") and k != "st_call") + ("if",)
