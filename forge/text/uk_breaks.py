"""Where a Ukrainian word may break at a line end: pyphen's `uk_UA` break points held to the
orthography's rules of перенос (Український правопис 2019, § 63 «Орфографічні правила
переносу»), with the prefixes and exceptions those rules need as data here.

pyphen's Ukrainian patterns mark a point between almost every two letters (при-к-рі-п-ле-ний);
what the orthography allows is one break between two vowels, chosen by these rules:

- § 63.1: «Одну літеру не залишаємо в попередньому рядку, не переносимо в наступний» — so at
  least `MIN_PIECE` (2) letters stay and go. Two letters are allowed by the rule (зо-шит,
  ко-ло-дязь, знан-ня); the house style keeps three, and `forge.text.hyphenation` drops the
  breaks that leave fewer, so what is printed is знання whole, not знан-ня.
- § 63.2: дж, дз that stand for one sound are not split (хо-джу), but are at a prefix
  (над-звичайний, під-живляти).
- § 63.3–4: йо and ьо are not split (па-йок); the apostrophe, ь and й are not separated from
  the letter before them (бур'-ян, кіль-це, низь-ко, бай-ка), so none of them starts a line,
  nor does a consonant with its ь before another consonant (біль-ше, not бі-льше); й may start
  a line after a prefix (за-йти, при-йняти).
- § 63, on prefixes: a prefix is not broken off with the root's first consonant, nor with
  letters of the root that make no syllable (при-кріплений, від-крив, розі-грана; not прик-ріплений, відк-рив): the
  break goes at the prefix's end when the root starts with consonants a word can start with.
- Doubled consonants are split between the lines (приготуван-ня, жит-тя). Handbooks of the
  orthography allow зна-ння too, for lengthened consonants; the split is the house style an
  editor asks for.

Where the rules leave several places in a cluster of consonants (сест-ра, се-стра), the break
goes as far right as pyphen allows, as it did before these rules. `NOT_PREFIXED` lists the
words the prefix rule gets wrong. This is a Python module, not a data file, so card
faces kept by `forge.render.kept` (keyed by forge's code) are made anew when it changes.
"""
from __future__ import annotations

from functools import lru_cache

#: Letters that stay before and go after a break, at least (§ 63.1).
MIN_PIECE = 2
VOWELS = frozenset("аеєиіїоуюя")
#: Marks that belong to the letter before them and never start a line (§ 63.4).
_MARKS = frozenset("ь'ʼ’")
#: Prefixes, as the orthography's examples and the dictionaries list them, with their
#: і-variants (розі-брати, піді-йти; not наді-: наді-йний would pass for one). One-letter
#: prefixes (в-, з-, с-, у-, о-) are left out: a single letter is never a piece (§ 63.1), and in
#: a chain it cannot be told from a root's first letter (при-спати, not прис-пати).
PREFIXES = frozenset({
    "без", "від", "віді", "ви", "до", "за", "зі", "із", "між", "на", "над", "не", "об", "обі",
    "най", "од", "пере", "перед", "переді", "під", "піді", "по", "понад", "поза", "пре", "при",
    "про", "роз", "розі", "через",
})
#: Beginnings of words that look prefixed and are not (пред-мет, not пре-дмет; зай-вий, not
#: за-йвий): the prefix rule leaves them alone. What the rules still get wrong goes here.
NOT_PREFIXED = ("зазіх", "зайв", "натсук", "нейро", "почвар", "предмет")
#: How sonorous a consonant is: a root starts with a rising run (кл, гр, дн, сп after с/з/ш/ж).
_SONORITY = {**dict.fromkeys("бпдтгґкхфцчжшзсщ", 1), "в": 2, "м": 3, "н": 3, "л": 4, "р": 4}


@lru_cache(maxsize=4096)
def _prefix_ends(word: str, depth: int = 3) -> frozenset[int]:
    """Every length of a chain of up to `depth` prefixes that `word` starts with."""
    ends: set[int] = set()
    if word.startswith(NOT_PREFIXED):
        return frozenset()
    for p in PREFIXES:
        if word.startswith(p) and len(word) > len(p):
            ends.add(len(p))
            if depth > 1:
                ends.update(len(p) + n for n in _prefix_ends(word[len(p):], depth - 1))
    return frozenset(ends)


def _onset(consonants: str) -> bool:
    """Whether a word can start with these consonants (a root after a prefix): й (за-йти),
    or consonants of rising sonority, after с, з, ш or ж (спати, злість, шкода)."""
    run = [c for c in consonants if c not in _MARKS]
    if not run or run[0] == "й":
        return True
    if run[0] == "в" and len(run) > 1:
        return False  # в before a consonant is a prefix itself (в-низ, в-клад): по-вний is not
    if run[0] in "сзшж" and len(run) > 1:
        run = run[1:]
    if any(c not in _SONORITY for c in run):
        return False
    return all(_SONORITY[a] <= _SONORITY[b] for a, b in zip(run, run[1:]))


def fault(left: str, right: str) -> str | None:
    """Why a break between `left` and `right` (the letters of a word on either side) breaks the
    rules above, or None. Used to choose the breaks and to read printed books back."""
    left, right = left.lower(), right.lower()
    word, at = left + right, len(left)
    if len(left) < MIN_PIECE or len(right) < MIN_PIECE:
        return "a one-letter piece"
    if right[0] in _MARKS:
        return "ь or the apostrophe starts a line"
    ends = _prefix_ends(word)
    prefix = at in ends
    if right[0] == "й" and right[1] not in VOWELS and not prefix:
        return "й torn from its vowel"
    if left[-1] in "йь" and right[0] == "о":
        return "йо or ьо split"
    if left[-1] == "д" and right[0] in "жз" and not prefix:
        return "дж or дз split"
    if right[0] == right[1] and right[0] not in VOWELS:
        return "doubled consonants carried together"
    if right[1] == "ь" and len(right) > 2 and right[2] not in VOWELS:
        return "a consonant with its ь carried before a consonant"
    if not prefix:
        for end in ends:
            stem = left[end:]
            if stem and not VOWELS.intersection(stem) and _onset(stem + _consonants(right)):
                return "the root's first consonant left with its prefix"
    return None


def _consonants(text: str) -> str:
    """The consonants `text` starts with."""
    n = 0
    while n < len(text) and text[n] not in VOWELS:
        n += 1
    return text[:n]


def breaks(word: str, candidates: set[int]) -> tuple[int, ...]:
    """The break points of `word` (lower case letters, no apostrophe): at most one between two
    vowels, a prefix's end where the root starts with consonants (pyphen's patterns often mark
    none there), else the rightmost of pyphen's `candidates` that keeps the rules (`fault`). No
    break between vowels around a prefix that ends in a consonant: роз-іграна but ро-зум."""
    vowels = [i for i, c in enumerate(word) if c in VOWELS]
    ends = _prefix_ends(word)
    chosen = []
    for a, b in zip(vowels, vowels[1:]):
        gap = range(a + 1, b + 1)
        at_prefix = [j for j in gap if j in ends and j < b and _onset(word[j:b])]
        if at_prefix:
            options = [max(at_prefix)]
        elif b in ends and b > a + 1 or not any(i in candidates for i in gap):
            continue  # роз-іграна or ро-зум: which one, only a dictionary knows
        else:
            doubled = [i + 1 for i in range(a + 1, b - 1) if word[i] == word[i + 1]]
            options = doubled or sorted((i for i in gap if i in candidates), reverse=True)
        pick = next((i for i in options if fault(word[:i], word[i:]) is None), None)
        if pick is not None:
            chosen.append(pick)
    return tuple(chosen)
