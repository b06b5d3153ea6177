"""Small whole numbers in words, as rule text writes them: "deal twelve cards", «після десятого
раунду». A rulebook template spells a number the rules engine gives it (`spell`), so the word
follows the rule. Words exist for 0-20; a larger number stays in digits."""
from __future__ import annotations

_APOS = "\u02bc"
_CARDINAL = {
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
           "eighteen", "nineteen", "twenty"),
    "uk": ("нуль", "один", "два", "три", "чотири", f"п{_APOS}ять", "шість", "сім", "вісім",
           f"дев{_APOS}ять", "десять", "одинадцять", "дванадцять", "тринадцять", "чотирнадцять",
           f"п{_APOS}ятнадцять", "шістнадцять", "сімнадцять", "вісімнадцять",
           f"дев{_APOS}ятнадцять", "двадцять"),
}
#: Ukrainian feminine (and neuter) forms where they differ: «одна карта», «дві карти».
_UK_GENDER = {"f": {1: "одна", 2: "дві"}, "n": {1: "одне", 2: "два"}}
_ORDINAL = {
    "en": ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
           "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
           "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"),
    # masculine nominative; the stem takes the case ending (see `_UK_ORDINAL_CASE`)
    "uk": ("нульов", "перш", "друг", "трет", "четверт", f"п{_APOS}ят", "шост", "сьом", "восьм",
           f"дев{_APOS}ят", "десят", "одинадцят", "дванадцят", "тринадцят", "чотирнадцят",
           f"п{_APOS}ятнадцят", "шістнадцят", "сімнадцят", "вісімнадцят", f"дев{_APOS}ятнадцят",
           "двадцят"),
}
#: Masculine ordinal endings by case (hard stems; «третій» is soft).
_UK_ORDINAL_CASE = {"nom": ("ий", "ій"), "gen": ("ого", "ього"), "dat": ("ому", "ьому"),
                    "loc": ("ому", "ьому"), "ins": ("им", "ім")}


def spell(n: int, lang: str, ordinal: bool = False, case: str = "nom", gender: str = "m") -> str:
    """``n`` in words in ``lang`` (``uk``, ``en``; another language gets digits): a cardinal, or
    with ``ordinal`` an ordinal (Ukrainian: masculine, in ``case``). Ukrainian cardinals take
    ``gender`` ("m", "f", "n") for one and two. Outside 0-20: the digits."""
    if lang not in _CARDINAL or not 0 <= n <= 20:
        return str(n)
    if not ordinal:
        if lang == "uk" and gender in _UK_GENDER:
            return _UK_GENDER[gender].get(n, _CARDINAL["uk"][n])
        return _CARDINAL[lang][n]
    if lang == "en":
        return _ORDINAL["en"][n]
    hard, soft = _UK_ORDINAL_CASE[case]
    return _ORDINAL["uk"][n] + (soft if n == 3 else hard)
