"""The manifest's component counts (what the rulebook promises) match the cards, per set."""
from __future__ import annotations

from typing import Iterator

from ..errors import Finding
from ..model import Game
from ..text import plural


def check_counts(game: Game) -> Iterator[Finding]:
    types = game.manifest.card_types
    for set_id, spec in game.manifest.sets.items():
        for key, declared in spec.cards.items():
            loc = ("sets", set_id, "cards", key)
            type_id, _, subtype = key.partition("/")
            if type_id not in types or (subtype and subtype not in types[type_id].subtypes):
                yield game.manifest_finding(loc, "manifest", f"{key!r} is not a card type "
                                            "(or type/subtype) of this game")
                continue
            actual = game.count(type_id, set_id, subtype or None)
            if actual != declared:
                yield game.manifest_finding(loc, "count", f"set {set_id!r} declares {declared} "
                                            f"{key} {plural(declared, ('card', 'cards'), 'en')}; "
                                            f"the card files hold {actual}")
    for type_id, set_id in game.counted():  # the pairs that have cards, not every type x set
        if type_id not in game.manifest.sets[set_id].cards:
            yield game.manifest_finding(("sets", set_id, "cards"), "count", f"set {set_id!r} "
                                        f"has {game.count(type_id, set_id)} {type_id} cards "
                                        "but declares no count for them")
