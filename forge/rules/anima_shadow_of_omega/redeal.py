"""What a seat cannot see, dealt anew (`Engine.redeal`, for the `search` agent's samples).

Hidden from a seat: the other seats' hands (bonus cards) and the basic missions they have not
begun, the events lying face down under active locations, and the order of every deck. Those
cards are dealt anew among the places of their kind (`deal_anew`): bonus cards among the other
hands and the bonus deck (a card a hand cannot hold stays in the deck), missions among the
missions not begun and the mission deck, face-down events among themselves and the event deck;
each other deck is shuffled. These stay where they are: a card the seat's open decision
shows it (the top cards of a deck it peeks at), the cards of a trade under way
(`State.trading`: both seats have seen them, and the flow holds them), and the mission a
battle under way is fought for (`Fight.mission`: announced, and held by the flow, which
completes it if the battle is won). DECISION: a mission another seat has begun stays (its
progress is on the table), and so does a secret one."""
from __future__ import annotations

import random

from ..core import deal_anew
from .state import State


def redeal(match: State, seat: int, rng: random.Random) -> None:
    p = match.p
    others = [s for s in range(match.n) if s != seat]
    d = match.decision
    hands = [match.hand[s] for s in others]
    mine = d.options[d.seats.index(seat)] if d is not None and seat in d.seats else []
    seen = {o.card for o in mine if hasattr(o, "card")}
    if match.trading is not None:
        seen.update(match.trading[2], match.trading[3])
    if match.in_battle is not None:
        seen.add(match.in_battle.mission)

    def kind(h: int) -> object:      # a card the seat's options show stays where it is
        return ("seen", h) if h in seen else p.bsub[h] == -1
    deal_anew(rng, [match.bonus_deck, *hands], kind)
    fresh = {s: [m for m in match.missions[s] if match.gi[m] == 0] for s in others}
    deal_anew(rng, [match.mission_deck, *fresh.values()], kind)
    for s, new in fresh.items():
        begun = iter(new)
        match.missions[s][:] = [next(begun) if match.gi[m] == 0 else m for m in match.missions[s]]
    down = [L for L in match.lead if L not in match.lead_up and L not in match.faced]
    events = [match.lead[L] for L in down]
    deal_anew(rng, [match.event_deck, events], kind)
    match.lead.update(zip(down, events))
    for deck in (match.char_deck, *match.loc_decks, match.final_deck):
        deal_anew(rng, [deck], kind)
