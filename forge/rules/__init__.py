"""`rules`: the engine core, the game modules that plug into it, agents and simulation.

    from forge.rules import engine_for, simulate
    module = engine_for(game)                 # the module named by the manifest's `engine:`
    result = simulate(game, games=300, players=4, seed=1)
"""
from __future__ import annotations

from typing import Any

from . import love_formula
from .agents import AGENTS, greedy_agent, random_agent
from .core import (ENGINES, Decision, IllegalAction, InvariantViolation, Streams, Violation,
                   derive_seed, play_game, register)

register(love_formula)


def engine_for(game: Any) -> Any:
    """The game module a manifest names in `engine:`, or None."""
    return ENGINES.get(game.manifest.engine) if game.manifest.engine else None


def simulate(*args: Any, **kwargs: Any) -> dict:
    from .simulate import simulate as run
    return run(*args, **kwargs)


__all__ = ["AGENTS", "Decision", "ENGINES", "IllegalAction", "InvariantViolation", "Streams",
           "Violation", "derive_seed", "engine_for", "greedy_agent", "play_game",
           "random_agent", "register", "simulate"]
