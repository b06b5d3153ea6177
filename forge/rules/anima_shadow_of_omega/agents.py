"""Agents for «Аніма: Тінь омеги» (`forge simulate anima_shadow_of_omega --agents pursuer`).

``pursuer`` goes after its missions and reads only what its seat may know: its own hand and
missions (with the goals done), the public table (groups, their Strength and Speed, positions,
organisations, the active locations with face-up lead events, the final mission once revealed,
the discard piles, the cards just played or offered) and the sizes of hidden zones. It never
looks at a face-down lead event, a deck's order or another seat's hand or missions (what a
`peek` shows it of a deck's top is its own knowledge).

- Movement: it heads for the location of its current goal (a visit, hold or battle goal); when
  that location is not on the table it explores it from the location discard pile, or opens a
  new one from the deck (reading the deck's top first with a scouting card); a group on its
  hold goal stays. A goal guarded by a face-up monster it beats only with a lucky roll is tried
  half the time. With nothing to chase elsewhere it walks to a quiet location (one with no lead
  event) for bonus cards and hires, opens a new location when there is none, and rests when it
  cannot. It flies to its goal
  with a travel card when its hand is nearly full, and looks at the event deck's top before
  exploring (putting the mildest event first).
- Exploration: a Speed check when it passes at least half the time (with a Speed card when
  that makes the difference), a mission battle when it wins at least one time in six, else it
  explores, or claims a mission reward with a card that skips the roll; rewards: the mission
  goal first, then a hire while the group is small (or the hand nearly full), then bonus cards.
- Interaction: it attacks a group in reach when its odds (the d6 against d6 of both groups'
  public Strength) are at least 60 %, steals a bonus card with a trickery card, and offers a
  card its group cannot use in trade (once to each other player a phase); it answers an offer with its cheapest card when the offer
  is worth more to it, and accepts an answer worth at least what it gave.
- Cards: it joins an organisation whose duty does not cost it (Magic for the Tower, a big
  group for the Unseen), plays draw and hire cards, cancels a rival's card that hurts it,
  redirects a rival's group onto a monster that beats it, saves a location its goals need by
  paying its least wanted card (when that is no draw or hire card), and takes what the pick-up
  rule offers.
- Battles: it plays battle cards when its Strength is behind, flees from hopeless fights and
  rerolls low dice. At the discard step it drops a card its group cannot use when the hand is
  full, leaves an organisation whose rival's stronger group shares its location, and dismisses
  from a full group a weak character whose skills the others have, to make room for a hire; it
  keeps locations its goals need when the table is trimmed.
"""
from __future__ import annotations

import random

from ..agents import random_agent
from ..core import Rolled
from .choices import (ACCEPT, ANNOUNCE_DISCARD, DONE, EXPLORE, GO, LEAVE, NEW, PASS, REST, SAVE, STAY,
                      Choice, OnCard,
                      OnSeat, Play)
from .flow import Match
from .tables import (B_ORG, CHAR, G_BATTLE, G_SPEED, GROUP_LIMIT, HAND_LIMIT, LOC, R_BONUS, R_HIRE,
                     Goal, Tables)


#: The least chance of winning for which it attacks another group (the loser pays a bonus card,
#: leaves the location and loses the rest of its turn) and for which it fights a mission's foe
#: (a lost challenge costs only the turn's exploration); both measured against the former agent.
ATTACK_ODDS = 0.6
CHALLENGE_ODDS = 1 / 6


