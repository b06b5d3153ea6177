"""CLDR plural forms through Babel.

Forms are given in the locale's CLDR category order (uk: one, few, many, other; en: one,
other); a missing trailing form falls back to the last one given, so `uk` callers may pass
three forms for integers, and `other` (fractions) takes the third.
"""
from __future__ import annotations

from functools import lru_cache

from babel import Locale

_ORDER = ("zero", "one", "two", "few", "many", "other")


@lru_cache(maxsize=None)
def _categories(lang: str) -> tuple[Locale, tuple[str, ...]]:
    locale = Locale.parse(lang)
    used = set(locale.plural_form.tags) | {"other"}
    return locale, tuple(tag for tag in _ORDER if tag in used)


def plural(n: int | float, forms: tuple[str, ...] | list[str], lang: str) -> str:
    """The form of `forms` that goes with the number `n` in `lang` («1 карта», «2 карти», «5 карт»)."""
    locale, order = _categories(lang)
    index = order.index(locale.plural_form(abs(n)))
    return forms[min(index, len(forms) - 1)]
