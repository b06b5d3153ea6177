"""`forge watch`: rebuild a game's files whenever one of its sources is saved.

The watcher (watchfiles) looks at each game's card folder, its templates and the shared
`templates/_common`. A batch of saves rebuilds, per game, only the products the changed files
feed: a rulebook template its rulebook and booklet, a cheat-sheet template its cheat sheet, card
data, card layouts and art everything (the rulebook and cheat sheet show cards and counts). A
template of a language not being built rebuilds nothing. The build's own writes never do, even
into an output folder inside the game's (`--out cards/<game>/out`): `OUT/<game>/<lang>/`, the
temporaries it is written through and the folders made to hold it are not sources.

A sheet the manifest names under `sheets:` is imported again when it is saved (`forge import`
in a fresh process); the card file the import writes is then a save like any other.

Each rebuild is `forge build` in a fresh process: templates and data are read anew (the build's
in-process caches assume files do not change under them), and a build that fails cannot take the
watcher with it. `build` checks the game first and refuses one with findings, printing them, and
writes every file atomically: the last good PDFs stay until the sources are fixed. With
--format json, stdout is a stream of JSON documents, one a line: one per build.
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Callable, Iterable, Iterator, Optional

import typer

from ..products import DEFAULT_PRODUCTS, check_products
from ..errors import UsageError, display_path
from ..files import writing
from ..templating import templates_root
from .app import (USAGE, Format, FormatOption, Output, QuietOption, VerboseOption, app, check_output,
                  complete_games, resolve_games, split_names)
from .build import Paper, complete_products

#: Products made from the rulebook and cheat-sheet templates alone.
TEMPLATE_PRODUCTS = {"rulebook": ("rulebook", "rulebook-booklet"), "cheatsheet": ("cheatsheet",)}


@dataclass(frozen=True)
class Watched:
    """One game and the folders its products are made from."""

    root: Path  # cards/<game>
    templates: Path  # templates/<game>
    common: Path  # templates/_common

    @property
    def id(self) -> str:
        return self.root.name

    @classmethod
    def of(cls, root: Path) -> Watched:
        base = templates_root(SimpleNamespace(root=root, id=root.name))
        return cls(root.resolve(), (base / root.name).resolve(), (base / "_common").resolve())

    def folders(self) -> list[Path]:
        return [p for p in (self.root, self.templates, self.common) if p.is_dir()]

    def outputs(self, out: Path, lang: str | None) -> list[Path]:
        """The folders its builds write: OUT/<game>/<lang>, for `lang` or, with none given,
        each language of the manifest as it is now (a broken manifest builds nothing)."""
        from ..load import load_yaml
        from ..model.game import MANIFEST
        from ..model.manifest import read_locales

        if lang is None:
            doc, _ = load_yaml(self.root / MANIFEST)
            found = read_locales(doc.data) if doc is not None else ()
            langs = list(found) if isinstance(found, tuple) else []
        else:
            langs = lang.split(",")
        return [(out / self.id / each).resolve() for each in langs]

    def sheets(self) -> dict[Path, list[str]]:
        """The sheets the manifest (as it is now) names under `sheets:`, each with the
        arguments of `forge import` that import it; a sheet outside the game folder is not
        among them (`forge check` reports it)."""
        from ..load import load_yaml
        from ..model.game import MANIFEST
        from ..paths import DataPathError, data_path

        doc, _ = load_yaml(self.root / MANIFEST)
        entries = doc.data.get("sheets") if doc is not None and isinstance(doc.data, dict) else None
        found = {}
        for entry in entries if isinstance(entries, list) else ():
            if not (isinstance(entry, dict) and isinstance(entry.get("path"), str)
                    and isinstance(entry.get("type"), str)):
                continue
            try:
                path = data_path(self.root, entry["path"], "sheet").resolve()
            except DataPathError:
                continue
            found[path] = [str(self.root), str(path), "--type", entry["type"], *(
                arg for key in ("file", "set", "sheet") if isinstance(entry.get(key), str)
                for arg in (f"--{key}", entry[key]))]
        return found


def products_for(game: Watched, path: Path, products: list[str], lang: str | None) -> list[str]:
    """Which of `products` the file at `path` feeds for `game` (none if it is not its source)."""
    path = path.resolve()
    if path.parent == game.templates:
        kind, _, rest = path.name.partition(".")
        if kind in TEMPLATE_PRODUCTS and rest.endswith(".md.j2"):
            file_lang = rest[: -len(".md.j2")]
            if lang is not None and file_lang not in lang.split(","):
                return []
            return [p for p in products if p in TEMPLATE_PRODUCTS[kind]]
    if any(path.is_relative_to(folder) for folder in (game.root, game.templates, game.common)):
        return list(products)
    return []


def plan(games: Iterable[Watched], changed: Iterable[Path], products: list[str],
         lang: str | None, out: Path | None = None) -> dict[Watched, tuple[list[str], list[Path]]]:
    """For each game a batch of changes touches: (products to rebuild, in build order; the
    changed files that call for them). What its builds into `out` wrote is no change, and
    neither is a sheet the manifest names (`imports`: the card file its import writes is)."""
    todo: dict[Watched, tuple[list[str], list[Path]]] = {}
    for game in games:
        wanted: set[str] = set()
        why = []
        own = game.outputs(out, lang) if out is not None else []
        sheets = game.sheets()
        for path in changed:
            if path.resolve() in sheets or any(writing(path, folder) or path in folder.parents for folder in own):
                continue
            found = products_for(game, path, products, lang)
            if found:
                wanted.update(found)
                why.append(path)
        if wanted:
            todo[game] = ([p for p in products if p in wanted], why)
    return todo


def imports(games: Iterable[Watched], changed: Iterable[Path]) -> list[tuple[Watched, Path, list[str]]]:
    """(game, sheet, `forge import` arguments) for each saved sheet that a manifest names."""
    saved = {path.resolve() for path in changed}
    return [(game, sheet, args) for game in games for sheet, args in game.sheets().items() if sheet in saved]


def build_command(game: Watched, products: list[str], out: Path, lang: str | None, paper: str,
                  show: Output = Output()) -> list[str]:
    """`forge build` of `products` for one game, as quiet, verbose and JSON as the watcher."""
    command = [sys.executable, "-m", "forge", "build", str(game.root), "--what", ",".join(products),
               "--out", str(out), "--paper", paper, "--format", show.format.value]
    return (command + (["--lang", lang] if lang else []) + (["-q"] if show.quiet else [])
            + (["-v"] if show.verbose else []))


def stamp(text: str) -> str:
    """A line of a watcher's log: the time, then `text`."""
    return f"[{time.strftime('%H:%M:%S')}] {text}"


