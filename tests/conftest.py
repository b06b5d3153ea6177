"""Shared fixtures: the built-in games, throwaway copies of them, and the CLI run as a user runs it."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "cards"
GAMES = ("love_formula", "rules_does_not_exist", "anima_shadow_of_omega")


def pytest_configure(config):
    """The run's own forge cache (compiled templates, hyphenation patterns), shared by the CLI
    subprocesses: tests make throwaway templates that should not pile up in the user's cache."""
    if "FORGE_CACHE" not in os.environ:
        config._forge_cache = tempfile.mkdtemp(prefix="forge-cache-")
        os.environ["FORGE_CACHE"] = config._forge_cache


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


def run_forge(*args: str, cwd: Path = ROOT, preexec_fn=None,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run the `forge` command in a fresh interpreter, exactly as a user would (`preexec_fn`
    runs in the child before forge starts: resource limits; `env` adds to the environment)."""
    return subprocess.run([sys.executable, "-m", "forge", *args], cwd=cwd, env=_forge_env(env),
                          capture_output=True, text=True, timeout=300, preexec_fn=preexec_fn)


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


def tree_digest(folder: Path) -> str:
    """One hash over every file's name and bytes: equal digests mean nothing was touched."""
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(folder)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()
