"""`forge cards`: list a game's card designs, for people or for other programs."""
from __future__ import annotations

import json
import sys

import typer

from ..errors import FindingsError
from ..export import card_records
from ..model import load_game
from .app import Format, app, resolve_games


@app.command()
def cards(
    game: str = typer.Argument(..., help="Game id or folder."),
    format: Format = typer.Option(Format.text, "--format", help="Output format."),
) -> None:
    """List the card designs of a game (one record per design, with its copies)."""
    (root,) = resolve_games([game])
    loaded, findings = load_game(root)
    if findings or loaded is None:
        raise FindingsError(findings)
    records = card_records(loaded)
    if format is Format.json:
        json.dump(records, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return
    lang = loaded.manifest.default_locale
    for r in records:
        kind = r["type"] + (f"/{r['subtype']}" if r["subtype"] else "")
        typer.echo(f"{r['set']:<8} {kind:<22} x{r['copies']:<3} {r['id']:<32} {r['name'][lang]}")
