"""Texts: operation templates can render, and hand-written texts keep the effects' numbers."""
from __future__ import annotations

import re
from typing import Iterator

from ..errors import Finding
from ..model import Game
from ..model.fields import walk_ints
from ..text import template_problems


def check_texts(game: Game) -> Iterator[Finding]:
    manifest = game.manifest
    for name, lang, code, reason in template_problems(manifest):
        yield game.manifest_finding(("operations", name, "text", lang), code,
                                    f"text template of {name!r} ({lang}): {reason}")
    for card in game.cards:
        if card.text is not None:
            yield from _numbers_kept(game, card)


def _numbers_kept(game: Game, card) -> Iterator[Finding]:
    """Every number in the operations must be printed in each locale's hand-written text."""
    wanted = set()
    for op in card.effects:
        for name, spec in game.manifest.operations[op.name].params.items():
            wanted.update(walk_ints(spec, getattr(op.params, name)))
    for lang in game.manifest.locales:
        printed = {int(n) for n in re.findall(r"\d+", card.text[lang])}
        for n in sorted(wanted - printed):
            yield card.finding(("text", lang), "text-mismatch", f"the effects use {n}, but the "
                               f"{lang} text does not say it", "make the text match the effects")
