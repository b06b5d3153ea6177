"""Engine speed: Love Formula, «Rules. Does Not Exist.» and «Аніма: Тінь омеги» (one process,
random agents) against RLCard's Uno (random agents).

    pip install -e .[bench]      # rlcard, numpy
    python bench/bench_engine.py [--games 2000] [--rave-games 1000] [--anima-games 150] [--uno-games 2000]

Prints decisions per second for each on this machine, and their ratios to Uno. A "decision" is one
seat choosing one action (a simultaneous choice of four seats counts four); RLCard's Uno makes
one decision per environment step.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def bench_engine(game_id: str, games: int, players: int = 4, sets: tuple | None = None) -> tuple[float, float]:
    """Decisions and games per second of `game_id`'s engine with random agents in every seat."""
    from forge.model import load_game
    from forge.rules import get_engine
    from forge.rules.agents import random_agent
    from forge.rules.core import play_game

    game, _ = load_game(ROOT / "cards" / game_id)
    engine = get_engine(game_id)
    prep = engine.prepare(game, {}, sets) if sets is not None else engine.prepare(game, {})
    agents = [random_agent] * players
    start = time.perf_counter()
    decisions = 0
    for seed in range(games):
        match = prep.new(players, seed)
        decisions += play_game(match, agents, match.streams.agents)
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed


def bench_uno(games: int) -> tuple[float, float]:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    start = time.perf_counter()
    steps = 0
    for _ in range(games):
        trajectories, _payoffs = env.run(is_training=False)
        # each trajectory alternates state, action, state ...: (len - 1) / 2 actions per player
        steps += sum((len(t) - 1) // 2 for t in trajectories)
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rave-games", type=int, default=1000)
    ap.add_argument("--anima-games", type=int, default=150)
    ap.add_argument("--uno-games", type=int, default=2000)
    args = ap.parse_args()
    lf_dps, lf_gps = bench_engine("love_formula", args.games, sets=("base",))
    print(f"Love Formula (4 players, base, random agents): {lf_dps:,.0f} decisions/s, "
          f"{lf_gps:,.1f} games/s")
    rv_dps, rv_gps = bench_engine("rules_does_not_exist", args.rave_games)
    print(f"Rules. Does Not Exist. (4 players, random):   {rv_dps:,.0f} decisions/s, "
          f"{rv_gps:,.1f} games/s")
    an_dps, an_gps = bench_engine("anima_shadow_of_omega", args.anima_games, players=3)
    print(f"Anima: Shadow of Omega (3 players, random):   {an_dps:,.0f} decisions/s, "
          f"{an_gps:,.1f} games/s")
    try:
        uno_dps, uno_gps = bench_uno(args.uno_games)
    except ImportError:
        print("RLCard Uno: rlcard is not installed (pip install -e .[bench])")
        return
    print(f"RLCard Uno (random agents):                    {uno_dps:,.0f} decisions/s, "
          f"{uno_gps:,.1f} games/s")
    print(f"ratio: Love Formula {lf_dps / uno_dps:.2f}x, Rules. Does Not Exist. {rv_dps / uno_dps:.2f}x, "
          f"Anima {an_dps / uno_dps:.2f}x")


if __name__ == "__main__":
    main()
