"""Fields declared `only_for` some subtypes: present on those cards, absent from the others."""
from __future__ import annotations

from typing import Iterator

from ..errors import Finding
from ..model import Game


def check_subtype_fields(game: Game) -> Iterator[Finding]:
    types = game.manifest.card_types
    for card in game.cards:
        for name, spec in types[card.type].fields.items():
            if spec.only_for is None:
                continue
            value = getattr(card, name)
            if card.subtype in spec.only_for:
                if value is None and spec.required:
                    yield card.finding((), "missing", f"a {card.type}/{card.subtype} card needs "
                                       f"{name!r}")
            elif value is not None:
                yield card.finding((name,), "unknown-key", f"{name!r} belongs only to "
                                   f"{', '.join(spec.only_for)} cards, not to {card.subtype or 'plain'} "
                                   f"{card.type} cards")
