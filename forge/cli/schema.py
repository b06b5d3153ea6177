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
        result = manifest_schema(*_as_written(game))
    elif rules:
        result = rules_schema({name: list(spec.params) for name, spec in _manifest(game).operations.items()}
                              if game is not None else None)
    elif game is None:
        result = generic_card_file_schema()
    else:
        result = card_file_schema(_manifest(game))
    show.data(result)


def _as_written(game: str | None) -> tuple[tuple[str, ...] | None, dict[str, list] | None]:
    """The locales the manifest of `game` declares, when it declares usable ones, and its
    operations' parameters, read from the file as it is (a manifest being edited may not load)."""
    if game is None:
        return None, None
    from ..load import load_yaml
    from ..model.game import MANIFEST
    from ..model.manifest import read_locales

    (root,) = resolve_games([game])
    doc, _ = load_yaml(root / MANIFEST)
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    locales = read_locales(data) if data else ""
    ops = data.get("operations")
    params = {str(name): list(spec["params"]) if isinstance(spec, dict) and isinstance(spec.get("params"), dict)
              else [] for name, spec in ops.items()} if isinstance(ops, dict) else None
    return (locales if isinstance(locales, tuple) else None), params


def _manifest(game: str) -> Any:
    (root,) = resolve_games([game])
    loaded, findings = load_game(root)
    if loaded is None:
        raise FindingsError(findings)
    return loaded.manifest
