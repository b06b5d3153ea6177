"""Agents for «Rules. Does Not Exist.» (`forge simulate rules_does_not_exist --agents sensible`).

``sensible`` plays like a careful player and decides from ``match.view(seat)`` only (its own
hand and Mercenaries' card counts, the public table: lineups with the boosts Mercenaries gave
their cards, inventories, souls, Classes, Mercenaries, hand sizes), the options it is offered
and the printed card data of the prepared game (``match.p``); it never reads the match's zones:

- it invites a monster when its odds of satisfying it (`_odds`: its own cards less the one it
  pays, its Mercenaries' face-down cards at the mean printed bonus, a friend's help) are fair
  against what a failure costs (a Reset asks for better odds), then the richest it may risk;
- it lays the smallest lineup that wins: the weakest card that makes the lineup win, else the
  card that adds most; it calls its Mercenaries when its own cards are not enough, and a friend
  when even those fall short (at once when it has no Mercenary), promising the monster's reward
  cards (with no monster, one card of its own: it keeps its last two cards back while the
  Rescuer still holds cards);
- it passes when it cannot win and may pass; it helps a Host who is not about to win; it
  usurps a rave when its own cards beat both the expectation and the Host's lineup clearly;
  at a rival's match point it feeds cards to the strongest Invader;
- it buys a Class when it has none and souls to spare, hires Mercenaries with spare cards,
  stashes its best cards in the inventory and discards its weakest;
- short of the expectation by a little, it offers its weakest card for one of another's before
  passing; it makes no offer in others' turns; offered a deal, it accepts a gift, or a deal
  after which its cards (giving back its weakest) make a stronger lineup, unless the offerer
  is one success from winning; it hands over its weakest cards;
- after a Reset it pays and plays on unless a rival needs one success to win while it trails
  too far to catch up (`_hopeless`).
"""
from __future__ import annotations

import random
from typing import Any, Sequence, TypeVar

from ..agents import Agent, random_agent
from .choices import (ACCEPT, BUY, DECLINE, DONE, END, HIRE, INVADE, INVITE, KEEP, LEAVE, PASS, PAY,
                      RAVE, REROLL, STAND, Call, Choice, Give, Offer, Pick, Target)
from .state import View
from .tables import (ESCAPE_AT, RESET_COST, SOULS_SOLO, CardTables, Strength,
                     lineup_strength)

_T = TypeVar("_T", Pick, Call, Give, Target, Offer)


class _Sight:
    """What seat ``s`` sees (its view ``v``), with card ids turned into handles of the static
    tables, and lineup strength computed from it exactly as the engine's `State.strength` does."""

    __slots__ = ("p", "v", "ix", "s", "host", "expect", "souls", "win", "_cards", "_line",
                 "_extra")

    def __init__(self, p: CardTables, v: View, s: int):
        self.p, self.v, self.ix, self.s = p, v, p.card_index, s
        self.host, self.expect = v.host, v.expectation
        self.souls, self.win = v.souls, v.souls_to_win
        self._cards: list[int] | None = None
        self._line: dict[int, list[int]] = {}
        self._extra: dict[int, list[tuple[int, int]]] = {}

    @property
    def cards(self) -> list[int]:
        """The seat's own cards: its hand and its inventory."""
        if self._cards is None:
            ix, v = self.ix, self.v
            self._cards = [ix[c] for c in v.hand] + [ix[c] for c in v.inventories[self.s]]
        return self._cards

    def line(self, owner: int) -> list[int]:
        """The cards of ``owner``'s lineup (empty: no lineup)."""
        got = self._line.get(owner)
        if got is None:
            ix = self.ix
            got = self._line[owner] = [ix[c] for c in self.v.lineups[owner]]
        return got

    def strength(self, owner: int, cards: Sequence[int], boosts: Sequence[int] = ()) -> Strength:
        """(bonus, duration) of ``owner``'s lineup of ``cards``; ``boosts`` are the Mercenary
        boosts of its first cards (those already in the lineup)."""
        p = self.p
        extra = self._extra.get(owner)
        if extra is None:
            ix, fx, v = self.ix, p.fx, self.v
            extra = [g for c in v.classes[owner] for g in fx[ix[c]]["genres"]] + \
                    [g for c in v.mercenaries[owner] for g in fx[ix[c]]["genres"]]
            self._extra[owner] = extra
        return lineup_strength(p, cards, boosts, extra)

    def lineup(self, owner: int, more: Sequence[int] = ()) -> Strength:
        """Strength of ``owner``'s lineup on the table with ``more`` cards added."""
        return self.strength(owner, self.line(owner) + list(more), self.v.lineup_boosts[owner])


def _potential(t: _Sight, owner: int) -> int:
    """Bonus of ``owner``'s lineup if the seat added every card it holds."""
    return t.lineup(owner, t.cards).bonus


def _rivals_best(t: _Sight, owner: int) -> Strength | None:
    """The strongest other lineup of this rave (None: only the expectation to beat)."""
    keys = [t.lineup(o) for o in [t.host] + t.v.invaders if o != owner and t.line(o)]
    return max(keys) if keys else None


