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
    env = {**os.environ, **(env or {}), "PYTHONPATH": str(ROOT)}
    env.pop("FORGE_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "forge", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, preexec_fn=preexec_fn)


def tree_digest(folder: Path) -> str:
    """One hash over every file's name and bytes: equal digests mean nothing was touched."""
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(folder)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()
