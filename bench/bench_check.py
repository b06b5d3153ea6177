"""How much `forge check` costs against parsing the same files with bare PyYAML.

Prints: PyYAML's safe_load (pure Python, the library's default) and its libyaml loader
(CSafeLoader, what forge parses with), then forge check's first run in this process (builds
the pydantic models: what one `forge check` command pays) and its best warm run, with ratios.
Target (issue 2): forge check <= 6x bare PyYAML.

    python bench/bench_check.py [--repeat 5]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(p.parent for p in (ROOT / "cards").glob("*/game.yaml"))
FILES = sorted(f for g in GAMES for f in g.glob("*.yaml"))


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def parse(loader) -> None:
    for f in FILES:
        yaml.load(f.read_text(encoding="utf-8"), Loader=loader)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    repeat = ap.parse_args().repeat
    from forge.check import check_game  # imported here: import time is not check time

    def check() -> None:
        for game in GAMES:
            _, findings = check_game(game)
            assert not findings, findings

    cold = best(check, 1)
    warm = best(check, repeat)
    pure = best(lambda: parse(yaml.SafeLoader), repeat)
    fast = best(lambda: parse(getattr(yaml, "CSafeLoader", yaml.SafeLoader)), repeat)
    print(f"files: {len(FILES)} in {len(GAMES)} games, {sum(f.stat().st_size for f in FILES) // 1024} KiB")
    print(f"PyYAML safe_load (pure Python):   {pure * 1000:7.1f} ms")
    print(f"PyYAML CSafeLoader (libyaml):     {fast * 1000:7.1f} ms")
    print(f"forge check, first run:           {cold * 1000:7.1f} ms  = {cold / pure:4.2f}x safe_load, {cold / fast:4.2f}x CSafeLoader")
    print(f"forge check, warm (best of {repeat}):   {warm * 1000:7.1f} ms  = {warm / pure:4.2f}x safe_load, {warm / fast:4.2f}x CSafeLoader")


if __name__ == "__main__":
    main()
