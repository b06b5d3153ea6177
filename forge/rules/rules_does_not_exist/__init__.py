"""«Rules. Does Not Exist.» (the rave game): the Basic mode (edition 0.8) for 2-5 players, played
from the card data in ``cards/rules_does_not_exist``; its `ENGINE` is what the entry point
``forge.rules.rules_does_not_exist:ENGINE`` names (docs/engines.md).

Modules, each importable on its own: `tables` (rule constants, options, card tables, lineup
strength), `state` (zones, abilities, limits, invariants, views), `operations` (card
operations), `flow` (the turn: `Match`, `Prepared`, `prepare`), `agents`, `scenario` (schema,
setup, checks and their sentences), `statistics`, `report` (its words and tables in the balance
report), `lints` (data checks), `redeal` (what a seat cannot see, dealt anew for the `search`
agent).
"""
from __future__ import annotations

from .. import core
from .agents import AGENT_NAMES, AGENTS
from .flow import Match, Prepared, prepare
from .lints import check_data
from .redeal import redeal
from .report import KIND_NAMES, VERB_NAMES, report_tables
from .operations import ABILITY_OPS, FAILURE_OPS, MERC_ONLY, OPERATIONS
from .scenario import SCENARIO, SCORE_UNIT, describe_expect, scenario_expect, scenario_setup
from .statistics import statistics
from .tables import (CLASS, DRAFT, ESCAPE_AT, FIRST_PLAYER, HIRE_AT, LIMIT, MAX_MERCS, MERC,
                     MONSTER, NUMERIC_FX, OPTIONS, PLAYERS, REQUIRES, ROLES, RULES, SOUND,
                     TYPE_CODES, lineup_strength)

#: The engine, registered as ``forge.rules.rules_does_not_exist:ENGINE``.
ENGINE = core.Engine(
    "rules_does_not_exist", PLAYERS, prepare, OPERATIONS, options=OPTIONS, requires=REQUIRES,
    agents=AGENTS, agent_names=AGENT_NAMES, scenario=SCENARIO, scenario_setup=scenario_setup,
    scenario_expect=scenario_expect, describe_expect=describe_expect, score_unit=SCORE_UNIT,
    rules=RULES, check_data=check_data, statistics=statistics,
    report_tables=report_tables, kind_names=KIND_NAMES, verb_names=VERB_NAMES,
    default_agents=("sensible",), redeal=redeal)

__all__ = ["ABILITY_OPS", "AGENTS", "AGENT_NAMES", "CLASS", "DRAFT", "ENGINE", "ESCAPE_AT",
           "FAILURE_OPS", "FIRST_PLAYER", "HIRE_AT", "LIMIT", "MAX_MERCS", "MERC", "MERC_ONLY",
           "MONSTER", "NUMERIC_FX", "OPERATIONS", "OPTIONS", "PLAYERS", "Prepared", "REQUIRES",
           "ROLES", "RULES", "SCENARIO", "SCORE_UNIT", "SOUND", "TYPE_CODES", "Match",
           "check_data", "describe_expect", "lineup_strength", "prepare", "scenario_expect",
           "scenario_setup", "statistics"]
