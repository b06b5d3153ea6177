"""The manifest and the cards must fit the rules engine the manifest names (`engine:`):

- the engine exists and loads (a broken or unknown one is a finding at the `engine:` line);
- the manifest's player count lies within what the engine can seat (its `players`);
- the card types and fields the engine reads (its `requires`) exist in the manifest;
- every operation the manifest declares is implemented, with exactly the parameter names the
  engine registered (`@operation`), of a compatible type, and with no enum word the engine does
  not take;
- every effect list of every card (its `effects` and every effects-typed field, such as a
  `failure` list of a card type) names only operations the engine implements.

All of these are findings with file:line, never an exception: no `KeyError` reaches a user.
"""
from __future__ import annotations

from typing import Any, Iterator

from ..errors import EngineError, Finding
from ..model import Game
from ..model.cards import COMMON_KEYS

#: Manifest parameter types that fit each engine parameter type.
_FITS = {int: {"int"}, bool: {"bool"}, str: {"str", "text", "enum", "ref"}, float: {"int"}}


def check_engine(game: Game) -> Iterator[Finding]:
    engine_id = game.manifest.engine
    if not engine_id:
        return
    from ..rules import ENGINES
    try:
        engine = ENGINES.get(engine_id)
    except EngineError as exc:
        yield game.manifest_finding(("engine",), "broken-engine", str(exc),
                                    "fix or reinstall the package that provides it")
        return
    if engine is None:
        yield game.manifest_finding(("engine",), "unknown-engine",
                                    f"no rules engine {engine_id!r} (known: {', '.join(ENGINES)})",
                                    "name an existing engine, or drop `engine:` (an engine "
                                    "in its own package must be installed)")
        return
    yield from _check_players(game, engine_id, engine.players)
    yield from _check_requires(game, engine_id, engine.requires)
    implemented = engine.operations
    if game.manifest.rules is not None:     # rules as data: the operations the rules give a body
        from ..rules.data import operations_for
        implemented = operations_for(game)
    for name, spec in game.manifest.operations.items():
        op = implemented.get(name)
        if op is None:
            yield game.manifest_finding(("operations", name), "unimplemented-operation",
                                        f"operation {name!r} is not implemented by the "
                                        f"{engine_id} engine")
            continue
        yield from _check_params(game, engine_id, name, spec, op)
    for card in game.cards:
        for loc, ops in game.effect_lists(card):
            for i, op in enumerate(ops):
                if op.name not in implemented:
                    yield card.finding((*loc, i), "unimplemented-operation",
                                       f"operation {op.name!r} is not implemented by the "
                                       f"{engine_id} engine")
    if engine.check_data is not None:       # findings certain from the data alone
        yield from engine.check_data(game)


def _check_params(game: Game, engine_id: str, name: str, spec: Any, op: Any) -> Iterator[Finding]:
    declared, known = set(spec.params), set(op.params)
    if declared != known:
        yield game.manifest_finding(
            ("operations", name, "params"), "operation-params",
            f"operation {name!r}: declared parameters {sorted(declared)} differ from the "
            f"engine's {sorted(known)}")
    for pname in sorted(declared & known):
        mine, theirs = spec.params[pname], op.params[pname]
        fits = _FITS.get(theirs.type, set())
        if mine.type not in fits:
            yield game.manifest_finding(
                ("operations", name, "params", pname), "operation-params",
                f"operation {name!r}: parameter {pname!r} is {mine.type} here but "
                f"{theirs.type.__name__} in the {engine_id} engine")
        elif theirs.choices and mine.values:
            extra = [v for v in mine.values if v not in theirs.choices]
            if extra:
                yield game.manifest_finding(
                    ("operations", name, "params", pname), "operation-params",
                    f"operation {name!r}: the {engine_id} engine does not take "
                    f"{pname}={', '.join(extra)} (it takes {', '.join(map(str, theirs.choices))})")


def _check_requires(game: Game, engine_id: str, requires: Any) -> Iterator[Finding]:
    types = game.manifest.card_types
    missing = [t for t in requires.types if t not in types and t not in requires.optional]
    if missing:     # one finding: they all stand at the `engine:` line
        yield game.manifest_finding(
            ("engine",), "engine-requires",
            f"the {engine_id} engine plays with {', '.join(repr(t) for t in missing)} cards, but "
            f"the manifest declares no such card type (known: {', '.join(types)})",
            "name the engine written for these cards, or add the types")
    for tname, fields in requires.types.items():
        spec = types.get(tname)
        if spec is None:
            continue
        lacking = [f for f in fields if f not in spec.fields and f not in COMMON_KEYS]
        if lacking:
            yield game.manifest_finding(
                ("card_types", tname), "engine-requires",
                f"the {engine_id} engine reads {', '.join(map(repr, lacking))} on {tname!r} "
                f"cards, but the type declares no such field",
                f"add them to card_types.{tname}.fields")


def _check_players(game: Game, engine_id: str, supported: tuple[int, int]) -> Iterator[Finding]:
    lo, hi = supported
    players = game.manifest.players
    for key, value, bad in (("min", players.min, players.min < lo), ("max", players.max, players.max > hi)):
        if bad:
            yield game.manifest_finding(("players", key), "players",
                                        f"players.{key} is {value}, but the {engine_id} engine "
                                        f"plays {lo}-{hi} players", f"allow {lo}-{hi} players")
