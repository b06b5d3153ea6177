"""Exact dice odds for rule summaries: computed, never typed in by hand.

Every table comes from the rules engine core's chance enumeration (`forge.rules.core.Chance`
and `chance_odds`), the same objects an engine rolls with, so the cheat sheet and the engine
cannot disagree about a die.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ..rules.core import Chance, chance_odds

#: One six-sided die, as the engines roll it (`Match.die(6)`).
D6 = Chance("d6", range(1, 7))




@dataclass(frozen=True)
class Odds:
    """`num` chances out of `den`; `str()` gives `num/den`, `.percent` a rounded percentage."""

    num: int
    den: int

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.num, self.den)

    @property
    def percent(self) -> int:
        """Rounded half up, so 1/2 is 50 and 1/6 is 17."""
        return int(Fraction(100 * self.num, self.den) + Fraction(1, 2))

    def __str__(self) -> str:
        return f"{self.num}/{self.den}"


def d6_odds(need: int) -> Odds:
    """Chance that one d6 shows `need` or more (need <= 1: certain; need > 6: impossible)."""
    p = chance_odds(D6, lambda face: face >= need).get(True, Fraction(0))
    return Odds(int(p * 6), 6)


@dataclass(frozen=True)
class Battle:
    """Two opposed d6 rolls where your side adds `diff` more than the other side."""

    diff: int

    def _count(self, test) -> Odds:
        p = sum((q for d, q in _differences().items() if test(d + self.diff)), Fraction(0))
        return Odds(int(p * 36), 36)

    @property
    def win(self) -> Odds:
        """Strictly higher total."""
        return self._count(lambda margin: margin > 0)

    @property
    def tie(self) -> Odds:
        return self._count(lambda margin: margin == 0)

    @property
    def win_tie(self) -> Odds:
        """Higher or equal total (a tie counts as a win)."""
        return self._count(lambda margin: margin >= 0)

    def lose_by(self, k: int) -> Odds:
        """The other side's total is at least `k` higher."""
        return self._count(lambda margin: margin <= -k)

    @property
    def win_decided(self) -> Odds:
        """Ties are rolled again until someone wins: P(win) / (1 - P(tie))."""
        frac = Fraction(self.win.num, 36 - self.tie.num) if self.tie.num < 36 else Fraction(1, 2)
        return Odds(frac.numerator, frac.denominator)


@lru_cache(maxsize=None)
def _differences() -> dict[int, Fraction]:
    """The odds of each difference of two d6 rolls, enumerated once: a battle's questions
    (win, tie, lose by k, for every `diff` a template asks about) only sum parts of it."""
    return chance_odds([D6, D6], lambda a, b: a - b)


def d6_battle(diff: int) -> Battle:
    return Battle(diff)


def d6_faces(roll: str) -> int:
    """How many faces of a d6 a table row such as `4-5` or `6` covers."""
    low, _, high = str(roll).partition("-")
    return int(high or low) - int(low) + 1