def watch_games(roots: list[Path], products: list[str], out: Path, lang: str | None = None,
                paper: str = "a4,letter", stop: threading.Event | None = None,
                on_build: Callable[[Watched, list[str], int], None] | None = None,
                debounce: int = 400, show: Output = Output()) -> None:
    """Build each game, then rebuild what each batch of saved files feeds, until `stop` is set
    (or Ctrl-C). `on_build(game, products, exit_code)` is called after every build. With
    --format json each build is a line on stdout: game, products, exit, seconds, files."""
    games = [Watched.of(root) for root in roots]
    folders = sorted({folder for game in games for folder in game.folders()})

    def build(game: Watched, what: list[str]) -> int:
        started = time.perf_counter()
        sys.stdout.flush()
        done = subprocess.run(build_command(game, what, out, lang, paper, show), text=True,
                              stdout=subprocess.PIPE if show.json else None)
        code, seconds = done.returncode, time.perf_counter() - started
        if show.json:
            files = json.loads(done.stdout) if code == 0 else []
            typer.echo(json.dumps({"game": game.id, "products": what, "exit": code,
                                   "seconds": round(seconds, 2), "files": files}, ensure_ascii=False))
        if code == 0:
            show.summary(stamp(f"{game.id}: built {', '.join(what)} in {seconds:.1f} s"))
        else:
            show.error(stamp(f"{game.id}: not built (exit {code}); the last good files stay"))
        if on_build is not None:
            on_build(game, what, code)
        return code

    def reimport(game: Watched, sheet: Path, args: list[str]) -> None:
        """`forge import` of a saved sheet, in a process of its own like a build; the card
        file it writes is a save of its own, which rebuilds what it feeds."""
        sys.stdout.flush()
        done = subprocess.run([sys.executable, "-m", "forge", "import", *args, "--format", show.format.value,
                               *(["-q"] if show.quiet else []), *(["-v"] if show.verbose else [])],
                              text=True, stdout=subprocess.PIPE if show.json else None)
        if show.json:
            result = json.loads(done.stdout) if done.stdout.strip() else {}
            typer.echo(json.dumps({"game": game.id, "import": display_path(sheet), "exit": done.returncode,
                                   **result}, ensure_ascii=False))
        if done.returncode:
            show.error(stamp(f"{game.id}: {display_path(sheet)} not imported (exit {done.returncode})"))

    show.summary(stamp("watching " + ", ".join(display_path(f) for f in folders) + " (Ctrl-C to stop)"))
    for changed in saves(folders, stop, debounce):
        if not changed:  # the watcher is listening: the initial build
            for game in games:
                if build(game, products) == USAGE:  # a wrong option: every rebuild would fail too
                    raise UsageError("the build was refused (see above); nothing to watch")
            continue
        for game, sheet, args in imports(games, changed):
            show.summary(stamp(f"{game.id}: {display_path(sheet)} changed: importing it"))
            reimport(game, sheet, args)
        for game, (what, why) in plan(games, changed, products, lang, out).items():
            show.summary(stamp(f"{game.id}: {file_list(why)} changed"))
            build(game, what)


