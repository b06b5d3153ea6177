"""The options Love Formula offers a seat, read by name. Each is a tuple ``(verb, *handles)`` as
the core expects (`Decision`), so it equals and hashes as the plain tuple a replay log or a
scenario holds, and `Match.label` writes it as ``verb card ...``. ``card`` and ``pair`` are card
handles, ``seat`` a seat index."""
from __future__ import annotations

from typing import NamedTuple, Union


class Verb(NamedTuple):
    """``pass`` (end the move window, decline a reaction) or ``stop`` (remove no more)."""

    verb: str


class OnCard(NamedTuple):
    """A verb acting on one card: ``pick``, ``play``, ``keep``, ``drop``, ``unattach``,
    ``scrap``, ``react``, ``discard``, ``take``, ``steal``, ``remove``; and on one pair:
    ``target``, ``protect``, ``void``."""

    verb: str
    card: int


class Onto(NamedTuple):
    """``attach`` or ``move`` the preparation ``card`` onto ``pair``."""

    verb: str
    card: int
    pair: int


class Opponent(NamedTuple):
    """``opponent``: the seat an effect names."""

    verb: str
    seat: int


class Swap(NamedTuple):
    """``swap`` a pair of yours (``mine``) for an opponent's (``theirs``)."""

    verb: str
    mine: int
    theirs: int


Action = Union[Verb, OnCard, Onto, Opponent, Swap]
PASS = Verb("pass")
STOP = Verb("stop")
#: The verbs of `OnCard`: the card tables hold each one's option for every card, made once
#: (`tables.Tables.on_card`), so the flow offers them without building a tuple per option.
ON_CARD_VERBS = ("pick", "play", "keep", "drop", "unattach", "scrap", "react", "discard", "take",
                 "steal", "remove", "target", "protect", "void")
