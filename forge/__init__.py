"""Card Forge: card data checked by a rules engine, rendered to print.

The library API; the `forge` command is a thin shell over it.
"""
from .check import check_game
from .errors import Finding, FindingsError, ForgeError, UsageError
from .export import card_records
from .load import load_yaml
from .model import Card, Game, Operation, load_game

__all__ = ["Card", "Finding", "FindingsError", "ForgeError", "Game", "Operation", "UsageError",
           "card_records", "check_game", "load_game", "load_yaml"]
