"""What a seat chooses from (the legal actions), typed: an agent reads ``option.card``,
``option.seat``, ``option.promise`` rather than positions.

Options stay tuples ``(verb, *args)``, equal to plain ones, so a replayed log (whose choices
come back as plain tuples), a scenario's actions and `State.label` read them alike; the engine
therefore reads the choice it gets back by position. A random game offers thousands: `Choices`
makes each once per configuration (a NamedTuple costs twice what a plain tuple costs to make).
"""
from __future__ import annotations

from typing import Iterable, NamedTuple, Union


class Verb(NamedTuple):
    """An option with no argument: ``stand``, ``rave``, ``pass``, ``invite``, ``buy``,
    ``hire``, ``invade``, ``keep``/``reroll``, ``done``, ``end``, ``decline``/``accept``,
    ``pay``/``leave``."""

    verb: str


class Pick(NamedTuple):
    """An option naming one of the seat's cards (or a monster of the row, for ``invite``)."""

    verb: str
    card: int


class Target(NamedTuple):
    """``trade``: the seat a player makes a trade offer to."""

    verb: str
    seat: int


class Call(NamedTuple):
    """``call``: the seat the Host asks to be its Rescuer, promising ``promise`` reward cards."""

    verb: str
    seat: int
    promise: int


class Give(NamedTuple):
    """``add``/``add_inv``: a card of the seat's added to ``seat``'s lineup at the match point."""

    verb: str
    seat: int
    card: int


class Offer(NamedTuple):
    """A trade offer's terms: ``cards`` (handles) the offerer gives, for ``want`` cards that the
    partner chooses. ``want`` closes the offer made to ``seat``; ``accept`` takes the offer of
    ``seat``, so the partner reads the terms from the option itself."""

    verb: str
    seat: int
    want: int
    cards: tuple[int, ...]


Choice = Union[Verb, Pick, Target, Call, Give, Offer]

#: The verbs of the options that name a card (`Pick`).
PICK_VERBS = ("lay", "lay_inv", "merc", "stash", "drop", "drop_inv", "keep", "pay", "pay_inv",
              "invite", "put", "put_inv", "give", "give_inv", "toss", "dismiss")


class Choices:
    """Every option one configuration can offer, made once: options are immutable, so a
    decision's list costs what a list of plain tuples would, though each is typed."""

    def __init__(self, handles: int, seats: int, promises: int):
        self._pick = {v: [Pick(v, h) for h in range(handles)] for v in PICK_VERBS}
        self._give = {v: [[Give(v, s, h) for h in range(handles)] for s in range(seats)]
                      for v in ("add", "add_inv")}
        self._call = [[Call("call", s, k) for k in range(promises + 1)] for s in range(seats)]
        self._trade = [Target("trade", s) for s in range(seats)]

    def picks(self, verb: str, cards: Iterable[int]) -> list[Pick]:
        made = self._pick[verb]
        return [made[h] for h in cards]

    def gives(self, verb: str, seat: int, cards: Iterable[int]) -> list[Give]:
        """``add``/``add_inv`` each of ``cards`` to ``seat``'s lineup."""
        made = self._give[verb][seat]
        return [made[h] for h in cards]

    def calls(self, seats: Iterable[int], most: int) -> list[Call]:
        """A call to each of ``seats``, with every promise from 0 to ``most`` Sound cards."""
        made = self._call
        if most >= len(made[0]):           # more than any call so far promised: make them once
            self._call = made = [row + [Call("call", s, k) for k in range(len(row), most + 1)]
                                 for s, row in enumerate(made)]
        return [c for s in seats for c in made[s][:most + 1]]

    def trades(self, seats: Iterable[int]) -> list[Target]:
        return [self._trade[s] for s in seats]


STAND, RAVE, PASS, INVITE, BUY, HIRE, INVADE = map(Verb, ("stand", "rave", "pass", "invite", "buy",
                                                          "hire", "invade"))
KEEP, REROLL, DONE, END, DECLINE, ACCEPT, PAY, LEAVE = map(Verb, ("keep", "reroll", "done", "end",
                                                                  "decline", "accept", "pay",
                                                                  "leave"))
