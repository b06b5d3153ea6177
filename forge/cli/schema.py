"""`forge schema`: JSON Schema of card files, or of `rules:`, for editors' completion and checking."""
from __future__ import annotations

from typing import Any, Optional

import typer

from ..errors import FindingsError
from ..export import card_file_schema, generic_card_file_schema, manifest_schema
from ..model import load_game
from ..rules.data.shapes import rules_schema
from .app import Format, FormatOption, Output, QuietOption, VerboseOption, app, complete_games, resolve_games


@app.command()
def schema(
    game: Optional[str] = typer.Argument(None, help="Game id or folder; default: the keys every game shares.",
                                         autocompletion=complete_games),
    manifest: bool = typer.Option(False, "--manifest", help="The schema of game.yaml instead (with GAME: "
                                  "its locales in every localised string)."),
    rules: bool = typer.Option(False, "--rules", help="The schema of `rules:` (a rules file, or the "
                               "manifest's mapping) instead; with a game, its operations too."),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Print the JSON Schema of a game's card files (or of the keys all games share), or with
    --manifest of game.yaml, or with --rules of rules as data, on stdout; a schema is JSON in
    either --format. Editors use it to complete and check the YAML (docs/data-format.md,
    "Editors")."""
    show = Output(format, quiet, verbose)
    if manifest and rules:
        raise typer.BadParameter("--manifest or --rules, not both")
    if manifest:
        result = manifest_schema(_locales(game))
    elif rules:
        result = rules_schema(_manifest(game).operations if game is not None else None)
    elif game is None:
        result = generic_card_file_schema()
    else:
        result = card_file_schema(_manifest(game))
    show.data(result)


def _locales(game: str | None) -> tuple[str, ...] | None:
    """The locales the manifest of `game` declares, when it declares usable ones."""
    if game is None:
        return None
    from ..load import load_yaml
    from ..model.game import MANIFEST
    from ..model.manifest import read_locales

    (root,) = resolve_games([game])
    doc, _ = load_yaml(root / MANIFEST)
    locales = read_locales(doc.data) if doc is not None else ""
    return locales if isinstance(locales, tuple) else None


def _manifest(game: str) -> Any:
    (root,) = resolve_games([game])
    loaded, findings = load_game(root)
    if loaded is None:
        raise FindingsError(findings)
    return loaded.manifest
