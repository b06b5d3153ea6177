"""What a seat cannot see, dealt anew (`Engine.redeal`, for the `search` agent's samples), from
the zones' declared visibility alone, so every game whose rules are data gets it.

Hidden from a seat: every card of a `hidden` zone, and of the other players' `owner` zones (a
game's own `owner` zone is no player's, so hidden too). Those cards are dealt anew among those
places (`deal_anew`), every zone keeping its size, so a hidden pile's order is shuffled as well.
A card named in the seat's own open options stays where it is (the options show it). The other
seats' open options, the step's options a copy resumes from (``offered``) and the rounds that
expiring zones' cards came in follow the cards to their new places. DECISION: cards are
interchangeable here, whatever the rules let a zone hold; a game whose zones take only some
cards may see a sampled hand its rules could not deal, which only makes the sample rougher."""
from __future__ import annotations

import random

from ..core import deal_anew
from .match import RulesMatch


def redeal(match: RulesMatch, seat: int, rng: random.Random) -> None:
    r, d = match.r, match.decision
    hidden: list[list[int]] = []
    for z in r.zone_list:
        if z.visibility == "public":
            continue
        if not z.per_player:
            hidden.append(match.gz[z.index])
        else:
            hidden.extend(zl for s, zl in enumerate(match.pz[z.index])
                          if z.visibility == "hidden" or s != seat)
    mine = d.options[d.seats.index(seat)] if d is not None and seat in d.seats else []
    seen = {o[1] for o in mine if _names_card(o)}
    moved = deal_anew(rng, hidden, lambda h: ("seen", h) if h in seen else None)
    if not moved:
        return
    for key, came in match.entered.items():
        match.entered[key] = {moved.get(h, h): n for h, n in came.items()}
    lists = [match.offered] if match.offered and isinstance(match.offered[0], tuple) else \
        list(match.offered)
    lists += [o for s, o in zip(d.seats, d.options) if s != seat] if d is not None else []
    done: set[int] = set()
    for options in lists:
        if id(options) in done or options is mine:
            continue
        done.add(id(options))
        options[:] = [(o[0], moved[o[1]], *o[2:]) if _names_card(o) and o[1] in moved else o
                      for o in options]


def _names_card(option: tuple) -> bool:
    """Whether an option names a card (its handle second), not a player, word or nothing."""
    return len(option) > 1 and option[0] != "target" and type(option[1]) is int
