"""The cost of `Match.copy()` against a whole random game, per engine (issue 24: under 5 %).

    python bench/bench_copy.py [--games 60]

For each engine (random agents, the engine's default players): the mean CPU time of a whole
game (a fresh match played to its end), and of copies taken at random decision points, as a
percentage of it. A match's first copy replays it from its seed and switches its snapshots on;
later copies start from the last turn boundary's snapshot (forge/rules/copying.py), which is
what a search that branches from a position again and again pays. ("first" is the copy right
after the previous point's: a replay from the start for a match's first copy, else from the
snapshot the previous copies left.)
"""
from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "plugin_game"))

ENGINES = (("love_formula", 4), ("rules_does_not_exist", 4), ("anima_shadow_of_omega", 3),
           ("chumaky", 4), ("skydachka", 4), ("smakolyky", 4), ("high_card", 4))
#: The example games whose rules are data, played by the rules engine.
RULES_GAMES = ("chumaky", "skydachka", "smakolyky")


def _prepared(game_id: str):
    from forge.model import load_game
    from forge.rules import get_engine
    if game_id == "high_card":
        import high_card_engine
        game, _ = load_game(ROOT / "tests" / "plugin_game" / "cards" / "high_card")
        return high_card_engine.ENGINE.prepare(game, {"tricks": 3, "hand": 3}, None)
    if game_id in RULES_GAMES:
        game, _ = load_game(ROOT / "examples" / "cards" / game_id)
        return get_engine("rules").prepare(game, {})
    game, _ = load_game(ROOT / "cards" / game_id)
    return get_engine(game_id).prepare(game, {})


def _choose(m) -> tuple:
    from forge.rules.agents import random_agent
    d = m.decision
    return tuple(random_agent(m, s, o, m.streams.agents[s]) for s, o in zip(d.seats, d.options))


def bench(game_id: str, players: int, games: int) -> dict:
    from forge.rules.agents import random_agent
    from forge.rules.core import play_game
    prep = _prepared(game_id)
    gc.collect()
    gc.freeze()       # what is loaded stays: a full collection walks only what is made after
    clock = time.process_time
    whole = first = later = 0.0
    copies = 0
    lengths = []
    for seed in range(games):      # first, so that the copies' garbage is not collected in it
        t = clock()
        m = prep.new(players, seed)
        play_game(m, [random_agent] * players, m.streams.agents)
        whole += clock() - t
        lengths.append(len(m.actions))
    for seed, length in enumerate(lengths):
        m = prep.new(players, seed)
        at = random.Random(seed)
        while m.decision is not None:
            if at.random() < 5 / max(length, 5):      # about 5 points a game
                t = clock()
                m.copy()
                t1 = clock()
                m.copy()
                first, later, copies = first + t1 - t, later + clock() - t1, copies + 1
            m.step(_choose(m))
    game = whole / games
    return {"game ms": game * 1e3, "first %": 100 * first / max(copies, 1) / game,
            "copy %": 100 * later / max(copies, 1) / game, "copies": copies}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    args = ap.parse_args()
    print(f"{'engine':24} {'game ms':>8} {'copy':>7} {'first':>7} {'copies':>7}")
    for game_id, players in ENGINES:
        games = max(1, args.games // 4) if game_id == "anima_shadow_of_omega" else args.games
        r = bench(game_id, players, games)
        print(f"{game_id:24} {r['game ms']:8.2f} {r['copy %']:6.1f}% {r['first %']:6.1f}% "
              f"{r['copies']:7}")


if __name__ == "__main__":
    main()
