"""The options Anima offers a seat (the legal actions), read by name: ``option.card``,
``option.seat``, ``option.user`` rather than positions.

Each is a tuple ``(verb, *args)`` as the core expects (`Decision`), so it equals and hashes as
the plain tuple a replay log read back from JSON holds (`flow.Match.step` takes such a tuple as
the offered option it equals), and `State.label` writes it as a scenario does. A random game
offers hundreds of thousands: `Choices` makes each once per configuration, as Love Formula's
tables and the rave game's `Choices` do (a NamedTuple costs about eight plain tuples to make).
"""
from __future__ import annotations

from typing import Iterable, NamedTuple, Union


class Verb(NamedTuple):
    """An option with no argument: ``pass``, ``discard``, ``leave``, ``stay``, ``go``, ``new``,
    ``rest``, ``save``, ``explore``, ``new_deck`` (one location deck), ``done`` (a trade's
    cards are all chosen), ``accept`` (a trade's answer)."""

    verb: str


class OnCard(NamedTuple):
    """A verb acting on one handle: a card of the hand (``drop``, ``discard``, ``give``,
    ``pay``, ``keep``, ``return``, ``top``), a character (``dismiss``, ``take``, ``use``,
    ``lose``, ``guard``, ``recruit``, ``sleep``), a location (``go``, ``new_pick``, ``to``,
    ``remove``) or a mission (``speed``, ``challenge``)."""

    verb: str
    card: int


class OnSeat(NamedTuple):
    """``attack``, ``trade`` or ``rob`` the seat ``seat``."""

    verb: str
    seat: int


class Play(NamedTuple):
    """``play`` the bonus card ``card``; ``user`` is the character who plays a skill card (and
    rotates), else -1."""

    verb: str
    card: int
    user: int


class NewDeck(NamedTuple):
    """``new_deck``: open a new location from location deck ``deck`` (1-3, with the location
    tree)."""

    verb: str
    deck: int


class RewardChoice(NamedTuple):
    """``reward``: take the location's reward number ``slot`` (of kind ``kind``: R_BONUS,
    R_HIRE, R_MISSION or R_SPECIAL), for ``mission`` when it completes a mission's goal, else
    -1."""

    verb: str
    kind: int
    slot: int
    mission: int


Choice = Union[Verb, OnCard, OnSeat, Play, NewDeck, RewardChoice]

#: ``ANNOUNCE_DISCARD`` announces a voluntary discard of the discard phase (then a `drop`,
#: `dismiss` or `leave`), as often as there is something to discard.
PASS, ANNOUNCE_DISCARD, LEAVE, STAY, GO, NEW, REST, SAVE, EXPLORE, NEW_DECK, DONE, ACCEPT = map(Verb, (
    "pass", "discard", "leave", "stay", "go", "new", "rest", "save", "explore", "new_deck", "done",
    "accept"))

#: The verbs of `OnCard` and of `OnSeat`.
ON_CARD_VERBS = ("drop", "discard", "give", "pay", "keep", "return", "top", "dismiss", "take",
                 "use", "lose", "guard", "recruit", "sleep", "go", "new_pick", "to", "remove",
                 "speed", "challenge")
ON_SEAT_VERBS = ("attack", "trade", "rob")


class Choices:
    """Every option one configuration offers, made once (on first use, for the few whose
    arguments pair two handles): options are immutable, so a decision's list costs what a list
    of plain tuples would, though each is typed."""

    def __init__(self, handles: int, seats: int, decks: int, kinds: int, slots: int):
        #: {verb: the option `verb card` of every handle}, e.g. ``on_card["go"][L]``.
        self.on_card = {v: [OnCard(v, h) for h in range(handles)] for v in ON_CARD_VERBS}
        #: {verb: the option `verb seat` of every seat}.
        self.on_seat = {v: [OnSeat(v, s) for s in range(seats)] for v in ON_SEAT_VERBS}
        #: The option `new_deck d` of each location deck d (from 1).
        self.new_deck = [NewDeck("new_deck", d) for d in range(1, decks + 1)]
        #: `play h` with no user, by handle.
        self.alone = [Play("play", h, -1) for h in range(handles)]
        #: `reward` of each kind and slot, for no mission: ``rewards[kind][slot]``.
        self.rewards = [[RewardChoice("reward", k, i, -1) for i in range(slots)] for k in range(kinds)]
        self._played: dict[tuple[int, int], Play] = {}
        self._missions: dict[tuple[int, int, int], RewardChoice] = {}

    def cards(self, verb: str, handles: Iterable[int]) -> list[OnCard]:
        made = self.on_card[verb]
        return [made[h] for h in handles]

    def seats(self, verb: str, seats: Iterable[int]) -> list[OnSeat]:
        made = self.on_seat[verb]
        return [made[s] for s in seats]

    def plays(self, h: int, users: Iterable[int]) -> list[Play]:
        """`play h` by each of the characters ``users``."""
        made = self._played
        out = []
        for c in users:
            o = made.get((h, c))
            if o is None:
                o = made[h, c] = Play("play", h, c)
            out.append(o)
        return out

    def mission_reward(self, kind: int, slot: int, mission: int) -> RewardChoice:
        """`reward` slot ``slot`` (of ``kind``, a mission reward) for the goal of ``mission``."""
        o = self._missions.get((kind, slot, mission))
        if o is None:
            o = self._missions[kind, slot, mission] = RewardChoice("reward", kind, slot, mission)
        return o
