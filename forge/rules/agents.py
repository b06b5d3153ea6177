"""Generic agents: functions ``(match, seat, options, rng) -> option``.

- ``random``: uniform over the legal options the engine offers.

An engine adds its own agents in its ``AGENTS``; an agent reads ``match.view(seat)`` or the
options, never the match's hidden zones.
"""
from __future__ import annotations

import random
from typing import Any, Callable

Agent = Callable[[Any, int, list, random.Random], tuple]


def random_agent(match: Any, seat: int, options: list, rng: random.Random) -> tuple:
    return options[int(rng.random() * len(options))]


AGENTS: dict[str, Agent] = {"random": random_agent}
#: How a report names an agent in each language; an engine adds its own in ``AGENT_NAMES``.
AGENT_NAMES: dict[str, dict[str, str]] = {"random": {"uk": "випадковий", "en": "random"}}


def agent_name(engine: Any, agent: str, lang: str) -> str:
    """``agent`` as a report in ``lang`` names it (its id when nobody translated it)."""
    names = {**AGENT_NAMES, **dict(getattr(engine, "AGENT_NAMES", None) or {})}
    return names.get(agent, {}).get(lang, agent)


def agents_for(engine: Any) -> dict[str, Agent]:
    """The generic agents and the engine's own (the engine's win on a shared name)."""
    return {**AGENTS, **dict(getattr(engine, "AGENTS", None) or {})}
