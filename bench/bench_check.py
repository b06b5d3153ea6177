"""How much `forge check` costs against parsing the same files with bare PyYAML.

Prints PyYAML's safe_load (pure Python: what bare PyYAML does by default) and its libyaml
loader (CSafeLoader, which forge parses with), then two tiers of forge check, each as its
first run in this process (what one `forge check` command pays: the pydantic models and the
templates are built then) and its best warm run:

- the data checks: loading, the model, references, counts, uniqueness, texts, the engine's
  operations (everything issue 2 asks of check);
- the full check, which also lays out every card face (glyphs, fit) and renders every rulebook
  and cheat-sheet template (references at template:line).

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
    # imported here: import time is not check time
    from forge.check import DATA_CHECKS, DERIVED_CHECKS, check_game
    from forge.check.preflight import check_glyphs_and_fit
    from forge.check.rulebook import check_rulebooks
    from forge.model import load_game

    def data_tier() -> None:
        for root in GAMES:
            game, findings = load_game(root)
            for check in DATA_CHECKS + DERIVED_CHECKS:
                if check not in (check_glyphs_and_fit, check_rulebooks):
                    findings += check(game)
            assert not findings, findings

    def full() -> None:
        for root in GAMES:
            _, findings = check_game(root)
            assert not findings, findings

    data_cold = best(data_tier, 1)
    data_warm = best(data_tier, repeat)
    cold = best(full, 1)
    warm = best(full, repeat)
    pure = best(lambda: parse(yaml.SafeLoader), repeat)
    fast = best(lambda: parse(getattr(yaml, "CSafeLoader", yaml.SafeLoader)), repeat)
    print(f"files: {len(FILES)} in {len(GAMES)} games, {sum(f.stat().st_size for f in FILES) // 1024} KiB")
    print(f"PyYAML safe_load (pure Python):   {pure * 1000:7.1f} ms")
    print(f"PyYAML CSafeLoader (libyaml):     {fast * 1000:7.1f} ms")
    rows = [("data checks, first run", data_cold), (f"data checks, warm (best of {repeat})", data_warm),
            ("full check, first run", cold), (f"full check, warm (best of {repeat})", warm)]
    for label, t in rows:
        print(f"{label + ':':34}{t * 1000:7.1f} ms  = {t / pure:5.2f}x safe_load, {t / fast:5.2f}x CSafeLoader")


if __name__ == "__main__":
    main()
