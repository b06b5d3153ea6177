"""`forge schema`: JSON Schema of card files, for editors' completion and checking."""
from __future__ import annotations

from typing import Optional

import typer

from ..errors import FindingsError
from ..export import card_file_schema, generic_card_file_schema
from ..model import load_game
from .app import Format, FormatOption, Output, QuietOption, VerboseOption, app, complete_games, resolve_games


@app.command()
def schema(
    game: Optional[str] = typer.Argument(None, help="Game id or folder; default: the keys every game shares.",
                                         autocompletion=complete_games),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Print the JSON Schema of a game's card files (or of the keys all games share) on
    stdout; a schema is JSON in either --format."""
    show = Output(format, quiet, verbose)
    if game is None:
        result = generic_card_file_schema()
    else:
        (root,) = resolve_games([game])
        loaded, findings = load_game(root)
        if loaded is None:
            raise FindingsError(findings)
        result = card_file_schema(loaded.manifest)
    show.data(result)
