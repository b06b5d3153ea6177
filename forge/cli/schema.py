"""`forge schema`: JSON Schema of card files, or of `rules:`, for editors' completion and checking."""
from __future__ import annotations

from typing import Any, Optional

import typer

from ..errors import FindingsError
from ..export import card_file_schema, generic_card_file_schema
from ..model import load_game
from ..rules.data.shapes import rules_schema
from .app import Format, FormatOption, Output, QuietOption, VerboseOption, app, complete_games, resolve_games


@app.command()
def schema(
    game: Optional[str] = typer.Argument(None, help="Game id or folder; default: the keys every game shares.",
                                         autocompletion=complete_games),
    rules: bool = typer.Option(False, "--rules", help="The schema of `rules:` (a rules file, or the "
                               "manifest's mapping) instead; with a game, its operations too."),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Print the JSON Schema of a game's card files (or of the keys all games share) on
    stdout, or with --rules that of rules as data; a schema is JSON in either --format."""
    show = Output(format, quiet, verbose)
    if rules:
        operations = _manifest(game).operations if game is not None else None
        result = rules_schema(operations)
    elif game is None:
        result = generic_card_file_schema()
    else:
        result = card_file_schema(_manifest(game))
    show.data(result)


def _manifest(game: str) -> Any:
    (root,) = resolve_games([game])
    loaded, findings = load_game(root)
    if loaded is None:
        raise FindingsError(findings)
    return loaded.manifest
