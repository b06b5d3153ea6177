"""The products of a build: turn checked games into files under `output/<game>/<lang>/`.

Each kind of output (pnp sheets, print-shop file, rulebook, cheat sheet ...) is a *product*: a
function registered with `@product(name)` that draws one game in one language and returns the
files it made as {file name: bytes}. `build_game()` runs the products asked for, then writes all
their files into `OUT/<game>/<lang>/` through `write_folder`, as one change: a failed, interrupted
or killed build never leaves a half-written PDF, or a mix of old and new files, where good ones
stood, and the files of products not built this time stay.

Products are listed in `CATALOGUE` with the module that registers them, imported when a product
is first run: a `--what pnp` build never imports the rulebook's platypus, markdown-it and pypdf.

Progress: a long product registers `steps` (how many it will report) and calls
`BuildOptions.advance` as it goes (per card, sheet or page); any other product counts as one
step, reported when it ends. `total_steps()` adds them up, so a caller knows the total first.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Callable, Iterable, Literal

from .errors import UsageError
from .files import write_folder
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
    backs_first: bool = False  # print-shop page order: each back before its front (dtc: always)
    booklet_paper: str = "a5"
    rgb: bool = False  # print-shop files in RGB for screens (default: DeviceCMYK for a press)
    proof: bool = False  # print each card's id on its face (PnP and print-shop), for proofing
    preset: str = "generic"  # print-on-demand vendor (forge.render.presets): PNGs, print-shop files
    #: Where the Tabletop Simulator images will be uploaded (http, https or file URL): the saved
    #: object names each image by this URL plus its file name; "" names the files alone.
    base_url: str = ""
    #: Called with the number of steps done (see the module's docstring); not an option of
    #: the output, so never compared, hashed or shown.
    progress: Callable[[int], None] | None = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        if self.base_url and not self.base_url.startswith(("https://", "http://", "file:///")):
            raise UsageError(f"--base-url {self.base_url!r}: give the URL of the folder the images "
                             f"are uploaded to, starting with https://, http:// or file:///")

    def advance(self, n: int = 1) -> None:
        """Report `n` more steps done to `progress`, if anyone listens."""
        if self.progress is not None:
            self.progress(n)


Product = Callable[[Game, BuildOptions], dict[str, bytes]]
Steps = Callable[[Game, BuildOptions], int]
#: Every product, in `--what` order: the module whose `@product` registers it, and whether a
#: build with no `--what` makes it.
CATALOGUE: dict[str, tuple[str, bool]] = {
    "pnp": ("forge.render.sheets", True),
    "printshop": ("forge.render.sheets", True),
    "png": ("forge.render.sheets", False),
    "tts": ("forge.render.tts", False),
    "mockup": ("forge.render.mockup", False),
    "rulebook": ("forge.rulebook.products", True),
    "rulebook-booklet": ("forge.rulebook.products", True),
    "cheatsheet": ("forge.rulebook.products", True),
    "summary": ("forge.rulebook.products", True),
}
#: Products built when none are named.
DEFAULT_PRODUCTS: list[str] = [name for name, (_, default) in CATALOGUE.items() if default]
#: The products registered so far (their modules imported), by name.
PRODUCTS: dict[str, Product] = {}
#: How many steps each product that reports progress reports, by product name.
STEPS: dict[str, Steps] = {}


def product(name: str, steps: Steps | None = None) -> Callable[[Product], Product]:
    """Register the product `name` of `CATALOGUE` (the value `--what` takes); `steps(game,
    options)`: how many steps it reports through `BuildOptions.advance`, for one that reports
    progress."""
    def register(fn: Product) -> Product:
        if CATALOGUE.get(name, ("",))[0] != fn.__module__:
            raise ValueError(f"product {name!r} of {fn.__module__} is not in forge.products.CATALOGUE")
        PRODUCTS[name] = fn
        if steps is not None:
            STEPS[name] = steps
        return fn
    return register


def _registered(name: str) -> Product:
    """The product `name`, its module imported first."""
    if name not in PRODUCTS:
        import_module(CATALOGUE[name][0])
    return PRODUCTS[name]


def total_steps(game: Game, what: Iterable[str], options: BuildOptions) -> int:
    """How many steps `build_game` reports through `options.progress` for these products."""
    total = 0
    for name in what:
        _registered(name)
        total += STEPS[name](game, options) if name in STEPS else 1
    return total


def check_products(names: Iterable[str]) -> None:
    """Refuse a product name nothing registered (before any work is done)."""
    for name in names:
        if name not in CATALOGUE:
            raise UsageError(f"unknown product {name!r} (known: {', '.join(CATALOGUE)})")


def build_game(game: Game, what: Iterable[str], options: BuildOptions, out: Path,
               done: Callable[[str, list[str]], None] | None = None) -> list[Path]:
    """Run the named products for one game, calling `done(name, file_names)` after each (for
    listings; progress goes to `options.progress`); every file is made before any is written,
    then all are written or none."""
    what = list(what)
    check_products(what)
    if options.lang not in game.manifest.locales:
        raise UsageError(f"{game.id} has no locale {options.lang!r} (it has {', '.join(game.manifest.locales)})")
    files: dict[str, bytes] = {}
    for name in what:
        made = _registered(name)(game, options)
        if name not in STEPS:
            options.advance()
        files.update(made)
        if done is not None:
            done(name, list(made))
    return write_folder(out / game.id / options.lang, files)
