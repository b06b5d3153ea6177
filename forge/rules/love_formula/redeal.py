"""What a seat cannot see, dealt anew (`Engine.redeal`, for the `search` agent's samples).

Hidden from a seat: the other seats' hands, draft packs, picks and set-aside jobs, the order of
every deck, the jobs left in the box and the VP cards lying face down under goals it has not
won. Those cards are dealt anew among those places (`deal_anew`), each place keeping its kind of
card: a job stays a job, a reaction stays a reaction with the same trigger, and every other card
of the main deck is any other. DECISION: so the number of jobs and of each trigger's reactions
in a hand is kept, which keeps every seat's open choice one the rules could offer (a seat asked
to play or react still holds such a card); a card the seat saw pass through another's hand in the
draft is not remembered."""
from __future__ import annotations

import random

from ..core import deal_anew
from .actions import OnCard, Onto
from .state import State
from .tables import REACT


def redeal(match: State, seat: int, rng: random.Random) -> None:
    p = match.p
    others = [s for s in range(match.n) if s != seat]
    aside = {s: [match.job_aside[s]] if match.job_aside[s] >= 0 else [] for s in others}
    box_jobs = [h for h in match.box if p.is_job[h]]
    zones = [match.deck, box_jobs, *(z for s in others for z in (match.hand[s], match.pack[s],
                                                                  match.picked[s], aside[s]))]
    moved = deal_anew(rng, zones, lambda h: "job" if p.is_job[h] else
                      p.trigger[h] if p.type[h] == REACT else "")
    for s in others:
        if aside[s]:
            match.job_aside[s] = aside[s][0]
        for j in (*aside[s], *(h for h in match.hand[s] if p.is_job[h])):
            match.job_owner[j] = s
    if box_jobs:
        box = iter(box_jobs)
        match.box[:] = [next(box) if p.is_job[h] else h for h in match.box]
    for deck in (match.chance_deck, match.goal_deck):
        deal_anew(rng, [deck])
    down = [i for i, who in enumerate(match.goal_claimed)
            if i < len(match.goal_vp) and not match.goal_open[i] and seat not in who]
    under = [match.goal_vp[i] for i in down]
    deal_anew(rng, [match.vp_deck, under])
    for i, vp in zip(down, under):
        match.goal_vp[i] = vp
        match.goal_value[i] = p.value[vp]
    d = match.decision
    for s, options in zip(d.seats, d.options) if d else ():
        if s != seat:
            options[:] = [o._replace(card=moved[o.card])
                          if isinstance(o, (OnCard, Onto)) and o.card in moved else o
                          for o in options]
