"""Every file that card data names lies inside the game folder and is an image forge can draw.

The rule for where a path may lead is `forge.paths.data_path`, shared with rendering; the rule
for what a picture may be is `forge.art.open_art`, shared with drawing. `forge.art.art_finding`
applies both to a card, so a refusal is a finding at its `art:` line rather than a placeholder
in the build.
"""
from __future__ import annotations

from typing import Iterator

from ..art import art_finding
from ..errors import Finding
from ..model import Game


def check_paths(game: Game) -> Iterator[Finding]:
    for card in game.cards:
        finding = art_finding(game, card)
        if finding is not None:
            yield finding
