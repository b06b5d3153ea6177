"""Names in the case a sentence needs: «розігрує «Аптечку»», «через «Велику відстань»».

A Ukrainian name is a phrase: the adjectives before its first noun agree with that noun, the noun
takes the case, and what follows it stays (a genitive or a name in apposition: «Крижаної
цитаделі Вельмар»); a name of adjectives alone («Незримі») declines them all, and a name that is
a sentence («Руки геть!», «Час летить») stays. The forms come from pymorphy3's Ukrainian
dictionary, loaded on the first Ukrainian name declined (0.03 s of CPU and 20 MB), never for
another language. A name the dictionary gets wrong (a person with an epithet, «Орсен Тіньолов»;
a word it does not know) takes its forms from the game's words file (docs/rulebooks.md, "Names
in a sentence"). Other languages, and the nominative, return the name as it is.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping

#: The cases templates name, as `spell` names them, and the dictionary's tags for them.
CASES = {"nom": "nomn", "gen": "gent", "dat": "datv", "acc": "accs", "ins": "ablt", "loc": "loct"}
_WORD = re.compile(r"[А-ЩЬЮЯЄІЇҐа-щьюяєіїґʼ'’-]+")
_APOSTROPHES = re.compile("[ʼ’']")  # the dictionary writes «м'яка»
_AND = re.compile(r"( (?:та|і|й) )")  # «Акіра та Міцукі»: each side declines
_CAMEL = re.compile(r"\w[А-ЩЬЮЯЄІЇҐ]")  # «ВсеПідКонтролем» is a tag, not a word
_AGREES = {"ADJF", "PRTF", "NUMR"}  # words that take the head noun's gender, number, case


class CaseError(ValueError):
    """A case that is not one of `CASES`."""


@lru_cache(maxsize=1)
def _morph() -> Any:
    import pymorphy3  # noqa: PLC0415 - only Ukrainian names need it, and it loads a dictionary

    return pymorphy3.MorphAnalyzer(lang="uk")


def inflect(name: str, case: str, lang: str, forms: Mapping[str, str] | None = None) -> str:
    """`name` in `case` (`nom`, `gen`, `dat`, `acc`, `ins`, `loc`): a form given in `forms`
    first, then, for Ukrainian, the dictionary's; otherwise the name as it is."""
    if case not in CASES:
        raise CaseError(f"unknown case {case!r} (known: {', '.join(CASES)})")
    if forms and forms.get(case):
        return forms[case]
    if case == "nom" or lang != "uk":
        return name
    return _inflect_uk(name, CASES[case])


@lru_cache(maxsize=4096)
def _inflect_uk(name: str, case: str) -> str:
    if name.startswith("#"):  # a hashtag is a tag, not a phrase
        return name
    parts = _AND.split(name)
    return "".join(part if i % 2 else _phrase(part, case) for i, part in enumerate(parts))


def _phrase(name: str, case: str) -> str:
    """One noun phrase in `case`: the adjectives before the first noun agree with it, the noun
    takes the case, a proper name after a person's noun too («Звукачки Іри»); the rest stays.
    A phrase that is not a noun phrase (a verb in it, an exclamation) stays as it is."""
    words = [m for m in _WORD.finditer(name) if not _CAMEL.search(m.group(0))]
    readings = [_readings(m.group(0)) for m in words]
    for i in range(1, len(words)):  # a word the dictionary lacks after known ones: the noun
        if readings[i] or not all(readings[:i]):  # it guesses («Попеляста виверна»)
            break
        readings[i] = [p for p in _parse(words[i].group(0))
                       if p.tag.POS == "NOUN" and "nomn" in p.tag][:1]
    if (not words or name.rstrip().endswith("!") or not readings[0]
            or any(not r and _verb(m.group(0)) for m, r in zip(words, readings))):
        return name
    changed: dict[int, str | None] = {}
    head = _head(readings)
    if head is None:  # adjectives alone («Незримі»): each in the case, as they are
        for i, r in enumerate(readings):
            if not r:
                break
            changed[i] = _form(r[0], _number({case}, r[0]))
    else:
        noun = _noun(readings, head)
        person_acc = case == "accs" and noun.tag.animacy == "anim" and noun.tag.number == "plur"
        changed[head] = _form(noun, _number({"gent" if person_acc else case}, noun))
        _agree(readings[:head], noun, case, changed)
        if noun.tag.animacy == "anim":  # «Орсен Тіньолов»: a person's names decline together
            for i in range(head + 1, len(words)):
                names = [p for p in readings[i] if p.tag.POS == "NOUN" and "anim" in p.tag
                         and ({"Name", "Surn"} & p.tag.grammemes)]
                if not names:
                    break
                changed[i] = _form(names[0], {case})
    out, at = [], 0
    for i, m in enumerate(words):
        new = changed.get(i)
        if new is not None:
            out += [name[at:m.start()], _like(m.group(0), new)]
            at = m.end()
    return "".join(out) + name[at:]


