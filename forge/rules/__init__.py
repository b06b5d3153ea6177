"""`rules`: the engine core, the engines that plug into it, agents and simulation.

    from forge.rules import engine_for, simulate
    engine = engine_for(game)                 # the engine the manifest names in `engine:`
    result = simulate(game, games=300, players=4, seed=1)

Engines are found through the entry-point group ``card_forge.engines`` (docs/engines.md): each
entry names an engine's `Engine` object (``love_formula = "forge.rules.love_formula:ENGINE"``).
The built-in engines are registered the same way in forge's own pyproject.toml, so a game kept
in its own package brings its engine without touching forge.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Iterator

from ..errors import EngineError, IllegalAction, InvariantViolation
from .agents import AGENTS, random_agent
from .core import (Chance, Decision, Engine, Match, Operation, Option, Prepared, Requires, Result,
                   Rolled, ScenarioKeys, Streams, Violation, chance_odds, derive_seed, operation,
                   operations_of, play_game, replay)

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUP = "card_forge.engines"


class _Registry(Mapping[str, Engine]):
    """Engines by `engine:` id, loaded from the entry points on first use. A broken
    third-party engine does not hide the others: asking for it raises its EngineError."""

    def __init__(self) -> None:
        self._found: dict[str, EntryPoint] | None = None
        self._engines: dict[str, Engine] = {}
        self._errors: dict[str, str] = {}

    def _discover(self) -> dict[str, EntryPoint]:
        if self._found is None:
            from importlib.metadata import EntryPoint, entry_points   # only when asked for
            # Rules as data (`rules:` in a manifest) is forge itself, not a plugin: always there.
            found: dict[str, EntryPoint] = {"rules": EntryPoint("rules", "forge.rules.data:ENGINE",
                                                                GROUP)}
            for ep in entry_points(group=GROUP):
                found.setdefault(ep.name, ep)
            self._found = found
        return self._found

    def _load(self, name: str) -> Engine:
        if name in self._engines:
            return self._engines[name]
        if name in self._errors:
            raise EngineError(self._errors[name])
        target = self._discover()[name]
        try:
            engine = target.load()
        except Exception as exc:  # noqa: BLE001 - a third-party engine may fail in any way
            self._errors[name] = f"the rules engine {name!r} does not load: {type(exc).__name__}: {exc}"
            raise EngineError(self._errors[name]) from None
        if not isinstance(engine, Engine):
            self._errors[name] = (f"the rules engine {name!r} breaks the engine contract: its entry "
                                  f"point {target.value!r} names {type(engine).__name__} "
                                  f"{engine!r:.60}, not a forge.rules.Engine (an entry names the "
                                  "engine's object: `package.module:ENGINE`)")
        elif engine.name != name:
            self._errors[name] = (f"the rules engine {name!r} breaks the engine contract: its "
                                  f"name is {engine.name!r}")
        if name in self._errors:
            raise EngineError(self._errors[name])
        self._engines[name] = engine
        return engine

    def __getitem__(self, name: str) -> Engine:
        if name not in self._engines and name not in self._discover():
            raise KeyError(name)
        return self._load(name)

    def get(self, name: object, default: Any = None) -> Any:
        if not isinstance(name, str) or (name not in self._engines and name not in self._discover()):
            return default
        return self._load(name)

    def __contains__(self, name: object) -> bool:
        return name in self._engines or name in self._discover()

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(set(self._discover()) | set(self._engines)))

    def __len__(self) -> int:
        return len(set(self._discover()) | set(self._engines))

    def register(self, engine: Engine) -> Engine:
        """Register an engine directly (tests, notebooks); entry points are the way for
        packages."""
        if not isinstance(engine, Engine):
            raise EngineError(f"{engine!r:.60} is not a forge.rules.Engine")
        self._engines[engine.name] = engine
        self._errors.pop(engine.name, None)
        return engine

    def unregister(self, name: str) -> None:
        self._engines.pop(name, None)
        self._errors.pop(name, None)

    def refresh(self) -> None:
        """Look the entry points up again (after installing a package)."""
        self._found = None
        self._errors.clear()


#: Engines by engine id.
ENGINES = _Registry()
register = ENGINES.register


def get_engine(name: str) -> Engine:
    """The engine registered as ``name``; EngineError naming the known ones if none."""
    engine = ENGINES.get(name)
    if engine is None:
        raise EngineError(f"no rules engine {name!r} (known: {', '.join(ENGINES) or 'none'}; an "
                          "engine is found through the `card_forge.engines` entry points: "
                          "after editing a pyproject.toml, reinstall with `pip install -e .`)")
    return engine


def engine_for(game: Any) -> Engine | None:
    """The engine a manifest names in `engine:`, or None when it names none or an unknown one
    (a broken one raises EngineError)."""
    return ENGINES.get(game.manifest.engine) if game.manifest.engine else None


# Imported last (it reads ENGINES); binding the function after the import keeps
# `forge.rules.simulate` the function whichever module imported the submodule first.
from . import simulate as _simulate_module  # noqa: E402,F401
from .simulate import simulate  # noqa: E402

__all__ = ["AGENTS", "Chance", "Decision", "ENGINES", "Engine", "EngineError", "GROUP",
           "IllegalAction", "InvariantViolation", "Match", "Operation", "Option", "Prepared",
           "Requires", "Result", "Rolled", "ScenarioKeys", "Streams", "Violation", "chance_odds",
           "derive_seed", "engine_for", "get_engine", "operation", "operations_of", "play_game",
           "random_agent", "register", "replay", "simulate"]
