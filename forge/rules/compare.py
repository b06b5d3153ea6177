"""Did a change move the balance beyond noise? Paired comparison of two versions of a game.

Both sides play the same games: game ``i`` has the same seed on side A and on side B (common
random numbers), so the deal and every chance the change does not touch are the same, and what
differs between the two results is the change, not luck. Each game gives a paired difference
(B minus A) of each seat's win, score and the game's length, and per card of whether it was
played and how its players fared; their means come with 95 % intervals from the spread of the
per-game differences, far narrower than two independent runs would give.

Restricted-play ablation is the same comparison with side B's agents forbidden to choose a card
(`forbidding`): the paired change in the win rate of the seats that played the card on side A,
its *holders*, is what the card is worth to them.

Workers play chunks of games on every side and return sums of the per-game vectors and of their
pairwise products (`Moments`), integers that merge exactly in any order, so memory does not
grow with the games. Estimates are computed from them with exact fractions. Nothing here names
a game.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from statistics import NormalDist
from typing import Any, Callable, NamedTuple

from . import ENGINES, plain
from .core import Match, Prepared
from .simulate import Plan, agent_options, play_one, prepare_run, unit
from .workers import Interrupted, Setup, run_chunks

def bonferroni_z(tests: int) -> float:
    """The two-sided 95 % z of one test among ``tests`` made together (Bonferroni)."""
    return NormalDist().inv_cdf(1 - 0.05 / (2 * max(1, tests)))


Z95 = bonferroni_z(1)


@plain.kind
@dataclass(frozen=True)
class Sides:
    """What every chunk of a comparison shares: side A's plan, then each side B's; ``ablated``
    names, per side B, the card its agents may not choose (empty: a version comparison)."""

    plans: tuple[Plan, ...]
    ablated: tuple[str, ...] = ()


#: The length of the vector each kind of `moments_add` key sums: (side, kind) or (side, kind, seat
#: or card).
WIDTH = {"win": 2, "score": 2, "length": 2, "play": 2, "win_share": 4, "holder": 3}


def moments_add(store: dict, key: Any, vector: tuple[int, ...]) -> None:
    """Add a game's ``vector`` to the sums and pairwise products kept under ``key``."""
    k = len(vector)
    row = store.get(key)
    if row is None:
        row = store[key] = [0] * (k + k * (k + 1) // 2)
    for i, x in enumerate(vector):
        row[i] += x
    j = k
    for a in range(k):
        xa = vector[a]
        for b in range(a, k):
            row[j] += xa * vector[b]
            j += 1


@plain.kind
@dataclass
class Paired:
    """What some paired games add up to: ``games`` paired, ``dropped`` (a violation on a side),
    and per key the `moments_add` sums."""

    games: int = 0
    dropped: int = 0
    moments: dict = field(default_factory=dict)

    def merge(self, other: "Paired") -> "Paired":
        self.games += other.games
        self.dropped += other.dropped
        for key, row in other.moments.items():
            mine = self.moments.get(key)
            if mine is None:
                self.moments[key] = list(row)
            else:
                for i, x in enumerate(row):
                    mine[i] += x
        return self

    def check(self) -> None:
        """Sums read from elsewhere (a dask worker) have the shape `compare_chunk` makes, so
        merging and estimating cannot fail; ValueError saying what is amiss if not."""
        for name in ("games", "dropped"):
            if type(getattr(self, name)) is not int or getattr(self, name) < 0:
                raise ValueError(f"paired {name}: {getattr(self, name)!r}")
        if type(self.moments) is not dict:
            raise ValueError("paired moments: not a dict")
        for key, row in self.moments.items():
            if not _shaped(key) or type(row) is not list or not all(type(x) is int for x in row) \
                    or len(row) != WIDTH[key[1]] * (WIDTH[key[1]] + 3) // 2:
                raise ValueError(f"paired moments: {str(key)[:60]}")


def _shaped(key: object) -> bool:
    """Whether ``key`` is a `moments_add` key as `compare_chunk` makes them: (side, kind) for
    the game's length and the holders, (side, kind, seat or card) for the others."""
    if type(key) is not tuple or len(key) not in (2, 3) or type(key[0]) is not int \
            or key[1] not in WIDTH:
        return False
    return len(key) == (2 if key[1] in ("length", "holder") else 3) \
        and (len(key) == 2 or type(key[2]) in (int, str))


class Outcome(NamedTuple):
    """What one side's game adds to a comparison."""

    wins: list[int]                 # win parts per seat (`unit` parts a game)
    scores: list[int]
    decisions: int
    plays: dict[str, set[int]]      # card id -> the seats that played it


def _outcome(prep: Prepared, match: Match, decisions: int, parts: int) -> Outcome:
    result = match.result
    assert result is not None               # play_game returns once the match has finished
    winners = result.winners
    share = parts // len(winners)
    wins = [share if s in winners else 0 for s in range(match.n)]
    plays: dict[str, set[int]] = {}
    for d, s in match.played:
        plays.setdefault(prep.def_ids[d], set()).add(s)
    return Outcome(wins, result.scores, decisions, plays)


def compare_chunk(sides: Sides, first: int, count: int) -> Paired:
    """Play games ``first .. first + count - 1`` on every side and add up the pairs (A, B)."""
    preps = [plan.setup.prepared() for plan in sides.plans]
    agents = [plan.seat_agents(ENGINES[prep.game.manifest.engine])
              for plan, prep in zip(sides.plans, preps)]
    players = sides.plans[0].players
    parts = unit(players)
    out = Paired()
    m = out.moments
    for i in range(first, first + count):
        played = [play_one(prep, plan, ag, i) for prep, plan, ag in zip(preps, sides.plans, agents)]
        if any(isinstance(p, dict) for p in played):
            out.dropped += 1
            continue
        out.games += 1
        res = [_outcome(prep, match, made, parts) for prep, (match, made) in zip(preps, played)]
        wa, sa, la, pa = res[0]
        for k, (wb, sb, lb, pb) in enumerate(res[1:], 1):
            for s in range(players):
                moments_add(m, (k, "win", s), (wa[s], wb[s]))
                moments_add(m, (k, "score", s), (sa[s], sb[s]))
            moments_add(m, (k, "length"), (la, lb))
            for card in pa.keys() | pb.keys():
                ha, hb = pa.get(card, ()), pb.get(card, ())
                moments_add(m, (k, "play", card), (1 if ha else 0, 1 if hb else 0))
                moments_add(m, (k, "win_share", card), (sum(wa[s] for s in ha), len(ha),
                                                        sum(wb[s] for s in hb), len(hb)))
            if sides.ablated:
                holders = pa.get(sides.ablated[k - 1], ())
                if holders:
                    moments_add(m, (k, "holder"), (sum(wa[s] for s in holders),
                                                   sum(wb[s] for s in holders), len(holders)))
    return out


# ---------------------------------------------------------------------------------- estimates

def _split(row: list[int], k: int) -> tuple[list[int], list[list[int]]]:
    sums, flat = row[:k], row[k:]
    prod = [[0] * k for _ in range(k)]
    j = 0
    for a in range(k):
        for b in range(a, k):
            prod[a][b] = prod[b][a] = flat[j]
            j += 1
    return sums, prod


def _spread(prod: list[list[int]], coef: list[Fraction]) -> Fraction:
    """Σ over games of (coef · vector)², from the pairwise products."""
    k = len(coef)
    return sum((coef[a] * coef[b] * prod[a][b] for a in range(k) for b in range(k)), Fraction(0))


def mean_difference(row: list[int] | None, n: int, scale: int = 1) -> dict:
    """Means of A and B and the paired mean difference B − A, with its 95 % interval and the
    per-game standard deviation of the difference (``scale``: units per 1)."""
    if not row or n < 2:
        sums, prod = [0, 0], [[0, 0], [0, 0]]
    else:
        sums, prod = _split(row, 2)
    d = Fraction(sums[1] - sums[0], max(1, n) * scale)
    ss = _spread(prod, [Fraction(-1, scale), Fraction(1, scale)]) - n * d * d
    return _estimate(Fraction(sums[0], max(1, n) * scale), Fraction(sums[1], max(1, n) * scale),
                     d, ss, n)


def ratio_difference(row: list[int] | None, n: int, scale: int = 1) -> dict:
    """Ratio estimates on both sides of a 4-vector (wins A, plays A, wins B, plays B): the share
    of wins among the plays, A and B, and B − A, with a delta-method 95 % interval."""
    if not row:
        return _estimate(None, None, Fraction(0), Fraction(0), n)
    sums, prod = _split(row, 4)
    if not sums[1] or not sums[3]:
        ra = Fraction(sums[0], sums[1] * scale) if sums[1] else None
        rb = Fraction(sums[2], sums[3] * scale) if sums[3] else None
        return _estimate(ra, rb, None, Fraction(0), n)
    ra, rb = Fraction(sums[0], sums[1] * scale), Fraction(sums[2], sums[3] * scale)
    ma, mb = Fraction(sums[1], n), Fraction(sums[3], n)
    coef = [-1 / (ma * scale), ra / ma, 1 / (mb * scale), -rb / mb]
    return _estimate(ra, rb, rb - ra, _spread(prod, coef), n)


def holder_difference(row: list[int] | None, n: int, scale: int) -> dict:
    """The holders' win rate on side A and, the same seats in the same games, on side B (vector:
    holders' wins A, their wins B, holders), and B − A with a delta-method interval."""
    if not row:
        return _estimate(None, None, None, Fraction(0), n)
    sums, prod = _split(row, 3)
    mh = Fraction(sums[2], n)
    ra, rb = Fraction(sums[0], sums[2] * scale), Fraction(sums[1], sums[2] * scale)
    d = rb - ra
    coef = [-1 / (mh * scale), 1 / (mh * scale), -d / mh]
    return _estimate(ra, rb, d, _spread(prod, coef), n)


def _estimate(a: Fraction | None, b: Fraction | None, d: Fraction | None, ss: Fraction,
              n: int) -> dict:
    """A JSON-able estimate: ``ss`` is the sum of squared deviations of the per-game terms."""
    sd = math.sqrt(max(0.0, float(ss) / (n - 1))) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n) if n > 1 else 0.0
    r = lambda x: None if x is None else round(float(x), 4)   # noqa: E731
    out: dict[str, Any] = {"a": r(a), "b": r(b), "diff": r(d), "ci95": None, "sd": round(sd, 4)}
    if d is not None:
        out["ci95"] = [round(float(d) - half, 4), round(float(d) + half, 4)]
    return out


