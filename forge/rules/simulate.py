"""Play many seeded games and summarise them: win rates, scores, which cards the rules offered and
the agents chose, what each kind of decision offered and got, violations.

Game ``i`` of a run with seed ``S`` is played with seed ``derive_seed(S, "game", i)``, whichever
worker plays it. Workers play chunks of games (forge/rules/workers.py) and return a `Tally` of
counts that merge exactly in any order (forge/rules/tally.py), so memory does not grow with the
number of games and the JSON is the same for any ``jobs`` and executor, timings aside. A shared
victory counts ``1/k`` of a win for each of its ``k`` winners, kept as a whole number of
``unit`` = lcm(1..players) parts. Nothing here names a game: the engine (docs/engines.md) brings
its options, agents and optional ``statistics`` hook, its matches their `GameStats`.
"""
from __future__ import annotations

import math
import time
from collections import Counter
from itertools import chain
from functools import lru_cache, reduce
from operator import itemgetter, or_
from dataclasses import dataclass, field, fields
from typing import Any, Callable

from ..errors import EngineError, InvariantViolation
from . import ENGINES, plain
from .agents import Agent, agent_name, agents_for, forbidding, named
from .core import (Engine, Match, Offered, Option, Prepared, Rolled, Violation, derive_seed,
                   play_game, resolve_options)
from .search import BUDGET
from .tally import add, check_counts
from .workers import Interrupted, Setup, run_chunks

TIMING_KEYS = ("seconds", "games_per_s", "decisions_per_s")
#: Violations a summary keeps in full (seed and actions), the first by game number; the rest
#: are counted.
VIOLATIONS_KEPT = 10


#: Options of the agents, given like an engine's (``--option search_budget=N``) for every engine.
AGENT_OPTIONS = (Option("search_budget", int, BUDGET, min=1,
                        help="Playouts the search agent plays per decision (more: stronger, slower)."),)


def agent_options(options: dict | None) -> tuple[dict, tuple[tuple[str, Any], ...]]:
    """``options`` split into the engine's and the agents' (`AGENT_OPTIONS`, checked), the
    agents' as a `Plan` keeps them."""
    names = {o.name for o in AGENT_OPTIONS}
    given = dict(options or {})
    mine = resolve_options(AGENT_OPTIONS, {k: given.pop(k) for k in names & given.keys()})
    return given, tuple(sorted(mine.items()))


@plain.kind
@dataclass(frozen=True)
class Plan:
    """What every chunk of a run shares; ``forbid``: card ids no agent may choose (ablation);
    ``agent_options``: (name, value) of every `AGENT_OPTIONS`."""

    setup: Setup
    players: int
    agents: tuple[str, ...]
    seed: int
    check: str
    forbid: frozenset[str] = frozenset()
    agent_options: tuple[tuple[str, Any], ...] = ()

    def seat_agents(self, engine: Engine) -> list[Agent]:
        known = agents_for(engine, dict(self.agent_options))
        seats = [known[self.agents[s % len(self.agents)]] for s in range(self.players)]
        return [forbidding(a, self.forbid) for a in seats] if self.forbid else seats


def play_one(prep: Prepared, plan: Plan, agents: list[Agent], i: int,
             offered: Offered | None = None) -> tuple[Match, int] | dict:
    """Game ``i`` of the run: (the finished match, seat decisions made), or, when it broke an
    invariant or crashed, the violation with the seed and actions that reproduce it.
    ``offered`` notes what the seats were offered (`play_game`)."""
    gseed = derive_seed(plan.seed, "game", i)
    match = prep.new(plan.players, gseed)
    try:
        return match, play_game(match, agents, match.streams.agents, check=plan.check,
                                offered=offered)
    except Exception as exc:   # noqa: BLE001 - a crash is a finding too
        kind = "invariant" if isinstance(exc, InvariantViolation) else type(exc).__name__
        v = Violation(gseed, plan.players, f"{kind}: {exc}", list(match.actions),
                      sum(1 for a in match.actions if type(a) is not Rolled))
        return dict(v.as_dict(), game=i)


def unit(players: int) -> int:
    """Parts a win is counted in, so that a win shared by any number of seats is whole parts."""
    return math.lcm(*range(1, players + 1))


