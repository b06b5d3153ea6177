"""Love Formula's own agents (the generic `random` one lives in forge/rules/agents.py).

- ``greedy``: prefers completing dates: attaches preparations that a pair of its own still
  needs (the one closest to perfect first), plays pairs it can fill, drafts what its pairs need,
  targets the opponent pair closest to perfect with obstacles, and otherwise plays at random.
"""
from __future__ import annotations

import random
from typing import Any

from .agents import random_agent


def _needs(match: Any, seat: int) -> dict[int, int]:
    """Requirement key -> how few cards its pair still misses (smaller is better)."""
    p = match.p
    need: dict[int, int] = {}
    for pr in match.pairs[seat]:
        have = {p.key[c] for c in match.att[pr] if p.type[c] == 0}
        missing = p.req[pr] - have
        for k in missing:
            if k not in need or len(missing) < need[k]:
                need[k] = len(missing)
    return need


def _wanted_in_hand(match: Any, seat: int) -> set[int]:
    p = match.p
    keys = set()
    for h in match.hand[seat] + match.picked[seat]:
        if p.type[h] == 1:
            keys |= p.req[h]
    return keys


def greedy_agent(match: Any, seat: int, options: list, rng: random.Random) -> tuple:
    p = match.p
    verb = options[0][0]
    best, best_score = None, -1e9
    need = _needs(match, seat)
    for opt in options:
        v = opt[0]
        score = rng.random()          # random tie-break among equals
        if v == "pick" or v == "play":
            h = opt[1]
            t = p.type[h]
            if t == 0:    # preparation
                k = p.key[h]
                if k in need:
                    score += 20 - need[k]
                elif k in _wanted_in_hand(match, seat):
                    score += 8
                else:
                    score += 1
            elif t == 1:  # pair
                have = {p.key[u] for u in match.unatt[seat]}
                score += 6 + 3 * len(p.req[h] & have)
            elif t == 2:  # obstacle
                score += 4 if any(match.pairs[o] for o in range(match.n) if o != seat) else -5
            elif t == 4:  # connection
                score += 5 if match.pairs[seat] else -5
            elif t == 5 and p.is_job[h]:
                score += 0.5 if v == "play" else 0
            else:
                score += 2
        elif v in ("attach", "move"):
            pr = opt[2]
            have = {p.key[c] for c in match.att[pr] if p.type[c] == 0}
            left = len(p.req[pr] - have)
            score += 30 - left
        elif v == "keep":
            score += 10
        elif v == "target":
            pr = opt[1]
            if match.powner.get(pr) == seat:
                score += 5 + len(match.att[pr])
            else:
                have = {p.key[c] for c in match.att[pr] if p.type[c] == 0}
                score += 10 - len(p.req[pr] - have)
        elif v == "pass":
            score += 0.5 if verb == "pass" else 0
        elif v in ("scrap", "drop"):
            score -= 10
        elif v == "react":
            score += 3
        elif v == "remove":
            score += 5
        if score > best_score:
            best, best_score = opt, score
    return best


AGENTS = {"random": random_agent, "greedy": greedy_agent}
