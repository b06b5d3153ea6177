"""The wheel works anywhere (issue 14): built from the checkout, installed with its pinned
dependencies into a fresh venv, and used from empty folders outside the checkout.

About a minute (most of it pip installing the dependencies): deselect with `-m "not packaging"`
(or `-m "not slow"`, with the other slow end-to-end tests).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import GAMES, ROOT
from pdfread import assert_fonts_embedded

pytestmark = [pytest.mark.packaging, pytest.mark.slow]

#: The checkout's folders that the wheel carries as forge/builtin/<same path> (setup.py).
BUILTIN = ("cards", "templates", "tests/scenarios")
#: What a clean clone would not hold: the tree is copied without them before building.
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "output", "build", "dist", "*.egg-info",
                                    "__pycache__", ".pytest_cache", ".hypothesis")


def run(*args: str | Path, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, f"{args}: {result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel `pip wheel .` makes, built in a copy so the checkout gets no build folders."""
    source = tmp_path_factory.mktemp("source") / "card-forge"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    dist = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", source, "-w", dist)
    (built,) = dist.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> dict[str, str]:
    """A fresh venv holding the wheel and the versions of constraints.txt: the environment
    (PATH first) in which `forge` is the installed one, with nothing of the checkout in reach.
    This environment's pip installs into it (`--python`): a pip of the venv's own would cost
    installing pip first (ensurepip, a third of the venv's cost) and is no part of forge."""
    where = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(where)
    python = where / "bin" / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", wheel, "-c", ROOT / "constraints.txt")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "FORGE_DEBUG")}
    env["PATH"] = f"{where / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    found = run(python, "-c", "import forge; print(forge.__file__)", cwd=where, env=env).stdout
    assert Path(found.strip()).is_relative_to(where), "forge comes from the venv, not the checkout"
    return env


def test_the_wheel_carries_the_built_in_project(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {n.removeprefix("forge/builtin/") for n in names if n.startswith("forge/builtin/")}
    checkout = {str(p.relative_to(ROOT)) for folder in BUILTIN for p in (ROOT / folder).rglob("*")
                if p.is_file() and "__pycache__" not in p.parts}
    assert shipped == checkout, "every file of the built-in games, their templates and scenarios"
    for name in ("templates/_common/cards/parts.j2", "templates/_common/cards/back.yaml.j2",
                 *(f"cards/{g}/game.yaml" for g in GAMES), *(f"templates/{g}/rulebook.en.md.j2" for g in GAMES)):
        assert name in shipped, name
    dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    assert dist_info.startswith("card_forge_toolkit-")
    assert f"{dist_info}/licenses/LICENSE" in names
    assert "forge/scaffold/files/game.yaml.j2" in names


def test_a_new_game_checks_and_builds_in_an_empty_folder(installed, tmp_path):
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert run("forge", "--version", cwd=tmp_path, env=installed).stdout.strip() == f"forge {version}"
    run("forge", "new", "mygame", cwd=tmp_path, env=installed)
    assert not (tmp_path / "templates" / "_common").exists(), "layouts fall back to forge's own"
    checked = run("forge", "check", "mygame", cwd=tmp_path, env=installed)
    assert "mygame: 6 cards, 0 findings" in checked.stderr
    run("forge", "build", "mygame", "--lang", "en", cwd=tmp_path, env=installed)
    out = tmp_path / "output" / "mygame" / "en"
    shop = PdfReader(out / "printshop.pdf")
    assert len(shop.pages) == 2 * 6, "a front and a back per card, copies included"
    rulebook = PdfReader(out / "rulebook.pdf")
    assert "Mygame" in " ".join(page.extract_text() for page in rulebook.pages)
    assert_fonts_embedded(rulebook)
    assert len(PdfReader(out / "pnp-a4.pdf").pages) >= 2


def test_a_built_in_game_builds_in_an_empty_folder_as_in_the_checkout(installed, tmp_path, products):
    """The wheel's love_formula gives the checkout's bytes: its cards, layouts, the common
    templates and the scenarios its rulebook quotes all came along."""
    here = tmp_path / "empty"
    here.mkdir()
    run("forge", "build", "love_formula", "--what", "pnp,rulebook", "--lang", "en", cwd=here, env=installed)
    reference = {name: data for what in ("pnp", "rulebook")
                 for name, data in products.build("love_formula", what, lang="en").files().items()}
    built = sorted(p.name for p in (here / "output" / "love_formula" / "en").iterdir())
    assert built == ["pnp-a4.pdf", "pnp-letter.pdf", "rulebook.pdf"] == sorted(reference)
    for name in built:
        assert (here / "output" / "love_formula" / "en" / name).read_bytes() == reference[name], name
    assert len(PdfReader(here / "output" / "love_formula" / "en" / "pnp-a4.pdf").pages) > 10
