"""Engine speed: Love Formula, «Rules. Does Not Exist.» and «Аніма: Тінь омеги» (one process,
random agents) against RLCard's Uno (random agents); and «Скидачка», Uno's rules as data
(examples/cards/skydachka), against the same Uno, measured in the same run.

    pip install -e .[bench]      # rlcard, numpy
    python bench/bench_engine.py [--games 2000] [--rave-games 1000] [--anima-games 150] [--uno-games 2000]
    python bench/bench_engine.py --only shedding      # «Скидачка» and RLCard's Uno alone

Prints decisions per second for each on this machine, and their ratios to Uno. A "decision" is one
seat choosing one action (a simultaneous choice of four seats counts four); RLCard's Uno makes
one decision per environment step. In «Скидачка» a forced move (a draw when nothing can be
played) is taken without asking and a wild's colour is a decision of its own, where RLCard asks
a step for every turn and folds the colour into the play; so its figure is counted as RLCard
counts, one decision per turn, beside forge's own count. RLCard is measured twice: its
environment (`env.run`, the way an RLCard user plays it, encoding every state as numpy), and its
bare game (`game.step` with a random legal action), the harder mark.
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
    start = time.process_time()
    decisions = 0
    for seed in range(games):
        match = prep.new(players, seed)
        decisions += play_game(match, agents, match.streams.agents)
    elapsed = time.process_time() - start
    return decisions / elapsed, games / elapsed


def bench_shedding(games: int, players: int = 4) -> tuple[float, float, float]:
    """«Скидачка» with random agents: (decisions/s counted as RLCard counts them, one per turn;
    forge's own decisions/s; games/s)."""
    from forge.model import load_game
    from forge.rules import get_engine
    from forge.rules.agents import random_agent
    from forge.rules.core import play_game

    game, _ = load_game(ROOT / "examples" / "cards" / "skydachka")
    prep = get_engine("rules").prepare(game, {"cap": 100_000})
    agents = [random_agent] * players
    start = time.process_time()
    decisions = turns = 0
    for seed in range(games):
        match = prep.new(players, seed)
        decisions += play_game(match, agents, match.streams.agents)
        turns += match.turn
    elapsed = time.process_time() - start
    return turns / elapsed, decisions / elapsed, games / elapsed


def bench_uno_game(games: int, players: int = 4) -> tuple[float, float]:
    """RLCard's bare Uno game (no environment, no state encoding): steps/s and games/s."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    rng = np.random.RandomState(0)
    game.np_random = rng
    start = time.process_time()
    steps = 0
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[rng.randint(len(legal))])
            steps += 1
    elapsed = time.process_time() - start
    return steps / elapsed, games / elapsed


def bench_uno(games: int, players: int = 2) -> tuple[float, float]:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": 0, "game_num_players": players})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    start = time.process_time()
    steps = 0
    for _ in range(games):
        trajectories, _payoffs = env.run(is_training=False)
        # each trajectory alternates state, action, state ...: (len - 1) / 2 actions per player
        steps += sum((len(t) - 1) // 2 for t in trajectories)
    elapsed = time.process_time() - start
    return steps / elapsed, games / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rave-games", type=int, default=1000)
    ap.add_argument("--anima-games", type=int, default=150)
    ap.add_argument("--uno-games", type=int, default=2000)
    ap.add_argument("--shedding-games", type=int, default=2000)
    ap.add_argument("--only", choices=("all", "shedding"), default="all")
    args = ap.parse_args()
    if args.only == "all":
        built_in(args)
    shedding(args)


def built_in(args: argparse.Namespace) -> None:
    """The three built-in games' Python engines, and their ratios to RLCard's Uno (2 players)."""
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
        return                                  # shedding() says that rlcard is missing
    print(f"RLCard Uno (2 players, random agents):         {uno_dps:,.0f} decisions/s, "
          f"{uno_gps:,.1f} games/s")
    print(f"ratio: Love Formula {lf_dps / uno_dps:.2f}x, Rules. Does Not Exist. {rv_dps / uno_dps:.2f}x, "
          f"Anima {an_dps / uno_dps:.2f}x")


def shedding(args: argparse.Namespace) -> None:
    """«Скидачка» (rules as data) against RLCard's Uno, 4 players, random agents, CPU time."""
    sh_dps, sh_own, sh_gps = bench_shedding(args.shedding_games)
    print(f"Скидачка (rules as data, 4 players, random):  {sh_dps:,.0f} decisions/s as RLCard counts "
          f"them ({sh_own:,.0f} forge decisions/s), {sh_gps:,.1f} games/s")
    try:
        env_dps, env_gps = bench_uno(args.uno_games, players=4)
        raw_dps, raw_gps = bench_uno_game(args.uno_games)
    except ImportError:
        print("RLCard Uno: rlcard is not installed (pip install -e .[bench])")
        return
    print(f"RLCard Uno, environment (4 players, random):  {env_dps:,.0f} decisions/s, {env_gps:,.1f} games/s")
    print(f"RLCard Uno, bare game (4 players, random):    {raw_dps:,.0f} decisions/s, {raw_gps:,.1f} games/s")
    print(f"ratio: {sh_dps / env_dps:.2f}x RLCard's environment, {sh_dps / raw_dps:.2f}x its bare game "
          f"(games/s: {sh_gps / env_gps:.2f}x, {sh_gps / raw_gps:.2f}x)")


if __name__ == "__main__":
    main()
