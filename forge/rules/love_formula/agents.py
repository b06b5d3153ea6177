"""Love Formula's own agents (the generic `random` one lives in forge/rules/agents.py).

- ``greedy``: prefers completing dates: attaches preparations that a pair of its own still
  needs (the one closest to perfect first), plays pairs it can fill, drafts what its pairs need,
  keeps of two unattached preparations of a kind the one its pairs need more, targets the
  opponent pair closest to perfect with obstacles, and otherwise plays at random.

An agent decides from ``match.view(seat)`` (its own hand, pack and picks, the public table), the
options it is offered and the printed card data of the prepared game (``match.p``); it never
reads the match's zones. The view names cards by id: `Prepared.card_index` maps an id to one of
its handles, whose rows in the static tables (type, requirement key, requirements) every copy
shares.
"""
from __future__ import annotations

import random
from typing import Sequence

from ..agents import Agent, random_agent
from .actions import Action, OnCard, Onto
from .flow import Match
from .state import View
from .tables import CONN, OBST, PAIR, PREP, Tables


def _needs(p: Tables, mine: dict[str, list[str]]) -> dict[int, int]:
    """Requirement key -> how few cards its pair still misses (smaller is better); ``mine`` is
    the seat's pairs as the view shows them: {pair id: [attached card ids]}."""
    typ, key, req, ix = p.type, p.key, p.req, p.card_index
    need: dict[int, int] = {}
    for pid, att in mine.items():
        have = {key[ix[c]] for c in att if typ[ix[c]] == PREP}
        missing = req[ix[pid]] - have
        for k in missing:
            if k not in need or len(missing) < need[k]:
                need[k] = len(missing)
    return need


def _wanted_in_hand(p: Tables, view: View) -> set[int]:
    keys: set[int] = set()
    for c in view.hand + view.picked:
        h = p.card_index[c]
        if p.type[h] == PAIR:
            keys |= p.req[h]
    return keys


def _use(k: int, need: dict[int, int], wanted: set[int]) -> int:
    """How much a preparation of requirement key ``k`` is worth to the seat: most when a pair
    of its own misses few cards besides it, less when a pair in its hand wants it."""
    if k in need:
        return 20 - need[k]
    return 8 if k in wanted else 1


def _missing(p: Tables, pair: int, att: list[str]) -> int:
    """How many requirements of ``pair`` (a handle) its attached cards (ids) leave open."""
    have = {p.key[p.card_index[c]] for c in att if p.type[p.card_index[c]] == PREP}
    return len(p.req[pair] - have)


def _find_pair(view: View, seat: int, pid: str) -> tuple[int, list[str]]:
    """(owner, attached ids) of the pair ``pid`` on the table, the seat's own pairs first."""
    pairs = view.pairs
    if pid in pairs[seat]:
        return seat, pairs[seat][pid]
    for o, mine in enumerate(pairs):
        if pid in mine:
            return o, mine[pid]
    return -1, []


def greedy_agent(match: Match, seat: int, options: Sequence[Action], rng: random.Random) -> Action:
    p = match.p
    typ, key = p.type, p.key
    first = options[0].verb
    best, best_score = options[0], -1e9
    view: View | None = None    # read once, when an option needs the table (not for a pass)
    wants: tuple[dict[int, int], set[int]] | None = None    # (`_needs`, `_wanted_in_hand`)
    for opt in options:
        v = opt.verb
        score = rng.random()          # random tie-break among equals
        if (v == "pick" or v == "play") and isinstance(opt, OnCard):
            h = opt.card
            t = typ[h]
            if t == PREP:
                view = view or match.view(seat)
                if wants is None:
                    wants = _needs(p, view.pairs[seat]), _wanted_in_hand(p, view)
                score += _use(key[h], *wants)
            elif t == PAIR:
                view = view or match.view(seat)
                have = {key[p.card_index[u]] for u in view.unattached[seat]}
                score += 6 + 3 * len(p.req[h] & have)
            elif t == OBST:
                view = view or match.view(seat)
                pairs = view.pairs
                score += 4 if any(pairs[o] for o in range(len(pairs)) if o != seat) else -5
            elif t == CONN:
                view = view or match.view(seat)
                score += 5 if view.pairs[seat] else -5
            elif p.is_job[h]:
                score += 0.5 if v == "play" else 0
            else:
                score += 2
        elif isinstance(opt, Onto):       # attach, move
            view = view or match.view(seat)
            _, att = _find_pair(view, seat, p.cid[opt.pair])
            score += 30 - _missing(p, opt.pair, att)
        elif (v == "keep" or v == "drop") and isinstance(opt, OnCard):
            # the new preparation, or (drop) the unattached one of its kind that it would replace;
            # below any attachment
            view = view or match.view(seat)
            if wants is None:
                wants = _needs(p, view.pairs[seat]), _wanted_in_hand(p, view)
            h = opt.card
            if v == "drop":
                ix, sub = p.card_index, p.sub
                h = next((ix[c] for c in view.unattached[seat] if sub[ix[c]] == sub[opt.card]), h)
            score += 10 + _use(key[h], *wants) / 10
        elif v == "target" and isinstance(opt, OnCard):
            view = view or match.view(seat)
            owner, att = _find_pair(view, seat, p.cid[opt.card])
            if owner == seat:
                score += 5 + len(att)
            else:
                score += 10 - _missing(p, opt.card, att)
        elif v == "pass":
            score += 0.5 if first == "pass" else 0
        elif v == "scrap":
            score -= 10
        elif v == "react":
            score += 3
        elif v == "remove":
            score += 5
        if score > best_score:
            best, best_score = opt, score
    return best


AGENTS: dict[str, Agent] = {"random": random_agent, "greedy": greedy_agent}
AGENT_NAMES = {"greedy": {"uk": "жадібний", "en": "greedy"}}
