"""Agents for «Аніма: Тінь омеги» (`forge simulate anima_shadow_of_omega --agents pursuer`).

``pursuer`` goes after its missions and reads only what its seat may know: its own hand and
missions (with the goals done), the public table (groups, their Strength and Speed, positions,
organisations, the active locations with face-up lead events, the final mission once revealed,
the discard piles) and the sizes of hidden zones. It never looks at a face-down lead event, a
deck's order or another seat's hand or missions.

- Movement: it heads for the location of its current goal (a visit, hold or battle goal); when
  that location is not on the table it explores it from the location discard pile, or opens a
  new one from the deck; a group that already stands on its goal stays. A goal guarded by a
  face-up monster it beats only with a lucky roll is tried half the time. With nothing to chase
  it mostly stays to explore again and sometimes walks to a quiet location for new hires; on
  the road it rests.
- Exploration: a Speed check when it can reach the difficulty, else it explores; rewards: the
  mission goal first, then a hire while the group is small, then bonus cards.
- Battles: it plays battle cards when its Strength is behind, flees from hopeless fights and
  rerolls low dice. It never attacks, trades or discards by choice, and it keeps locations its
  goals need when the table is trimmed.
"""
from __future__ import annotations

import random

from ..agents import random_agent
from .choices import EXPLORE, GO, NEW, PASS, REST, STAY, Choice, OnCard, Play
from .flow import Match
from .tables import G_BATTLE, G_SPEED, R_BONUS, R_HIRE, Goal


def _goals(m: Match, s: int) -> list[tuple[int, Goal]]:
    """Own open goals (own missions are the seat's own knowledge; the final is public)."""
    return m.open_goals(s)


def _targets(m: Match, s: int) -> list[int]:
    """Def indices of the locations the seat's current goals need: not those needing a skill
    the group lacks, nor a battle it cannot win even with a 6 (it grows first)."""
    p = m.p
    skills = 0
    for c in m.group[s]:
        skills |= p.skill[c]
    out = []
    for _, g in _goals(m, s):
        if g.kind == G_SPEED or g.location < 0 or (g.skill and not skills & g.skill):
            continue
        if g.kind == G_BATTLE and m.strength(s) + 6 < g.strength + 1:
            continue
        out.append(g.location)
    return out


def _find(options: list[Choice], verb: str) -> Choice | None:
    for o in options:
        if o.verb == verb:
            return o
    return None


