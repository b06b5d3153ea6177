"""The rules engines' mutation kill rate, measured on a uniform random sample of mutmut's mutants.

Every mutant of `forge/rules` run one by one takes hours on a 2-core machine (about 23,000
mutants); a seeded random sample per engine gives the kill rate with a 95 % interval in minutes.
Run from the checkout, after `pip install -e '.[test,mutation]' -c constraints.txt`:

    mutmut run "forge.rules.tally*"                       # makes mutants/ once (about 10 min)
    mutmut run $(python bench/mutation_sample.py pick)    # runs the sample
    python bench/mutation_sample.py score                 # rate per engine, and what survived

`mutmut run` alone runs every mutant. A mutant counts as killed when a test failed, timed out
or crashed on it; one no test reaches ("no tests") counts as a survivor. Changing the test
selection in [tool.mutmut] makes mutmut forget earlier results: run the sample again. mutmut
runs its own copy of tests/ (mutants/tests, made once): delete it after changing a test.
"""
from __future__ import annotations

import argparse
import json
import math
import random
from collections import defaultdict
from pathlib import Path

ENGINES = ("love_formula", "rules_does_not_exist", "anima_shadow_of_omega")
KILLED = {1, 3, 36, 24, -24, 152, 255, -11, -9, 37}       # mutmut's exit codes for a detected mutant
AGENTS = ".agents."        # the agents' strategy (how well they play), scored apart from the rules


def mutants(root: Path) -> dict[str, dict[str, int | None]]:
    """Each part of forge/rules (an engine's package, or `core`) -> {mutant: mutmut's exit code}."""
    parts: dict[str, dict[str, int | None]] = defaultdict(dict)
    for meta in sorted((root / "mutants" / "forge" / "rules").rglob("*.py.meta")):
        rel = meta.relative_to(root / "mutants" / "forge" / "rules").parts
        part = rel[0] if len(rel) > 1 else "core"
        parts[part].update(json.loads(meta.read_text("utf-8"))["exit_code_by_key"])
    return parts


def sample(parts: dict[str, dict[str, int | None]], per_part: int, seed: int) -> dict[str, list[str]]:
    rng = random.Random(seed)
    return {part: sorted(rng.sample(sorted(names), min(per_part, len(names))))
            for part, names in sorted(parts.items())}


def wilson(killed: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (sound near 0 and 1, unlike p ± 2 SE)."""
    p = killed / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def rate(codes: list[int | None]) -> str:
    """`k/n killed = r % (95 % interval)` over the mutants that have run."""
    run = [c for c in codes if c is not None]
    killed = sum(c in KILLED for c in run)
    if not run:
        return "none has run"
    low, high = wilson(killed, len(run))
    return f"{killed}/{len(run)} killed = {killed / len(run):.0%} (95 % interval {low:.0%}-{high:.0%})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("pick", "score"))
    ap.add_argument("--per-part", type=int, default=100, help="mutants sampled per engine and core")
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--parts", default=",".join(ENGINES), help="comma-separated; `core` is forge/rules/*.py")
    args = ap.parse_args()
    parts = mutants(Path.cwd())
    chosen = sample({p: parts[p] for p in args.parts.split(",")}, args.per_part, args.seed)
    if args.what == "pick":
        print(" ".join(name for names in chosen.values() for name in names))
        return
    for part, names in chosen.items():
        codes = [parts[part][n] for n in names]
        if not any(c is not None for c in codes):
            print(f"{part}: none of the {len(names)} sampled mutants has run yet")
            continue
        rules = [c for n, c in zip(names, codes) if AGENTS not in n]
        print(f"{part}: {rate(codes)}; {len(parts[part])} mutants in all")
        print(f"  without the agents' strategy ({len(codes) - len(rules)} of the sample): {rate(rules)}")
        for name, code in zip(names, codes):
            if code is not None and code not in KILLED:
                print(f"  survived{' (no tests)' if code in (5, 33) else ''}: {name}")


if __name__ == "__main__":
    main()
