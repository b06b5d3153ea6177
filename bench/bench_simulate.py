"""`forge simulate` at scale: games/s per core, scaling with --jobs, and peak memory against the
number of games (it should stay flat: workers send back counts, never the games).

    python bench/bench_simulate.py [--game love_formula] [--games 2000] [--jobs 1,2]
                                   [--memory 10000,1000000] [--executor loky]

Each figure is one `forge simulate` process, timed from outside (start-up included) and its
peak resident memory read from the kernel's accounting of the finished child, so worker
processes count too. On a machine others share, run it when it is otherwise idle.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

FORGE = [sys.executable, "-m", "forge", "simulate"]


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="love_formula")
    ap.add_argument("--games", type=int, default=2000, help="games per speed run")
    ap.add_argument("--jobs", default="1,2", help="--jobs values to time, comma-separated")
    ap.add_argument("--memory", default="10000,1000000",
                    help="game counts whose peak memory to compare (one process each)")
    ap.add_argument("--executor", default="loky")
    args = ap.parse_args()
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
