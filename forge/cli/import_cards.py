"""`forge import`: card data from a spreadsheet (.csv, .ods, .xlsx) into a game's YAML."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import FindingsError, display_path
from ..spreadsheet import import_sheet, summary
from .app import (CLEAN, FINDINGS, Format, FormatOption, Output, QuietOption, VerboseOption, app,
                  complete_games, resolve_games)


@app.command("import")
def import_cards(
    game: str = typer.Argument(..., metavar="GAME", help="Game id or folder.",
                               autocompletion=complete_games),
    sheet: Path = typer.Argument(..., metavar="FILE", exists=True, dir_okay=False,
                                 help="The sheet: .csv, .tsv, .ods, .xlsx (.xlsm)."),
    type_id: str = typer.Option(..., "--type", help="The card type of every row."),
    set_id: Optional[str] = typer.Option(None, "--set", help="Set of new cards; default: an updated "
                                         "card's own, else the manifest's first set."),
    file: Optional[str] = typer.Option(None, "--file", help="Card file to write, cards/GAME/FILE.yaml; "
                                       "default: the sheet's name."),
    sheet_name: Optional[str] = typer.Option(None, "--sheet", help="Sheet of a workbook; default: the first."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Check the rows, write nothing."),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Write or update cards/GAME/FILE.yaml from a sheet: one row per card, one column per field
    (name.uk, name.en for texts; effects as YAML flow text, e.g. `draw: 3`). An existing file
    keeps its comments, order and other cards. Every finding names the sheet's row and column;
    a row that cannot become a card, or that the data checks find wrong (an id another card
    has), stops the import (nothing written, exit 1), with --dry-run or without. With --format
    json, stdout is one object: file, written, added, updated, kept, findings."""
    show = Output(format, quiet, verbose)
    (root,) = resolve_games([game])
    result = import_sheet(root, sheet, type_id, set_id, file, sheet_name, write=not dry_run)
    if not result.written and not result.findings and not dry_run:
        raise FindingsError(result.findings)
    if show.json:
        show.data({"file": display_path(result.target), "written": result.written,
                   "added": result.added, "updated": result.updated, "kept": result.kept,
                   "findings": [f.as_dict() for f in result.findings]})
    else:
        show.findings(result.findings)
    done = result.written
    for label, ids in (("added" if done else "to add", result.added),
                       ("updated" if done else "to update", result.updated)):
        for card_id in ids:
            show.detail(f"{display_path(result.target)}: {card_id} {label}")
    for line in summary(result, dry_run):
        show.summary(line)
    raise typer.Exit(FINDINGS if result.findings else CLEAN)
