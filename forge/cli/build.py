"""`forge build`: print-and-play sheets, print-shop files (and rulebooks) for checked games."""
from __future__ import annotations

import math
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from ..products import CATALOGUE, DEFAULT_PRODUCTS, BuildOptions, build_game, check_products, total_steps
from ..check import check_game
from ..errors import FindingsError, UsageError, display_path
from ..render import presets
from .app import (Format, FormatOption, Output, QuietOption, VerboseOption, app, check_output,
                  complete_games, complete_list, counted, resolve_games, split_names)

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


class Paper(str, Enum):
    """--paper: one size, or both (PnP sheets in each; the booklet and cheat sheet on the first)."""

    a4 = "a4"
    letter = "letter"
    a4_letter = "a4,letter"
    letter_a4 = "letter,a4"


class Duplex(str, Enum):
    long = "long"
    short = "short"


#: --preset: the print-on-demand vendors of forge.render.presets, and generic.
Vendor = Enum("Vendor", {name: name for name in presets.PRESETS}, type=str)  # type: ignore[misc]


def complete_products(incomplete: str) -> list[str]:
    """Shell completion of --what: every product, comma-separated."""
    return complete_list(list(CATALOGUE), incomplete)


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"


@app.command()
def build(
    games: Optional[list[str]] = typer.Argument(None, help="Game ids or folders; default: every game.",
                                                autocompletion=complete_games),
    lang: Optional[str] = typer.Option(None, "--lang", help="Languages, comma-separated (uk, en, "
                                       "uk,en ...); default: uk, or the game's first locale."),
    paper: Paper = typer.Option(Paper.a4_letter, "--paper", case_sensitive=False,
                                help="Paper sizes: a4, letter, or both: PnP sheets in each; the "
                                "booklet and cheat sheet on the first."),
    what: Optional[str] = typer.Option(None, "--what", autocompletion=complete_products,
                                       help=f"Products, comma-separated ({', '.join(CATALOGUE)}); "
                                       "default: every default product."),
    out: Path = typer.Option(Path("output"), "--out", help="Output folder: OUT/<game>/<lang>/."),
    duplex: Duplex = typer.Option(Duplex.long, "--duplex", help="PnP backs for long-edge or short-edge duplex."),
    back_offset: str = typer.Option("0,0", "--back-offset", help="Shift back pages by X,Y mm "
                                    f"(each within ±{MAX_BACK_OFFSET:g})."),
    home: bool = typer.Option(False, "--home", help="PnP without bleed, for cutting with scissors "
                              "(pnp-home-<paper>.pdf)."),
    alignment_page: bool = typer.Option(False, "--alignment-page", help="Add a duplex alignment test sheet."),
    backs_first: bool = typer.Option(False, "--backs-first", help="Print-shop files: each back before its "
                                     "front (--preset dtc always orders them so)."),
    rgb: bool = typer.Option(False, "--rgb", help="Print-shop files in RGB for screens "
                             "(printshop-rgb.pdf ...) instead of CMYK for a press."),
    base_url: str = typer.Option("", "--base-url", help="--what tts: the URL of the folder the images "
                                 "are uploaded to; the saved object then names every image by its URL."),
    proof: bool = typer.Option(False, "--proof", help="Print each card's id on its face (PnP and "
                               "print-shop files), for proofreading."),
    preset: Vendor = typer.Option(Vendor[presets.GENERIC], "--preset", case_sensitive=False,
                                  help="PNGs and print-shop files for a print-on-demand vendor: "
                                  "tgc (The Game Crafter), mpc (MakePlayingCards), dtc "
                                  "(DriveThruCards): its bleed, pixel size, file split and page "
                                  "order, in files of their own (docs/print-presets.md)."),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Check each game, then write its PnP sheets, print-shop file, rulebook, booklet and cheat
    sheet into OUT/<game>/<lang>/ (a game with findings is refused, exit 1). A line per game
    goes to stderr (a line per file with -v); with --format json, stdout is the list of files
    written (product, game, lang, path, bytes)."""
    show = Output(format, quiet, verbose)
    papers = tuple(paper.value.split(","))
    products = split_names(what, "--what") if what is not None else list(DEFAULT_PRODUCTS)
    check_products(products)
    if base_url and "tts" not in products:
        raise UsageError("--base-url names where the Tabletop Simulator images go: it needs --what tts")
    offset = _pair(back_offset)
    check_output(out, "--out", folder=True)
    roots = resolve_games(games)
    loaded = []
    findings = []
    for root in roots:
        game, found = check_game(root, typeset=False)  # its own layouts find the rest
        findings += found
        if game is not None:
            loaded.append(game)
    if findings:
        raise FindingsError(findings)
    asked = split_names(lang, "--lang") if lang is not None else None
    languages = {game.id: asked or ["uk" if "uk" in game.manifest.locales else game.manifest.default_locale]
                 for game in loaded}
    for game in loaded:  # every game's languages are known good before the first is built
        for each in languages[game.id]:
            if each not in game.manifest.locales:
                raise UsageError(f"{game.id} has no locale {each!r} "
                                 f"(it has {', '.join(game.manifest.locales)})")
    jobs = [(game, BuildOptions(lang=each, paper=papers, duplex=duplex.value,  # type: ignore[arg-type]
                                back_offset=offset, home=home, alignment_page=alignment_page,
                                backs_first=backs_first, rgb=rgb, proof=proof, preset=preset.value,
                                base_url=base_url))
            for game in loaded for each in languages[game.id]]
    written: list[dict] = []
    said: list[str] = []  # after the bar: a line written while it is drawn would stick to it
    total = sum(total_steps(game, products, options) for game, options in jobs)
    with show.progress(total, "forge build") as bar:
        for game, options in jobs:
            files = _build(game, products, replace(options, progress=bar.advance), out, bar)
            said += [f"{f['path']}  {_size(f['bytes'])}  ({f['product']})" for f in files if show.verbose]
            said.append(f"{game.id}/{options.lang}: {counted(len(files), 'file')}, "
                        f"{_size(sum(f['bytes'] for f in files))} in "
                        f"{display_path(out / game.id / options.lang)}")
            written += files
            limit = presets.PRESETS[options.preset].ink_limit
            if limit is not None and "printshop" in products:
                from ..render.ink import over_limit
                vendor = presets.PRESETS[options.preset].vendor
                said += [f"warning: {game.id}: {line}, the most {vendor} prints (docs/print-presets.md)"
                         for line in over_limit(game, options.lang, limit)]
    for line in said:
        show.summary(line)
    if show.json:
        show.data(written)


def _build(game, products: list[str], options: BuildOptions, out: Path, bar) -> list[dict]:
    """Build one game, `bar` naming the product being made (the products move it on through
    `options.progress`); a record per file written."""
    made: dict[str, str] = {}  # file name -> the product that made it
    following = iter(products[1:])

    def label(name: str) -> None:
        bar.advance(0, label=f"{game.id}/{options.lang}: {name}")

    def done(name: str, file_names: list[str]) -> None:
        made.update(dict.fromkeys(file_names, name))
        upcoming = next(following, None)
        if upcoming is not None:
            label(upcoming)

    label(products[0])
    target = out / game.id / options.lang
    return [{"product": made[path.relative_to(target).as_posix()], "game": game.id,
             "lang": options.lang, "path": str(path), "bytes": path.stat().st_size}
            for path in build_game(game, products, options, out, done)]
