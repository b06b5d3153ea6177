"""The `forge` command: a thin shell over the library; one module per command.

A command's module is imported only when that command runs (see `forge.cli.app.ForgeGroup`):
the modules between them import every part of forge, which would cost each command, and
`forge preview` on every save, a second of start-up.
"""
from __future__ import annotations

import sys

try:  # Ctrl-C while the libraries load (the first ~0.15 s) ends quietly too, as in `main`
    from .app import app, reported
except KeyboardInterrupt:
    raise SystemExit(130) from None

#: Every command, in `forge --help` order: the module of `forge.cli` that registers it, and
#: its help up to the first full stop, which `forge --help` and completion show without
#: importing the module (tests/test_preview.py checks both against the commands themselves).
COMMANDS: dict[str, tuple[str, str]] = {
    "build": ("build", "Check each game, then write its PnP sheets, print-shop file, rulebook, "
              "booklet and cheat sheet into OUT/<game>/<lang>/ (a game with findings is refused, "
              "exit 1)."),
    "cards": ("cards", "List the card designs of a game (one record per design, with its copies) "
              "on stdout."),
    "check": ("check", "Check card data: schema, references, counts, locales, operations, text fit "
              "and layouts, all in one run."),
    "scenario": ("scenario", "Run scenarios; exit 1 if any fails."),
    "schema": ("schema", "Print the JSON Schema of a game's card files (or of the keys all games "
               "share), or with --manifest of game.yaml, or with --rules of rules as data, on "
               "stdout; a schema is JSON in either --format."),
    "simulate": ("simulate", "Simulate games; report win rates, scores, dead cards and invariant "
                 "violations (exit 1)."),
    "import": ("import_cards", "Write or update cards/GAME/FILE.yaml from a sheet: one row per "
               "card, one column per field (name.uk, name.en for texts; effects as YAML flow "
               "text, e.g."),
    "export": ("export_cards", "Write the cards of one type as a sheet (.csv, .xlsx, .ods): a row "
               "per card, a column per field (name.uk, name.en for texts; effects and lists as YAML "
               "flow text), the values as the card files write them, so `forge import GAME FILE "
               "--type TYPE` reads it back to the same data."),
    "new": ("new", "Create cards/GAME/, templates/GAME/ and tests/scenarios/GAME/ in the current "
            "folder: a manifest, two example cards per type, rules as data and a scenario of "
            "them, a layout per type, and a rulebook and cheat sheet per language."),
    "preview": ("preview", "Draw one card as a PNG (300 dpi with bleed) and print its path on "
                "stdout (with --format json, as `forge build` lists files)."),
    "watch": ("watch", "Build, then rebuild on every save what the saved files feed (card data, "
              "layouts, rulebook and cheat-sheet templates)."),
    "compare": ("compare", "Compare two versions of a game on the same seeded games: paired "
                "changes of win rate per seat, score, game length and per card, with 95 % "
                "intervals and a verdict."),
}


def main() -> None:
    """Run the CLI; user errors become a message and an exit code, never a traceback."""
    # (prog_name: also under `python -m forge`, usage lines and completion name `forge`)
    sys.exit(reported(lambda: app(prog_name="forge")))
