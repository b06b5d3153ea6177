"""Ids are unique, and so are the value combinations the manifest declares unique."""
from __future__ import annotations

from typing import Iterator

from ..errors import Finding
from ..model import Game


def check_ids(game: Game) -> Iterator[Finding]:
    first = {}
    for card in game.cards:
        if card.id in first:
            where = first[card.id].source
            yield card.finding(("id",), "duplicate-id", f"id {card.id!r} is already used by the "
                               f"card at {where.file}:{where.line}", "give each card its own id")
        else:
            first[card.id] = card


def check_unique(game: Game) -> Iterator[Finding]:
    """Two different designs may not share the declared values (e.g. priority and tiebreak).

    Copies of one design share them by definition, and so may a card and the card it replaces:
    they are the same card in another print."""
    for fields in game.manifest.constraints.unique:
        seen: dict[tuple, object] = {}
        for card in game.cards:
            values = tuple(getattr(card, f, None) for f in fields)
            if any(v is None for v in values):
                continue
            other = seen.setdefault(values, card)
            if other is card or card.replaces == other.id or other.replaces == card.id:
                continue
            shown = ", ".join(f"{f} {v}" for f, v in zip(fields, values))
            yield card.finding((fields[0],), "not-unique", f"{shown} is also on {other.id!r} "
                               f"({other.source.file}:{other.source.line}); turn order needs them "
                               "to differ", f"change {' or '.join(fields)}")
