"""«Формула кохання» / Love Formula: the complete rules for 2-4 players, with the Chance,
#RelationshipGoals and promo expansions, played from the card data in ``cards/love_formula``.

The engine module (entry point ``love_formula = "forge.rules.love_formula"``), in modules:

- `tables`: rule constants (``RULES``: those the rulebook prints), the card data the engine
  reads (``REQUIRES``), the card tables;
- `options`: the engine's options and the `Config` they make;
- `actions`: the options a seat is offered, as named tuples;
- `state`: the position, and the rules that read it (scoring, goals, invariants, views);
- `resolve`: how a card lands and resolves, reactions, heart tokens, chance cards;
- `operations`: the effect operations;
- `flow`: the game's flow (`Match`), `Prepared` and `prepare`;
- `agents`: the ``greedy`` agent; `scenario`: the scenario keys and their sentences.
"""
from __future__ import annotations

from .agents import AGENT_NAMES, AGENTS, greedy_agent
from .flow import OPERATIONS, OPS, Match, Prepared, prepare
from .options import GOAL_VARIANTS, OPTION_ALIASES, OPTIONS, Config, config_from, full_replacement
from .scenario import SCENARIO, SCORE_UNIT, describe_expect, scenario_expect, scenario_setup
from .state import Ctx
from .tables import (ACTION, CHANCE, CONN, DRAFT, GOAL, NAME, OBST, PAIR, PASSIVE, PLAYERS, PREP,
                     REACT, REQUIRES, ROUNDS, RULES, SUBTYPES, TYPE_CODES, VP)

__all__ = ["ACTION", "AGENTS", "AGENT_NAMES", "CHANCE", "CONN", "Config", "Ctx", "DRAFT", "GOAL",
           "GOAL_VARIANTS", "Match", "NAME", "OBST", "OPERATIONS", "OPS", "OPTIONS",
           "OPTION_ALIASES", "PAIR", "PASSIVE", "PLAYERS", "PREP", "Prepared", "REACT", "REQUIRES",
           "ROUNDS", "RULES", "SCENARIO", "SCORE_UNIT", "SUBTYPES", "TYPE_CODES", "VP", "config_from",
           "describe_expect", "full_replacement", "greedy_agent", "prepare", "scenario_expect",
           "scenario_setup"]
