"""Findings certain from the rave game's card data alone, for `forge check` (`check_data`)."""
from __future__ import annotations

from typing import Any, Iterator

from .operations import ABILITY_OPS, FAILURE_OPS, MERC_ONLY
from .tables import GENTLE_CARDS, LIMIT, PLAYERS

def check_data(game: Any) -> Iterator:
    """Findings certain from the data alone (no game needs to be played), for `forge check`:

    - a monster that no Host's own lineup (hand and inventory at their limits, every card at
      double bonus) could beat, or whose level no d20 reaches: it can never be satisfied;
    - an operation where it can never act: an owner ability in a monster's `failure`, a failure
      operation among a Class's or Mercenary's abilities, a Mercenary ability on a Class, a
      `genre_bonus` for a genre no Sound card carries;
    - a Sound deck too small to deal the gentle round at the most players.
    """
    sounds = [c for c in game.cards if c.type == "sound"]
    bonuses = sorted((c.bonus for c in sounds for _ in range(c.copies)), reverse=True)
    size = LIMIT * 2
    best = 2 * sum(bonuses[:size])           # an upper bound: every card doubled
    genres = {g for c in sounds for g in c.genres}
    for card in game.cards:
        if card.type == "monster":
            if card.level > 20:
                yield card.finding(("level",), "monster-unreachable",
                                   f"level {card.level}: no d20 expectation reaches it, so "
                                   f"{card.id} can never be invited", "use a level of 1-20")
            elif card.level >= best:
                yield card.finding(("level",), "monster-unbeatable",
                                   f"level {card.level}: no lineup of a Host's {size} cards "
                                   f"(at most {best} bonus) beats it", "lower the level")
            for i, op in enumerate(card.failure):
                if op.name in ABILITY_OPS:
                    yield card.finding(("failure", i), "operation-never-applies",
                                       f"{op.name!r} is an owner ability; in a monster's failure "
                                       "it never acts", "use a failure operation "
                                       f"({', '.join(sorted(FAILURE_OPS))})")
        elif card.type in ("class", "mercenary"):
            for i, op in enumerate(card.effects):
                if op.name in FAILURE_OPS:
                    yield card.finding(("effects", i), "operation-never-applies",
                                       f"{op.name!r} acts only in a monster's failure; on a "
                                       f"{card.type} it never acts")
                elif op.name in MERC_ONLY and card.type == "class":
                    yield card.finding(("effects", i), "operation-never-applies",
                                       f"{op.name!r} acts only on a Mercenary's own cards; on a "
                                       "Class it never acts")
                elif op.name == "genre_bonus" and op.args()["genre"] not in genres:
                    yield card.finding(("effects", i), "operation-never-applies",
                                       f"no Sound card has the genre {op.args()['genre']!r}, so "
                                       "this bonus never applies")
    deal = GENTLE_CARDS * min(game.manifest.players.max, PLAYERS[1])
    total = sum(c.copies for c in sounds)
    if total < deal:
        yield game.manifest_finding(("sets",), "deck-too-small",
                                    f"{total} Sound cards cannot deal the gentle round's "
                                    f"{GENTLE_CARDS} cards to "
                                    f"{min(game.manifest.players.max, PLAYERS[1])} players ({deal})")
