"""«Формула кохання» / Love Formula: the complete rules for 2-4 players, with the Chance,
#RelationshipGoals and promo expansions, played from the card data in ``cards/love_formula``.

Its `ENGINE` (registered as ``forge.rules.love_formula:ENGINE``) is declared here, from the
modules:

- `tables`: rule constants (``RULES``: those the rulebook prints), the card data the engine
  reads (``REQUIRES``), the card tables;
- `options`: the engine's options and the `Config` they make;
- `actions`: the options a seat is offered, as named tuples;
- `state`: the position, and the rules that read it (scoring, goals, invariants, views);
- `resolve`: how a card lands and resolves, reactions, heart tokens, chance cards;
- `operations`: the effect operations;
- `flow`: the game's flow (`Match`), `Prepared` and `prepare`;
- `agents`: the ``greedy`` agent; `scenario`: the scenario keys and their sentences;
- `statistics`: the designer's figures from the games' `state.GameStats`;
- `redeal`: what a seat cannot see, dealt anew for the ``search`` agent;
- `report`: how the balance report names its decisions and options.
"""
from __future__ import annotations

from ..core import Engine
from .agents import AGENT_NAMES, AGENTS, greedy_agent
from .flow import OPERATIONS, OPS, Match, Prepared, prepare
from .redeal import redeal
from .options import GOAL_VARIANTS, OPTIONS, Config, config_from, full_replacement
from .report import KIND_NAMES, VERB_NAMES, report_tables
from .scenario import SCENARIO, SCORE_UNIT, describe_expect, scenario_expect, scenario_setup
from .state import Ctx
from .statistics import statistics
from .tables import (ACTION, CHANCE, CONN, DRAFT, GOAL, OBST, PAIR, PASSIVE, PLAYERS, PREP, REACT,
                     REQUIRES, ROUNDS, RULES, SUBTYPES, TYPE_CODES, VP)

ENGINE = Engine(
    "love_formula", PLAYERS, prepare, OPERATIONS, options=OPTIONS,
    # the flag `forge simulate` had before options were declared: `--goals-value N`
    option_aliases={"goals_value": "goals_same_value"},
    requires=REQUIRES, agents=AGENTS, agent_names=AGENT_NAMES, kind_names=KIND_NAMES,
    verb_names=VERB_NAMES, scenario=SCENARIO,
    scenario_setup=scenario_setup, scenario_expect=scenario_expect,
    describe_expect=describe_expect, score_unit=SCORE_UNIT, rules=RULES, statistics=statistics,
    report_tables=report_tables, redeal=redeal)

__all__ = ["ACTION", "AGENTS", "AGENT_NAMES", "CHANCE", "CONN", "Config", "Ctx", "DRAFT", "ENGINE",
           "GOAL", "GOAL_VARIANTS", "Match", "OBST", "OPERATIONS", "OPS", "OPTIONS", "PAIR",
           "PASSIVE", "PLAYERS", "PREP", "Prepared", "REACT", "REQUIRES", "ROUNDS", "RULES",
           "SCENARIO", "SCORE_UNIT", "SUBTYPES", "TYPE_CODES", "VP", "config_from",
           "describe_expect", "full_replacement", "greedy_agent", "prepare", "scenario_expect",
           "scenario_setup", "statistics"]