def _head(readings: list[list[Any]]) -> int | None:
    """The first noun that only adjectives precede: one that cannot be an adjective first, then a
    common noun, then a proper one (the dictionary also knows «Щаслива» as a surname)."""
    for test in (lambda p, r: not _proper(p) and not any(q.tag.POS in _AGREES for q in r),
                 lambda p, r: not _proper(p), lambda p, r: True):
        for i, r in enumerate(readings):
            if any(p.tag.POS == "NOUN" and test(p, r) for p in r):
                return i
            if not any(p.tag.POS in _AGREES for p in r):
                break
    return None


def _noun(readings: list[list[Any]], head: int) -> Any:
    """The head's reading as a noun: one in the number the adjective before it has, if any."""
    nouns = [p for p in readings[head] if p.tag.POS == "NOUN"]
    if head:
        plural = any(p.tag.number == "plur" for p in readings[head - 1] if p.tag.POS in _AGREES)
        nouns.sort(key=lambda p: (p.tag.number == "plur") != plural)
    return nouns[0]


def _proper(parse: Any) -> bool:
    return bool({"Name", "Surn", "Patr", "Abbr"} & parse.tag.grammemes)


def _agree(adjectives: list[list[Any]], noun: Any, case: str, changed: dict) -> None:
    """The adjectives before `noun`, in `case` and in its gender, number and animacy."""
    tag = noun.tag
    agree = {case, "plur"} if tag.number == "plur" else {case, str(tag.gender or "masc")}
    if case == "accs" and (tag.number == "plur" or tag.gender == "masc"):
        # the accusative of a masculine or plural adjective is its genitive before a person
        # and its nominative before a thing
        agree = agree - {case} | {"gent" if tag.animacy == "anim" else "nomn"}
    for i, r in enumerate(adjectives):
        changed[i] = _form(next(p for p in r if p.tag.POS in _AGREES), agree)


def _number(grammemes: set[str], parse: Any) -> set[str]:
    """A plural keeps its number («Сірі Драговини», not a singular that reads the same)."""
    return grammemes | {"plur"} if parse.tag.number == "plur" else grammemes


def _readings(word: str) -> list[Any]:
    """The dictionary's readings of `word` as a nominative noun or adjective, common nouns
    first (a capitalised «Сон» is a dream, not a surname); none for a word it does not know."""
    found = [p for p in _parse(word) if p.is_known and p.tag.POS in _AGREES | {"NOUN"}
             and ("nomn" in p.tag or (p.tag.POS == "NOUN" and p.tag.case is None))]
    return sorted(found, key=_proper)


def _verb(word: str) -> bool:
    """Is `word` a verb in the present or future («Час летить»)? (Not the past: the dictionary
    lacks «Шепотів», the genitive of «шепіт», and reads it as one.)"""
    known = [p for p in _parse(word) if p.is_known]
    return (any(p.tag.POS in ("VERB", "INFN") and "past" not in p.tag for p in known)
            and not any(p.tag.POS in _AGREES | {"NOUN"} for p in known))


def _parse(word: str) -> list[Any]:
    return _morph().parse(_APOSTROPHES.sub("'", word))


def _form(parse: Any, grammemes: set[str]) -> str | None:
    """The word in `grammemes`, or None where the dictionary has no such form (it stays)."""
    made = parse.inflect(grammemes)
    return made.word if made is not None else None


def _like(old: str, new: str) -> str:
    """`new` (lower case, from the dictionary) written as `old` was: capitalised, upper case,
    with the same apostrophe."""
    if old.isupper() and len(old) > 1:
        new = new.upper()
    elif old[:1].isupper():
        new = new[:1].upper() + new[1:]
    for apostrophe in "ʼ’'":
        if apostrophe in old:
            return _APOSTROPHES.sub(apostrophe, new)
    return new
