"""The rule numbers a game's engine declares for print (its Engine's ``rules``, docs/engines.md):
what the rulebook, cheat sheet and card layouts get as ``rules``, so a template prints
``{{ rules.escape_at }}`` rather than typing the engine's number a second time."""
from __future__ import annotations

from typing import Any

from ..errors import EngineError
from . import engine_for


def rule_numbers(game: Any) -> dict[str, int]:
    """``{name: number}`` of ``game``'s engine; empty without an engine, or with one that does
    not load (`forge check` reports that)."""
    try:
        engine = engine_for(game)
    except EngineError:
        return {}
    return dict(engine.rules) if engine else {}
