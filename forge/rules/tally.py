"""Counts that add up: what a chunk of simulated games returns, merged exactly in any order.

A tally is a nested dict whose leaves are counts, `int` or `Fraction` (a win shared by three is
a third of a win). `add` adds one tally into another key by key. Integers and fractions add
exactly, commutatively and associatively, so the chunks of a run played by any number of
workers, merged in whatever order they finish, give the same totals to the last digit; floats
would not (their sums depend on the order). Memory is that of the keys, never of the games.

`GameStats` is the shape of one game's own figures in every engine: a frozen dataclass whose
`counts` is its tally.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Mapping


@dataclass(frozen=True, slots=True)
class GameStats:
    """One finished game's own figures (`Match.stats`): an engine subclasses it, a frozen
    dataclass of typed fields, and its `statistics` hook reads the games' `counts` added up
    (`add`). By default a field counts as itself: a number, a flag as 0 or 1, a {key: count}
    mapping key by key; a subclass overrides `counts` for a figure that adds up otherwise (a
    length as a histogram entry ``{"turns": {17: 1}}``, a win shared by ``k`` as
    ``Fraction(1, k)``). The base has no figures."""

    def counts(self) -> dict:
        """This game's figures as a tally: counts that add up over games."""
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = int(v) if type(v) is bool else v
        return out


def add(into: dict, more: Mapping) -> dict:
    """Add the tally ``more`` into ``into`` (changed in place and returned)."""
    for key, value in more.items():
        if isinstance(value, Mapping):
            mine = into.setdefault(key, {})
            if not isinstance(mine, dict):
                raise TypeError(f"{key!r} is a count here and a tally there")
            add(mine, value)
        elif isinstance(value, (int, Fraction)):
            into[key] = into.get(key, 0) + value
        else:
            raise TypeError(f"a tally counts with int or Fraction, not {type(value).__name__} "
                            f"({key!r}: {value!r})")
    return into


def check_counts(tree: object, depth: int | None, name: str, keys: tuple = (int, str)) -> None:
    """That ``tree``, read from elsewhere, is a tally whose keys are of the types ``keys`` and
    whose counts lie ``depth`` levels down (None: at any depth); ValueError naming where not."""
    if type(tree) is not dict:
        raise ValueError(f"tally {name}: not a dict of counts")
    for key, value in tree.items():
        if type(key) not in keys:
            raise ValueError(f"tally {name}: a key {key!r}")
        if type(value) is dict and depth != 1:
            check_counts(value, None if depth is None else depth - 1, f"{name}.{key}", keys)
        elif type(value) not in (int, Fraction) or depth not in (1, None):
            raise ValueError(f"tally {name}.{key}: {str(value)[:40]}")


def nth(histogram: Mapping[int, int], k: int) -> int:
    """The ``k``-th smallest (from 0) of the values a histogram ``{value: count}`` counts: the
    median of ``n`` values is ``nth(h, n // 2)``, as ``sorted(values)[n // 2]`` would give."""
    for value in sorted(histogram):
        k -= histogram[value]
        if k < 0:
            return value
    raise IndexError("the histogram counts fewer values")


def spread(histogram: Mapping[int, int]) -> dict:
    """Mean, median, least, most and 90th percentile of the values a histogram ``{value: count}``
    counts (a game length in turns, say), as ``sorted(values)`` would give them."""
    n = sum(histogram.values())
    mean = sum(value * count for value, count in histogram.items()) / n
    return {"mean": round(mean, 2), "median": nth(histogram, n // 2), "min": min(histogram),
            "max": max(histogram), "p90": nth(histogram, min(n - 1, (9 * n) // 10))}