def beyond_noise(e: dict, z: float = Z95) -> bool:
    """The change is outside its interval's ``z`` standard errors of zero (a real change)."""
    if e["diff"] is None or e["ci95"] is None:
        return False
    half = (e["ci95"][1] - e["ci95"][0]) / 2 * z / Z95
    return abs(e["diff"]) > half


def games_needed(e: dict, precision: float) -> int | None:
    """Paired games for a 95 % interval of ± ``precision`` on this difference (0: none needed,
    the sides do not differ from game to game)."""
    if e["diff"] is None:
        return None
    return math.ceil((Z95 * e["sd"] / precision) ** 2)


# ---------------------------------------------------------------------------------- the run

@dataclass(frozen=True)
class Side:
    """One side of a comparison: a loaded game (a version of it), engine options, a label."""

    game: Any
    label: str
    options: dict = field(default_factory=dict)


def compare(a: Side, b: Side | None, games: int = 2000, players: int = 4, seed: int = 0,
            sets: Any = None, agents: tuple[str, ...] | None = None, ablate: tuple[str, ...] = (),
            jobs: int = 1, check: str = "round", executor: str = "loky",
            address: str | None = None, precision: float = 0.01,
            progress: Callable[[int], None] | None = None) -> dict:
    """Compare side ``b`` with side ``a`` over ``games`` paired games, or, with ``ablate``, side
    ``a`` with itself with each of those cards forbidden in turn. ``precision``: the interval
    half-width, in win rate, that `games_needed` is computed for. Ctrl-C raises `Interrupted`
    whose ``partial`` is the comparison of the games finished so far."""
    engine = ENGINES.get(a.game.manifest.engine)
    agents = tuple(agents or (engine.default_agents if engine else ()))
    options_a, agent_opts = agent_options(a.options)
    prep_a = prepare_run(a.game, players, agents, options_a, sets)
    plan_a = Plan(Setup.of(prep_a), players, tuple(agents), seed, check, agent_options=agent_opts)
    if ablate:
        plans = [plan_a] + [Plan(plan_a.setup, players, tuple(agents), seed, check,
                                 frozenset({card}), agent_opts) for card in ablate]
    else:
        assert b is not None, "side B, or cards to ablate"
        options_b, agent_opts_b = agent_options(b.options)
        prep_b = prepare_run(b.game, players, agents, options_b, sets)
        plans = [plan_a, Plan(Setup.of(prep_b), players, tuple(agents), seed, check,
                              agent_options=agent_opts_b)]
    sides = Sides(tuple(plans), tuple(ablate))
    head = {"game": a.game.id, "a": {"source": a.label, "options": dict(a.options)},
            "b": None if b is None else {"source": b.label, "options": dict(b.options)},
            "games_requested": games, "players": players, "seed": seed, "agents": list(agents),
            "sets": list(prep_a.sets), "precision": precision}
    finish = partial(summarise, head, sides, [plan.setup.prepared() for plan in plans])
    start = time.perf_counter()
    try:
        paired = run_chunks(compare_chunk, sides, games, Paired.merge, Paired(), jobs, executor,
                            address, progress)
    except Interrupted as stop:
        raise Interrupted(finish(stop.partial, time.perf_counter() - start, True)) from None
    return finish(paired, time.perf_counter() - start)


