"""The per-user cache of compiled and derived artefacts, like Python's `__pycache__`.

It holds what is derived from installed code and data (compiled Jinja templates, parsed fonts
and hyphenation patterns, CLDR plural rules), each keyed so that a changed source is compiled
again. What comes from a game's templates and its manifest's operation texts (their compiled
code, what parsing them found) is keyed by their text. And it holds a game's fitted card faces
in each language (`forge.render.kept`: the elements, texts and problems of every face, the
fields each front shows), keyed by everything a face is made from: the game as loaded (its
manifest and cards, where they are written), every file its layouts may load, its icons and
art paths, forge's code, the libraries' versions and the fonts. It lives in $FORGE_CACHE, else
$XDG_CACHE_HOME/card-forge, else ~/.cache/card-forge; `FORGE_CACHE=off` (or a directory that
cannot be made) keeps everything in memory.
"""
from __future__ import annotations

import hashlib
import marshal
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, TypeVar

from .files import write_atomic

T = TypeVar("T")


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


_MISSING = object()


def remembered(part: str, source: bytes, make: Callable[[], T], check: Callable[[Any], bool]) -> T:
    """`make()`, plain data that `marshal` writes, kept in the cache's `part` between runs.

    An entry is named by, and holds, the hash of `source` (all that the value is made from:
    file bytes, the library's version, the entry's format), so an entry made from something
    else, or copied from elsewhere, is never used; one that cannot be read or fails `check` is
    made again and rewritten. With no cache on disk, or one that cannot be written, it is made."""
    value = recall(part, source, check, _MISSING)
    if value is _MISSING:
        value = make()
        keep(part, source, value)
    return value


def recall(part: str, source: bytes, check: Callable[[Any], bool], default: Any = None,
           slot: bytes | None = None) -> Any:
    """The value kept in `part` for `source` (as `remembered` keeps it), else `default`: none
    kept, no cache on disk, or an entry that cannot be read, is foreign or fails `check`.
    `slot`: what names the entry instead of `source` (see `keep`)."""
    where = directory(part)
    if where is None:
        return default
    key = hashlib.sha1(source).hexdigest()
    try:
        made_from, value = marshal.loads(_entry(where, key, slot).read_bytes())
        if made_from == key and check(value):
            return value
    except (OSError, ValueError, EOFError, TypeError):
        pass
    return default


def keep(part: str, source: bytes, value: Any, slot: bytes | None = None) -> None:
    """Keep `value` in `part` for `source`; nothing when there is no cache on disk, it cannot
    be written, or `marshal` cannot write the value. An entry with a `slot` is named by it and
    replaces the one made before from other sources (what changes at every edit, such as a
    game's faces, keeps one entry, not one per edit)."""
    where = directory(part)
    if where is None:
        return
    key = hashlib.sha1(source).hexdigest()
    try:
        write_atomic(_entry(where, key, slot), marshal.dumps((key, value)))
    except (OSError, ValueError):  # an unwritable cache, or a value marshal cannot write
        pass


def _entry(where: Path, key: str, slot: bytes | None) -> Path:
    return where / ((key if slot is None else hashlib.sha1(slot).hexdigest()) + ".marshal")
