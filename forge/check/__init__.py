"""`check`: everything that can be known about a game without playing it.

`check_game()` loads a game folder and runs every static check over it; each check is a function
`(game) -> iterable of Finding` listed in `CHECKS`, so a new kind of check is one new function.
Checks that compare cards with each other (counts, uniqueness) run only when every card loaded,
so one typo does not also show up as a wrong count.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import Finding
from ..model import Game, load_game
from .counts import check_counts
from .engine import check_engine
from .identity import check_ids, check_unique
from .preflight import check_glyphs_and_fit
from .references import check_references
from .rulebook import check_rulebooks
from .subtypes import check_subtype_fields
from .texts import check_texts

#: Checks that always run (each card on its own, and ids).
CARD_CHECKS = (check_ids, check_references, check_subtype_fields, check_texts, check_glyphs_and_fit)
#: Checks over the whole deck, meaningful only when every card loaded.
DECK_CHECKS = (check_counts, check_unique, check_rulebooks, check_engine)


def check_game(root: Path) -> tuple[Game | None, list[Finding]]:
    """Load and check one game folder; the findings come sorted by file and line."""
    game, findings = load_game(root)
    if game is not None:
        for check in CARD_CHECKS:
            findings.extend(check(game))
        if not findings:
            for check in DECK_CHECKS:
                findings.extend(check(game))
    return game, sorted(set(findings), key=lambda f: (f.file, f.line, f.col, f.code, f.message))


__all__ = ["CARD_CHECKS", "DECK_CHECKS", "check_game"]
