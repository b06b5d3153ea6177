"""Does an operation's text still say what its body does? (`forge check`, docs/rules.md)

A text template and a body are compared by their numbers, in each language:

- the text's numbers are the whole numbers it writes (digits, or a number word from 2 to 20
  as `forge.text.numbers.spell` writes it: «дві», "three") and the parameters it prints
  (`{{ count }}`);
- the body's numbers are the whole numbers its primitives take as a count, amount, number of
  times, sides or skips (`count: 3`, `skip: 2`), and the parameters it passes to them as they are
  (`count: count`).

A number the text writes that the body never takes, a number of 2 or more the body takes that
the text never writes, and a parameter the text prints that the body only reads inside a
larger expression (`count: "count + 1"`) are findings. A 1 the text need not write ("draw a
card"); a number that is only part of a condition is not compared, and one written in a branch
for a parameter's value (`{% if count == 1 %}1 card{% else %}…`) is that parameter printed.
"""
from __future__ import annotations

import re
from typing import Any, Iterator

from ...text.numbers import spell

#: The keys of primitives whose value is how many or how much.
AMOUNTS = ("count", "amount", "times", "sides", "skip")
_PRINTED = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*(?:\||\}\})")
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_DIGITS = re.compile(r"(?<![\w.])\d+(?![\w.])")
_BRANCH = re.compile(r"\{%-?\s*(?:el)?if\s+([a-z_][a-z0-9_]*)\s*==\s*(\d+)\s*-?%\}")


def body_numbers(body: Any) -> tuple[set[int], set[str], set[str]]:
    """(whole numbers taken as amounts, parameters passed bare, names read inside an amount's
    larger expression) anywhere in a body."""
    nums: set[int] = set()
    bare: set[str] = set()
    inside: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for x in node:
                walk(x)
        elif isinstance(node, dict):
            for key, value in node.items():
                if key in AMOUNTS and not isinstance(value, (dict, list)):
                    if isinstance(value, int) and not isinstance(value, bool):
                        nums.add(value)
                    elif isinstance(value, str) and re.fullmatch(r"\s*[a-z_][a-z0-9_]*\s*", value):
                        bare.add(value.strip())
                    elif isinstance(value, str):
                        inside.update(re.findall(r"[a-z_][a-z0-9_]*", value))
                else:
                    walk(value)
    walk(body)
    return nums, bare, inside


def text_numbers(text: str, lang: str) -> tuple[set[int], set[str]]:
    """(whole numbers a text writes, parameters it prints; a parameter a branch tests for a
    value, `{% if count == 1 %}`, is printed too)."""
    printed = set(_PRINTED.findall(text)) | {name for name, _ in _BRANCH.findall(text)}
    plain = _JINJA.sub(" ", text)
    nums = {int(d) for d in _DIGITS.findall(plain)}
    words = set(re.findall(r"\w+", plain.lower()))
    for n in range(2, 21):
        forms = {spell(n, lang), spell(n, lang, gender="f"), spell(n, lang, gender="n")}
        if forms & words and spell(n, lang) != str(n):
            nums.add(n)
    return nums, printed


def mismatches(name: str, params: Any, texts: dict[str, str], body: Any) -> Iterator[str]:
    """What an operation's texts say that its body does not do, one message each."""
    nums, bare, inside = body_numbers(body)
    for lang, text in texts.items():
        said, printed = text_numbers(text, lang)
        said -= {int(n) for p, n in _BRANCH.findall(text) if p in bare}
        for n in sorted(said - nums):
            yield f"the text of {name!r} ({lang}) says {n}, but its body takes {_listed(nums)}"
        for n in sorted(k for k in nums - said if k >= 2):
            yield f"the body of {name!r} takes {n}, but its text ({lang}) never says it"
        for p in sorted(printed & set(params)):
            if p not in bare and p in inside:
                yield (f"the text of {name!r} ({lang}) prints {{{{ {p} }}}}, but the body "
                       "changes it before using it")


def _listed(nums: set[int]) -> str:
    return ", ".join(map(str, sorted(nums))) if nums else "no number"