def _wins(t: _Sight, owner: int, key: Strength, target: Strength | None) -> bool:
    """Whether a lineup of strength ``key`` wins against the expectation and ``target``."""
    if key.bonus <= t.expect:
        return False
    return target is None or key > target or (key == target and owner == t.host)


def _of(options: Sequence[Choice], kind: type[_T], verbs: tuple[str, ...] = ()) -> list[_T]:
    """The options of type ``kind`` (and with one of ``verbs``, when given)."""
    return [o for o in options if isinstance(o, kind) and (not verbs or o.verb in verbs)]


def _cards(options: Sequence[Choice]) -> list[Pick | Give]:
    """The options that name a card, in order."""
    return [o for o in options if isinstance(o, (Pick, Give))]


def _weakest(p: CardTables, options: Sequence[Choice]) -> Pick | Give:
    """The option whose card has the lowest printed bonus, then duration."""
    b, d = p.bonus, p.dur
    return min(_cards(options), key=lambda o: (b[o.card], d[o.card]))


def _strongest(p: CardTables, options: Sequence[Choice]) -> Pick | Give:
    b, d = p.bonus, p.dur
    return max(_cards(options), key=lambda o: (b[o.card], d[o.card]))


def _find(options: Sequence[Choice], verb: str) -> Choice | None:
    for o in options:
        if o.verb == verb:
            return o
    return None


def _call(t: _Sight, calls: list[Call]) -> Call:
    """Ask the seat holding most cards, promising the monster's reward cards (with no monster,
    one card of its own)."""
    sizes, invs, guest = t.v.hand_sizes, t.v.inventories, t.v.guest
    reward = t.p.rsounds[t.ix[guest[0]]] if guest else 1
    return max(calls, key=lambda o: (sizes[o.seat] + len(invs[o.seat]), o.promise <= reward,
                                     -abs(o.promise - reward), -o.seat))


def _lay(t: _Sight, s: int, owner: int, options: Sequence[Choice]) -> Choice:
    """Lay the smallest card that makes ``owner``'s lineup win, else the one adding most; a
    Host with no Mercenary to call asks a friend first when offered (the engine offers a call
    only when the Host's own cards cannot win)."""
    target = _rivals_best(t, owner)
    if t.line(owner) and _wins(t, owner, t.lineup(owner), target):
        return STAND
    calls = _of(options, Call)
    merc = _find(options, "merc")
    if calls and not merc:
        return _call(t, calls)
    lays = _of(options, Pick, ("lay", "lay_inv"))
    if lays:
        winning = [o for o in lays if _wins(t, owner, t.lineup(owner, [o.card]), target)]
        if winning:
            return _weakest(t.p, winning)
        r, v = t.v.rescuer, t.v
        if len(lays) <= 2 and s == t.host and r >= 0 and v.hand_sizes[r] + len(v.inventories[r]):
            return STAND        # two cards kept back: the Rescuer's promised share among them
        if s == owner or _potential(t, owner) > max(t.expect, target.bonus if target else 0):
            return max(lays, key=lambda o: (t.lineup(owner, [o.card]).bonus, -t.p.bonus[o.card]))
    if merc:
        return merc
    return _call(t, calls) if calls else STAND


def _without_weakest(t: _Sight) -> list[int]:
    """The seat's cards less the weakest (the one it would pay or trade away)."""
    cards, b = t.cards, t.p.bonus
    if not cards:
        return []
    weakest = min(range(len(cards)), key=lambda i: (b[cards[i]], t.p.dur[cards[i]]))
    return cards[:weakest] + cards[weakest + 1:]


def _odds(t: _Sight) -> float:
    """Rough odds that the seat's rave beats the expectation after paying its weakest card for
    a monster: from its margin over the expectation, counting each face-down card under its
    Mercenaries at the mean printed Sound bonus (they are drawn blind) and a friend's help."""
    p, v = t.p, t.v
    under = sum(v.under.values())
    margin = t.strength(t.s, _without_weakest(t)).bonus + under * p.mean_bonus - t.expect
    if margin >= 4:
        return 0.9          # only an Invader with a stronger lineup can take it
    if margin >= 1:
        return 0.75
    if margin >= -2:
        return 0.4          # a Mercenary's card or a friend's may close the gap
    return 0.1


#: What each failure operation costs, in souls: a card is worth half a soul, a skipped turn
#: the success it might have earned, a Reset the game (`_risk`).
_FAILURE_COST = {"lose_souls": 1.0, "discard": 0.5, "lose_mercenaries": 0.5, "lose_class": 1.0,
                 "skip_turn": 1.5, "reset": 10.0}


def _risk(p: CardTables, monster: int) -> float:
    """What failing ``monster`` is expected to cost, in souls, read from its printed failure."""
    return sum(_FAILURE_COST.get(op, 1.0) * args.get("count", 1) for op, args in p.failure[monster])


def _worth(t: _Sight, monster: int, odds: float) -> float:
    """Expected souls of inviting ``monster`` (a card is worth half a soul; a failure is
    escaped on a d6 of `ESCAPE_AT` or more)."""
    p = t.p
    escape = min(1.0, max(0.0, (7 - ESCAPE_AT) / 6))
    gain = p.rsouls[monster] + p.rsounds[monster] / 2
    return odds * gain - (1 - odds) * (1 - escape) * _risk(p, monster) - 0.5


