"""Play many seeded games and summarise them: win rates, scores, dead cards, violations.

Game ``i`` of a run with seed ``S`` is played with seed ``derive_seed(S, "game", i)``, whichever
worker plays it, so the same arguments give the same results with any ``jobs`` (timings aside).
A shared victory counts ``1/k`` of a win for each of its ``k`` winners. Nothing here names a
game: the engine (docs/engines.md) brings its options, agents and optional statistics.
"""
from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import EngineError
from . import ENGINES
from .agents import agents_for
from .core import (InvariantViolation, Rolled, Violation, derive_seed, play_game,
                   resolve_options)

TIMING_KEYS = ("seconds", "games_per_s", "decisions_per_s")


@dataclass(frozen=True)
class Job:
    root: str
    game_id: str
    options: tuple
    sets: tuple
    players: int
    agents: tuple[str, ...]
    seed: int
    first: int
    count: int
    check: str


_CACHE: dict = {}


def _prepared(job: Job) -> Any:
    key = (job.root, job.options, job.sets)
    if key not in _CACHE:
        from ..model import load_game
        game, _ = load_game(Path(job.root))
        module = ENGINES[game.manifest.engine]
        _CACHE[key] = module.prepare(game, dict(job.options), job.sets)
    return _CACHE[key]


def _run(job: Job) -> list[dict]:
    prep = _prepared(job)
    known = agents_for(ENGINES[prep.game.manifest.engine])
    agents = [known[job.agents[s % len(job.agents)]] for s in range(job.players)]
    out = []
    for i in range(job.first, job.first + job.count):
        gseed = derive_seed(job.seed, "game", i)
        match = prep.new(job.players, gseed)
        try:
            decisions = play_game(match, agents, match.streams.agents, check=job.check)
        except (InvariantViolation, Exception) as exc:   # noqa: BLE001 - a crash is a finding too
            kind = "invariant" if isinstance(exc, InvariantViolation) else type(exc).__name__
            v = Violation(gseed, job.players, f"{kind}: {exc}", list(match.actions),
                          sum(1 for a in match.actions if type(a) is not Rolled))
            out.append({"violation": v.as_dict(), "game": i})
            continue
        r = match.result
        rec = {"game": i, "scores": r["scores"], "winners": r["winners"],
               "decisions": decisions, "plays": sorted({(d, s) for d, s in match.played})}
        stats = getattr(match, "stats", None)
        if stats is not None:
            rec["stats"] = stats()
        out.append(rec)
    return out


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    phat = wins / n
    denom = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / denom
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def player_range(game: Any, module: Any) -> tuple[int, int]:
    """Player counts both the manifest allows and the engine can seat."""
    return (max(game.manifest.players.min, module.PLAYERS[0]),
            min(game.manifest.players.max, module.PLAYERS[1]))


def simulate(game: Any, games: int = 1000, players: int = 4, seed: int = 0,
             options: dict | None = None, sets: Any = None, agents: tuple[str, ...] = ("random",),
             jobs: int = 1, check: str = "round", config: Any = None) -> dict:
    """Simulate ``games`` games of ``game`` (a loaded `Game`) and return the summary dict.

    ``options`` are the engine's option values by name (text or typed; see its ``OPTIONS``),
    ``sets`` the sets in play (None: the engine's default). ``config`` is an engine's ready
    configuration object, passed to its ``prepare`` as the options (kept for callers that
    build one). Arguments no game could be played with are an EngineError, before any game
    starts."""
    engine_id = game.manifest.engine
    if engine_id not in ENGINES:
        raise EngineError(f"no rules engine {engine_id!r} for {game.id}")
    module = ENGINES[engine_id]
    lo, hi = player_range(game, module)
    if not lo <= players <= hi:
        raise EngineError(f"{game.id} takes {lo}-{hi} players, not {players}")
    known = agents_for(module)
    if not agents:
        raise EngineError("no agents given (known: " + ", ".join(known) + ")")
    for a in agents:
        if a not in known:
            raise EngineError(f"unknown agent {a!r} (known: {', '.join(known)})")
    if config is not None:
        prep = module.prepare(game, config)
    else:
        opts = resolve_options(getattr(module, "OPTIONS", ()), dict(options or {}))
        prep = module.prepare(game, opts, tuple(sets) if sets else None)
    # workers rebuild the same tables from these (fork: they find them in the cache)
    key_opts = tuple(sorted(prep.options.items()))
    _CACHE[(str(game.root), key_opts, prep.sets)] = prep
    jobs = max(1, min(jobs or os.cpu_count() or 1, games or 1))
    size = math.ceil(games / jobs) if games else 0
    work = [Job(str(game.root), game.id, key_opts, prep.sets, players, tuple(agents), seed, k,
                min(size, games - k), check) for k in range(0, games, size or 1)] if games else []
    start = time.perf_counter()
    if jobs > 1 and len(work) > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_run, work)
    else:
        parts = [_run(j) for j in work]
    elapsed = time.perf_counter() - start
    records = [r for part in parts for r in part]
    result = summarise(prep, records, games, players, seed, agents, elapsed)
    hook = getattr(module, "statistics", None)
    if hook is not None:
        result["engine"] = hook(prep, [r for r in records if "violation" not in r])
    return result


