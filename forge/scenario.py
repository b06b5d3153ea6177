"""Scenarios (see docs/scenarios.md): ``load_scenario(path)`` and ``run_scenario(path)``."""
from .rules.scenario import Scenario, ScenarioError, ScenarioResult, load_scenario, run_scenario

__all__ = ["Scenario", "ScenarioError", "ScenarioResult", "load_scenario", "run_scenario"]
