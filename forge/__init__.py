"""Card Forge: card data checked by a rules engine, rendered to print.

The library API; the `forge` command is a thin shell over it. Each name is imported from its
module on first use (PEP 562), so `import forge` costs nothing and a command loads only what
it needs: `forge preview` never imports the checker, `forge --version` not even the model.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import exports

#: Public name -> the module that defines it.
_API = {
    "Card": ".model", "Game": ".model", "Operation": ".model", "load_game": ".model",
    "Finding": ".errors", "FindingsError": ".errors", "ForgeError": ".errors", "UsageError": ".errors",
    "card_records": ".export", "check_game": ".check", "load_yaml": ".load",
    "build": ".api", "render_card": ".api",
}

__all__ = sorted(_API)
__getattr__, __dir__ = exports(__name__, _API, globals())


if TYPE_CHECKING:  # what type checkers and IDEs see
    from .api import build, render_card
    from .check import check_game
    from .errors import Finding, FindingsError, ForgeError, UsageError
    from .export import card_records
    from .load import load_yaml
    from .model import Card, Game, Operation, load_game