def summarise(prep: Any, records: list[dict], games: int, players: int, seed: int,
              agents: tuple[str, ...], elapsed: float) -> dict:
    done = [r for r in records if "violation" not in r]
    violations = [dict(r["violation"], game=r["game"]) for r in records if "violation" in r]
    n = len(done)
    wins = [0.0] * players
    score_sum = [0] * players
    hist: list[dict[int, int]] = [{} for _ in range(players)]
    decisions = 0
    played_games: dict[str, int] = {}
    plays_by_winner: dict[str, float] = {}
    plays_total: dict[str, int] = {}
    ids = prep.def_ids
    for r in done:
        winners = r["winners"]
        share = 1.0 / len(winners)
        for s in winners:
            wins[s] += share
        for s, v in enumerate(r["scores"]):
            score_sum[s] += v
            hist[s][v] = hist[s].get(v, 0) + 1
        decisions += r["decisions"]
        seen = set()
        for d, s in r["plays"]:
            cid = ids[d]
            seen.add(cid)
            plays_total[cid] = plays_total.get(cid, 0) + 1
            if s in winners:
                plays_by_winner[cid] = plays_by_winner.get(cid, 0) + share
        for cid in seen:
            played_games[cid] = played_games.get(cid, 0) + 1
    playable = prep.playable_ids()
    seat_rate = []
    for s in range(players):
        lo, hi = wilson(wins[s], n)
        seat_rate.append({"seat": "ABCDEFGH"[s], "agent": agents[s % len(agents)],
                          "win_rate": round(wins[s] / n, 4) if n else 0.0,
                          "ci95": [round(lo, 4), round(hi, 4)]})
    cards = {c: {"games_played": played_games.get(c, 0),
                 "play_share": round(played_games.get(c, 0) / n, 4) if n else 0.0,
                 "win_share": round(plays_by_winner.get(c, 0) / plays_total[c], 4)
                 if plays_total.get(c) else 0.0}
             for c in playable}
    return {
        "game": prep.game.id,
        "games": n,
        "games_requested": games,
        "players": players,
        "seed": seed,
        "agents": list(agents),
        "sets": list(prep.sets),
        "seconds": round(elapsed, 3),
        "games_per_s": round(len(records) / elapsed, 1) if elapsed else 0.0,
        "decisions_per_s": round(decisions / elapsed, 1) if elapsed else 0.0,
        "seat_win_rate": seat_rate,
        "mean_score": [round(score_sum[s] / n, 3) if n else 0.0 for s in range(players)],
        "score_distribution": [{str(k): v for k, v in sorted(h.items())} for h in hist],
        "mean_decisions_per_game": round(decisions / n, 2) if n else 0.0,
        "dead_cards": sorted(c for c in playable if not played_games.get(c)),
        "cards": cards,
        "violations": violations,
    }


def without_timings(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in TIMING_KEYS}
