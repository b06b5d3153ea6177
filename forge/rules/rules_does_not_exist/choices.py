"""What a seat chooses from (the legal actions), typed: an agent reads ``option.card``,
``option.seat``, ``option.promise`` rather than positions.

Options stay tuples ``(verb, *args)``, equal to plain ones, so a replayed log (whose choices
come back as plain tuples), a scenario's actions and `State.label` read them alike; the engine
therefore reads the choice it gets back by position. The builders make them with the C-level
``tuple.__new__``, at the cost of a plain tuple: a random game makes thousands.
"""
from __future__ import annotations

from typing import Iterable, NamedTuple, Union


class Verb(NamedTuple):
    """An option with no argument: ``stand``, ``rave``, ``pass``, ``invite``, ``buy``, ``hire``,
    ``invade``, ``keep``/``reroll``, ``done``, ``end``, ``decline``/``accept``, ``pay``/``leave``."""

    verb: str


class Pick(NamedTuple):
    """An option naming one of the seat's cards (or a monster of the row, for ``invite``)."""

    verb: str
    card: int


class Target(NamedTuple):
    """``trade``: the seat the Host offers a trade to."""

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


Choice = Union[Verb, Pick, Target, Call, Give]

_new = tuple.__new__


def picks(verb: str, cards: Iterable[int]) -> list[Pick]:
    return [_new(Pick, (verb, x)) for x in cards]


def targets(verb: str, seats: Iterable[int]) -> list[Target]:
    return [_new(Target, (verb, s)) for s in seats]


def calls(seats: Iterable[int], most: int) -> list[Call]:
    """A call to each of ``seats``, with every promise from 0 to ``most`` reward cards."""
    return [_new(Call, ("call", s, k)) for s in seats for k in range(most + 1)]


def gives(verb: str, seat: int, cards: Iterable[int]) -> list[Give]:
    return [_new(Give, (verb, seat, x)) for x in cards]


STAND, RAVE, PASS, INVITE, BUY, HIRE, INVADE = map(Verb, ("stand", "rave", "pass", "invite", "buy",
                                                          "hire", "invade"))
KEEP, REROLL, DONE, END, DECLINE, ACCEPT, PAY, LEAVE = map(Verb, ("keep", "reroll", "done", "end",
                                                                  "decline", "accept", "pay",
                                                                  "leave"))
