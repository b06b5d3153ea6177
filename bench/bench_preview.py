"""Benchmark: start-up of the `forge` command, as a user waits for it (issue 14 asks for
`forge preview` "in well under a second for a warm cache").

Each figure is the median wall time of N runs of a fresh process from an empty folder (so the
built-in game is used), after one untimed run that warms the disk cache, Python's bytecode
(written even if PYTHONDONTWRITEBYTECODE is set, as an installed package has it) and forge's
own cache (compiled templates, hyphenation patterns). `python -c pass` is the floor no command goes under.
The CPU time (user + system) of the same runs is printed too: on a busy shared machine it
moves much less than the wall time, so compare it between runs made at different loads (the
load average is printed with the figures).

The last row is `forge preview --watch` on a copy of the game: the median time from a card
file being saved to the new PNG being in place (what a designer waits for), over N saves.

    python bench/bench_preview.py [-n 9] [--game love_formula] [--card kiss]
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
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


def save_to_png(game: str, card: str, saves: int, cwd: str) -> float:
    """Median seconds from a save of one of the game's card files to the PNG that
    `forge preview --watch` draws for it being replaced, on a copy of the built-in game."""
    from forge.resources import BUILTIN

    for folder in ("cards", "templates"):
        shutil.copytree(BUILTIN / folder / game, Path(cwd) / folder / game)
    data = sorted(p for p in (Path(cwd) / "cards" / game).glob("*.yaml") if p.name != "game.yaml")[0]
    png = Path(cwd) / "watched.png"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    proc = subprocess.Popen([sys.executable, "-m", "forge", "preview", game, card, "--watch",
                             "--out", str(png), "-q"], cwd=cwd, env=env, stdout=subprocess.DEVNULL)

    def drawn_after(before: tuple | None, limit: float = 60.0) -> tuple:
        end = time.perf_counter() + limit
        while time.perf_counter() < end:
            try:
                now = (png.stat().st_ino, png.stat().st_mtime_ns)
            except FileNotFoundError:
                now = None
            if now is not None and now != before:
                return now
            if proc.poll() is not None:
                sys.exit(f"bench_preview: forge preview --watch ended with {proc.returncode}")
            time.sleep(0.002)
        sys.exit("bench_preview: no PNG drawn within a minute")

    try:
        stamp = drawn_after(None)
        waits = []
        text = data.read_text(encoding="utf-8")
        for i in range(saves):
            time.sleep(0.5)  # quiet between saves, as between a designer's
            started = time.perf_counter()
            data.write_text(text + f"# save {i}\n", encoding="utf-8")
            stamp = drawn_after(stamp)
            waits.append(time.perf_counter() - started)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    return statistics.median(waits)


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
        watched = save_to_png(opts.game, opts.card, opts.n, cwd)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"median of {opts.n} runs, warm cache; load average {load} on {os.cpu_count()} cores")
    print(f"{'':<36} {'wall':>7} {'cpu':>7}")
    for label, (wall, cpu) in rows:
        print(f"{label:<36} {wall:6.3f}s {cpu:6.3f}s")
    print(f"{f'forge preview --watch: save to PNG':<36} {watched:6.3f}s")


if __name__ == "__main__":
    main()
