"""Compiled Jinja templates, shared by every environment of the process and kept on disk.

Card layouts, effect texts and rulebooks are Jinja; compiling them costs more than rendering
every card of a game, so all their environments use `BYTECODE`, and `source_loader` lets
templates that live in data (the manifest's operation texts) be cached like files.
"""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

import jinja2

from . import cache


class _SharedBytecode(jinja2.BytecodeCache):
    """Compiled templates shared by every game's environment in this process (the common
    parts are compiled once, not once per game), and kept on disk between runs in the
    `forge.cache` directory: compiling the layouts costs more than rendering every card of a
    game. Jinja keys each by template name and file and checks it against the source's hash and
    its own and Python's versions, so an edited template is simply compiled again."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def disk(self) -> jinja2.FileSystemBytecodeCache | None:
        where = cache.directory("jinja")
        return None if where is None else _disk(str(where))

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.store:
            bucket.bytecode_from_string(self.store[bucket.key])
            return
        disk = self.disk()
        if disk is not None:
            try:
                disk.load_bytecode(bucket)
            except (OSError, ValueError, EOFError):
                bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()
        disk = self.disk()
        if disk is not None:
            try:
                disk.dump_bytecode(bucket)
            except OSError:
                pass


@lru_cache(maxsize=None)
def _disk(where: str) -> jinja2.FileSystemBytecodeCache:
    return jinja2.FileSystemBytecodeCache(where)


BYTECODE = _SharedBytecode()


class Environment(jinja2.Environment):
    """Jinja's environment with each template's globals as a plain dict.

    Jinja chains a template's globals to the environment's (`collections.ChainMap`), and every
    render and every `{% import %}` walks that chain key by key in Python: with hundreds of
    card faces a build, that costs about a tenth of drawing them. Our environments set all
    their globals before loading a template, so a snapshot is the same mapping."""

    def make_globals(self, d: dict | None) -> dict:  # type: ignore[override]
        return {**self.globals, **(d or {})}


#: The checkout this package sits in (built-in games, their templates and scenarios).
CHECKOUT = Path(__file__).resolve().parents[1]


def templates_root(game: object) -> Path:
    """Where a game's templates live: $FORGE_TEMPLATES, else `templates/` beside its cards
    folder (a designer's own project laid out like this one), else this checkout's."""
    if os.environ.get("FORGE_TEMPLATES"):
        return Path(os.environ["FORGE_TEMPLATES"])
    return _beside(str(game.root), game.id)  # type: ignore[attr-defined]


@lru_cache(maxsize=256)
def _beside(game_root: str, game_id: str) -> Path:
    sibling = Path(game_root).resolve().parent.parent / "templates"
    if (sibling / game_id).is_dir() or (sibling / "_common").is_dir():
        return sibling
    return CHECKOUT / "templates"


def source_loader(sources: dict[str, str]) -> jinja2.FunctionLoader:
    """A loader for templates held in data: the name is the source's hash, so equal sources
    share one compiled template and an edited one is a new name."""
    return jinja2.FunctionLoader(lambda name: (sources[name], None, lambda: True) if name in sources else None)


def source_name(source: str) -> str:
    return hashlib.sha1(source.encode("utf-8")).hexdigest()
