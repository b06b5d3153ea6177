"""Rules as data: the engine of every game that declares `rules:` (docs/rules.md).

A manifest's `rules:` is either the rules themselves or the name of a file beside it
(`rules: rules.yaml`); such a game plays with this engine, registered as `rules` (the manifest
needs no `engine:`). `prepare` compiles the rules once per configuration into tables and
closures (`compile.Rules`); `forge check` runs the same compiler, whose findings carry the
file:line:col of the rules, through `check_data`.
"""
from __future__ import annotations

import weakref
from typing import Any, Callable, Iterator, Mapping, Sequence

from ...errors import Finding
from ...load import Document
from ..core import SEAT_NAMES, Engine, Flow, Operation, Option, Param, ScenarioKeys
from ..figures import Column, FigureTable
from ..scenario import ANY, Int, Map, N, SEAT, SetupContext
from .base import BUDGET, CAP
from .compile import Rules
from .match import RulesMatch, RulesPrepared
from .redeal import redeal

NAME = "rules"
_COMPILED: "weakref.WeakKeyDictionary[Any, Rules]" = weakref.WeakKeyDictionary()


def rules_source(game: Any) -> tuple[Document, tuple, Any]:
    """(document, path of `rules` in it, the data) of a game's rules: its manifest's `rules:`
    mapping, or the file it names (read by the loader; no data when it could not be)."""
    if isinstance(game.manifest.rules, str):
        if game.rules_doc is None:
            return game.manifest_doc, ("rules",), None
        return game.rules_doc, (), game.rules_doc.data
    return game.manifest_doc, ("rules",), game.manifest.rules


def compiled(game: Any) -> Rules:
    """The game's rules compiled for every card of every set (what `check` reads)."""
    if game not in _COMPILED:
        doc, base, data = rules_source(game)
        handles = [c for c in game.cards for _ in range(c.copies)]
        _COMPILED[game] = Rules(game, doc, base, data, handles)
    return _COMPILED[game]


def operations_for(game: Any) -> dict[str, Operation]:
    """The manifest's operations that the rules give a body, as the engine's operations (all
    of them while the rules file does not load: its finding is the one to fix)."""
    rules = compiled(game)
    every = rules_source(game)[2] is None
    return {name: Operation(name, {p: Param(int if s.type == "int" else bool if s.type == "bool"
                                            else str) for p, s in spec.params.items()},
                            _in_the_rules)
            for name, spec in game.manifest.operations.items() if every or name in rules.ops}


def _in_the_rules(*args: Any, **kwargs: Any) -> Flow[None]:
    """An operation of a rules game runs as its compiled body (`Rules.op_body`), not as this."""
    return
    yield


def check_data(game: Any) -> Iterator[Finding]:
    """The compiler's findings (a rules file that does not load is the loader's finding)."""
    if game.manifest.rules is None:
        yield game.manifest_finding(("engine",), "rules", "the rules engine plays the rules a "
                                    "manifest writes in `rules:`, and this one has none",
                                    "add `rules:` (docs/rules.md), or name another engine")
    elif rules_source(game)[2] is not None:
        yield from compiled(game).findings


def prepare(game: Any, options: Mapping[str, Any], sets: Sequence[str] | None = None) -> RulesPrepared:
    return RulesPrepared(game, options, sets)


# ---------------------------------------------------------------------------------- scenarios

def _zone_list(match: RulesMatch, name: str, seat: int | None) -> list[int] | None:
    z = match.r.zones.get(name)
    if z is None or z.per_player != (seat is not None):
        return None
    return match.pz[z.index][seat] if seat is not None else match.gz[z.index]


def _counter(match: RulesMatch, name: str, seat: int | None) -> tuple[list, int] | None:
    c = match.r.counters.get(name)
    if c is None or c.per_player != (seat is not None):
        return None
    return (match.pc[c.index], seat) if seat is not None else (match.gc, c.index)


