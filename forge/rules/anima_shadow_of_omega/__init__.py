"""«Аніма: Тінь омеги» (Anima: Shadow of Omega) for 2-3 players, played from the card data in
``cards/anima_shadow_of_omega``. Its `ENGINE` (registered as
``forge.rules.anima_shadow_of_omega:ENGINE``) is declared here, from the modules below.

State is plain lists of integer card handles (one handle per physical card) and per-seat
numbers; the whole game is one generator (`Match.flow`) on the shared core (forge/rules/core.py).
Where the source rulebook is open or silent the ruling is marked ``DECISION`` in this package and
written out in docs/rules-decisions.md (section «Аніма: Тінь омеги»).

A game: every seat secretly holds 2 basic missions; the first to finish a basic mission reveals
the final mission, which is everybody's; whoever finishes it first wins. A turn: the order is set
by group Speed (ties rolled with a d6) and kept for the whole turn; then every seat in that order
plays the discard phase, then every seat the movement phase, the interaction phase and the
exploration phase. Battles are d6 + Strength; a rival's die (a chance event) rolls for a monster.

The modules, each importable on its own: `tables` (declarations, rule numbers, card tables),
`choices` (the options a seat is offered, typed and made once), `state`, `cards`, `battles`, `operations`, `phases` and `flow` (the match, one layer each),
`agents`, `scenario` and `scenario_text`, `statistics` and `report`, `lints` (data checks),
`redeal` (what a seat cannot see, dealt anew for the `search` agent).
"""
from __future__ import annotations

from ..core import Engine
from .agents import AGENT_NAMES, AGENTS
from .flow import OPERATIONS, OPS, Match, Prepared, prepare
from .lints import check_data
from .redeal import redeal
from .report import KIND_NAMES, VERB_NAMES, report_tables
from .scenario import SCENARIO, scenario_expect, scenario_setup
from .scenario_text import SCORE_UNIT, describe_expect
from .statistics import statistics
from .tables import OPTIONS, PLAYERS, REQUIRES, RULES

#: The engine, registered as ``forge.rules.anima_shadow_of_omega:ENGINE``.
ENGINE = Engine(
    "anima_shadow_of_omega", PLAYERS, prepare, OPERATIONS, options=OPTIONS, requires=REQUIRES,
    agents=AGENTS, agent_names=AGENT_NAMES, kind_names=KIND_NAMES, verb_names=VERB_NAMES,
    # `forge simulate` seats pursuers unless told otherwise: random play dismisses characters
    # and picks fights at random, so a random group rarely grows strong enough for a final
    # mission and over a third of random games reach the turn cap (`--agents random` still
    # plays them).
    default_agents=("pursuer",),
    scenario=SCENARIO, scenario_setup=scenario_setup, scenario_expect=scenario_expect,
    describe_expect=describe_expect, score_unit=SCORE_UNIT, rules=RULES, check_data=check_data,
    statistics=statistics, report_tables=report_tables, redeal=redeal)

__all__ = ["AGENTS", "AGENT_NAMES", "ENGINE", "Match", "OPERATIONS", "OPS", "OPTIONS", "PLAYERS",
           "Prepared", "REQUIRES", "RULES", "SCENARIO", "SCORE_UNIT", "check_data",
           "describe_expect", "prepare", "scenario_expect", "scenario_setup", "statistics"]
