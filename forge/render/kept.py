"""Fitted card faces kept between runs in the forge cache (`forge.cache`, part "faces").

Laying out every face of a game in every language (running the layout templates, fitting every
text) is most of what `forge check` and `forge build` cost, and a game whose cards, templates and
code did not change gets the same faces: `layout.lay_out` reads them back. One entry holds every
face of a game in one language (each card's front, each back, the fields each front shows and
hides, the `once` groups the faces share), and is keyed by all that a face is made from:

- the game as loaded: its manifest and every card (as pydantic writes them out, with the
  fields each card's data set), the ids its card files declare;
- where they are written, as a layout may read it (`card.source`, `card.finding`,
  `game.manifest_doc`): the manifest's data, the position of every node of the manifest and
  card files, and each file's name as findings give it (relative to the working folder);
- every file in the folders its layouts are loaded from (`templating.layout_folders`, links
  followed; includes, imports and macros come from there too), by its path in its folder and
  its content, read when the game's template environment is made (it never reads a template
  again);
- its icons (the SVG bytes `icons.game_icons` read) and where each card's art is (the path a
  layout is given as `art_path`);
- the rule numbers its engine prints (`rules.printed.rule_numbers`: a plugin engine's code is
  not forge's);
- forge's own code (path, size and modification time of each of its .py files, as Python's
  `__pycache__` judges a source), Python's version, and the libraries a face goes through and
  the font files by the same three (installing another version writes them anew);
- the language, the entry's format and whether `once` groups are shared.

The key names no folder but the art's (a layout sees only that one): a face is made from what
the files hold, not from where they lie, so a copy of a game in another folder (a second
checkout, a test's throwaway copy) reads the faces back; a game whose cards have art keeps
them per folder. An entry is written only when every face of the game rendered in that
language, and only if the key, taken again after the layout, is unchanged (no template or art
edited meanwhile). There is one per game id and language: faces made after an edit, or of a
game of that id in another folder, replace those made before (a file per edit would pile up).
It holds the hash of its own bytes: one that is damaged, foreign or does not decode is ignored
and the faces are laid out again. A face read back equals the fresh one, texts and problems included,
and shares its `once` groups with the same faces (drawing places each group once per PDF).
"""
from __future__ import annotations

import hashlib
import importlib
import marshal
import os
import stat
import sys
import weakref
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import cache
from ..errors import ForgeError
from ..model.cards import art_file
from ..rules.printed import rule_numbers
from ..templating import MAX_TEMPLATE_BYTES
from . import layout
from .fonts import font_folder
from .icons import game_icons

PART = "faces"
#: Bumped when the form of an entry, or what a face holds, changes.
_FORMAT = 1
#: The libraries whose code a face goes through (templates, text, fonts, hyphenation, plurals).
_LIBRARIES = ("jinja2", "reportlab", "pyphen", "babel", "pydantic", "pydantic_core",
              "yaml", "font_roboto", "markupsafe")
#: Where a library keeps its version string (read from its namespace: markupsafe's `__version__`
#: is made on demand, with a warning, and it goes by its file alone).
_VERSIONS = ("__version__", "VERSION", "Version")
_FORGE = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=None)
def _installed(forge: Path) -> bytes:
    """forge's code, Python and the libraries: what a process runs (read once)."""
    code = []
    for folder, subs, files in os.walk(forge):
        subs[:] = sorted(s for s in subs if s not in ("__pycache__", "builtin"))
        for name in sorted(files):
            if name.endswith(".py"):
                st = os.stat(os.path.join(folder, name))
                code.append((os.path.relpath(os.path.join(folder, name), forge), st.st_size, st.st_mtime_ns))
    libraries = []
    for name in _LIBRARIES:
        try:
            module = importlib.import_module(name)
            st = os.stat(module.__file__ or "")
        except (ImportError, OSError):
            libraries.append((name, None))
        else:  # its version, and its first file: installing another version writes it anew
            version = next((module.__dict__[v] for v in _VERSIONS if isinstance(module.__dict__.get(v), str)), None)
            libraries.append((name, version, module.__file__, st.st_size, st.st_mtime_ns))
    try:
        fonts = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in font_folder().iterdir())
    except (OSError, ForgeError):
        fonts = []
    return repr((_FORMAT, sys.version, libraries, code, fonts)).encode()