def scenario_setup(match: RulesMatch, data: dict, ctx: SetupContext) -> None:
    """`zones: {deck: [ids, top first]}` and `seats: {A: {hand: [ids], points: 3}}` place cards
    and set counters; `counters:` sets the game's; `turn: B` says whose turn it is, `round: 2` how
    many rounds were played before (`round` reads it). The cards
    not placed go, shuffled, under the first zone's listed ones. With `deal: true` the rules'
    own setup deals from the seed."""
    if data.get("deal"):
        return
    placed: list[tuple[list[int], list[int]]] = []
    for name, ids in (data.get("zones") or {}).items():
        zl = _zone_list(match, name, None)
        if zl is None:
            raise ctx.error(("zones", name), f"{name!r} is not a zone of the game "
                            f"(zones: {', '.join(match.r.zones)})")
        placed.append((zl, ctx.take_all(("zones", name), ids)[::-1]))   # top first -> the end
    for who, entry in (data.get("seats") or {}).items():
        seat = ctx.seat(who)
        for name, value in (entry or {}).items():
            loc = ("seats", who, name)
            if isinstance(value, list):
                zl = _zone_list(match, name, seat)
                if zl is None:
                    raise ctx.error(loc, f"{name!r} is not a zone of each player")
                placed.append((zl, ctx.take_all(loc, value)))
            else:
                slot = _counter(match, name, seat)
                if slot is None:
                    raise ctx.error(loc, f"{name!r} is not a counter of each player")
                slot[0][slot[1]] = value
    for name, value in (data.get("counters") or {}).items():
        slot = _counter(match, name, None)
        c = match.r.counters.get(name)
        if slot is None or c is None or (c.values and value not in c.values) \
                or (not c.values and not isinstance(value, int)):
            raise ctx.error(("counters", name), f"{name!r} is not a counter of the game, or "
                            "the value does not fit it")
        slot[0][slot[1]] = value
    first = match.r.zone_list[0]
    rest = match.gz[first.index] if not first.per_player else match.pz[first.index][0]
    rest.extend(ctx.rest())
    for zl, hs in placed:
        zl.extend(hs)
    if "turn" in data:
        match.cur = ctx.seat(data["turn"])
    match.round = data.get("round", 0)
    if data.get("reversed"):
        match.dir = -1
    match.dealt = True


def scenario_expect(match: RulesMatch, expect: dict, ctx: SetupContext) -> None:
    """`zones: {discard: [ids] or a size}`, `top: {discard: id}`, `holds: {A: {hand: 0,
    points: 12}}`, `counters: {colour: red}`, `turn: B`."""
    def compare(loc: tuple, zl: list[int], want: Any) -> None:
        if isinstance(want, list):
            got = ctx.card_ids(zl)
            if got != sorted(want):
                ctx.fail(loc, f"holds {got}, expected {sorted(want)}")
        elif len(zl) != want:
            ctx.fail(loc, f"holds {len(zl)} cards, expected {want}")

    for name, want in (expect.get("zones") or {}).items():
        zl = _zone_list(match, name, None)
        if zl is None:
            ctx.fail(("zones", name), f"{name!r} is not a zone of the game")
        else:
            compare(("zones", name), zl, want)
    for name, want in (expect.get("top") or {}).items():
        zl = _zone_list(match, name, None)
        got = match.p.cid[zl[-1]] if zl else None
        if got != want:
            ctx.fail(("top", name), f"the top card of {name} is {got}, expected {want}")
    for who, entry in (expect.get("holds") or {}).items():
        seat = ctx.seat(who)
        for name, want in (entry or {}).items():
            loc = ("holds", who, name)
            zl = _zone_list(match, name, seat)
            if zl is not None:
                compare(loc, zl, want)
                continue
            slot = _counter(match, name, seat)
            if slot is None:
                ctx.fail(loc, f"{name!r} is neither a zone nor a counter of each player")
            elif slot[0][slot[1]] != want:
                ctx.fail(loc, f"{name} is {slot[0][slot[1]]}, expected {want}")
    for name, want in (expect.get("counters") or {}).items():
        slot = _counter(match, name, None)
        if slot is None:
            ctx.fail(("counters", name), f"{name!r} is not a counter of the game")
        elif slot[0][slot[1]] != want:
            ctx.fail(("counters", name), f"{name} is {slot[0][slot[1]]}, expected {want}")
    if "turn" in expect and match.cur != ctx.seat(expect["turn"]):
        ctx.fail(("turn",), f"it is {SEAT_NAMES[match.cur]}'s turn, expected {expect['turn']}'s")