def _does(p: Tables, h: int, name: str) -> bool:
    """Whether card `h` carries out the operation `name`."""
    return any(e.name == name for e in p.ops[h])


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
    kind = m.decision.kind          # type: ignore[union-attr]  # an agent is asked at an open decision
    p = m.p
    if kind == "keep":
        return max(options, key=lambda o: p.cstr[o.card] + p.cspd[o.card])
    if kind == "return":
        # give back an organisation or a card that needs a skill nobody in the group has
        return options[-1]
    if kind == "discard":
        return _discard_step(m, s, options)
    if kind == "drop":
        return _drop(m, s, options) or options[0]
    if kind == "pickup":
        return max(options, key=lambda o: -1 if o.verb == "pass" else _worth(m, s, o.card))
    if kind == "interact":
        return _interact(m, s, options)
    if kind in ("pay", "lose", "exchange"):
        return min(options, key=lambda o: _worth(m, s, o.card))
    if kind == "offer":
        return _offer(m, s, options)
    if kind == "answer":
        return _answer(m, s, options)
    if kind == "accept":
        return _accept(m, s)
    if kind == "save":
        return _save(m, s, options)
    if kind == "counter":
        return _counter(m, s, options)
    if kind == "redirect":
        return _redirect(m, s, options)
    if kind in ("cancel", "guard"):
        for o in options:
            if o.verb != "pass":
                return o
        return PASS
    if kind == "move":
        return _move(m, s, options, rng)
    if kind in ("go", "new"):
        plan = _plan(m, s, rng)
        return plan if plan in options else options[0]
    if kind == "explore":
        return _explore(m, s, options)
    if kind == "reward":
        hire = len(m.group[s]) < 3 or (len(m.group[s]) < GROUP_LIMIT and len(m.hand[s]) >= HAND_LIMIT - 1)
        return max(options, key=lambda o: (o.mission >= 0, o.kind == R_HIRE and hire,
                                           o.kind == R_BONUS, -o.slot))
    if kind == "battle":
        return _battle(m, s, options)
    if kind == "reroll":
        last = m.actions[-1] if m.actions else None
        low = isinstance(last, Rolled) and isinstance(last[1], int) and last[1] in (1, 2)
        return options[1] if len(options) > 1 and low else PASS
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
    if kind == "peek":
        return _peek(m, s, options)
    if kind == "victim":
        return max(options, key=lambda o: len(m.hand[o.seat]))
    if kind == "take":
        return max(options, key=lambda o: _worth(m, s, o.card))
    if kind == "to":
        return _to(m, s, options)
    return random_agent(m, s, options, rng)


# ------------------------------------------------------------------ what a card is worth
def _skills(m: Match, s: int) -> int:
    bits = 0
    for c in m.group[s]:
        bits |= m.p.skill[c]
    return bits


def _worth(m: Match, s: int, h: int) -> int:
    """How much ``s`` wants card ``h``: a character by Strength + Speed; a bonus card 0 when
    the group cannot use it (a skill nobody has, an organisation it cannot or will not join),
    else 3 (5 for a card that draws or hires)."""
    p = m.p
    if p.kind[h] == CHAR:
        return p.cstr[h] + p.cspd[h]
    if p.skill[h] and not _skills(m, s) & p.skill[h]:
        return 0
    if p.bsub[h] == B_ORG:
        return 2 if _org_fits(m, s, h) and not m.org[s] else 0
    return 5 if _useful(m, s, h) else 3


def _org_fits(m: Match, s: int, h: int) -> bool:
    """Whether the duty of organisation ``h`` costs the group little: the Tower wants a Magic
    card in the hand, the Unseen (no hires at trade locations) a group of 3 or more; a rival's
    member at least as strong standing on the same location (they must fight) rules it out."""
    p = m.p
    duty = p.duty[h]
    if p.needs[h] and not m.has_skill(s, p.needs[h]):
        return False
    if "free_magic" in duty and not any(p.skill[x] & p.needs[h] for x in m.hand[s] if x != h):
        return False
    if "no_hire_trade" in duty and len(m.group[s]) < 3:
        return False
    here = m.loc[s]
    return not any(t != s and m.org[t] and m.org[t][0] == p.rival[h] and m.loc[t] == here
                   and m.strength(t) >= m.strength(s) for t in range(m.n))


def _join(m: Match, s: int, options: list) -> Choice | None:
    """A card worth playing in any own step: an organisation that fits, a card that draws or
    hires."""
    p = m.p
    for o in options:
        if isinstance(o, Play) and p.bsub[o.card] == B_ORG and _org_fits(m, s, o.card):
            return o
    for o in options:
        if o.verb in ("play", "use") and _useful(m, s, o.card):
            return o
    return None


# ------------------------------------------------------------------ the discard step
def _discard_step(m: Match, s: int, options: list) -> Choice:
    play = _join(m, s, options)
    if play is not None:
        return play
    if ANNOUNCE_DISCARD in options and _drop(m, s, None) is not None:
        return ANNOUNCE_DISCARD
    return PASS


def _drop(m: Match, s: int, options: list | None) -> Choice | None:
    """The one voluntary discard (with no ``options``: whether one is worth it): leave an
    organisation whose rival's stronger group shares the location; with a full hand, drop a
    card the group cannot use; dismiss a character of Strength + Speed 4 or less whose skills
    the others have from a full group, to make room for a better hire."""
    p = m.p
    co = p.choices.on_card
    here = m.loc[s]
    if m.org[s] and any(t != s and m.org[t] and m.org[t][0] == p.rival[m.org[s][0]] and m.loc[t] == here
                        and m.strength(t) > m.strength(s) for t in range(m.n)):
        return LEAVE
    if len(m.hand[s]) >= HAND_LIMIT:
        h = min(m.hand[s], key=lambda x: _worth(m, s, x))
        if _worth(m, s, h) == 0:
            return co["drop"][h]
    if len(m.group[s]) >= GROUP_LIMIT:
        c = min(m.group[s], key=lambda x: p.cstr[x] + p.cspd[x])
        rest = 0
        for x in m.group[s]:
            rest |= p.skill[x] if x != c else 0
        if p.cstr[c] + p.cspd[c] <= 4 and not p.skill[c] & ~rest:
            return co["dismiss"][c]
    if options is None:
        return None
    return min(options, key=lambda o: _worth(m, s, o.card) if isinstance(o, OnCard) else 9)


