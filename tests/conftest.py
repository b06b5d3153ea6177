"""Shared fixtures: the built-in games, throwaway copies of them, their products built once per
session, and the CLI run as a user runs it (a fresh process) or in this process."""
from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable
from unittest import mock

import pytest

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "cards"
GAMES = ("love_formula", "rules_does_not_exist", "anima_shadow_of_omega")


def pytest_configure(config):
    """The run's own forge cache (compiled templates, hyphenation patterns), shared by the CLI
    subprocesses: tests make throwaway templates that should not pile up in the user's cache.
    And pypdf reading text back parses each font of a file once (`pdfread.parse_fonts_once`)."""
    from pdfread import parse_fonts_once
    parse_fonts_once()
    if "FORGE_CACHE" not in os.environ:
        config._forge_cache = tempfile.mkdtemp(prefix="forge-cache-")
        os.environ["FORGE_CACHE"] = config._forge_cache


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """With PYTHONDONTWRITEBYTECODE set, no process would ever write a .pyc file of this
    checkout: each of the hundred forge processes the tests start would compile forge from
    source (about 0.1 CPU s each), and pytest would rewrite and compile every test module again
    on each run (about 2 CPU s). So forge is compiled once, and pytest keeps the test modules it
    collects, in the __pycache__ folders git ignores."""
    if not sys.dont_write_bytecode:
        return (yield)
    import compileall
    compileall.compile_dir(ROOT / "forge", quiet=2)
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = True


def pytest_unconfigure(config):
    if getattr(config, "_forge_cache", None):
        shutil.rmtree(config._forge_cache, ignore_errors=True)
        os.environ.pop("FORGE_CACHE", None)


@pytest.fixture
def game_copy(tmp_path):
    """Copy a built-in game folder into tmp_path (the folder keeps the game's id as its name)."""
    def copy(game_id: str) -> Path:
        target = tmp_path / game_id
        shutil.copytree(CARDS / game_id, target)
        return target
    return copy


