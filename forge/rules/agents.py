"""Generic agents: functions ``(match, seat, options, rng) -> option``.

- ``random``: uniform over the legal options the engine offers;
- ``search``: Monte Carlo search over samples of what its seat cannot see (forge/rules/search.py),
  for every engine with a `redeal` hook, playing out with the engine's own heuristic.

An engine adds its own agents in its `Engine.agents`; an agent reads ``match.view(seat)`` or the
options, never the match's hidden zones. `forbidding` restricts any agent (restricted-play
ablation, `forge compare --ablate`).
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Mapping

from .search import BUDGET, Search, rollout_policy

if TYPE_CHECKING:
    from .core import Engine, Match

#: ``agent(match, seat, options, rng) -> option``; ``match`` is the engine's own `Match`
#: subclass, which a callable typed for the base would not accept.
Agent = Callable[[Any, int, list, random.Random], tuple]


def random_agent(match: Match, seat: int, options: list, rng: random.Random) -> tuple:
    return options[int(rng.random() * len(options))]


AGENTS: dict[str, Agent] = {"random": random_agent}
#: How a report names an agent in each language; an engine adds its own in `Engine.agent_names`.
AGENT_NAMES: dict[str, dict[str, str]] = {"random": {"uk": "випадковий", "en": "random"},
                                          "search": {"uk": "пошуковий", "en": "search"}}


def agent_name(engine: Engine | None, agent: str, lang: str) -> str:
    """``agent`` as a report in ``lang`` names it (its id when nobody translated it)."""
    names = {**AGENT_NAMES, **(engine.agent_names if engine else {})}
    return names.get(agent, {}).get(lang, agent)


def named(match: Match, option: tuple) -> list[str]:
    """What ``option`` names after its verb: `Match.label` names a card by its id (``play kiss``),
    so these words hold the ids of the cards the option offers (with seats, numbers ...). An
    engine's label depends on the option alone, so its words may be kept for the whole run."""
    return match.label(option).split()[1:]


def forbidding(agent: Agent, cards: frozenset[str]) -> Agent:
    """``agent`` forbidden to choose an option that names one of ``cards`` (`named`), so the
    agent neither plays nor picks the card while it has another option; when every option names
    one, it chooses among them as usual."""
    def restricted(match: Match, seat: int, options: list, rng: random.Random) -> tuple:
        allowed = [o for o in options if cards.isdisjoint(named(match, o))]
        return agent(match, seat, allowed or options, rng)
    return restricted


def agents_for(engine: Engine, options: Mapping[str, Any] | None = None) -> dict[str, Agent]:
    """The generic agents and the engine's own (the engine's win on a shared name), and
    ``search`` for an engine with a `redeal` hook, with ``options["search_budget"]`` playouts
    a decision (default `search.BUDGET`)."""
    out = {**AGENTS, **engine.agents}
    if engine.redeal is not None and "search" not in out:
        budget = (options or {}).get("search_budget", BUDGET)
        out["search"] = Search(engine, rollout_policy(engine, out), budget)
    return out
