"""How strong the `search` agent is, and what it costs, per built-in game (issue 24, item 4).

    python bench/bench_search.py [--games 400] [--jobs 2] [--budget N] [--seed 1]
                                 [--only GAME,...] [--against random|heuristic]

For each built-in game, two players: `search` against `random` and against the game's own
heuristic (the agent `search` plays its playouts with: greedy, sensible, pursuer), each pairing
``--games`` games, half with `search` in seat A and half in seat B (`forge.rules.simulate`, so
``--jobs`` plays them on worker processes); its win rate (a shared win counts its share) with a
95 % Wilson interval, against the targets (90 % and 55 %), printed as met or missed. Then the CPU
time per decision `search` is asked (decisions with one option cost nothing and count too), from
a few games against the heuristic played in this process at the same budget.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAMES = ("love_formula", "rules_does_not_exist", "anima_shadow_of_omega")
TARGETS = {"random": 0.90, "heuristic": 0.55}


def pairing(game, opponent: str, games: int, jobs: int, budget: int, seed: int) -> tuple:
    """(search's win share, its games, seconds) over ``games`` games, seats swapped half-way."""
    from forge.rules import simulate
    wins = played = 0.0
    t = time.perf_counter()
    for k, agents in enumerate((("search", opponent), (opponent, "search"))):
        r = simulate(game, games=games // 2, players=2, seed=seed + k, agents=agents, jobs=jobs,
                     options={"search_budget": budget})
        rate = r["seat_win_rate"][agents.index("search")]["win_rate"]
        wins += rate * r["games"]
        played += r["games"]
    return wins, int(played), time.perf_counter() - t


def cost(game, engine, budget: int, games: int = 4) -> tuple[float, float]:
    """(CPU ms per decision of `search`, decisions per game) in ``games`` games against the
    heuristic, in this process."""
    from forge.rules.agents import agents_for
    from forge.rules.core import play_game
    agents = agents_for(engine, {"search_budget": budget})
    search, policy = agents["search"], agents["search"].policy
    spent = [0.0, 0]

    def timed(m, s, o, r):
        t = time.process_time()
        got = search(m, s, o, r)
        spent[0] += time.process_time() - t
        spent[1] += 1
        return got
    prep = engine.prepare(game, {})
    for i in range(games):
        m = prep.new(2, 10_000 + i)
        seats = [timed, policy] if i % 2 == 0 else [policy, timed]
        play_game(m, seats, m.streams.agents)
    return 1000 * spent[0] / max(1, spent[1]), spent[1] / games


def main() -> None:
    from forge.model import load_game
    from forge.rules import get_engine
    from forge.rules.search import BUDGET, rollout_policy
    from forge.rules.agents import agents_for
    from forge.rules.simulate import wilson
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="games per pairing")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--budget", type=int, default=BUDGET)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="", help="comma-separated game ids (default: all)")
    ap.add_argument("--against", choices=("random", "heuristic"), action="append",
                    help="the opponents to play (default: both)")
    args = ap.parse_args()
    print(f"search_budget={args.budget}, {args.games} two-player games per pairing, seats swapped")
    print(f"{'game':24} {'against':10} {'search wins':>12} {'95 % interval':>16} {'target':>7} "
          f"{'':7} {'wall s':>7}")
    for gid in (args.only.split(",") if args.only else GAMES):
        game, _ = load_game(ROOT / "cards" / gid)
        engine = get_engine(gid)
        known = agents_for(engine)
        heuristic = next(n for n, a in known.items() if a is rollout_policy(engine, known))
        for kind in args.against or ("random", "heuristic"):
            opponent, target = heuristic if kind == "heuristic" else kind, TARGETS[kind]
            wins, n, wall = pairing(game, opponent, args.games, args.jobs, args.budget, args.seed)
            lo, hi = wilson(wins, n)
            verdict = "met" if wins / n >= target else "MISSED"
            print(f"{gid:24} {opponent:10} {100 * wins / n:11.1f}% {100 * lo:7.1f}-{100 * hi:5.1f} %"
                  f" {100 * target:6.0f}% {verdict:7} {wall:7.0f}", flush=True)
        ms, per_game = cost(game, engine, args.budget)
        print(f"{gid:24} cost: {ms:.1f} CPU-ms per search decision ({per_game:.0f} decisions a "
              f"game for the search seat, against {heuristic})", flush=True)


if __name__ == "__main__":
    main()