class Choices:
    """Adds up, game by game, what an `Offered` noted the seats were offered and chose: per card
    the games in which an option naming it was offered, and those in which one was chosen, also per
    verb (an option's first element), so a card kept or discarded but never chosen to be played
    shows as such; per verb the games it was offered and chosen in and the times it was chosen;
    per decision kind the times it was put to seats (a simultaneous decision once) and the
    games it was. An option names the cards its label names (`named`).

    Counting must cost a small share of a game that takes a few milliseconds and offers over a
    thousand options, so each distinct option is worked out once, into a bit mask of what it
    names (its verb, its cards, each (verb, card)); a game's masks are OR-ed together in C and
    added, as binary numbers, to bit-sliced counters (`bump`): a few big-integer operations a
    game, whatever the number of cards. Every step of `add` is one C call over the game's
    options, choices or kinds (docs/simulate.md has what it costs)."""

    def __init__(self, prep: Any):
        self.ids = frozenset(prep.def_ids)
        #: ("verb", v) | ("card", c) | ("verb_card", v, c) -> bit index, and option -> mask of
        #: what it names: shared by the chunks a process plays of one configuration
        self.bit, self.mask_of = option_tables(prep)
        self.offered: list[int] = []    # bit-sliced counts of games: plane i holds bit i
        self.chosen: list[int] = []
        self.times: Counter = Counter()         # verb: times chosen
        self.kind_decisions: Counter = Counter()    # kind: times put to seats
        self.kind_games: Counter = Counter()    # kind: games in which it was asked

    def _learn(self, match: Any, options: Any) -> None:
        bit = self.bit
        for o in options:
            if o in self.mask_of:
                continue
            verb = o[0]
            cards = [w for w in dict.fromkeys(named(match, o)) if w in self.ids]
            keys = [("verb", verb), *(("card", c) for c in cards), *(("verb_card", verb, c) for c in cards)]
            self.mask_of[o] = sum(1 << bit.setdefault(k, len(bit)) for k in keys)

    def add(self, match: Match, game: Offered) -> None:
        mask_of = self.mask_of
        try:
            offered = reduce(or_, map(mask_of.__getitem__, game.options), 0)
        except KeyError:
            self._learn(match, game.options)
            offered = reduce(or_, map(mask_of.__getitem__, game.options), 0)
        bump(self.offered, offered)
        picked = set(chain.from_iterable(game.chosen))
        bump(self.chosen, reduce(or_, map(mask_of.__getitem__, picked), 0))
        self.times.update(map(itemgetter(0), chain.from_iterable(game.chosen)))
        kinds = Counter(game.kinds)
        self.kind_decisions.update(kinds)
        self.kind_games.update(kinds.keys())

    def counts(self) -> dict:
        """The tally's trees: ``card_offered``, ``card_chosen`` {card: games}; ``card_verbs``
        {card: {verb: {games_offered, games_chosen}}}; ``verbs`` {verb: {games_offered,
        games_chosen, chosen}}; ``kinds`` {kind: {decisions, games}}."""
        out: dict = {"card_offered": {}, "card_chosen": {}, "card_verbs": {}, "verbs": {},
                     "kinds": {kind: {"decisions": self.kind_decisions[kind], "games": n}
                               for kind, n in self.kind_games.items()}}
        for planes, key, card_key in ((self.offered, "games_offered", "card_offered"),
                                      (self.chosen, "games_chosen", "card_chosen")):
            for k, i in self.bit.items():
                n = sum(((p >> i) & 1) << j for j, p in enumerate(planes))
                if k[0] == "card":
                    if n:
                        out[card_key][k[1]] = n
                elif k[0] == "verb_card":
                    out["card_verbs"].setdefault(k[2], {}).setdefault(
                        str(k[1]), {"games_offered": 0, "games_chosen": 0})[key] = n
                else:
                    out["verbs"].setdefault(str(k[1]), {"games_offered": 0, "games_chosen": 0,
                                                        "chosen": self.times[k[1]]})[key] = n
        return out


@lru_cache(maxsize=8)
def option_tables(prep: Any) -> tuple[dict, dict]:
    """Empty tables for `Choices`, two per prepared configuration (kept with the few
    `Setup.prepared` keeps), so each chunk does not work the same options out again."""
    return {}, {}


