"""Every card id that data mentions must exist, and be of the type the field allows; a card's
own `back` must be an entry of the manifest's `backs`."""
from __future__ import annotations

import difflib
from typing import Iterator

from ..errors import Finding
from ..model import Game
from ..model.fields import walk_refs


#: Broken references that get a "did you mean": each suggestion compares the id with every id
#: of the game, so suggesting for all of them would cost references x ids (10,000 cards that
#: each name a missing card took minutes); a designer fixes the first ones first anyway.
MAX_SUGGESTIONS = 20


def check_references(game: Game) -> Iterator[Finding]:
    types = game.manifest.card_types
    operations = game.manifest.operations
    near = _Near(game.declared_ids)
    for card in game.cards:
        refs = []
        for name, spec in types[card.type].fields.items():
            refs += walk_refs(spec, getattr(card, name), (name,))
        for loc, ops in game.effect_lists(card):
            for i, op in enumerate(ops):
                for name, spec in operations[op.name].params.items():
                    refs += walk_refs(spec, getattr(op.params, name), loc + (i, op.name, name))
        if card.replaces is not None:
            refs.append((("replaces",), card.replaces, (card.type,)))
        for loc, target, allowed in refs:
            if target not in game.declared_ids:
                yield card.finding(loc, "broken-reference", f"{'.'.join(map(str, loc))} names "
                                   f"card {target!r}, which does not exist", near(target))
                continue
            other = game.by_id.get(target)
            if other is not None and allowed and other.type not in allowed:
                yield card.finding(loc, "wrong-reference", f"{target!r} is a {other.type} card; "
                                   f"{loc[-1]} takes {' or '.join(allowed)}")
        if card.back is not None and card.back not in game.manifest.backs and card.back != "default":
            close = difflib.get_close_matches(card.back, list(game.manifest.backs), n=1)
            yield card.finding(("back",), "broken-reference", f"back names {card.back!r}, which is no entry "
                               f"of the manifest's backs (it has: {', '.join(game.manifest.backs) or 'none'})",
                               f"did you mean {close[0]!r}?" if close else "add it to `backs` in game.yaml")
        if card.replaces is not None and card.replaces in game.by_id:
            if game.by_id[card.replaces].set == card.set:
                yield card.finding(("replaces",), "wrong-reference",
                                   "a card replaces a card of another set, not of its own")


class _Near:
    """"did you mean ...?" for the first `MAX_SUGGESTIONS` missing ids, then nothing."""

    def __init__(self, ids: frozenset[str]):
        self.ids, self.left, self.sorted = ids, MAX_SUGGESTIONS, None

    def __call__(self, target: str) -> str:
        if self.left <= 0:
            return ""
        self.left -= 1
        if self.sorted is None:
            self.sorted = sorted(self.ids)
        close = difflib.get_close_matches(target, self.sorted, n=1)
        return f"did you mean {close[0]!r}?" if close else ""