def summarise(head: dict, sides: Sides, preps: list, paired: Paired, elapsed: float,
              interrupted: bool = False) -> dict:
    """The comparison as JSON-able data: ``head`` (what was compared) and the estimates."""
    n, m = paired.games, paired.moments
    players, agents, precision = head["players"], head["agents"], head["precision"]
    parts = unit(players)
    seat = "ABCDEFGH"
    out = dict(head, games=n, dropped_for_violations=paired.dropped,
               seconds=round(elapsed, 3), interrupted=interrupted)
    changes = []
    if sides.ablated:
        z_cards = bonferroni_z(len(sides.ablated))
        out["ablation"] = {}
        for k, card in enumerate(sides.ablated, 1):
            e = holder_difference(m.get((k, "holder")), n, parts)
            e["games_needed"] = games_needed(e, precision)
            row = m.get((k, "play", card))
            e["played_share_a"] = round(row[0] / n, 4) if row and n else 0.0
            out["ablation"][card] = e
            if beyond_noise(e, z_cards):
                changes.append(_change("holder", card, e))
        return _verdict(out, changes)
    seats = []
    for s in range(players):
        e = mean_difference(m.get((1, "win", s)), n, parts)
        e.update(seat=seat[s], agent=agents[s % len(agents)], games_needed=games_needed(e, precision))
        seats.append(e)
        if beyond_noise(e):
            changes.append(_change("seat", seat[s], e))
    scores = [dict(mean_difference(m.get((1, "score", s)), n), seat=seat[s]) for s in range(players)]
    cards_ids = sorted(set(preps[0].playable_ids()) | set(preps[1].playable_ids()))
    cards = {c: {"play_share": mean_difference(m.get((1, "play", c)), n),
                 "win_share": ratio_difference(m.get((1, "win_share", c)), n, parts)}
             for c in cards_ids}
    # many cards, two figures each: a card's change counts once it is beyond what chance would
    # give one of them in twenty runs (Bonferroni)
    z_cards = bonferroni_z(2 * len(cards_ids))
    for c, v in cards.items():
        for what in ("win_share", "play_share"):
            if beyond_noise(v[what], z_cards):
                changes.append(_change(what, c, v[what]))
    out.update(seat_win_rate=seats, mean_score=scores,
               length=mean_difference(m.get((1, "length")), n), cards=cards,
               games_needed=max((e["games_needed"] or 0 for e in seats), default=0))
    return _verdict(out, changes)


