"""The ``search`` agent: Monte Carlo search over samples of what its seat cannot see, on the
engine contract alone (it names no game), for every engine with an `Engine.redeal` hook.

Information-set search, determinized at the root (as in Cowling, Powley and Whitehouse's ISMCTS,
with the tree cut to the root's options, which is where a small budget pays): each playout

1. copies the match (`Match.copy`) and deals every card the seat cannot see anew among the
   places it could be (`Engine.redeal`: the other hands, the deck order ...), so the copy is one
   world consistent with what the seat has seen, sampled afresh each time;
2. gives the copy new random streams (`Match.reseed`), so the dice, shuffles and draws to come
   are sampled too, never read from the match's own stream;
3. takes one of the seat's options (the other seats of a simultaneous decision choose with the
   rollout policy), then lets the rollout policy (the engine's own heuristic, `rollout_policy`)
   play every seat, for `HORIZON` seat decisions or to the end;
4. scores the end for the seat: its share of the win, or, when cut off, the share of the other
   seats it ranks above by the engine's score and tie-break (`Match.scores`, `Match.tiebreak`);
   equal shares are told apart by its score less the best other seat's (`value`).

The heuristic's own choice is the one to beat: each sampled world (hidden cards and future dice)
is played once with it and once with every other option still in the race, so that the two are
compared on the same luck (common random numbers), and after each round of worlds the worse half
of the others drops out (sequential halving, Karnin et al. 2013: the budget goes to the options
that might be best). The last one standing is chosen only if it beat the heuristic's choice in
`MARGIN` worlds more than it lost to it; else the heuristic's choice is played. Rolling out with
the heuristic and departing from it only on evidence makes this policy improvement over it (a
rollout algorithm, in Bertsekas's sense). ``budget`` is the playouts per decision with more than
one option (``--option search_budget=N``); with more options than that, the heuristic's choice
and others drawn at random run; a decision with one option costs none.
The agent reads the match only through copies it has dealt anew, the options it was offered and
the engine's hooks, so its choice never depends on a card its seat cannot see.
"""
from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from .core import Engine

#: Playouts per decision unless ``--option search_budget=N`` says otherwise: a 1,000-game
#: four-player run of each built-in game takes under an hour on two cores (README,
#: bench_search.py). Most comparisons of two options in one world tie (in Anima three in four:
#: one choice seldom changes who leads 40 decisions on), so the budget buys the few worlds that
#: tell options apart: against Anima's `pursuer` (400 games, seats swapped) 8 won 55-58 %, 16
#: won 62.5 % (57.7-67.1 %), at twice the cost.
BUDGET = 16
#: Worlds more in which an option must beat the heuristic's choice than lose to it, to be chosen
#: instead: a small budget's noise alone must not lead the search away from the heuristic. At
#: budget 8 against Anima's `pursuer` (400 games each): 1 won 41.8 %, 2 58.2 %, 3 52.8 %.
MARGIN = 2
#: Seat decisions a playout's rollout plays before it is cut off and scored.
HORIZON = 40

Policy = Callable[[Any, int, list, random.Random], tuple]


class Search:
    """The agent: ``Search(engine, policy, budget)(match, seat, options, rng) -> option``."""

    def __init__(self, engine: Engine, policy: Policy, budget: int = BUDGET,
                 horizon: int = HORIZON) -> None:
        if engine.redeal is None:
            raise ValueError(f"the rules engine {engine.name!r} has no redeal hook")
        self.redeal = engine.redeal
        self.policy = policy
        self.budget = budget
        self.horizon = horizon

    def __call__(self, match: Any, seat: int, options: list, rng: random.Random) -> tuple:
        k = len(options)
        if k == 1 or self.budget < 2:
            return options[0] if k == 1 else self.policy(match, seat, options, rng)
        first = options.index(self.policy(match, seat, options, random.Random(rng.random())))
        alive = [i for i in range(k) if i != first]
        if k > self.budget:
            alive = rng.sample(alive, self.budget - 1)
        edge = [0] * k          # worlds in which an option beat the heuristic's, less those it lost
        left = self.budget
        rounds = 1 + math.ceil(math.log2(len(alive)))
        while left > len(alive):
            for _ in range(max(1, self.budget // rounds // (len(alive) + 1))):
                if left <= len(alive):
                    break
                world = rng.getrandbits(64)       # one world for every option: a fair comparison
                base = self.playout(match, seat, options[first], random.Random(world))
                for i in alive:
                    v = self.playout(match, seat, options[i], random.Random(world))
                    edge[i] += (v > base) - (v < base)
                left -= len(alive) + 1
            alive.sort(key=lambda i: -edge[i])
            alive = alive[:(len(alive) + 1) // 2]
        return options[alive[0]] if edge[alive[0]] >= MARGIN else options[first]

    def playout(self, match: Any, seat: int, option: tuple, rng: random.Random) -> tuple:
        """One world sampled for ``seat``, ``option`` taken in it, played on; its value."""
        world = match.copy()
        self.redeal(world, seat, rng)
        world.reseed(rng.getrandbits(64))
        policy, agents = self.policy, world.streams.agents
        d = world.decision
        world.step(tuple(option if s == seat else policy(world, s, o, agents[s])
                         for s, o in zip(d.seats, d.options)))
        left = self.horizon
        while left > 0 and (d := world.decision) is not None:
            world.step(tuple(policy(world, s, o, agents[s]) for s, o in zip(d.seats, d.options)))
            left -= len(d.seats)
        return value(world, seat)


def value(match: Any, seat: int) -> tuple[float, int]:
    """What the position is worth to ``seat``, compared as a tuple: first its share of the win
    once the game is over, before that the share of the other seats it ranks above by (score,
    *tiebreak), a tie counting half; then its score less the best other seat's. The second part
    tells apart the many cut-off playouts whose ranks are equal (a lead grown or a gap closed),
    in the engine's own score unit, with no scale to choose per game."""
    scores = match.result.scores if match.result is not None else match.scores()
    margin = scores[seat] - max(v for s, v in enumerate(scores) if s != seat) if match.n > 1 else 0
    result = match.result
    if result is not None:
        return (1 / len(result.winners) if seat in result.winners else 0.0), margin
    keys = [(scores[s], *match.tiebreak(s)) for s in range(match.n)]
    mine = keys[seat]
    above = sum(1.0 if mine > key else 0.5 if mine == key else 0.0
                for s, key in enumerate(keys) if s != seat)
    return above / max(1, match.n - 1), margin


def rollout_policy(engine: Engine, agents: dict[str, Policy]) -> Policy:
    """The engine's own heuristic: its first default agent that is not ``search``, else its
    first own agent that is not ``random``, else ``random``."""
    for name in (*engine.default_agents, *engine.agents):
        if name not in ("search", "random") and name in agents:
            return agents[name]
    return agents["random"]