def _digest(parts: list) -> bytes:
    """A hash of `parts` (text, bytes and numbers, nested in lists and tuples), each part
    delimited. (Not `marshal`: what it writes for equal values depends on their reference
    counts.)"""
    h = hashlib.sha1()

    def add(part: Any) -> None:
        if isinstance(part, (list, tuple)):
            h.update(b"[%d" % len(part))
            for p in part:
                add(p)
            return
        data = part if isinstance(part, bytes) else repr(part).encode("utf-8", "surrogatepass")
        h.update(b"%c%d:" % (b"b" if isinstance(part, bytes) else b"r", len(data)))
        h.update(data)
    add(parts)
    return h.hexdigest().encode()


#: What `templates` reads at most (files, bytes): far above any game's layouts; a folder
#: holding more is not worth reading on every run, and its faces are not kept.
MAX_FILES, MAX_BYTES = 2_000, 32 * 2**20


def templates(folders: list[tuple[Path, str]]) -> bytes | None:
    """Every file in the layout folders (`templating.layout_folders`) that a template name can
    reach (links followed inside the templates folder, as `FolderLoader` follows them), by the
    folder's place in the list, its path in the folder (the name a template loads it by) and
    its bytes; one it would refuse by what it is (a link out, not a regular file, too large:
    loading it fails). None with no cache on disk, or past `MAX_FILES` or `MAX_BYTES`."""
    if cache.directory(PART) is None:
        return None
    out: list = []
    size = 0
    for n, (root, sub) in enumerate(folders):
        base = os.path.realpath(root)
        top = root / sub
        seen: set[str] = set()
        for folder, subs, files in os.walk(top, followlinks=True):
            real = os.path.realpath(folder)
            if real in seen or not _inside(real, base):  # a link back up, or out: not read
                out.append((n, os.path.relpath(folder, top), "not read"))
                subs[:] = []
                continue
            seen.add(real)
            subs.sort()
            for name in sorted(files):
                path = os.path.join(folder, name)
                if len(out) >= MAX_FILES:
                    return None
                found = _read(path, base)
                out.append((n, os.path.relpath(path, top), *found))
                size += sum(len(part) for part in found if isinstance(part, bytes))
                if size > MAX_BYTES:
                    return None
    return _digest(out)


def _inside(real: str, base: str) -> bool:
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def _read(path: str, base: str) -> tuple:
    """A layout folder's file as `templates` keeps it: its bytes, or what it is instead."""
    if not _inside(os.path.realpath(path), base):
        return ("outside",)
    try:  # never blocks: a FIFO opens at once, and is not read
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        return ("error", exc.errno)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_TEMPLATE_BYTES:
            return ("file", st.st_mode, st.st_size, st.st_mtime_ns)
        try:
            return ("file", f.read(MAX_TEMPLATE_BYTES + 1))
        except OSError as exc:
            return ("error", exc.errno)


#: `_loaded` of each game object (dropped with it).
_GAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _loaded(game: Any) -> tuple[bytes, bytes]:
    """Digests of the game as loaded, read once per game object: what is printed from it (the
    model, its manifest as written, its icons and its engine's rule numbers), and where it is
    written in its files."""
    made = _GAMES.get(game)
    if made is None:
        icons = game_icons(game)
        made = _GAMES[game] = (_digest([
            game.id, sorted(game.declared_ids), game.manifest.model_dump_json(),
            [(card.model_dump_json(), sorted(card.model_fields_set)) for card in game.cards],
            repr(game.manifest_doc.data), sorted(icons.broken),
            [(name, icons.svg[name].data) for name in sorted(icons.svg)], sorted(rule_numbers(game).items())]),
            _digest([repr(list(doc.positions.items())) for doc in _documents(game)]))
    return made


def _game(game: Any) -> bytes:
    """The game as its layouts see it: as loaded (`_loaded`), and the names of its files and
    where each card's art is (looked for each time: both depend on the working folder or the
    files there). Not its folder: a layout sees no other path."""
    printed, written = _loaded(game)
    return printed + written + _digest([[doc.name for doc in _documents(game)],
                                        [str(art_file(card, game.root) or "") for card in game.cards]])


def _documents(game: Any) -> list:
    """The manifest's and the card files' documents, each once (a card's is private: templates
    reach it only through the card's methods)."""
    return list({id(doc): doc for doc in (game.manifest_doc, *(card._doc for card in game.cards))}.values())


