"""`forge simulate` at scale: games/s per core, scaling with --jobs, and peak memory against the
number of games (it should stay flat: workers send back counts, never the games).

    python bench/bench_simulate.py [--game love_formula] [--games 2000] [--jobs 1,2]
                                   [--memory 10000,1000000] [--executor loky]
    python bench/bench_simulate.py --random-cpu [--games 300]

Each figure is one `forge simulate` process, timed from outside (start-up included) and its
peak resident memory read from the kernel's accounting of the finished child, so worker
processes count too. On a machine others share, run it when it is otherwise idle.

`--random-cpu` instead runs `simulate` in this process for each built-in game with `random`
agents (Love Formula and the rave game with four players, Anima with three; Anima's games run
ten times as long, so it plays a tenth of ``--games``) and prints its CPU time (user + sys,
best of 3) per game, games/s, decisions/s and the mean game length: the figures issue 24's
"simulation speed with random agents" is held to, which a busy machine bends less than wall
time.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

FORGE = [sys.executable, "-m", "forge", "simulate"]
ROOT = Path(__file__).resolve().parents[1]
#: (game, players, share of --games) of `--random-cpu`.
RANDOM_RUNS = (("love_formula", 4, 1), ("rules_does_not_exist", 4, 1 / 3),
               ("anima_shadow_of_omega", 3, 1 / 10))


def run(game: str, games: int, jobs: int, executor: str) -> tuple[dict, float]:
    """(the JSON result, wall seconds)."""
    start = time.perf_counter()
    done = subprocess.run(FORGE + [game, "--games", str(games), "--jobs", str(jobs), "--executor",
                                   executor, "--format", "json"], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"forge simulate failed: {done.stderr[-1000:]}")
    return json.loads(done.stdout), wall


def peak_of(game: str, games: int, executor: str) -> float:
    """Peak MB of a run of ``games`` games (--jobs 1: one process), read in a fresh interpreter:
    the kernel keeps the largest child's peak, so each figure needs its own parent."""
    code = (f"import resource, subprocess, sys; subprocess.run({FORGE + [game, '--games', str(games), '--format', 'json', '--executor', executor]!r}, "
            "stdout=subprocess.DEVNULL, check=False); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1]) / 1024


def random_cpu(games: int) -> None:
    """CPU per game, games/s and decisions/s of in-process random-agent runs (best of 3)."""
    sys.path.insert(0, str(ROOT))
    from forge.model import load_game
    from forge.rules.simulate import simulate
    print("random agents, one process, CPU time (user + sys), best of 3")
    for game_id, players, share in RANDOM_RUNS:
        game, _ = load_game(ROOT / "cards" / game_id)
        n = max(1, round(games * share))
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            result = simulate(game, games=n, players=players, seed=0, agents=("random",))
            best = min(best, time.process_time() - start)
        per_game = result["mean_decisions_per_game"]
        length = result.get("engine", {}).get("turns", {}).get("mean")
        print(f"  {game_id:22} {players}p {n:>4} games: {1000 * best / n:6.2f} ms a game, "
              f"{n / best:6.0f} games/s, {per_game * n / best:7.0f} decisions/s "
              f"({per_game:.0f} a game{f', {length} turns' if length else ''})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="love_formula")
    ap.add_argument("--games", type=int, default=None,
                    help="games per speed run (default 2000; --random-cpu: 300)")
    ap.add_argument("--jobs", default="1,2", help="--jobs values to time, comma-separated")
    ap.add_argument("--memory", default="10000,1000000",
                    help="game counts whose peak memory to compare (one process each)")
    ap.add_argument("--executor", default="loky")
    ap.add_argument("--random-cpu", action="store_true",
                    help="CPU per game and decisions/s of each built-in game with random agents")
    args = ap.parse_args()
    if args.random_cpu:
        return random_cpu(args.games or 300)
    args.games = args.games or 2000
    print(f"{args.game}, {os.cpu_count()} cores, executor {args.executor}")
    base = None
    for jobs in (int(j) for j in args.jobs.split(",")):
        result, wall = run(args.game, args.games, jobs, args.executor)
        gps = args.games / wall
        base = base or gps
        print(f"  --jobs {jobs}: {args.games} games in {wall:.1f} s wall = {gps:.0f} games/s "
              f"({gps / jobs:.0f} per worker; x{gps / base:.2f} of --jobs 1); in-run "
              f"{result['games_per_s']} games/s")
    peaks = []
    for games in (int(g) for g in args.memory.split(",")):
        start = time.perf_counter()
        peaks.append(peak_of(args.game, games, args.executor))
        print(f"  {games:>9,} games: peak {peaks[-1]:.1f} MB ({time.perf_counter() - start:.0f} s)")
    if len(peaks) > 1:
        print(f"  peak memory ratio, most games to fewest: {peaks[-1] / peaks[0]:.3f}")


if __name__ == "__main__":
    main()
