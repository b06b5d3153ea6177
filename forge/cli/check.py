"""`forge check`: validate game folders and point at every problem."""
from __future__ import annotations

from collections import Counter
from typing import Optional

import typer

from ..check import check_game
from .app import Format, FormatOption, Output, QuietOption, VerboseOption, app, complete_games, resolve_games


@app.command()
def check(
    games: Optional[list[str]] = typer.Argument(None, help="Game ids or folders; default: every game.",
                                                autocompletion=complete_games),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Check card data: schema, references, counts, locales, operations. Exit 1 on findings.
    Findings go to stderr (with --format json: a JSON list on stdout), then a line per game."""
    show = Output(format, quiet, verbose)
    findings = []
    details, summary = [], []
    for root in resolve_games(games):
        game, found = check_game(root)
        findings += found
        cards = Counter(c.source.file for c in game.cards for _ in range(c.copies)) if game else Counter()
        per_file = Counter(f.file for f in found)
        for file in sorted(set(cards) | set(per_file)):
            details.append(f"{file}: {cards[file]} cards, {per_file[file]} findings")
        summary.append(f"{root.name}: {sum(cards.values())} cards, {len(found)} findings")
    code = show.findings(findings)
    for line in details:
        show.detail(line)
    for line in summary:
        show.summary(line)
    raise typer.Exit(code)
