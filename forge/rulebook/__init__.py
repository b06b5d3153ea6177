"""Rulebooks and cheat sheets generated from the card data (docs/rulebooks.md).

Jinja templates (`templates/<game>/rulebook.<lang>.md.j2`, `cheatsheet.<lang>.md.j2`) render to
Markdown with the game's data; markdown-it-py parses it; ReportLab lays it out (A5 or A4, table of
contents, outline, page numbers, soft-hyphen hyphenation); pypdf imposes the saddle-stitch
booklet. Importing `forge.rulebook.products` registers the `rulebook`, `rulebook-booklet`,
`cheatsheet` and `summary` products (`forge.products`).

Each name below is imported from its module on first use (PEP 562), as in `forge`: `forge check`
renders the templates (`forge.rulebook.context`) and so imports this package, but never lays a
document out, and platypus, markdown-it and pypdf cost it ~0.2 s to import.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import exports

#: Public name -> the module that defines it.
_API = {
    "booklet_order": ".booklet", "impose_booklet": ".booklet", "build_cheatsheet": ".cheatsheet",
    "Rendered": ".context", "render_template": ".context", "Built": ".document",
    "build_rulebook": ".document", "d6_battle": ".odds", "d6_odds": ".odds",
}

__all__ = sorted(_API)
__getattr__, __dir__ = exports(__name__, _API, globals())


if TYPE_CHECKING:  # what type checkers and IDEs see
    from .booklet import booklet_order, impose_booklet
    from .cheatsheet import build_cheatsheet
    from .context import Rendered, render_template
    from .document import Built, build_rulebook
    from .odds import d6_battle, d6_odds
