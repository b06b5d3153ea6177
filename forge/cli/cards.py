"""`forge cards`: list a game's card designs, for people or for other programs."""
from __future__ import annotations

from collections import Counter

import typer

from ..errors import FindingsError
from ..export import card_records
from ..model import load_game
from .app import Format, FormatOption, Output, QuietOption, VerboseOption, app, complete_games, counted, resolve_games


@app.command()
def cards(
    game: str = typer.Argument(..., help="Game id or folder.", autocompletion=complete_games),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """List the card designs of a game (one record per design, with its copies) on stdout."""
    show = Output(format, quiet, verbose)
    (root,) = resolve_games([game])
    loaded, findings = load_game(root)
    if findings or loaded is None:
        raise FindingsError(findings)
    records = card_records(loaded)
    if show.json:
        show.data(records)
    else:
        lang = loaded.manifest.default_locale
        for r in records:
            kind = r["type"] + (f"/{r['subtype']}" if r["subtype"] else "")
            typer.echo(f"{r['set']:<8} {kind:<22} x{r['copies']:<3} {r['id']:<32} {r['name'][lang]}")
    per_file = Counter(card.source.file for card in loaded.cards)
    for file, designs in sorted(per_file.items()):
        show.detail(f"{file}: {counted(designs, 'design')}")
    show.summary(f"{loaded.id}: {counted(len(records), 'design')}, {counted(sum(r['copies'] for r in records), 'card')}")
