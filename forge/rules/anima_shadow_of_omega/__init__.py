"""«Аніма: Тінь омеги» (Anima: Shadow of Omega) for 2-3 players, played from the card data in
``cards/anima_shadow_of_omega``: the engine module of the `card_forge.engines` entry point.

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
`state`, `cards`, `battles`, `operations`, `phases` and `flow` (the match, one layer each),
`agents`, `scenario` and `scenario_text`, `statistics` and `report`, `lints` (data checks).
"""
from __future__ import annotations

from .agents import AGENT_NAMES, AGENTS, DEFAULT_AGENTS
from .flow import OPERATIONS, OPS, Match, Prepared, prepare
from .lints import check_data
from .scenario import SCENARIO, scenario_expect, scenario_setup
from .scenario_text import SCORE_UNIT, describe_expect
from .statistics import statistics, tally
from .tables import NAME, OPTIONS, PLAYERS, REQUIRES, RULE_NUMBERS

__all__ = ["AGENTS", "AGENT_NAMES", "DEFAULT_AGENTS", "Match", "NAME", "OPERATIONS", "OPS",
           "OPTIONS", "PLAYERS", "Prepared", "REQUIRES", "RULE_NUMBERS", "SCENARIO", "SCORE_UNIT",
           "check_data", "describe_expect", "prepare", "scenario_expect", "scenario_setup",
           "statistics", "tally"]