def saves(folders: list[Path], stop: threading.Event | None = None,
          debounce: int = 400) -> Iterator[list[Path]]:
    """An empty list as soon as the watcher listens, then each batch of saved files (sorted),
    until `stop` is set; Ctrl-C raises KeyboardInterrupt. The first work starts on the empty
    list, so a save made during it is the next batch, not lost. A batch ends `step` (50 ms)
    after its last save, or `debounce` ms after its first."""
    from watchfiles import watch

    first = True
    # With `yield_on_timeout` the loop gets an empty batch when all is quiet: the first one
    # says the watcher is running; later ones are skipped.
    for changes in watch(*folders, stop_event=stop, debounce=debounce, step=50, rust_timeout=250,
                         yield_on_timeout=True, raise_interrupt=True):
        if first:
            first = False
            yield []
        elif changes:
            yield sorted({Path(path) for _, path in changes})


def file_list(paths: list[Path]) -> str:
    """The first three of `paths`, for a log line."""
    return ", ".join(display_path(p) for p in paths[:3]) + (" ..." if len(paths) > 3 else "")


@app.command()
def watch(
    games: Optional[list[str]] = typer.Argument(None, help="Game ids or folders; default: every game.",
                                                autocompletion=complete_games),
    lang: Optional[str] = typer.Option(None, "--lang", help="Languages, comma-separated; default: as forge build."),
    what: Optional[str] = typer.Option(None, "--what", autocompletion=complete_products,
                                       help="Products, comma-separated; default: every default "
                                       "product of forge build."),
    out: Path = typer.Option(Path("output"), "--out", help="Output folder: OUT/<game>/<lang>/."),
    paper: Paper = typer.Option(Paper.a4_letter, "--paper", case_sensitive=False,
                                help="PnP paper sizes: a4, letter, or both."),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Build, then rebuild on every save what the saved files feed (card data, layouts,
    rulebook and cheat-sheet templates). Findings are printed and the last good files stay.
    Ctrl-C stops (exit 130)."""
    show = Output(format, quiet, verbose)
    products = split_names(what, "--what") if what is not None else list(DEFAULT_PRODUCTS)
    check_products(products)
    check_output(out, "--out", folder=True)
    roots = resolve_games(games)
    try:
        watch_games(roots, products, out, lang, paper.value, show=show)
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