# ------------------------------------------------------------------ interaction
def _odds(me: int, foe: int, tie_wins: bool) -> float:
    """The chance that ``me`` + d6 beats ``foe`` + d6 (a tie wins, or is rolled again)."""
    win = tie = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if me + a > foe + b:
                win += 1
            elif me + a == foe + b:
                tie += 1
    return (win + tie) / 36 if tie_wins else win / (36 - tie)


def _interact(m: Match, s: int, options: list) -> Choice:
    p = m.p
    me = m.strength(s)
    for o in options:
        if isinstance(o, OnSeat) and o.verb == "attack" and \
                _odds(me, m.strength(o.seat), False) >= ATTACK_ODDS:
            return o
    for o in options:
        if isinstance(o, Play) and _does(p, o.card, "steal_bonus"):
            return o
    play = _join(m, s, options)
    if play is not None:
        return play
    if min((_worth(m, s, h) for h in m.hand[s]), default=9) == 0:
        for o in options:
            if isinstance(o, OnSeat) and o.verb == "trade" and not m.proposed[o.seat]:
                return o
    return PASS


def _last(m: Match) -> tuple:
    """The last choice made (which location the explorer would remove, where a group is
    heading): public when it is made."""
    for step in reversed(m.actions):
        if not isinstance(step, Rolled):
            return step[0]
    return ()


def _offer(m: Match, s: int, options: list) -> Choice:
    """Offer the one card it values least (one its group cannot use), then close the offer."""
    if DONE in options:
        return DONE
    gives = [o for o in options if o.verb == "give"]
    if not gives:
        return PASS
    o = min(gives, key=lambda x: _worth(m, s, x.card))
    return o if _worth(m, s, o.card) == 0 else PASS


def _answer(m: Match, s: int, options: list) -> Choice:
    """Answer with its cheapest card when what is offered is worth more to it, then close."""
    if m.trading is None:
        return PASS
    _, _, offered, answer = m.trading
    if answer:
        return DONE if DONE in options else PASS
    gives = [o for o in options if o.verb == "give"]
    if not gives:
        return PASS
    o = min(gives, key=lambda x: _worth(m, s, x.card))
    return o if sum(_worth(m, s, x) for x in offered) > _worth(m, s, o.card) else PASS


def _accept(m: Match, s: int) -> Choice:
    """Take an answer worth at least what it gives."""
    if m.trading is None:
        return PASS
    _, _, offered, answer = m.trading
    return ACCEPT if sum(_worth(m, s, x) for x in answer) >= sum(_worth(m, s, x) for x in offered) else PASS


def _save(m: Match, s: int, options: list) -> Choice:
    """Keep a location its goals need, paying with a card it values least."""
    chosen = _last(m)
    if isinstance(chosen, OnCard) and m.p.dix[chosen.card] in _targets(m, s) and m.hand[s] \
            and min(_worth(m, s, h) for h in m.hand[s]) <= 3:
        return SAVE
    return PASS


def _harms(m: Match, s: int, h: int) -> bool:
    """Whether another seat's card ``h`` being played hurts ``s``: it steals, robs, puts to
    sleep or redirects, or it is a battle card in a battle against ``s``."""
    p = m.p
    b = m.in_battle
    if b is not None and s in (b.seat, b.opponent):
        return True
    return any(e.name in ("steal_bonus", "rob", "sleep", "redirect") for e in p.ops[h])


def _counter(m: Match, s: int, options: list) -> Choice:
    if m.revealed and _harms(m, s, m.revealed[-1]):
        for o in options:
            if o.verb != "pass":
                return o
    return PASS


def _redirect(m: Match, s: int, options: list) -> Choice:
    """Send a rival's group onto a face-up monster that likely beats it (the mover is one of
    the other seats: with three players, any of them it would trap)."""
    if any(_trap(m, t) is not None for t in range(m.n) if t != s):
        for o in options:
            if o.verb != "pass":
                return o
    return PASS


def _trap(m: Match, t: int) -> int | None:
    """An active location whose face-up lead monster beats the group of ``t`` two times in
    three or more."""
    p = m.p
    for L in m.active:
        if L in m.lead_up and p.monster[m.lead[L]] and L != m.loc[t]:
            foe = p.mstr[m.lead[L]] + p.grows[m.lead[L]] * len(m.group[t])
            if _odds(m.strength(t), foe, True) <= 1 / 3:
                return L
    return None


