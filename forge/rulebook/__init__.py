"""Rulebooks and cheat sheets generated from the card data (docs/rulebooks.md).

Jinja templates (`templates/<game>/rulebook.<lang>.md.j2`, `cheatsheet.<lang>.md.j2`) render to
Markdown with the game's data; markdown-it-py parses it; ReportLab lays it out (A5 or A4, table of
contents, outline, page numbers, soft-hyphen hyphenation); pypdf imposes the saddle-stitch
booklet. Importing this package registers the `rulebook`, `rulebook-booklet` and `cheatsheet`
products of `forge.build`.
"""
from __future__ import annotations

from . import products  # noqa: F401  (registers the products)
from .booklet import booklet_order, impose_booklet
from .cheatsheet import build_cheatsheet
from .context import Rendered, render_template
from .document import Built, build_rulebook
from .odds import d6_battle, d6_odds

__all__ = ["Built", "Rendered", "booklet_order", "build_cheatsheet", "build_rulebook",
           "d6_battle", "d6_odds", "impose_booklet", "render_template"]
