"""Every effect operation a game declares and its cards use must be implemented by the rules
engine its manifest names (`engine:`), with exactly the declared parameters; and the manifest's
player count must lie within what the engine can seat (its `PLAYERS`, (min, max)), or
`simulate` would fail somewhere deep in setup."""
from __future__ import annotations

from typing import Iterator

from ..errors import Finding
from ..model import Game


def check_engine(game: Game) -> Iterator[Finding]:
    engine_id = game.manifest.engine
    if not engine_id:
        return
    from ..rules import ENGINES
    module = ENGINES.get(engine_id)
    if module is None:
        yield game.manifest_finding(("engine",), "unknown-engine",
                                    f"no rules engine {engine_id!r} (known: {', '.join(sorted(ENGINES))})",
                                    "name an existing engine, or drop `engine:`")
        return
    yield from _check_players(game, engine_id, module.PLAYERS)
    implemented = module.OPERATIONS
    for name, spec in game.manifest.operations.items():
        if name not in implemented:
            yield game.manifest_finding(("operations", name), "unimplemented-operation",
                                        f"operation {name!r} is not implemented by the "
                                        f"{engine_id} engine")
            continue
        declared, known = set(spec.params), set(implemented[name])
        if declared != known:
            yield game.manifest_finding(
                ("operations", name, "params"), "operation-params",
                f"operation {name!r}: declared parameters {sorted(declared)} differ from the "
                f"engine's {sorted(known)}")
    for card in game.cards:
        for i, op in enumerate(card.effects):
            if op.name not in implemented:
                yield card.finding(("effects", i), "unimplemented-operation",
                                   f"operation {op.name!r} is not implemented by the {engine_id} engine")


def _check_players(game: Game, engine_id: str, supported: tuple[int, int]) -> Iterator[Finding]:
    lo, hi = supported
    players = game.manifest.players
    for key, value, bad in (("min", players.min, players.min < lo), ("max", players.max, players.max > hi)):
        if bad:
            yield game.manifest_finding(("players", key), "players",
                                        f"players.{key} is {value}, but the {engine_id} engine "
                                        f"plays {lo}-{hi} players", f"allow {lo}-{hi} players")
