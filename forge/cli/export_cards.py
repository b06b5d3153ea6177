"""`forge export`: a game's cards of one type as a spreadsheet that `forge import` reads back."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import FindingsError, display_path
from ..model import load_game
from ..sheet_export import export_sheet
from .app import (Format, FormatOption, Output, QuietOption, VerboseOption, app, complete_games, counted,
                  resolve_games)


@app.command("export")
def export_cards(
    game: str = typer.Argument(..., metavar="GAME", help="Game id or folder.",
                               autocompletion=complete_games),
    sheet: Path = typer.Argument(..., metavar="FILE", dir_okay=False,
                                 help="The sheet to write: .csv, .xlsx or .ods."),
    type_id: str = typer.Option(..., "--type", help="The card type to export."),
    file: Optional[str] = typer.Option(None, "--file", help="Only the cards of cards/GAME/FILE.yaml."),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Write the cards of one type as a sheet (.csv, .xlsx, .ods): a row per card, a column per
    field (name.uk, name.en for texts; effects and lists as YAML flow text), the values as the
    card files write them, so `forge import GAME FILE --type TYPE` reads it back to the same
    data. With --format json, stdout is one object: file, cards."""
    show = Output(format, quiet, verbose)
    (root,) = resolve_games([game])
    loaded, findings = load_game(root)
    if loaded is None:
        raise FindingsError(findings)
    written = export_sheet(loaded, type_id, sheet, file)
    if show.json:
        show.data({"file": display_path(sheet), "cards": written})
    show.summary(f"{display_path(sheet)}: {counted(written, 'card')} of type {type_id}")