def bump(planes: list[int], mask: int) -> None:
    """Add 1 to the count of every bit set in ``mask``, in bit-sliced counters: ``planes[i]``
    holds bit i of every count, so adding is a ripple carry over a few big integers."""
    i = 0
    while mask:
        if i == len(planes):
            planes.append(0)
        carry = planes[i] & mask
        planes[i] ^= mask
        mask = carry
        i += 1


def _counts(depth: int | None, keys: tuple[type, ...] = (str,)) -> Any:
    """A `Tally` field that is a tree of counts ``depth`` levels deep (None: any) keyed by
    ``keys`` (see `check_counts`)."""
    return field(default_factory=dict, metadata={"depth": depth, "keys": keys})


@plain.kind
@dataclass
class Tally:
    """What some games add up to: each field a count or a tree of counts that merge by adding
    (`tally.add`), exactly and in any order; then the first violations in full. Seat-keyed
    trees hold wins in `unit` parts and score histograms; card-keyed ones the games a card was
    played in, its plays (a card and the seat playing it, once a game) and the win parts of
    those seats, and what `Choices` counts; ``engine`` the engine's `GameStats` counts over
    ``engine_games`` games."""

    #: Games asked for, finished, and broken (an invariant violated or a crash); seat decisions.
    played: int = 0
    games: int = 0
    broken: int = 0
    decisions: int = 0
    wins: dict[int, int] = _counts(1, (int,))
    scores: dict[int, dict[int, int]] = _counts(2, (int,))
    card_games: dict[str, int] = _counts(1)
    card_plays: dict[str, int] = _counts(1)
    card_wins: dict[str, int] = _counts(1)
    card_offered: dict[str, int] = _counts(1)
    card_chosen: dict[str, int] = _counts(1)
    card_verbs: dict[str, dict[str, dict[str, int]]] = _counts(3)
    verbs: dict[str, dict[str, int]] = _counts(2)
    kinds: dict[str, dict[str, int]] = _counts(2)
    engine: dict = _counts(None, (int, str))
    engine_games: int = 0
    #: The first `VIOLATIONS_KEPT` violations by game number, as `play_one` gives them.
    violations: list[dict] = field(default_factory=list)

    def merge(self, other: Tally) -> Tally:
        for f in fields(self):
            if f.name == "violations":
                self.violations = sorted(self.violations + other.violations,
                                         key=lambda v: v["game"])[:VIOLATIONS_KEPT]
            elif f.metadata:
                add(getattr(self, f.name), getattr(other, f.name))
            else:
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        return self

    def check(self) -> None:
        """A tally read from elsewhere (a dask worker) has the shape `play_chunk` makes, so
        merging and summarising it cannot fail; ValueError saying what is amiss if not."""
        natural = lambda x: type(x) is int and x >= 0  # noqa: E731
        for f in fields(self):
            value = getattr(self, f.name)
            if f.metadata:
                check_counts(value, f.metadata["depth"], f.name, f.metadata["keys"])
            elif f.name != "violations" and not natural(value):
                raise ValueError(f"tally {f.name}: {value!r}")
        if type(self.violations) is not list or len(self.violations) > VIOLATIONS_KEPT or not all(
                type(v) is dict and plain.is_json(v) and natural(v.get("game"))
                and natural(v.get("seed")) and type(v.get("message")) is str
                for v in self.violations):
            raise ValueError("tally violations: not the violations `play_one` makes")


