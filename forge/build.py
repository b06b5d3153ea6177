"""`build`: turn checked games into files under `output/<game>/<lang>/`.

Each kind of output (pnp sheets, print-shop file, rulebook, cheat sheet ...) is a *product*: a
function registered with `@product(name)` that draws one game in one language and returns the
files it made as {file name: bytes}. `build_game()` runs the products asked for, then writes all
their files through `write_files`: every file of a game or none, so a failed build never leaves a
half-written PDF, or a mix of old and new files, where good ones stood.
"""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Literal

from .errors import ForgeError, UsageError
from .files import write_files
from .model import Game

#: Options every product receives; products read the ones that concern them.
@dataclass(frozen=True)
class BuildOptions:
    lang: str = "uk"
    paper: tuple[str, ...] = ("a4", "letter")
    duplex: Literal["long", "short"] = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, x and y, added to back pages
    home: bool = False  # PnP without bleed, for scissors
    alignment_page: bool = False
    backs_first: bool = False  # print-shop page order
    booklet_paper: str = "a5"
    rgb: bool = False  # print-shop files in RGB for screens (default: DeviceCMYK for a press)
    proof: bool = False  # print each card's id on its face (PnP and print-shop), for proofing


Product = Callable[[Game, BuildOptions], dict[str, bytes]]
PRODUCTS: dict[str, Product] = {}
#: Products built when none are named.
DEFAULT_PRODUCTS: list[str] = []


def product(name: str, default: bool = True) -> Callable[[Product], Product]:
    """Register a product under `name` (the value `--what` takes)."""
    def register(fn: Product) -> Product:
        PRODUCTS[name] = fn
        if default:
            DEFAULT_PRODUCTS.append(name)
        return fn
    return register


def check_products(names: Iterable[str]) -> None:
    """Refuse a product name nothing registered (before any work is done)."""
    for name in names:
        if name not in PRODUCTS:
            raise UsageError(f"unknown product {name!r} (known: {', '.join(PRODUCTS)})")


def build_game(game: Game, what: Iterable[str], options: BuildOptions, out: Path,
               done: Callable[[str], None] | None = None) -> list[Path]:
    """Run the named products for one game (calling `done(name)` after each, for progress);
    every file is made before any is written, and then all are written or none."""
    what = list(what)
    check_products(what)
    if options.lang not in game.manifest.locales:
        raise UsageError(f"{game.id} has no locale {options.lang!r} (it has {', '.join(game.manifest.locales)})")
    files: dict[str, bytes] = {}
    for name in what:
        try:
            files.update(PRODUCTS[name](game, options))
        except subprocess.CalledProcessError as exc:
            raise ForgeError(_tool_failed(name, exc)) from None
        if done is not None:
            done(name)
    target = out / game.id / options.lang
    paths = {target / file_name: data for file_name, data in files.items()}
    write_files(paths)
    return list(paths)


def _tool_failed(product: str, exc: subprocess.CalledProcessError) -> str:
    """A helper program a product runs (pdftoppm for png) that fails is the user's installation,
    not a bug: name the program and quote the last line it printed."""
    said = exc.stderr.decode("utf-8", "replace") if isinstance(exc.stderr, bytes) else exc.stderr or ""
    last = said.strip().splitlines()[-1:] or ["no message"]
    return f"{product}: {exc.cmd[0]} failed with exit code {exc.returncode}: {last[0][:200]}"
