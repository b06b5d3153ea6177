"""`forge check`: validate game folders and point at every problem."""
from __future__ import annotations

from collections import Counter
from typing import Optional

import typer

from ..check import check_game
from ..check.typography import fix_typography, typography_notes
from ..errors import display_path
from .app import (Format, FormatOption, Output, QuietOption, VerboseOption, app, complete_games, counted,
                  resolve_games)


@app.command()
def check(
    games: Optional[list[str]] = typer.Argument(None, help="Game ids or folders; default: every game.",
                                                autocompletion=complete_games),
    fix: bool = typer.Option(False, "--fix", help="Write the typography of texts into the data files "
                             "(straight quotes and apostrophes, --, ...), keeping their comments."),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Check card data: schema, references, counts, locales, operations, text fit and layouts,
    all in one run. Exit 1 on findings. Findings go to stderr (with --format json: a JSON list
    on stdout), then a line per game. Typewriter marks in texts are notes, not findings: they
    print typeset, and --fix writes them so in the data (in JSON, severity "note")."""
    show = Output(format, quiet, verbose)
    findings, notes = [], []
    details, summary = [], []
    for root in resolve_games(games):
        game, found = check_game(root)
        if fix and game is not None:
            fixed = fix_typography(root, game.manifest.locales)
            for path in fixed:
                details.append(f"{display_path(path)}: typography written")
            if fixed:
                summary.append(f"{root.name}: typography written in {counted(len(fixed), 'file')}")
                game, found = check_game(root)
        findings += found
        noted = typography_notes(game) if game is not None else []
        notes += noted
        details += [f"{note.where()}: note: {note.message}" for note in noted]
        cards = Counter(c.source.file for c in game.cards for _ in range(c.copies)) if game else Counter()
        per_file = Counter(f.file for f in found)
        for file in sorted(set(cards) | set(per_file)):
            details.append(f"{file}: {counted(cards[file], 'card')}, {counted(per_file[file], 'finding')}")
        summary.append(f"{root.name}: {counted(sum(cards.values()), 'card')}, {counted(len(found), 'finding')}"
                       + (f"; {counted(len(noted), 'text')} with typewriter marks, printed typeset "
                          "(forge check --fix writes them so)" if noted else ""))
    code = show.findings(findings, notes)
    for line in details:
        show.detail(line)
    for line in summary:
        show.summary(line)
    raise typer.Exit(code)
