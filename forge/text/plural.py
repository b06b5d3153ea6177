"""CLDR plural forms through Babel.

Forms are given in the locale's CLDR category order (uk: one, few, many, other; en: one,
other); a missing trailing form falls back to the last one given, so `uk` callers may pass
three forms for integers, and `other` (fractions) takes the third.

A language's rules are read from Babel's locale data once and kept in the `forge.cache`
directory: that data holds everything CLDR knows of the locale, and loading it for the four
rule strings cost ~25 ms of every command that prints a count (`forge preview` among them).
"""
from __future__ import annotations

from functools import lru_cache

import babel
from babel.plural import PluralRule

from .. import cache

_ORDER = ("zero", "one", "two", "few", "many", "other")
#: Bumped when the form of a cached entry changes.
_FORMAT = 1


def _rules(lang: str) -> dict[str, str]:
    return dict(babel.Locale.parse(lang).plural_form.rules)


@lru_cache(maxsize=None)
def _categories(lang: str) -> tuple[PluralRule, tuple[str, ...]]:
    rules = cache.remembered(
        "plural", f"{_FORMAT}:{babel.__version__}:{lang}".encode(), lambda: _rules(lang),
        lambda v: isinstance(v, dict) and all(isinstance(k, str) and isinstance(r, str) for k, r in v.items()))
    rule = PluralRule(rules)
    used = set(rule.tags) | {"other"}
    return rule, tuple(tag for tag in _ORDER if tag in used)


def plural(n: int | float, forms: tuple[str, ...] | list[str], lang: str) -> str:
    """The form of `forms` that goes with the number `n` in `lang` («1 карта», «2 карти», «5 карт»)."""
    rule, order = _categories(lang)
    index = order.index(rule(abs(n)))
    return forms[min(index, len(forms) - 1)]
