"""`forge new`: scaffold a game that checks and builds at once."""
from __future__ import annotations

from pathlib import Path

import typer

from ..errors import display_path
from ..scaffold import DEFAULT_LANGS, DEFAULT_TYPES, scaffold
from .app import Format, FormatOption, Output, QuietOption, VerboseOption, app, counted, split_names


@app.command()
def new(
    game: str = typer.Argument(..., metavar="GAME", help="The new game's id (lower-case ASCII, digits, _)."),
    lang: str = typer.Option(",".join(DEFAULT_LANGS), "--lang", help="Languages, comma-separated; "
                             "the first is the default (uk and en get written text, others English to translate)."),
    types: str = typer.Option(",".join(DEFAULT_TYPES), "--types", help="Card types, comma-separated."),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Create cards/GAME/, templates/GAME/ and tests/scenarios/GAME/ in the current folder: a
    manifest, two example cards per type, rules as data and a scenario of them, a layout per
    type, and a rulebook and cheat sheet per language. It passes `forge check GAME`, `forge
    simulate GAME` and `forge build GAME` as it is. An existing game is never overwritten
    (exit 1). The files written: a line each with -v, or a JSON list (path, bytes) on stdout."""
    show = Output(format, quiet, verbose)
    written = scaffold(Path.cwd(), game, split_names(lang, "--lang"), split_names(types, "--types"))
    if show.json:
        show.data([{"path": display_path(p), "bytes": p.stat().st_size} for p in written])
    for path in written:
        show.detail(display_path(path))
    show.summary(f"{game}: {counted(len(written), 'file')} written in {display_path(Path.cwd() / 'cards' / game)}, "
                 f"{display_path(Path.cwd() / 'templates' / game)} and "
                 f"{display_path(Path.cwd() / 'tests' / 'scenarios' / game)}")
    show.summary(f"next: forge check {game} && forge simulate {game} && forge build {game}")
