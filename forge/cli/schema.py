"""`forge schema`: JSON Schema of card files, for editors' completion and checking."""
from __future__ import annotations

import json
import sys
from typing import Optional

import typer

from ..errors import FindingsError
from ..export import card_file_schema, generic_card_file_schema
from ..model import load_game
from .app import app, resolve_games


@app.command()
def schema(game: Optional[str] = typer.Argument(None, help="Game id or folder; default: the keys every game shares.")) -> None:
    """Print the JSON Schema of a game's card files (or of the keys all games share)."""
    if game is None:
        result = generic_card_file_schema()
    else:
        (root,) = resolve_games([game])
        loaded, findings = load_game(root)
        if loaded is None:
            raise FindingsError(findings)
        result = card_file_schema(loaded.manifest)
    json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