def play_chunk(plan: Plan, first: int, count: int) -> Tally:
    """Play games ``first .. first + count - 1`` and tally them."""
    prep = plan.setup.prepared()
    engine = ENGINES[prep.game.manifest.engine]
    agents = plan.seat_agents(engine)
    stats_wanted = engine.statistics is not None
    parts = unit(plan.players)
    ids = prep.def_ids
    wins = [0] * plan.players
    scores: list[dict[int, int]] = [{} for _ in range(plan.players)]
    card_games: dict[str, int] = {}
    card_plays: dict[str, int] = {}
    card_wins: dict[str, int] = {}
    engine_counts: dict = {}
    choices = Choices(prep)
    done = decisions = engine_games = broken = 0
    violations: list[dict] = []
    for i in range(first, first + count):
        offered = Offered()
        got = play_one(prep, plan, agents, i, offered)
        if isinstance(got, dict):
            broken += 1
            if len(violations) < VIOLATIONS_KEPT:
                violations.append(got)
            continue
        match, made = got
        result = match.result
        assert result is not None           # play_game returns once the match has finished
        done += 1
        decisions += made
        winners = result.winners
        share = parts // len(winners)
        for s in winners:
            wins[s] += share
        for s, v in enumerate(result.scores):
            scores[s][v] = scores[s].get(v, 0) + 1
        seen = set()
        for d, s in set(match.played):
            cid = ids[d]
            seen.add(cid)
            card_plays[cid] = card_plays.get(cid, 0) + 1
            if s in winners:
                card_wins[cid] = card_wins.get(cid, 0) + share
        for cid in seen:
            card_games[cid] = card_games.get(cid, 0) + 1
        choices.add(match, offered)
        if stats_wanted:
            add(engine_counts, match.stats().counts())
            engine_games += 1
    return Tally(played=count, games=done, broken=broken, decisions=decisions,
                 wins=dict(enumerate(wins)), scores=dict(enumerate(scores)),
                 card_games=card_games, card_plays=card_plays, card_wins=card_wins,
                 **choices.counts(), engine=engine_counts, engine_games=engine_games,
                 violations=violations)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    phat = wins / n
    denom = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / denom
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def player_range(game: Any, engine: Engine) -> tuple[int, int]:
    """Player counts both the manifest allows and the engine can seat."""
    return (max(game.manifest.players.min, engine.players[0]),
            min(game.manifest.players.max, engine.players[1]))


def prepare_run(game: Any, players: int, agents: tuple[str, ...], options: dict | None = None,
                sets: Any = None, config: Any = None) -> Prepared:
    """The prepared tables of ``game`` for a run; EngineError for arguments no game could be
    played with, before any game starts."""
    engine_id = game.manifest.engine
    if engine_id not in ENGINES:
        raise EngineError(f"no rules engine {engine_id!r} for {game.id}")
    engine = ENGINES[engine_id]
    lo, hi = player_range(game, engine)
    if not lo <= players <= hi:
        raise EngineError(f"{game.id} takes {lo}-{hi} players, not {players}")
    known = agents_for(engine)
    if not agents:
        raise EngineError("no agents given (known: " + ", ".join(known) + ")")
    for a in agents:
        if a not in known:
            raise EngineError(f"unknown agent {a!r} (known: {', '.join(known)})")
    if config is not None:
        return engine.prepare(game, config)
    opts = resolve_options(engine.options, dict(options or {}))
    return engine.prepare(game, opts, tuple(sets) if sets else None)


def simulate(game: Any, games: int = 1000, players: int = 4, seed: int = 0,
             options: dict | None = None, sets: Any = None, agents: tuple[str, ...] | None = None,
             jobs: int = 1, check: str = "round", config: Any = None, executor: str = "loky",
             address: str | None = None, progress: Callable[[int], None] | None = None) -> dict:
    """Simulate ``games`` games of ``game`` (a loaded `Game`) and return the summary dict.

    ``options`` are the engine's option values by name (text or typed; see its ``OPTIONS``),
    ``sets`` the sets in play (None: the engine's default). ``config`` is an engine's ready
    configuration object, passed to its ``prepare`` as the options (kept for callers that
    build one). ``jobs``, ``executor`` and ``address`` say where the games are played (see
    `run_chunks`); ``progress(count)`` is called as each chunk of games ends. Ctrl-C raises
    `Interrupted` whose ``partial`` is the summary of the games finished so far. ``agents``:
    names per seat, repeated over the seats (None: the engine's `default_agents`)."""
    engine = ENGINES.get(game.manifest.engine)
    agents = tuple(agents or (engine.default_agents if engine else ()))
    options, agent_opts = agent_options(options)
    prep = prepare_run(game, players, agents, options, sets, config)
    plan = Plan(Setup.of(prep), players, tuple(agents), seed, check, agent_options=agent_opts)
    start = time.perf_counter()
    try:
        tally = run_chunks(play_chunk, plan, games, Tally.merge, Tally(), jobs, executor,
                           address, progress)
    except Interrupted as stop:
        raise Interrupted(summarise(prep, stop.partial, games, plan, time.perf_counter() - start,
                                    interrupted=True)) from None
    return summarise(prep, tally, games, plan, time.perf_counter() - start)