def game_source(game: Any) -> bytes | None:
    """forge's code, libraries and fonts, and what is printed from the game: what a document
    laid out from a game without its card pictures is made from (`rulebook.typeset` keys its
    findings by it, with the template's own path: where the game's files are written, and
    under which names, changes none of it); None when there is no cache on disk or the game
    cannot be written out."""
    if cache.directory(PART) is None:
        return None
    try:
        return _installed(_FORGE) + b"\0" + _loaded(game)[0]
    except Exception:  # noqa: BLE001 (a game object of another making: not kept)
        return None


def source(game: Any, lang: str, folders: bytes | None) -> bytes | None:
    """The key of the entry of `game`'s faces in `lang`, its layout folders read as `folders`
    (`templates`); None when there is no cache on disk, the folders were not read, or the game
    cannot be written out (not one loaded from files): its faces are laid out every time."""
    if folders is None or cache.directory(PART) is None:
        return None
    try:
        made_of = _game(game)
    except Exception:  # noqa: BLE001 (a game object of another making: not kept)
        return None
    return b"\0".join([_installed(_FORGE), repr((lang, layout.ONCE)).encode(), folders, made_of])


#: Each `once` group read back, by the entry it came from: kept for the process (as
#: `layout.once` keeps its groups), so an id drawing caches by is never reused.
_GROUPS: dict[str, list[tuple]] = {}


def _slot(game: Any, lang: str) -> bytes:
    """What names the entry of a game's faces in `lang`: one per game id and language, replaced
    when the game changes."""
    return repr((game.id, lang)).encode()


def recall(game: Any, lang: str, key: bytes) -> tuple[dict, dict] | None:
    """The faces of `game` in `lang` kept under `key`: ({face key: Face}, {(card id, lang):
    FieldUse}), or None."""
    found = cache.recall(PART, key, _sound, slot=_slot(game, lang))
    if found is None:
        return None
    try:
        return _faces(game, found[0], marshal.loads(found[1]))
    except Exception:  # noqa: BLE001 (an entry of the right hash but another form: laid out again)
        return None


def keep(game: Any, lang: str, key: bytes, faces: dict, uses: dict) -> None:
    """Keep the faces (and their fronts' field uses) of `game` in `lang` under `key`."""
    groups: list[tuple] = []
    index: dict[int, int] = {}
    out = []
    for at, face in faces.items():
        refs: dict[int, tuple[int, int]] = {}
        placed = {}
        for n, group in face.groups.items():
            g = index.get(id(group))
            if g is None:
                g = index[id(group)] = len(groups)
                groups.append(group)
            placed[n] = g
            refs.update({n + p: (g, p) for p, el in enumerate(group) if face.elements[n + p] is el})
        out.append((at, face.width, face.height, [refs.get(i) or _plain(el) for i, el in enumerate(face.elements)],
                    [(p.loc, p.code, p.message) for p in face.problems], face.texts, placed))
    try:
        body = marshal.dumps(([list(g) for g in groups], out,
                              [(at, (u.shown, u.hidden, u.unknown)) for at, u in uses.items()]))
    except ValueError:  # something marshal cannot write (not plain data): not kept
        return
    cache.keep(PART, key, (hashlib.sha1(body).hexdigest(), body), slot=_slot(game, lang))


def _sound(value: Any) -> bool:
    return (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes)
            and hashlib.sha1(value[1]).hexdigest() == value[0])


def _plain(el: dict) -> dict:
    paras = el.get("_paras")
    if paras is None:
        return el
    return dict(el, _paras=[(p.lines, p.size, p.leading, p.align, p.color) for p in paras])


def _faces(game: Any, digest: str, data: tuple) -> tuple[dict, dict]:
    kept_groups, kept_faces, kept_uses = data
    groups = _GROUPS.get(digest)
    if groups is None:
        groups = _GROUPS[digest] = [tuple(g) for g in kept_groups]
        for group in groups:
            layout.STATIC.update(id(el) for el in group)
            if group:
                layout.GROUPS[id(group[0])] = group
    icons = game_icons(game)
    faces = {}
    for at, width, height, elements, problems, texts, placed in kept_faces:
        els = []
        for el in elements:
            if isinstance(el, tuple):
                el = groups[el[0]][el[1]]
            elif "_paras" in el:
                el["_paras"] = [layout.TextPara(*p) for p in el["_paras"]]
            els.append(el)
        faces[at] = layout.Face(width, height, els, [layout.Problem(*p) for p in problems], texts,
                                {n: groups[g] for n, g in placed.items()}, icons)
    uses = {at: layout.FieldUse(*use) for at, use in kept_uses}
    return faces, uses
