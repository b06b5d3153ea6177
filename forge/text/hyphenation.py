"""Soft hyphens (U+00AD) from pyphen's patterns, for card faces and rulebooks alike.

ReportLab hyphenates only words made wholly of its hard-coded letter range, which leaves out
і ї є ґ and the apostrophe (PITFALLS.md), so pyphen marks the break points and the line breaker
breaks only there. pyphen knows no U+02BC either: words are split at apostrophes and hyphens
first. All-capital words (ПО, VP) stay whole. Ukrainian breaks are pyphen's points held to the
orthography (`forge.text.uk_breaks`); in other languages a break that would leave a piece
without a vowel (на-йо-м-ни) is dropped.

The rules of a break, for card faces (`forge.render.layout`) and rulebooks
(`forge.text.ragged` for ReportLab) alike:

- at least `LEFT` letters stay before the break and `RIGHT` go after it, in every language: no
  piece of one or two letters (на-/, -ше), the house style an editor asks for (issue 27), though
  Ukrainian orthography forbids only one letter (`uk_breaks.fault` keeps the orthography's
  rules, these keep the house's); a line may also break after a hard hyphen with `LEFT` letters
  before it and `RIGHT` after;
- ragged (not justified) text is hyphenated only when it has to be: a word that does not fit where it falls
  moves whole to the next line when the line it leaves is filled to at least `MIN_FILL` of
  its width; only a line that would otherwise be left shorter than that (or a word wider than
  a whole line) takes a hyphenated piece. So «тор-/бинці» never appears on a line that had room
  to end before «торбинці». Justified text takes every break that fills a line: there a short
  line would stretch its word spaces instead.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pyphen

from .. import cache
from . import uk_breaks
from .typography import SHY

PATTERNS = {"uk": "uk_UA", "en": "en_US"}
#: Letters that stay before and go after a break, at least: no one- or two-letter piece.
LEFT, RIGHT = 3, 3
#: A line filled to this share of its width ends before a word that does not fit, rather than
#: take a hyphenated piece of it.
MIN_FILL = 0.75
MIN_WORD = LEFT + RIGHT + 1
_WORD = re.compile(r"[^\W\d_][\w\u02bc'\u2019-]*")
_JOINS = re.compile(r"([\u02bc'\u2019-])")
_VOWELS = set("аеєиіїоуюяaeiouyАЕЄИІЇОУЮЯAEIOUY")


@lru_cache(maxsize=None)
def can_hyphenate(lang: str) -> bool:
    """Whether pyphen has patterns for `lang`, without loading them (that costs ~25 ms)."""
    return pyphen.language_fallback(PATTERNS.get(lang, lang)) is not None


@lru_cache(maxsize=None)
def _dictionary(lang: str) -> pyphen.Pyphen:
    """pyphen for `lang`; for Ukrainian every point its patterns mark, for `uk_breaks` to
    choose from."""
    name = PATTERNS.get(lang, lang)
    _load_patterns(pyphen.LANGUAGES[pyphen.language_fallback(name)])
    if lang == "uk":
        return pyphen.Pyphen(lang=name, left=1, right=1)
    return pyphen.Pyphen(lang=name, left=LEFT, right=RIGHT)


#: Bumped when the form of a parsed-pattern entry changes.
_FORMAT = 2


def _load_patterns(path: Path) -> None:
    """Put the parsed patterns of `path` into pyphen's own cache, parsed once and kept in the
    `forge.cache` directory: pyphen parses a .dic with a regular expression per pattern (~7 ms
    for Ukrainian, paid by every command that hyphenates), reading the parsed dict back costs
    half a millisecond. An entry is made from the .dic's bytes, pyphen's version and this
    format (`cache.remembered`)."""
    if path in pyphen.hdcache:
        return
    try:
        source = b"%d:%s:" % (_FORMAT, pyphen.__version__.encode()) + path.read_bytes()
    except OSError:  # pyphen reports it when it opens the file itself
        return

    def parse() -> tuple[dict, int]:
        parsed = pyphen.HyphDict(path)
        return parsed.patterns, parsed.maxlen

    patterns, maxlen = cache.remembered(
        "hyphenation", source, parse,
        lambda v: isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], dict) and isinstance(v[1], int))
    hd = object.__new__(pyphen.HyphDict)
    hd.patterns, hd.maxlen, hd.cache = patterns, maxlen, {}
    pyphen.hdcache[path] = hd


def _part(part: str, lang: str) -> str:
    if lang == "uk":
        points = tuple(i for i in uk_breaks.breaks(part.lower(), set(_dictionary(lang).positions(part)))
                       if LEFT <= i <= len(part) - RIGHT)
        return SHY.join(part[a:b] for a, b in zip((0, *points), (*points, len(part))))
    pieces: list[str] = []
    for piece in _dictionary(lang).inserted(part, hyphen=SHY).split(SHY):
        if pieces and not (_VOWELS.intersection(piece) and _VOWELS.intersection(pieces[-1])):
            pieces[-1] += piece
        else:
            pieces.append(piece)
    return SHY.join(pieces)


@lru_cache(maxsize=65536)
def hyphenate_word(word: str, lang: str) -> str:
    if len(word) < MIN_WORD or word.isupper() or not can_hyphenate(lang):
        return word
    return "".join(_part(p, lang) if len(p) >= LEFT + RIGHT else p for p in _JOINS.split(word))


def hyphenate(text: str, lang: str, names: bool = False) -> str:
    """`text` with soft hyphens at the break points of every word of MIN_WORD letters or more;
    with `names`, capitalised words (names: «Томіко», «Кадзуо») stay whole."""
    if not can_hyphenate(lang):
        return text
    if names:
        return _WORD.sub(lambda m: m.group(0) if m.group(0)[0].isupper()
                         else hyphenate_word(m.group(0), lang), text)
    return _WORD.sub(lambda m: hyphenate_word(m.group(0), lang), text)
