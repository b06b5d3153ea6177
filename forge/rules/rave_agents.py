"""Agents for «Rules. Does Not Exist.» (`forge simulate rules_does_not_exist --agents sensible`).

``sensible`` plays like a careful player and reads only what its seat may know (its own hand,
inventory and Mercenaries' card counts, the public table: lineups, souls, Classes, hand sizes):

- it invites a monster only when its own cards beat the expectation with room to spare, and
  then the one with the richest reward;
- it lays the smallest lineup that wins: the weakest card that makes the lineup win, else the
  card that adds most; it calls its Mercenaries when its own cards are not enough, and a friend
  (promising every reward card) when even those fall short;
- it passes when it cannot win and may pass; it helps a Host who is not about to win; it
  usurps a rave when its own cards beat both the expectation and the Host's lineup clearly;
  at a rival's match point it feeds cards to the strongest Invader;
- it buys a Class when it has none and souls to spare, hires Mercenaries with spare cards,
  stashes its best cards in the inventory and discards its weakest.
"""
from __future__ import annotations

import random
from typing import Any

from .agents import random_agent


def _cards(m: Any, s: int) -> list[int]:
    return m.hand[s] + m.inv[s]


def _merc_cards(m: Any, s: int) -> int:
    return sum(len(m.under[x]) for x in m.mercs[s])


def _potential(m: Any, s: int, owner: int, extra: list[int] | None = None) -> int:
    """Bonus of ``owner``'s lineup if ``s`` added every card it holds."""
    return m.strength(owner, m.line[owner] + _cards(m, s) + (extra or []))[0]


def _rivals_best(m: Any, owner: int) -> tuple[int, int] | None:
    """The strongest other lineup of this rave (None: only the expectation to beat)."""
    keys = [m.strength(o, m.line[o]) for o in [m.host] + m.invaders if o != owner and m.line[o]]
    return max(keys) if keys else None


def _wins(m: Any, owner: int, cards: list[int], target: tuple[int, int] | None) -> bool:
    key = m.strength(owner, cards)
    if key[0] <= m.expect:
        return False
    return target is None or key > target or (key == target and owner == m.host)


def _weakest(m: Any, options: list, verbs: tuple = ()) -> tuple:
    b = m.p.bonus
    pool = [o for o in options if not verbs or o[0] in verbs]
    return min(pool, key=lambda o: (b[o[-1]], m.p.dur[o[-1]]))


def _strongest(m: Any, options: list, verbs: tuple = ()) -> tuple:
    b = m.p.bonus
    pool = [o for o in options if not verbs or o[0] in verbs]
    return max(pool, key=lambda o: (b[o[-1]], m.p.dur[o[-1]]))


def _find(options: list, verb: str) -> tuple | None:
    for o in options:
        if o[0] == verb:
            return o
    return None


def _lay(m: Any, s: int, owner: int, options: list) -> tuple:
    """Lay the smallest card that makes ``owner``'s lineup win, else the one adding most."""
    target = _rivals_best(m, owner)
    line = m.line[owner]
    if line and _wins(m, owner, line, target):
        return ("stand",)
    lays = [o for o in options if o[0] in ("lay", "lay_inv")]
    if lays:
        winning = [o for o in lays if _wins(m, owner, line + [o[1]], target)]
        if winning:
            return _weakest(m, winning)
        if s == owner or _potential(m, s, owner) > max(m.expect, target[0] if target else 0):
            return max(lays, key=lambda o: (m.strength(owner, line + [o[1]])[0], -m.p.bonus[o[1]]))
    merc = _find(options, "merc")
    if merc:
        return merc
    calls = [o for o in options if o[0] == "call"]
    if calls:
        # ask the seat holding most cards, promising every reward card
        return max(calls, key=lambda o: (len(m.hand[o[1]]) + len(m.inv[o[1]]), o[2], -o[1]))
    return ("stand",)


def sensible_agent(m: Any, s: int, options: list, rng: random.Random) -> tuple:
    d = m.decision
    kind = d.kind if d is not None else ""
    p = m.p
    if kind == "open":
        win_souls = m.souls_to_win
        if not m.cls[s] and m.souls[s] >= 2 and m.souls[s] + 2 < win_souls and _find(options, "buy"):
            return ("buy",)
        if len(m.mercs[s]) < 2 and len(_cards(m, s)) >= 7 and _find(options, "hire"):
            return ("hire",)
        power = _potential(m, s, s)
        if _find(options, "invite"):
            weakest = min(_cards(m, s), key=lambda x: p.bonus[x])
            rest = [x for x in _cards(m, s) if x != weakest]
            if m.strength(s, rest)[0] >= m.expect + 4:
                return ("invite",)
        if power <= m.expect and _find(options, "pass"):
            return ("pass",)
        return ("rave",)
    if kind == "monster":
        return max(options, key=lambda o: (p.rsouls[o[1]] * 2 + p.rsounds[o[1]], p.level[o[1]]))
    if kind in ("pay", "hire", "offer", "discard"):
        return _weakest(m, options)
    if kind == "limit":
        stash = [o for o in options if o[0] == "stash"]
        if stash:
            return _strongest(m, stash)
        return _weakest(m, options)
    if kind == "keep" or kind == "toss":
        return _strongest(m, options)
    if kind == "dismiss":
        return min(options, key=lambda o: len(m.under[o[1]]))
    if kind == "reset":
        return ("pay",) if ("pay",) in options else options[0]
    if kind == "reroll":
        return ("reroll",) if _potential(m, s, s) <= m.expect else ("keep",)
    if kind == "rescue":
        h = m.host
        near = m.souls[h] + 1 >= m.souls_to_win
        return ("accept",) if not near and _cards(m, s) else ("decline",)
    if kind == "answer":
        return ("decline",)
    if kind == "shop":
        if not m.cls[s] and m.souls[s] >= 2 and m.souls[s] + 2 < m.souls_to_win and _find(options, "buy"):
            return ("buy",)
        if len(m.mercs[s]) < 2 and len(_cards(m, s)) >= 6 and _find(options, "hire"):
            return ("hire",)
        return ("end",)
    if kind == "gentle":
        lays = [o for o in options if o[0] == "lay"]
        return lays[0] if lays else ("done",)
    if kind == "rave":
        h = m.host
        if s == h or s in m.invaders:
            return _lay(m, s, s, options)
        if s == m.rescuer:
            return _lay(m, s, h, options)
        if _find(options, "invade"):
            host_key = m.strength(h, m.line[h]) if m.line[h] else (0, 0)
            mine = m.strength(s, _cards(m, s))[0]
            if mine >= max(m.expect + 1, host_key[0] + 3) and m.souls[h] + 2 >= m.souls[s]:
                return ("invade",)
        adds = [o for o in options if o[0] in ("add", "add_inv") and o[1] != h]
        if adds and m.line[h] and _wins(m, h, m.line[h], _rivals_best(m, h)):
            return _strongest(m, adds)
        return ("stand",)
    return random_agent(m, s, options, rng)


AGENTS = {"random": random_agent, "sensible": sensible_agent}
