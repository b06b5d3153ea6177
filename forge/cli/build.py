"""`forge build`: print-and-play sheets, print-shop files (and rulebooks) for checked games."""
from __future__ import annotations

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
from .app import app, resolve_games


def _pair(value: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise UsageError(f"--back-offset takes X,Y in millimetres (got {value!r})") from None
    return x, y


def _interactive() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")


@app.command()
def build(
    games: Optional[list[str]] = typer.Argument(None, help="Game ids or folders; default: every game."),
    lang: Optional[str] = typer.Option(None, "--lang", help="Language (uk, en ...); default: uk, "
                                       "or the game's first locale."),
    paper: str = typer.Option("a4,letter", "--paper", help="PnP paper sizes: a4, letter, or both."),
    what: Optional[str] = typer.Option(None, "--what", help="Products, comma-separated "
                                       "(pnp, printshop, png, ...); default: every default product."),
    out: Path = typer.Option(Path("output"), "--out", help="Output folder: OUT/<game>/<lang>/."),
    duplex: str = typer.Option("long", "--duplex", help="PnP backs for long-edge or short-edge duplex."),
    back_offset: str = typer.Option("0,0", "--back-offset", help="Shift back pages by X,Y mm."),
    home: bool = typer.Option(False, "--home", help="PnP without bleed, for cutting with scissors."),
    alignment_page: bool = typer.Option(False, "--alignment-page", help="Add a duplex alignment test sheet."),
    backs_first: bool = typer.Option(False, "--backs-first", help="Print-shop file: each back before its front."),
) -> None:
    """Check each game, then write its PnP sheets, print-shop file, rulebook, booklet and cheat
    sheet into OUT/<game>/<lang>/ (a game with findings is refused, exit 1)."""
    papers = tuple(p.strip().lower() for p in paper.split(",") if p.strip())
    for p in papers:
        if p not in ("a4", "letter"):
            raise UsageError(f"unknown paper {p!r} (use a4, letter)")
    if duplex not in ("long", "short"):
        raise UsageError(f"--duplex is long or short (got {duplex!r})")
    products = [w.strip() for w in what.split(",")] if what else list(DEFAULT_PRODUCTS)
    check_products(products)
    offset = _pair(back_offset)
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
    steps = [(game, name) for game in loaded for name in products]
    written: list[Path] = []
    show = _interactive()
    progress = None
    if show:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
        progress = Progress(TextColumn("{task.description:<40}"), BarColumn(), MofNCompleteColumn(),
                            transient=True, console=None)
        progress.start()
        task = progress.add_task("forge build", total=len(steps))
    try:
        for game in loaded:
            language = lang or ("uk" if "uk" in game.manifest.locales else game.manifest.default_locale)
            options = BuildOptions(lang=language, paper=papers, duplex=duplex,  # type: ignore[arg-type]
                                   back_offset=offset, home=home,
                                   alignment_page=alignment_page, backs_first=backs_first)
            for name in products:
                if progress is not None:
                    progress.update(task, description=f"{game.id}/{language}: {name}")
                written += build_game(game, [name], options, out)
                if progress is not None:
                    progress.advance(task)
    finally:
        if progress is not None:
            progress.stop()
    for path in written:
        typer.echo(str(path))
