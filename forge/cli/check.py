"""`forge check`: validate game folders and point at every problem."""
from __future__ import annotations

from typing import Optional

import typer

from ..check import check_game
from .app import Format, app, report, resolve_games


@app.command()
def check(
    games: Optional[list[str]] = typer.Argument(None, help="Game ids or folders; default: every game."),
    format: Format = typer.Option(Format.text, "--format", help="Output format."),
) -> None:
    """Check card data: schema, references, counts, locales, operations. Exit 1 on findings."""
    findings = []
    summary = []
    for root in resolve_games(games):
        game, found = check_game(root)
        findings += found
        cards = sum(c.copies for c in game.cards) if game else 0
        summary.append(f"{root.name}: {cards} cards, {len(found)} findings")
    code = report(findings, format)
    if format is Format.text:
        for line in summary:
            typer.echo(line, err=True)
    raise typer.Exit(code)