def summarise(prep: Any, tally: Tally, games: int, plan: Plan, elapsed: float,
              interrupted: bool = False) -> dict:
    t = tally
    n, players, agents = t.games, plan.players, plan.agents
    whole = unit(players) * n
    decisions = t.decisions
    played_games, plays_total, plays_by_winner = t.card_games, t.card_plays, t.card_wins
    hist = [t.scores.get(s, {}) for s in range(players)]
    seat_rate = []
    for s in range(players):
        parts = t.wins.get(s, 0)
        lo, hi = wilson(parts / unit(players), n)
        seat_rate.append({"seat": "ABCDEFGH"[s], "agent": agents[s % len(agents)],
                          "win_rate": round(parts / whole, 4) if n else 0.0,
                          "ci95": [round(lo, 4), round(hi, 4)]})
    offered, chosen, card_verbs = t.card_offered, t.card_chosen, t.card_verbs
    playable = prep.playable_ids()
    cards = {cid: {"games_played": played_games.get(cid, 0),
                   "games_offered": offered.get(cid, 0),
                   "games_chosen": chosen.get(cid, 0),
                   "options": dict(sorted(card_verbs.get(cid, {}).items())),
                   "play_share": round(played_games.get(cid, 0) / n, 4) if n else 0.0,
                   "win_share": round(plays_by_winner.get(cid, 0) / (unit(players) * plays_total[cid]), 4)
                   if plays_total.get(cid) else 0.0}
             for cid in playable}
    # dead: no rule offered it and none played it; unplayed: offered (to play, keep, discard
    # ...), never chosen to be played. Played with no choice (an event drawn) is neither.
    dead = [cid for cid in playable if not offered.get(cid) and not played_games.get(cid)]
    unplayed = [cid for cid in playable if offered.get(cid) and not played_games.get(cid)]
    engine = ENGINES[prep.game.manifest.engine]
    result = {
        "game": prep.game.id,
        "games": n,
        "games_requested": games,
        "players": players,
        "seed": plan.seed,
        "agents": list(agents),
        "sets": list(prep.sets),
        "seconds": round(elapsed, 3),
        "games_per_s": round(t.played / elapsed, 1) if elapsed else 0.0,
        "decisions_per_s": round(decisions / elapsed, 1) if elapsed else 0.0,
        "seat_win_rate": seat_rate,
        "mean_score": [round(sum(v * k for v, k in h.items()) / n, 3) if n else 0.0 for h in hist],
        "score_distribution": [{str(k): v for k, v in sorted(h.items())} for h in hist],
        "mean_decisions_per_game": round(decisions / n, 2) if n else 0.0,
        "agent_names": {a: {lang: agent_name(engine, a, lang) for lang in prep.game.manifest.locales}
                        for a in dict.fromkeys(agents)},
        **({"search_budget": dict(plan.agent_options).get("search_budget", BUDGET)}
           if "search" in agents else {}),
        "dead_cards": dead,
        "unplayed_cards": unplayed,
        "never_seen_bound95": never_seen_bound(n),
        "cards": cards,
        "decision_kinds": dict(sorted(t.kinds.items())),
        "option_verbs": option_verbs(t.verbs),
        "violations": tally.violations,
        "violation_count": t.broken,
        "interrupted": interrupted,
    }
    hook = engine.statistics
    if hook is not None:
        result["engine"] = hook(prep, t.engine, t.engine_games)
    return result


def never_seen_bound(n: int) -> float:
    """The 95 % upper bound on the per-game rate of something seen in none of ``n`` games:
    1 - 0.05^(1/n), about 3/n (the rule of three); 1.0 for no games."""
    return round(1 - 0.05 ** (1 / n), 4) if n else 1.0


def option_verbs(verbs: dict) -> dict:
    """Per option verb (attack, trade, discard ...), in any kind of decision: the games it was
    offered and chosen in and the times it was chosen; never chosen first, then by name."""
    return dict(sorted(verbs.items(), key=lambda kv: (kv[1]["chosen"] > 0, kv[0])))


def without_timings(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in TIMING_KEYS}
