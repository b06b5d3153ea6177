"""How much `forge check` costs against parsing the same files with bare PyYAML (issue 23: at
most 3x).

Both sides are fresh processes of this interpreter, timed by the CPU time (user + system) the
child used, best of `--repeat`, run side by side:

- `python -m forge check` of the three built-in games, in the checkout (as a designer runs it);
- `python -c "import yaml; yaml.safe_load(...)"` of the same YAML files: every `.yaml` file
  that check opens, found by running check once in this process with an audit hook on `open`:
  the manifests, the card files and the scenario files the rulebook templates quote. (Layout
  and rulebook templates are Jinja, not YAML, and are not counted.) `safe_load` is PyYAML's
  default, pure-Python loader.

One untimed run of each comes first, so both are measured as every run but the very first
after installing: Python's bytecode written (`PYTHONDONTWRITEBYTECODE` is dropped for the
children) and forge's cache (compiled templates, parsed fonts, fitted card faces,
`forge.cache`) filled.

    python bench/bench_check.py [--repeat 5]
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(p.parent for p in (ROOT / "cards").glob("*/game.yaml"))
SAFE_LOAD = ("import sys, yaml\nfor name in sys.argv[1:]:\n"
             "    with open(name, encoding='utf-8') as f:\n        yaml.safe_load(f)\n")


def yaml_files_check_reads() -> list[Path]:
    """The `.yaml` files `check_game` opens for the built-in games, in the order first opened."""
    opened: dict[Path, None] = {}

    def hook(event: str, args: tuple) -> None:
        if event == "open" and isinstance(args[0], (str, Path)) and str(args[0]).endswith(".yaml"):
            opened.setdefault(Path(args[0]).resolve())

    sys.path.insert(0, str(ROOT))
    from forge.check import check_game

    sys.addaudithook(hook)
    for root in GAMES:
        _, findings = check_game(root)
        assert not findings, findings
    return list(opened)


def child_cpu(args: list[str]) -> float:
    """CPU seconds (user + system) of one fresh process running `args` in the checkout."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    repeat = ap.parse_args().repeat
    files = yaml_files_check_reads()
    check = [sys.executable, "-m", "forge", "check", "-q"]
    parse = [sys.executable, "-c", SAFE_LOAD, *map(str, files)]
    child_cpu(check), child_cpu(parse)  # bytecode and forge's cache, as on every later run
    forge_times, yaml_times = [], []
    for _ in range(repeat):  # interleaved, so both sides see the same machine
        forge_times.append(child_cpu(check))
        yaml_times.append(child_cpu(parse))
    forge_cpu, yaml_cpu = min(forge_times), min(yaml_times)
    kib = sum(f.stat().st_size for f in files) // 1024
    cards = sum(1 for f in files if (ROOT / "cards") in f.parents)
    print(f"files: {len(files)} YAML files ({kib} KiB): {cards} manifests and card files of "
          f"{len(GAMES)} games, {len(files) - cards} scenario files the rulebooks quote")
    print(f"fresh process, CPU seconds (user + sys), best of {repeat}:")
    print(f"  yaml.safe_load of the files:  {yaml_cpu:6.3f} s")
    print(f"  forge check of the games:     {forge_cpu:6.3f} s")
    print(f"ratio: forge check = {forge_cpu / yaml_cpu:.2f}x yaml.safe_load (issue 23: at most 3x)")


if __name__ == "__main__":
    main()
