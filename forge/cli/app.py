"""The typer app, and what every command shares: finding games, exit codes, reporting."""
from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path

import typer

from ..errors import Finding, UsageError
from ..model.game import MANIFEST, all_games, cards_root

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  help="Card Forge: check card data, play it, print it.")

#: Exit codes: the class of outcome, the same for every command.
CLEAN, FINDINGS, USAGE = 0, 1, 2


class Format(str, Enum):
    text = "text"
    json = "json"


def resolve_games(names: list[str] | None) -> list[Path]:
    """Game folders from ids or paths; no names means every game under the cards folder."""
    if not names:
        games = all_games()
        if not games:
            raise UsageError(f"no games found under {cards_root()}")
        return games
    out = []
    for name in names:
        path = Path(name)
        if not (path / MANIFEST).is_file():
            path = cards_root() / name
        if not (path / MANIFEST).is_file():
            known = ", ".join(p.name for p in all_games()) or "none"
            raise UsageError(f"{name!r} is neither a game folder nor a built-in game (known: {known})")
        out.append(path)
    return out


def report(findings: list[Finding], fmt: Format) -> int:
    """Print findings in the chosen format; return the exit code they call for."""
    if fmt is Format.json:
        json.dump([f.as_dict() for f in findings], sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        for finding in findings:
            typer.echo(str(finding))
    return FINDINGS if findings else CLEAN
