"""`forge build`: print-and-play sheets, print-shop files (and rulebooks) for checked games."""
from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Optional

import typer

from .. import render  # noqa: F401  (registers pnp, printshop, png)
from .. import rulebook  # noqa: F401  (registers rulebook, rulebook-booklet, cheatsheet)
from ..build import DEFAULT_PRODUCTS, BuildOptions, build_game, check_products
from ..check import check_game
from ..errors import FindingsError, UsageError
from .app import app, check_output, resolve_games, split_names

#: Largest --back-offset, mm: printers shift backs by a few millimetres; 20 mm is more than any
#: does, and more would push cards into the sheet's unprintable margin.
MAX_BACK_OFFSET = 20.0


def _pair(value: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise UsageError(f"--back-offset takes X,Y in millimetres (got {value!r})") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET for v in (x, y)):
        raise UsageError(f"--back-offset: X and Y are each between -{MAX_BACK_OFFSET:g} and "
                         f"{MAX_BACK_OFFSET:g} mm (got {value!r})")
    return x, y


def _interactive() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")


@app.command()
def build(
    games: Optional[list[str]] = typer.Argument(None, help="Game ids or folders; default: every game."),
    lang: Optional[str] = typer.Option(None, "--lang", help="Language (uk, en ...); default: uk, "
                                       "or the game's first locale."),
    paper: str = typer.Option("a4,letter", "--paper", help="Paper sizes: a4, letter, or both: PnP "
                              "sheets in each; the booklet and cheat sheet on the first."),
    what: Optional[str] = typer.Option(None, "--what", help="Products, comma-separated "
                                       "(pnp, printshop, png, ...); default: every default product."),
    out: Path = typer.Option(Path("output"), "--out", help="Output folder: OUT/<game>/<lang>/."),
    duplex: str = typer.Option("long", "--duplex", help="PnP backs for long-edge or short-edge duplex."),
    back_offset: str = typer.Option("0,0", "--back-offset", help="Shift back pages by X,Y mm "
                                    f"(each within ±{MAX_BACK_OFFSET:g})."),
    home: bool = typer.Option(False, "--home", help="PnP without bleed, for cutting with scissors "
                              "(pnp-home-<paper>.pdf)."),
    alignment_page: bool = typer.Option(False, "--alignment-page", help="Add a duplex alignment test sheet."),
    backs_first: bool = typer.Option(False, "--backs-first", help="Print-shop file: each back before its front."),
    rgb: bool = typer.Option(False, "--rgb", help="Print-shop files in RGB for screens "
                             "(printshop-rgb.pdf ...) instead of CMYK for a press."),
    proof: bool = typer.Option(False, "--proof", help="Print each card's id on its face (PnP and "
                               "print-shop files), for proofreading."),
) -> None:
    """Check each game, then write its PnP sheets, print-shop file, rulebook, booklet and cheat
    sheet into OUT/<game>/<lang>/ (a game with findings is refused, exit 1)."""
    papers = tuple(split_names(paper.lower(), "--paper"))
    for p in papers:
        if p not in ("a4", "letter"):
            raise UsageError(f"unknown paper {p!r} (use a4, letter)")
    if duplex not in ("long", "short"):
        raise UsageError(f"--duplex is long or short (got {duplex!r})")
    products = split_names(what, "--what") if what is not None else list(DEFAULT_PRODUCTS)
    check_products(products)
    offset = _pair(back_offset)
    check_output(out, "--out", folder=True)
    roots = resolve_games(games)
    loaded = []
    findings = []
    for root in roots:
        game, found = check_game(root)
        findings += found
        if game is not None:
            loaded.append(game)
    if findings:
        raise FindingsError(findings)
    languages = {game.id: lang or ("uk" if "uk" in game.manifest.locales else game.manifest.default_locale)
                 for game in loaded}
    for game in loaded:  # every game's language is known good before the first is built
        if languages[game.id] not in game.manifest.locales:
            raise UsageError(f"{game.id} has no locale {languages[game.id]!r} "
                             f"(it has {', '.join(game.manifest.locales)})")
    written: list[Path] = []
    progress = None
    if _interactive():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
        progress = Progress(TextColumn("{task.description:<40}"), BarColumn(), MofNCompleteColumn(),
                            transient=True, console=None)
        progress.start()
        task = progress.add_task("forge build", total=len(loaded) * len(products))

    def done(name: str) -> None:  # called while `game` below is being built
        progress.update(task, description=f"{game.id}/{languages[game.id]}: {name}", advance=1)

    try:
        for game in loaded:
            options = BuildOptions(lang=languages[game.id], paper=papers, duplex=duplex,  # type: ignore[arg-type]
                                   back_offset=offset, home=home,
                                   alignment_page=alignment_page, backs_first=backs_first,
                                   rgb=rgb, proof=proof)
            written += build_game(game, products, options, out,
                                  done if progress is not None else None)
    finally:
        if progress is not None:
            progress.stop()
    for path in written:
        typer.echo(str(path))
