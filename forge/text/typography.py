"""Typography per locale: quotes, apostrophes, dashes and no-break spaces.

For `uk`: « » outside and „ “ inside, one canonical apostrophe (U+02BC, a letter, so words are
not split at it), a no-break space before a spaced dash and after one-letter words. U+00A0
rather than U+202F: ReportLab breaks lines at U+202F (PITFALLS.md).
"""
from __future__ import annotations

import re
from functools import lru_cache

NBSP = "\u00a0"
APOSTROPHE = "\u02bc"
SHY = "\u00ad"

_QUOTES = {"uk": ("«", "»", "„", "“"), "en": ("“", "”", "‘", "’")}
_ONE_LETTER = {"uk": "авзіїйкоусяАВЗІЇЙКОУСЯ", "en": "aAI"}
_DASH = re.compile(r"\s+([-–—])\s+")
_APOS = re.compile(r"(?<=\w)['’`ʼ](?=\w)")


def typeset(text: str, lang: str) -> str:
    """Apply `lang`'s typography to plain text (idempotent)."""
    if lang == "uk":
        text = _APOS.sub(APOSTROPHE, text)
    elif lang == "en":
        text = _APOS.sub("’", text)
    text = _quotes(text, lang)
    text = _DASH.sub(lambda m: NBSP + ("–" if m.group(1) == "-" else m.group(1)) + " ", text)
    letters = _ONE_LETTER.get(lang)
    if letters:
        text = _one_letter(letters).sub(lambda m: m.group(1) + NBSP, text)
    return text


@lru_cache(maxsize=None)
def _one_letter(letters: str) -> re.Pattern:
    return re.compile(rf"(?<![\w{SHY}])([{letters}]) (?=\S)")


def quoted(text: str, lang: str) -> str:
    """`text` in the language's outer quotation marks: «…» for uk, “…” for en."""
    opening, closing = _QUOTES.get(lang, _QUOTES["en"])[:2]
    return f"{opening}{text}{closing}"


def _quotes(text: str, lang: str) -> str:
    """Straight double quotes become the locale's outer/inner pairs by nesting depth."""
    if '"' not in text:
        return text
    outer_open, outer_close, inner_open, inner_close = _QUOTES.get(lang, _QUOTES["en"])
    out, depth = [], 0
    for i, ch in enumerate(text):
        if ch != '"':
            out.append(ch)
            continue
        opening = i == 0 or text[i - 1].isspace() or text[i - 1] in "([«„“‘—–-" + NBSP
        if opening:
            out.append(outer_open if depth == 0 else inner_open)
            depth += 1
        else:
            depth = max(depth - 1, 0)
            out.append(outer_close if depth == 0 else inner_close)
    return "".join(out)
