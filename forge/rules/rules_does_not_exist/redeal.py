"""What a seat cannot see, dealt anew (`Engine.redeal`, for the `search` agent's samples).

Hidden from a seat: the other seats' hands, the Sound cards face down under the other seats'
Mercenaries, and the order of the Sound, Class and Mercenary decks. The Sound cards among those
places are dealt anew (`deal_anew`), every place keeping its size; each deck's order is shuffled.
DECISION: the cards of a trade offer under way (`State.terms`) stay in the offerer's hand: its
partner has seen them; the cards under the seat's own Mercenaries are its own and stay."""
from __future__ import annotations

import random

from ..core import deal_anew
from .state import State


def redeal(match: State, seat: int, rng: random.Random) -> None:
    others = [s for s in range(match.n) if s != seat]
    shown = set(match.terms)
    deal_anew(rng, [match.deck, *(match.hand[s] for s in others),
                    *(match.under[m] for s in others for m in match.mercs[s])],
              lambda h: ("shown", h) if h in shown else None)
    deal_anew(rng, [match.classes])
    deal_anew(rng, [match.merc_deck])
