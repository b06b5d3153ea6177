"""The per-user cache of compiled artefacts, like Python's `__pycache__`.

It holds only what is derived from installed code and data (compiled Jinja templates, parsed
hyphenation patterns), each keyed so that a changed source is compiled again; never anything
derived from a game's cards. It lives in $FORGE_CACHE, else $XDG_CACHE_HOME/card-forge, else
~/.cache/card-forge; `FORGE_CACHE=off` (or a directory that cannot be made) keeps everything in
memory.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path


def directory(part: str) -> Path | None:
    """The cache's subdirectory `part`, created; None when caching on disk is off or impossible."""
    return _directory(os.environ.get("FORGE_CACHE"), os.environ.get("XDG_CACHE_HOME"), part)


@lru_cache(maxsize=None)
def _directory(where: str | None, xdg: str | None, part: str) -> Path | None:
    if where == "off":
        return None
    base = Path(where) if where else Path(xdg or Path.home() / ".cache") / "card-forge"
    try:
        (base / part).mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return base / part
