"""Hyphenation by soft hyphens (U+00AD) from pyphen's patterns.

ReportLab's own hyphenation skips words with letters outside its hard-coded range (і ї є ґ and
the apostrophe), which is most Ukrainian words (PITFALLS.md); so pyphen marks the break points
and ReportLab breaks only there, drawing a hyphen at the end of the line.
"""
from __future__ import annotations

import re
from functools import lru_cache

import pyphen

SHY = "\u00ad"
PATTERNS = {"uk": "uk_UA", "en": "en_US"}
#: A word: letters and the apostrophes that live inside words; digits and other marks end it.
_WORD = re.compile(r"[^\W\d_]+(?:[ʼ’'][^\W\d_]+)*")
MIN_WORD = 6


@lru_cache(maxsize=None)
def _dic(lang: str) -> pyphen.Pyphen | None:
    code = PATTERNS.get(lang)
    return pyphen.Pyphen(lang=code, left=2, right=3) if code else None


_VOWELS = set("аеєиіїоуюяaeiouyАЕЄИІЇОУЮЯAEIOUY")


@lru_cache(maxsize=20_000)
def _word(word: str, lang: str) -> str:
    """Pyphen's break points, minus those that would leave a piece without a vowel (на-йо-м-ни)."""
    dic = _dic(lang)
    if dic is None:
        return word
    pieces: list[str] = []
    for piece in dic.inserted(word, hyphen=SHY).split(SHY):
        if pieces and not _VOWELS.intersection(piece):
            pieces[-1] += piece
        elif pieces and not _VOWELS.intersection(pieces[-1]):
            pieces[-1] += piece
        else:
            pieces.append(piece)
    return SHY.join(pieces)


def hyphenate(text: str, lang: str) -> str:
    """`text` with soft hyphens at the break points of every word of MIN_WORD letters or more.

    All-capital words (abbreviations such as ПО, VP) are left whole.
    """
    if _dic(lang) is None:
        return text
    return _WORD.sub(lambda m: m.group(0) if len(m.group(0)) < MIN_WORD or m.group(0).isupper()
                     else _word(m.group(0), lang), text)
