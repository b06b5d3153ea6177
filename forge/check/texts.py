"""Texts: operation templates compile and render, and hand-written texts keep the numbers."""
from __future__ import annotations

import re
from typing import Iterator

import jinja2

from ..errors import Finding
from ..model import Game
from ..model.fields import walk_ints
from ..text import operations_text, template_problems


def check_texts(game: Game) -> Iterator[Finding]:
    manifest = game.manifest
    for name, lang, reason in template_problems(manifest):
        yield game.manifest_finding(("operations", name, "text", lang), "template",
                                    f"text template of {name!r} ({lang}) does not compile: {reason}")
    broken = {name for name, _, _ in template_problems(manifest)}
    for card in game.cards:
        for loc, operations in game.effect_lists(card):
            if any(op.name in broken for op in operations):
                continue
            for lang in manifest.locales:
                try:
                    operations_text(manifest, operations, lang)
                except (jinja2.TemplateError, LookupError, TypeError, ValueError) as exc:
                    yield card.finding(loc, "template", f"{loc[0]} text ({lang}) fails: {exc}")
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
