"""Rulebook and cheat-sheet templates agree with the data: each renders, every card id and
scenario it names exists, and a rules game's words files name what its rules have. Findings point at the template file and line (forge.rulebook.context).

Each document that renders is laid out too (unless `typeset` is off: `forge build` lays out
the documents it makes itself), so what only typesetting finds (a word wider than
its column, a table wider than the page, a cheat sheet that needs a second page) is a finding
here as at `forge build`; what a layout found is kept between runs (`rulebook.typeset`), so a
document is laid out again only when it or forge changed. A game with no template of a kind is
not checked for it; one that has a kind in one language must have it in all.
"""
from __future__ import annotations

from typing import Iterator

from ..errors import Finding
from ..model import Game


def check_rulebooks(game: Game, typeset: bool = True) -> Iterator[Finding]:
    from ..rulebook.context import KINDS, render_template, template_name
    from ..rulebook.typeset import typeset_findings
    from ..rulebook.words import read_words
    from ..templating import templates_root
    from .cases import case_findings

    root = templates_root(game)
    forms = {}
    for lang in game.manifest.locales:
        words, findings = read_words(game, lang, root)
        forms[lang] = words.cards
        yield from findings
    for kind in KINDS:
        if any((root / template_name(game, kind, lang)).is_file() for lang in game.manifest.locales):
            for lang in game.manifest.locales:
                rendered = render_template(game, kind, lang, root)
                yield from rendered.findings
                if typeset and not rendered.findings:
                    yield from typeset_findings(game, kind, lang, rendered)
                if lang == "uk":
                    yield from case_findings(game, rendered, forms[lang])
