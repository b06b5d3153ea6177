"""Typography of the text data: no typewriter quote or apostrophe in a text that is printed.

`forge.text.typography.typeset` prints « » „ “ ʼ (uk) and “ ” ’ (en) for straight marks it can
read unambiguously, but a straight mark in the data is still a guess (which way does a quote
open? is `'` an apostrophe or a quote?), and the data is what translators and other tools read.
So every localised string of the cards (names, flavour, texts, any localised field) and of the
manifest (title, type and set names, component labels ...) must use the language's own marks:
each straight `"`, `'` or backtick is a finding at its file:line. Operation templates are
Jinja: only their literal text is looked at, not the quotes of their expressions.
"""
from __future__ import annotations

from typing import Iterator

import jinja2
from jinja2 import nodes

from ..errors import Finding
from ..model import Game
from ..model.manifest import local_strings
from ..templating import remembered
from ..text.typography import TYPEWRITER, typewriter_fix

_MARKS = tuple(TYPEWRITER)
_PARSER = jinja2.Environment()
#: Bumped when what `_template_text` makes of a source changes (`templating.remembered`).
_FORMAT = 1


def check_typography(game: Game) -> Iterator[Finding]:
    for card in game.cards:
        for loc, lang, text in local_strings(card, ()):
            yield from _findings(lambda *a: card.finding(*a), loc, lang, text)
    strings = list(local_strings(game.manifest, ()))
    templates = tuple(text for loc, _, text in strings if _is_template(loc))
    literal = dict(zip(templates, _template_texts(templates)))
    for loc, lang, text in strings:
        yield from _findings(game.manifest_finding, loc, lang, literal[text] if _is_template(loc) else text)


def _is_template(loc: tuple) -> bool:
    """Is this string of the manifest an operation's text (a Jinja template)?"""
    return len(loc) >= 3 and loc[0] == "operations" and loc[2] == "text"


def _findings(make, loc: tuple, lang: str, text: str) -> Iterator[Finding]:
    found = [mark for mark in _MARKS if mark in text]
    if not found:
        return
    marks = " and ".join(TYPEWRITER[m] for m in found)
    marks_fix = "«» „“ ʼ" if lang == "uk" else "“ ” ‘ ’" if lang == "en" else "the language's marks"
    example = typewriter_fix(text, lang)
    fix = f"use {marks_fix}" + (f": {example[:80]!r}" if example != text and len(text) <= 80 else "")
    yield make((*loc, lang), "typography", f"{marks} in the {lang} text {text[:60]!r}", fix)


def _template_texts(sources: tuple[str, ...]) -> list[str]:
    """`_template_text` of each source, remembered for the same sources (parsing them all
    costs a tenth of `forge check`)."""
    return remembered(_PARSER, (_FORMAT, sources), lambda: [_template_text(s) for s in sources],
                      lambda v: isinstance(v, list) and len(v) == len(sources)
                      and all(isinstance(t, str) for t in v))


def _template_text(source: str) -> str:
    """The literal text of a Jinja template (what it prints besides its expressions)."""
    try:
        tree = _PARSER.parse(source)
    except jinja2.TemplateSyntaxError:
        return ""  # reported by check_texts
    return "".join(node.data for node in tree.find_all(nodes.TemplateData))
