"""Every effect operation a game declares and its cards use must be implemented by the rules
engine its manifest names (`engine:`), with exactly the declared parameters."""
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