def statistics(prepared: RulesPrepared, totals: dict, games: int) -> dict:
    """Game length (turns, and rounds when the flow has them), and the share of games the work
    cap stopped (Ludii's timeouts)."""
    if not games:
        return {}
    capped = totals.get("capped", 0)
    turns = totals.get("turns", 0) / games
    rounds = totals.get("rounds", 0) / games
    if rounds and not turns:        # a flow of rounds only has no turns to count
        uk, en = f"раундів за гру: {rounds:.1f}", f"rounds per game: {rounds:.1f}"
    else:
        uk = f"ходів за гру: {turns:.1f}" + (f", раундів: {rounds:.1f}" if rounds else "")
        en = f"turns per game: {turns:.1f}" + (f", rounds: {rounds:.1f}" if rounds else "")
    return {"turns_per_game": round(turns, 2), "rounds_per_game": round(rounds, 2),
            "timeouts": capped, "timeout_share": round(capped / games, 4),
            "lines": {"uk": [f"{uk}; зупинено межею: {capped} з {games}".replace(".", ",")],
                      "en": [f"{en}; stopped by the cap (timeouts): {capped} of {games}"]}}


_TABLE = {"uk": ("Тривалість партії", "Ходів за партію", "Раундів за партію", "Зупинено межею, партій"),
          "en": ("Game length", "Turns a game", "Rounds a game", "Stopped by the cap, games")}


def report_tables(figures: dict, games: int, name: Callable[[str], str],
                  lang: str) -> list[FigureTable]:
    """Game length and timeouts as the report's one-row table (rounds only when the flow has
    them)."""
    title, turns, rounds, capped = _TABLE.get(lang, _TABLE["en"])
    columns, row = [Column(turns, "decimal")], [figures["turns_per_game"]]
    if figures["rounds_per_game"]:
        columns.append(Column(rounds, "decimal"))
        row.append(figures["rounds_per_game"])
    return [FigureTable(title, (*columns, Column(capped, "count")), [(*row, figures["timeouts"])])]


_VALUE = (Int(), str)
ENGINE = Engine(
    name=NAME,
    players=(1, len(SEAT_NAMES)),
    prepare=prepare,
    operations={},          # a rules game's operations are its own: `operations_for(game)`
    options=(Option("cap", int, CAP, min=100, max=10_000_000,
                    help="Actions and loop rounds a game may take before it is stopped and "
                         "counted as a timeout."),
             Option("budget", int, BUDGET, min=1000, max=1_000_000_000,
                    help="Work a game may take (cards visited by scans and moves, statements "
                         "run) before it is stopped and counted as a timeout.")),
    scenario=ScenarioKeys(
        setup={"zones": Map(str, [ANY]), "counters": Map(str, _VALUE), "turn": SEAT,
               "reversed": bool, "round": N},
        seat=Map(str, ([ANY], Int())),
        expect={"zones": Map(str, ([ANY], N)), "top": Map(str, str),
                "holds": Map(SEAT, Map(str, ([ANY], Int(), str))),
                "counters": Map(str, _VALUE), "turn": SEAT},
        stops={"turns": "turn", "rounds": "round"}),
    scenario_setup=scenario_setup,
    scenario_expect=scenario_expect,
    check_data=check_data,
    statistics=statistics,
    report_tables=report_tables,
    redeal=redeal,
)
