"""Rulebook and cheat-sheet templates agree with the data: each renders, and every card id and
scenario it names exists. Findings point at the template file and line (forge.rulebook.context).

Only the Jinja stage runs here, which keeps `forge check` fast; typesetting findings (a word
wider than its column, a cheat sheet that needs a second page) belong to the layout and are
reported by `forge build`, which refuses to write such a document. A game with no template of
a kind is not checked for it; one that has a kind in one language must have it in all.
"""
from __future__ import annotations

from typing import Iterator

from ..errors import Finding
from ..model import Game


def check_rulebooks(game: Game) -> Iterator[Finding]:
    from ..rulebook.context import KINDS, name_forms, render_template, template_name
    from ..templating import templates_root
    from .cases import case_findings

    root = templates_root(game)
    forms = {}
    for lang in game.manifest.locales:
        forms[lang], findings = name_forms(root, game, lang)
        yield from findings
    for kind in KINDS:
        if any((root / template_name(game, kind, lang)).is_file() for lang in game.manifest.locales):
            for lang in game.manifest.locales:
                rendered = render_template(game, kind, lang, root)
                yield from rendered.findings
                if lang == "uk":
                    yield from case_findings(game, rendered, forms[lang]["cards"])