def _to(m: Match, s: int, options: list) -> Choice:
    p = m.p
    last = _last(m)
    if isinstance(last, Play) and _does(p, last.card, "redirect"):
        # a redirect: onto the strongest face-up monster
        return max(options, key=lambda o: p.mstr[m.lead[o.card]] if o.card in m.lead_up else -1)
    want = set(_targets(m, s))
    for o in options:
        if p.dix[o.card] in want:
            return o
    return options[0]


# ------------------------------------------------------------------ exploring and battles
def _explore(m: Match, s: int, options: list) -> Choice:
    p = m.p
    speed = m.speed(s)
    for mi, g in _goals(m, s):
        check = p.choices.on_card["speed"][mi]
        if g.kind == G_SPEED and check in options:
            # a check it passes at least one time in two (a d6 of 4 or more), else it explores
            # and grows; a Speed card that brings it there first
            if speed + 4 >= g.difficulty:
                return check
            if speed + 7 >= g.difficulty:
                for o in options:
                    if isinstance(o, Play) and any(e.name == "boost" and e.args.get("stat") == "speed"
                                                   for e in p.ops[o.card]):
                        return o
    for o in options:
        if o.verb == "challenge" and \
                _odds(m.strength(s), m.goal(s, o.card).strength, True) >= CHALLENGE_ODDS:
            return o
    here = m.loc[s]
    if any(r.mission >= 0 for r in m.rewards_here(s, here)):
        for o in options:
            if isinstance(o, Play) and _does(p, o.card, "claim_reward"):
                return o
    play = _join(m, s, options)
    if play is not None:
        return play
    if EXPLORE in options:
        return EXPLORE
    return PASS


def _battle(m: Match, s: int, options: list) -> Choice:
    p = m.p
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
                if o.verb in ("play", "use") and not _does(p, o.card, "flee"):
                    return o
    return PASS


def _peek(m: Match, s: int, options: list) -> Choice:
    """Put on top the location its goals need, or the mildest event (not a monster, else the
    weakest), for the exploring to come."""
    p = m.p
    want = set(_targets(m, s))
    for o in options:
        if p.kind[o.card] == LOC and p.dix[o.card] in want:
            return o
    return min(options, key=lambda o: (p.monster[o.card], p.mstr[o.card], p.level[o.card]))

def _useful(m: Match, s: int, h: int) -> bool:
    """Card or ability ``h`` draws bonus cards or hires."""
    ops = m.p.ops[h]
    return bool(ops) and ops[0].name in ("draw_bonus", "hire")


def _plan(m: Match, s: int, rng: random.Random) -> Choice:
    """The movement it wants: `stay`, `go L`, `new_pick L`, `new_deck` (a deck), `rest`."""
    p = m.p
    want = _targets(m, s)
    if m.holding(s):
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
    # nothing it can chase elsewhere (a group stays only on a hold goal): explore a quiet
    # location for bonus cards and hires, and come back to a goal here next turn; with none,
    # open a new location rather than rest where it stands turn after turn
    safe = [o for o in goes if o.card not in m.lead]
    if safe:
        return safe[int(rng.random() * len(safe))]
    for n in news:
        if n.verb == "new_deck":
            return n
    return news[0] if news else REST


def _move(m: Match, s: int, options: list[Choice], rng: random.Random) -> Choice:
    p = m.p
    plan = _plan(m, s, rng)
    for o in options:
        if not isinstance(o, Play):
            continue
        ops = p.ops[o.card]
        if _does(p, o.card, "peek"):
            deck = ops[0].args["deck"]
            # read the location deck's top before opening a new one, the event deck's before
            # exploring again
            if (deck == "location" and plan.verb == "new_deck") or (deck == "event" and plan == STAY):
                return o
        elif _does(p, o.card, "travel") and isinstance(plan, OnCard) and plan.verb == "go" \
                and p.dix[plan.card] in _targets(m, s) and len(m.hand[s]) >= HAND_LIMIT - 1:
            return o                                   # fly: a flight cannot be redirected
    play = _join(m, s, options)
    if play is not None:
        return play
    top = _ANNOUNCED.get(plan.verb, plan)
    if top in options:
        return top
    return _find(options, "stay") or _find(options, "rest") or options[0]


#: What a seat announces first for the move `_plan` chose (then the location or the deck).
_ANNOUNCED: dict[str, Choice] = {"go": GO, "new_pick": NEW, "new_deck": NEW}

AGENTS = {"random": random_agent, "pursuer": pursuer_agent}
AGENT_NAMES = {"pursuer": {"uk": "цілеспрямований", "en": "pursuer"}}