def _change(what: str, who: str, e: dict) -> dict:
    """A change beyond noise: what moved (seat, win_share, play_share, holder), whose, by how
    much, and its 95 % half-width."""
    return {"what": what, "id": who, "diff": e["diff"],
            "half": round((e["ci95"][1] - e["ci95"][0]) / 2, 4)}


#: How a verdict is written, per language; ``{name}`` is a seat letter or a card's name.
VERDICT = {
    "en": {"seat": "seat {name} {pp}", "win_share": "{name}: its players' win share {pp}",
           "play_share": "{name}: share of games it is played in {pp}",
           "holder": "without {name}, its holders win {pp}", "none": "no change beyond noise",
           "pp": "{diff} pp ± {half}"},
    "uk": {"seat": "місце {name}: {pp}", "win_share": "{name}: частка перемог тих, хто її зіграв, {pp}",
           "play_share": "{name}: частка партій, де її зіграли, {pp}",
           "holder": "без карти {name} її власники виграють {pp}", "none": "змін, більших за шум, немає",
           "pp": "{diff}\u00a0в.\u00a0п. ± {half}"},
}


def verdict(changes: list[dict], lang: str = "en", name: Callable[[str], str] = str) -> list[str]:
    """The changes as sentences (``name`` names a card), or the one that says there are none."""
    w = VERDICT.get(lang, VERDICT["en"])
    comma = (lambda t: t.replace(".", ",")) if lang == "uk" else (lambda t: t)   # noqa: E731
    out = []
    for c in changes:
        pp = w["pp"].format(diff=comma(f"{100 * c['diff']:+.1f}").replace("-", "\u2212"),
                            half=comma(f"{100 * c['half']:.1f}"))
        out.append(w[c["what"]].format(name=c["id"] if c["what"] == "seat" else name(c["id"]), pp=pp))
    return out or [w["none"]]


def _verdict(out: dict, changes: list[dict]) -> dict:
    out.update(changes=changes, changed=bool(changes), verdict=verdict(changes))
    return out
