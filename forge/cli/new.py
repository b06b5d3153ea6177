"""`forge new`: scaffold a game that checks and builds at once."""
from __future__ import annotations

from pathlib import Path

import typer

from ..errors import display_path
from ..scaffold import DEFAULT_LANGS, DEFAULT_TYPES, scaffold
from .app import app, split_names


@app.command()
def new(
    game: str = typer.Argument(..., metavar="GAME", help="The new game's id (lower-case ASCII, digits, _)."),
    lang: str = typer.Option(",".join(DEFAULT_LANGS), "--lang", help="Languages, comma-separated; "
                             "the first is the default (uk and en get written text, others English to translate)."),
    types: str = typer.Option(",".join(DEFAULT_TYPES), "--types", help="Card types, comma-separated."),
) -> None:
    """Create cards/GAME/ and templates/GAME/ in the current folder: a manifest, two example
    cards per type, a layout per type, and a rulebook and cheat sheet per language. It passes
    `forge check GAME` and `forge build GAME` as it is. An existing game is never overwritten
    (exit 1). Prints the files written."""
    written = scaffold(Path.cwd(), game, split_names(lang, "--lang"), split_names(types, "--types"))
    for path in written:
        typer.echo(display_path(path))
    typer.echo(f"next: forge check {game} && forge build {game}", err=True)
