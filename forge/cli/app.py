"""The typer app, and what every command shares: finding games, exit codes, reporting."""
from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path

import typer

from ..errors import Finding, UsageError, display_path
from ..model.game import all_games, cards_root, is_game

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  help="Card Forge: check card data, play it, print it.")

#: Exit codes: the class of outcome, the same for every command.
CLEAN, FINDINGS, USAGE = 0, 1, 2


def package_version() -> str:
    """This installation's version, from the package metadata of the distribution that ships
    `forge` with our console script (another distribution may install a module named `forge`)."""
    from importlib import metadata
    for name in dict.fromkeys(metadata.packages_distributions().get("forge", [])):
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        if "forge.cli:main" in (dist.read_text("entry_points.txt") or ""):
            return dist.version
    return "unknown (not installed; run pip install -e .)"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"forge {package_version()}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """Card Forge: check card data, play it, print it."""


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
        if not is_game(path):
            path = cards_root() / name
        if not is_game(path):
            known = ", ".join(p.name for p in all_games()) or "none"
            raise UsageError(f"{name!r} is neither a game folder nor a built-in game (known: {known})")
        out.append(path)
    return out


def split_names(value: str, option: str) -> list[str]:
    """A comma-separated option's values; one that names nothing (`,`) is a usage error."""
    names = [v.strip() for v in value.split(",") if v.strip()]
    if not names:
        raise UsageError(f"{option} names nothing (got {value!r})")
    return names


def check_output(path: Path, option: str, folder: bool) -> None:
    """An output option naming a file where a folder goes (or the reverse), itself or in its
    parents, is a usage error found before any work is done. Permissions and free space show
    only when writing, as a `PathError` naming the file."""
    want, other = ("folder", "file") if folder else ("file", "folder")
    if path.exists() and path.is_dir() != folder:
        raise UsageError(f"{option} {display_path(path)}: is a {other}, not a {want}")
    parent = next((p for p in path.parents if p.exists()), None)
    if parent is not None and not parent.is_dir():
        raise UsageError(f"{option} {display_path(path)}: {display_path(parent)} is a file, not a folder")


def report(findings: list[Finding], fmt: Format) -> int:
    """Print findings in the chosen format; return the exit code they call for."""
    if fmt is Format.json:
        json.dump([f.as_dict() for f in findings], sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        for finding in findings:
            typer.echo(str(finding))
    return FINDINGS if findings else CLEAN
