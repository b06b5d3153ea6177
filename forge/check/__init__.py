"""`check`: everything that can be known about a game without playing it.

`check_game()` loads a game folder and runs every static check over it. A check is a function
`(game) -> iterable of Finding`, listed in one of two tiers:

- `DATA_CHECKS` look at the data itself (ids, references, subtype fields, operation texts, the
  files it names, the folders its templates and scenarios come from, its SVG icons) and always run;
- `DERIVED_CHECKS` build on clean data: they compare cards with each other (counts, uniqueness),
  match the data to its rules engine, lay out every card face (glyphs, fit, every field shown
  or declared hidden) and render the
  rulebook templates. They run only when the data checks found nothing, so one typo is reported
  once, not again as a wrong count or a layout that fails.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import Finding
from ..model import Game, load_game
from .counts import check_counts
from .engine import check_engine
from .fields import check_shown_fields
from .identity import check_ids, check_unique
from .layouts import check_icons
from .paths import check_folders, check_paths
from .preflight import check_components, check_glyphs_and_fit
from .references import check_references
from .rulebook import check_rulebooks
from .subtypes import check_subtype_fields
from .texts import check_texts
from .typography import check_typography

DATA_CHECKS = (check_ids, check_references, check_subtype_fields, check_texts, check_typography,
               check_paths, check_folders, check_icons)
DERIVED_CHECKS = (check_counts, check_unique, check_engine, check_glyphs_and_fit, check_components, check_shown_fields,
                  check_rulebooks)


def check_game(root: Path) -> tuple[Game | None, list[Finding]]:
    """Load and check one game folder; the findings come sorted by file and line."""
    game, findings = load_game(root)
    if game is not None:
        for check in DATA_CHECKS:
            findings.extend(check(game))
        if not findings:
            for check in DERIVED_CHECKS:
                findings.extend(check(game))
    return game, sorted(set(findings), key=lambda f: (f.file, f.line, f.col, f.code, f.message))


__all__ = ["DATA_CHECKS", "DERIVED_CHECKS", "check_game"]
