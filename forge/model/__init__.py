"""Typed, validated, immutable game data: manifest, cards, effect operations."""
from .cards import COMMON_KEYS, Card, Operation, Source
from .fields import FieldSpec
from .game import Game, load_game
from .manifest import LocalText

__all__ = ["COMMON_KEYS", "Card", "FieldSpec", "Game", "LocalText", "Operation", "Source", "load_game"]
