"""Benchmark: start-up of the `forge` command, as a user waits for it (issue 14 asks for
`forge preview` "in well under a second for a warm cache").

Each figure is the median wall time of N runs of a fresh process from an empty folder (so the
built-in game is used), after one untimed run that warms the disk cache, Python's bytecode
(written even if PYTHONDONTWRITEBYTECODE is set, as an installed package has it) and forge's
own cache (compiled templates, hyphenation patterns). `python -c pass` is the floor no command goes under.
The CPU time (user + system) of the same runs is printed too: on a busy shared machine it
moves much less than the wall time, so compare it between runs made at different loads (the
load average is printed with the figures).

    python bench/bench_preview.py [-n 9] [--game love_formula] [--card kiss]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def median_times(args: list[str], runs: int, cwd: str) -> tuple[float, float]:
    """Median wall and CPU seconds of `runs` runs of `python args` (after one untimed run);
    each must succeed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    walls, cpus = [], []
    for i in range(runs + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            sys.exit(f"bench_preview: {' '.join(args)} failed: {done.stderr.strip()}")
        if i:
            walls.append(wall)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=9, help="timed runs of each command")
    ap.add_argument("--game", default="love_formula")
    ap.add_argument("--card", default="kiss")
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as cwd:
        out = str(Path(cwd) / "preview.png")
        rows = [("python -c pass", median_times(["-c", "pass"], opts.n, cwd)),
                ("forge --version", median_times(["-m", "forge", "--version"], opts.n, cwd)),
                ("forge --help", median_times(["-m", "forge", "--help"], opts.n, cwd)),
                (f"forge preview {opts.game} {opts.card}",
                 median_times(["-m", "forge", "preview", opts.game, opts.card, "--out", out], opts.n, cwd))]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"median of {opts.n} runs, warm cache; load average {load} on {os.cpu_count()} cores")
    print(f"{'':<36} {'wall':>7} {'cpu':>7}")
    for label, (wall, cpu) in rows:
        print(f"{label:<36} {wall:6.3f}s {cpu:6.3f}s")


if __name__ == "__main__":
    main()