def run_forge(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run the `forge` command in a fresh interpreter, exactly as a user would (`env` adds to
    the environment)."""
    return subprocess.run([sys.executable, "-m", "forge", *args], cwd=cwd, env=_forge_env(env),
                          capture_output=True, text=True, timeout=300)


#: Imports each module named on its command line with none of forge's modules loaded before it
#: and prints whether it failed (see `modules_imported_alone`).
_ALONE = """
import importlib, sys, traceback
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "forge" or m.startswith("forge.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except BaseException:
        print(name, repr(traceback.format_exc()))
    else:
        print(name, repr(""))
"""


PLUGIN = ROOT / "tests" / "plugin_game"
#: The example games whose rules are data (examples/cards), played by the `rules` engine.
RULES_GAMES = ("chumaky", "skydachka", "smakolyky")


def scenario_match(tmp_path: Path, game_id: str, text: str):
    """The match a scenario's YAML `text` sets up, written where `load_scenario` finds its game
    (a folder named after it), for tests that play on from a known position."""
    from forge.rules.scenario import build
    from forge.scenario import load_scenario
    folder = tmp_path / game_id
    folder.mkdir(exist_ok=True)
    (folder / "position.yaml").write_text(text, encoding="utf-8")
    return build(load_scenario(folder / "position.yaml"))[0]


def sampled(game, per_deck: int):
    """`game` with only the first `per_deck` designs of each deck (the cards wearing one back),
    for claims about how a product draws or files each design, which a few designs of every
    deck show as well as all of them (products do not read the manifest's counts)."""
    import dataclasses
    from collections import Counter

    from forge.render.layout import back_key
    taken: Counter = Counter()
    kept = []
    for card in game.cards:
        deck = back_key(game, card)
        if taken[deck] < per_deck:
            taken[deck] += 1
            kept.append(card)
    return dataclasses.replace(game, cards=tuple(kept))


def engine_and_tables(game_id: str):
    """(engine, prepared tables with default options) of a built-in game, an example game whose
    rules are data, or the example plugin game (`high_card`, 3 tricks of 3 cards)."""
    from forge.model import load_game
    from forge.rules import get_engine
    if game_id == "high_card":
        sys.path.insert(0, str(PLUGIN))
        try:
            import high_card_engine
        finally:
            sys.path.remove(str(PLUGIN))
        game, _ = load_game(PLUGIN / "cards" / "high_card")
        return high_card_engine.ENGINE, high_card_engine.ENGINE.prepare(game, {"tricks": 3, "hand": 3}, None)
    engine = get_engine("rules" if game_id in RULES_GAMES else game_id)
    game, _ = load_game((ROOT / "examples" / "cards" if game_id in RULES_GAMES else CARDS) / game_id)
    return engine, engine.prepare(game, {})


def modules_imported_alone(package: str) -> dict[str, str]:
    """Each module of the forge package `package` imported on its own, as a fresh interpreter
    imports it, so that none leans on another having been imported first: {module: traceback,
    or '' when it imported}. One interpreter serves them all: before each module every one of
    forge's is forgotten (an import cycle among them fails as it would in a fresh interpreter),
    while the libraries they use stay loaded."""
    folder = ROOT.joinpath(*package.split("."))
    modules = [f"{package}.{f.stem}" for f in sorted(folder.glob("*.py")) if f.stem != "__init__"]
    done = subprocess.run([sys.executable, "-c", _ALONE, *modules], cwd=ROOT, env=_forge_env(None),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    import ast
    imported = {name: ast.literal_eval(said) for name, said in (line.split(" ", 1) for line in done.stdout.splitlines())}
    assert list(imported) == modules, done.stdout
    return imported


_forks = None


def forge_forked(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None,
                 limits: dict[int, tuple[int, int]] | None = None) -> subprocess.CompletedProcess:
    """`run_forge` without a new interpreter's start-up (about half a CPU second): forge runs
    in a process of its own, forked from a server that imported forge's commands once and
    never loads a game (multiprocessing's fork server), so each run starts with forge's caches
    empty, under its own kernel limits (`limits`: resource -> (soft, hard), set in the child),
    with its exit code, stdout and stderr as `run_forge` gives them. For tests of forge's
    words and files; a test of the process itself (signals, Ctrl-C, a terminal, what a fresh
    interpreter imports or finds on PYTHONPATH) runs `run_forge`. Without fork (Windows, where
    there are no such limits either) it is `run_forge`."""
    import multiprocessing
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return run_forge(*args, cwd=cwd, env=env)
    global _forks
    if _forks is None:
        import atexit
        from multiprocessing import forkserver

        from forge.cli import COMMANDS, warm
        _forks = multiprocessing.get_context("forkserver")
        _forks.set_forkserver_preload(["conftest", *warm._MODULES, "forge.cli.warm",
                                       *(f"forge.cli.{module}" for module, _ in COMMANDS.values())])
        # The server is a fresh interpreter that takes its sys.path from PYTHONPATH (Python 3.11
        # ignores the one multiprocessing hands it) and skips a module it cannot import without
        # a word: without this checkout's tests folder there, each child imported conftest, and
        # pytest with it, itself (a tenth of a CPU second a run).
        with mock.patch.dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")])):
            forkserver.ensure_running()
        # stopped and waited for at exit, so the run's CPU time (`/usr/bin/time`) counts it
        atexit.register(forkserver._forkserver._stop)
    with tempfile.TemporaryDirectory(prefix="forge-forked-") as out:
        said = (Path(out) / "stdout", Path(out) / "stderr")
        child = _forks.Process(target=_forge_child,
                               args=(args, str(cwd), _forge_env(env), limits or {}, said))
        child.start()
        child.join(300)
        if child.exitcode is None:
            child.kill()
            child.join()
            raise subprocess.TimeoutExpired(["forge", *args], 300)
        return subprocess.CompletedProcess(["forge", *args], child.exitcode,
                                           *(p.read_text() if p.exists() else "" for p in said))


def _forge_child(args, cwd, env, limits, said) -> None:
    """`python -m forge ARGS` in the forked child: its folder, environment, limits, and its
    stdout and stderr written to the files `said` (the exit code is main's `SystemExit`). It
    ends as an interpreter ends: threads joined, then exit handlers (loky stops its workers)."""
    import atexit
    import resource
    import threading
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    for fd, path in zip((1, 2), said):
        os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
    for what, limit in limits.items():
        resource.setrlimit(what, limit)
    sys.argv = [str(ROOT / "forge" / "__main__.py"), *args]
    from forge.cli import main
    try:
        main()
    finally:
        threading._shutdown()
        atexit._run_exitfuncs()


def _forge_env(env: dict[str, str] | None) -> dict[str, str]:
    """The environment forge runs in: this one, plus `env`, with this checkout's forge."""
    env = {**os.environ, **(env or {}), "PYTHONPATH": str(ROOT)}
    env.pop("FORGE_DEBUG", None)
    return env


class _Forge:
    """`forge`'s entry point as click's CliRunner invokes a command: the arguments through the
    app, a user's error reported as `forge.cli.main` reports it (message and exit code)."""

    name = "forge"

    @staticmethod
    def main(args, prog_name: str, **extra) -> None:
        from forge.cli.app import app, reported
        sys.exit(reported(lambda: app(args=list(args), prog_name=prog_name)))


def forge_in_process(*args: str, cwd: Path = ROOT,
                     env: dict[str, str | None] | None = None) -> subprocess.CompletedProcess:
    """`run_forge` in this process (click's CliRunner, which typer's wraps): the same exit code,
    stdout and stderr without a fresh interpreter's start-up and imports (about half a CPU second
    a run); `env` sets (None: removes) variables for the run. For forge's words and files; what
    only a process of its own shows (signals, limits, the installed script, caches read back from
    disk) runs `run_forge`."""
    from click.testing import CliRunner
    with contextlib.chdir(cwd):
        result = CliRunner().invoke(_Forge(), list(args), env={"FORGE_DEBUG": None, **(env or {})},
                                    prog_name="forge")
    return subprocess.CompletedProcess(["forge", *args], result.exit_code, result.stdout, result.stderr)


@dataclass(frozen=True)
class Made:
    """One product of a built-in game as `forge build` writes it: the loaded game, the folder
    OUT/<game>/<lang>, the files written (as `build_game` lists them) and the progress steps
    reported, in order."""

    game: Any
    folder: Path
    paths: tuple[Path, ...]
    steps: tuple[int, ...]

    def files(self) -> dict[str, bytes]:
        """{name relative to the folder: bytes}, as the product function returned them."""
        return {str(p.relative_to(self.folder)): p.read_bytes() for p in self.paths}


class Products:
    """The built-in games' products, each made once per test session and read back by every
    test that asks for it (making them again was most of what those tests cost). Each game is
    loaded once, so forge's own per-game caches (the rulebook a booklet reuses) are shared too.
    The files are the session's to read: at its end `verify` fails on any file a test changed,
    added or removed; a test that changes a game or its products makes its own."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._games: dict[str, Any] = {}
        self._made: dict[tuple, Any] = {}
        self._digests: dict[Path, str] = {}

    def game(self, game_id: str):
        """The built-in game, loaded once (read it, do not change it)."""
        if game_id not in self._games:
            from forge.model import load_game
            game, findings = load_game(CARDS / game_id)
            assert game is not None and not findings, findings
            self._games[game_id] = game
        return self._games[game_id]

    def build(self, game_id: str, product: str, **options) -> Made:
        """`build_game(game, [product], BuildOptions(**options), OUT)`, into a folder of its own
        (a cheat sheet or summary that `once` made is not made again: `_sheet`)."""
        from forge.products import BuildOptions, build_game
        from forge.rulebook import products as books
        key = ("build", game_id, product, BuildOptions(**options))
        if key not in self._made:
            steps: list[int] = []
            out = self.root / f"{len(self._made)}-{product}"
            game = self.game(game_id)
            with mock.patch.object(books, "build_cheatsheet", self._sheet(books.build_cheatsheet, game_id)), \
                    mock.patch.object(books, "build_summary", self._sheet(books.build_summary, game_id)):
                paths = build_game(game, [product], BuildOptions(**options, progress=steps.append), out)
            self._digests.update((p, _digest(p)) for p in out.rglob("*") if p.is_file())
            self._made[key] = Made(game, out / game_id / key[3].lang, tuple(paths), tuple(steps))
        return self._made[key]

    def _sheet(self, make: Callable, game_id: str) -> Callable:
        """`make` (a one-page sheet) as a product calls it, the sheet made in memory (`once`)
        where it is the same call: the session's loaded game, its language, A4."""
        def sheet(game, lang: str, paper: str = "a4"):
            if game is self.game(game_id) and paper == "a4":
                return self.once(make, game_id, lang)
            return make(game, lang, paper=paper)
        return sheet

    def rulebook(self, game_id: str, lang: str):
        """The rulebook (A5) as `forge build` makes it: forge builds it once per loaded game and
        language, for the rulebook and booklet products and this alike."""
        from forge.rulebook.products import rulebook_for
        return rulebook_for(self.game(game_id), lang, "a5")

    def once(self, make: Callable, game_id: str, *args) -> Any:
        """`make(game, *args)`, made once per session (a rulebook or sheet built in memory)."""
        key = (make, game_id, args)
        if key not in self._made:
            self._made[key] = make(self.game(game_id), *args)
        return self._made[key]

    def verify(self) -> None:
        now = {p: _digest(p) for p in self.root.rglob("*") if p.is_file()}
        changed = sorted(str(p.relative_to(self.root)) for p in now.keys() | self._digests.keys()
                         if now.get(p) != self._digests.get(p))
        assert not changed, f"a test changed the session's products: {changed}"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="session")
def products(tmp_path_factory):
    """The built-in games' products, made once per session (see `Products`)."""
    made = Products(tmp_path_factory.mktemp("products"))
    yield made
    made.verify()


def tree_digest(folder: Path) -> str:
    """One hash over every file's name and bytes: equal digests mean nothing was touched."""
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(folder)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()
