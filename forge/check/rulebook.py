"""Rulebooks and cheat sheets agree with the data: every template renders, every card id and
scenario it names exists, no word is wider than its column, and the cheat sheet fits one page.

Findings point at the template file and line (see forge.rulebook.context). The documents are
laid out exactly as `forge build` lays them out, with card pictures as same-sized placeholders.
A game with no rulebook or cheat-sheet templates at all is not checked; a game that has a kind
of template in one of its languages must have it in all of them.
"""
from __future__ import annotations

from typing import Iterator

from ..errors import Finding
from ..model import Game


def check_rulebooks(game: Game) -> Iterator[Finding]:
    from ..rulebook.cheatsheet import build_cheatsheet
    from ..rulebook.context import KINDS, template_name, templates_root
    from ..rulebook.document import build_rulebook

    root = templates_root(game)
    builders = {"rulebook": lambda lang: build_rulebook(game, lang, pictures=False),
                "cheatsheet": lambda lang: build_cheatsheet(game, lang, pictures=False)}
    for kind in KINDS:
        if not any((root / template_name(game, kind, lang)).is_file()
                   for lang in game.manifest.locales):
            continue
        for lang in game.manifest.locales:
            yield from builders[kind](lang).findings