def _hopeless(t: _Sight) -> bool:
    """A Reset leaves the seat with no cards: it gives up when a rival is one success from
    winning and would still lead it by more than two successes after it pays."""
    s, souls, alive = t.s, t.souls, t.v.alive
    best = max((souls[o] for o in range(len(souls)) if o != s and alive[o]), default=0)
    return best + SOULS_SOLO >= t.win and best - (souls[s] - RESET_COST) > 2 * SOULS_SOLO


def _shopping(t: _Sight, options: Sequence[Choice], cards_to_hire: int) -> Choice | None:
    """Buy a Class with souls to spare when it has none; hire with spare cards; else None."""
    s, v = t.s, t.v
    if not v.classes[s] and t.souls[s] >= 2 and t.souls[s] + 2 < t.win and _find(options, "buy"):
        return BUY
    if len(v.mercenaries[s]) < 2 and len(t.cards) >= cards_to_hire and _find(options, "hire"):
        return HIRE
    return None


def sensible_agent(m: Any, s: int, options: list[Choice], rng: random.Random) -> tuple:
    p = m.p
    v: View = m.view(s)
    kind = v.decision or ""
    # decided by the options and the printed cards alone
    if kind == "monster":
        t = _Sight(p, v, s)
        odds = _odds(t)
        return max(_of(options, Pick), key=lambda o: (_worth(t, o.card, odds), p.level[o.card]))
    if kind in ("pay", "hire", "discard", "give", "share"):
        return _weakest(p, options)
    if kind == "deal":
        return DONE
    if kind == "terms":
        wants = _of(options, Offer)
        if wants and wants[0].cards:
            return min(wants, key=lambda o: abs(o.want - 1))
        return _weakest(p, options) if _cards(options) else wants[0]
    if kind == "limit":
        stash = _of(options, Pick, ("stash",))
        if stash:
            return _strongest(p, stash)
        return _weakest(p, options)
    if kind == "keep" or kind == "toss":
        return _strongest(p, options)
    if kind == "reset":
        return LEAVE if LEAVE in options and _hopeless(_Sight(p, v, s)) else PAY
    if kind == "answer":
        t = _Sight(p, v, s)
        offer = _of(options, Offer)[0]
        if t.souls[offer.seat] + SOULS_SOLO >= t.win:
            return DECLINE
        if not offer.want:
            return offer
        held = sorted(t.cards, key=lambda c: (p.bonus[c], p.dur[c]))
        if offer.want > len(held):
            return DECLINE
        after = t.strength(s, held[offer.want:] + list(offer.cards)).bonus
        return offer if after > t.strength(s, held).bonus else DECLINE
    if kind == "gentle":
        lays = _of(options, Pick, ("lay",))
        return lays[0] if lays else DONE
    if kind == "dismiss":
        under = v.under
        return min(_of(options, Pick), key=lambda o: under[p.cid[o.card]])
    # decided by the table
    t = _Sight(p, v, s)
    if kind == "open":
        shop = _shopping(t, options, 7)
        if shop:
            return shop
        power = _potential(t, s)
        if _find(options, "invite"):
            odds = _odds(t)
            ix = p.card_index
            if any(p.level[ix[c]] <= t.expect and _worth(t, ix[c], odds) > 0
                   for c in v.monsters):
                return INVITE
        if power <= t.expect:
            trades = _of(options, Target)
            if trades and power + 6 > t.expect:
                # the seat holding most cards has most to choose a useful one from
                sizes = v.hand_sizes
                return max(trades, key=lambda o: (sizes[o.seat], -o.seat))
            if _find(options, "pass"):
                return PASS
        return RAVE
    if kind == "reroll":
        return REROLL if _potential(t, s) <= t.expect else KEEP
    if kind == "rescue":
        near = t.souls[t.host] + 1 >= t.win
        return ACCEPT if not near and t.cards else DECLINE
    if kind == "shop":
        return _shopping(t, options, 6) or END
    if kind == "rave":
        h = t.host
        invaders = v.invaders
        if s == h or s in invaders:
            return _lay(t, s, s, options)
        if s == v.rescuer:
            return _lay(t, s, h, options)
        if _find(options, "invade"):
            host = t.lineup(h).bonus if t.line(h) else 0
            mine = t.strength(s, t.cards).bonus
            if mine >= max(t.expect + 1, host + 3) and t.souls[h] + 2 >= t.souls[s]:
                return INVADE
        adds = [o for o in _of(options, Give) if o.seat != h]
        if adds and t.line(h) and _wins(t, h, t.lineup(h), _rivals_best(t, h)):
            return _strongest(p, adds)
        return STAND
    return random_agent(m, s, options, rng)


AGENTS: dict[str, Agent] = {"random": random_agent, "sensible": sensible_agent}
AGENT_NAMES: dict[str, dict[str, str]] = {"sensible": {"uk": "розважливий", "en": "sensible"}}