def pursuer_agent(m: Match, s: int, options: list, rng: random.Random) -> tuple:
    d = m.decision
    kind = d.kind if d is not None else ""
    p = m.p
    if kind == "keep":
        return max(options, key=lambda o: p.cstr[o.card] + p.cspd[o.card])
    if kind == "return":
        # give back an organisation or a card that needs a skill nobody in the group has
        return options[-1]
    if kind in ("discard", "interact", "counter", "save", "pickup", "guard", "redirect", "cancel", "drop"):
        if kind == "cancel" or kind == "guard":
            for o in options:
                if o.verb != "pass":
                    return o
        if kind == "discard":
            for o in options:
                if o.verb in ("play", "use") and _useful(m, s, o):
                    return o
        return PASS if PASS in options else options[0]
    if kind == "move":
        return _move(m, s, options, rng)
    if kind in ("go", "new"):
        plan = _plan(m, s, rng)
        return plan if plan in options else options[0]
    if kind == "explore":
        speed = m.speed(s)
        for mi, g in _goals(m, s):
            check = p.choices.on_card["speed"][mi]
            if g.kind == G_SPEED and speed + 6 >= g.difficulty and check in options:
                return check
        for o in options:
            if o.verb == "challenge" and m.strength(s) + 6 >= p.goals[o.card][0].strength + 1:
                return o
        if EXPLORE in options:
            return EXPLORE
        return PASS
    if kind == "reward":
        return max(options, key=lambda o: (o.mission >= 0, o.kind == R_HIRE and len(m.group[s]) < 3,
                                           o.kind == R_BONUS, -o.slot))
    if kind == "battle":
        b = m.in_battle
        if b is not None:
            me = m.strength(s)
            if b.monster >= 0:
                foe = p.mstr[b.monster] + p.grows[b.monster] * len(m.group[s])
            elif b.opponent >= 0:
                foe = m.strength(b.opponent if s == b.seat else b.seat)
            else:
                foe = m.foe_strength
            if me + 6 < foe + 1:
                for o in options:
                    if o.verb in ("play", "use") and any(e.name in ("flee", "cancel") for e in p.ops[o.card]):
                        return o
            if me < foe + 2:
                for o in options:
                    if o.verb in ("play", "use") and not any(e.name == "flee" for e in p.ops[o.card]):
                        return o
        return PASS
    if kind == "reroll":
        return options[1] if len(options) > 1 and m.actions and getattr(m.actions[-1], "value", 6) in (1, 2) \
            else PASS
    if kind == "remove":
        keep = set(_targets(m, s))
        pool = [o for o in options if p.dix[o.card] not in keep] or options
        return pool[0]
    if kind in ("kill", "sleep"):
        own = [o for o in options if o.card in m.group[s]]
        if kind == "sleep" and len(own) < len(options):
            pool = [o for o in options if o.card not in m.group[s]]
            return max(pool, key=lambda o: p.cstr[o.card])
        return min(options, key=lambda o: p.cstr[o.card] + p.cspd[o.card])
    if kind in ("lose", "limit", "exchange"):
        return options[0]
    if kind == "offer":
        return options[0]
    if kind == "answer":
        return PASS
    if kind == "to":
        want = set(_targets(m, s))
        for o in options:
            if p.dix[o.card] in want:
                return o
        return options[0]
    return random_agent(m, s, options, rng)


def _useful(m: Match, s: int, o: OnCard | Play) -> bool:
    ops = m.p.ops[o.card]
    return bool(ops) and ops[0].name in ("draw_bonus", "hire")


def _plan(m: Match, s: int, rng: random.Random) -> Choice:
    """The movement it wants: `stay`, `go L`, `new_pick L`, `new_deck` (a deck), `rest`."""
    p = m.p
    here = m.loc[s]
    want = _targets(m, s)
    if here >= 0 and p.dix[here] in want:
        return STAY
    goes = m.goes(s)
    for o in goes:
        L = o.card
        guard = p.mstr[m.lead[L]] - m.strength(s) if L in m.lead_up and p.monster[m.lead[L]] else -9
        # a guard it beats only with a lucky roll: it tries half the time and grows otherwise,
        # so a weak group does not lose to the same monster turn after turn
        if p.dix[L] in want and guard <= 5 and (guard < 2 or rng.random() < 0.5):
            return o
    news = m.news(s)
    for n in news:
        if isinstance(n, OnCard) and p.dix[n.card] in want:
            return n
    if want and not any(p.dix[L] in want for L in m.active):
        for n in news:
            if n.verb == "new_deck":
                return n
    safe = [o for o in goes if o.card not in m.lead]
    # nothing it can chase here: mostly explore again, sometimes look for help elsewhere, so a
    # group stuck on a goal it cannot reach (a Speed check beyond a 6) still finds new hires
    if here >= 0 and (want or not safe or rng.random() < 0.75):
        return STAY
    if safe:
        return safe[int(rng.random() * len(safe))]
    return REST


def _move(m: Match, s: int, options: list[Choice], rng: random.Random) -> Choice:
    plan = _plan(m, s, rng)
    top = _ANNOUNCED.get(plan.verb, plan)
    if top in options:
        return top
    return _find(options, "stay") or _find(options, "rest") or options[0]


#: What a seat announces first for the move `_plan` chose (then the location or the deck).
_ANNOUNCED: dict[str, Choice] = {"go": GO, "new_pick": NEW, "new_deck": NEW}

AGENTS = {"random": random_agent, "pursuer": pursuer_agent}
AGENT_NAMES = {"pursuer": {"uk": "цілеспрямований", "en": "pursuer"}}
