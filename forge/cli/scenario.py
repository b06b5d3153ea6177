"""`forge scenario`: run scenario files (a position, scripted actions, expected outcome)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from ..errors import UsageError
from .app import Format, app


@app.command()
def scenario(
    files: list[Path] = typer.Argument(..., help="Scenario YAML files (see docs/scenarios.md)."),
    lang: str = typer.Option("en", "--lang", help="Language of the titles shown (uk, en)."),
    format: Format = typer.Option(Format.text, "--format", help="Output format."),
) -> None:
    """Run scenarios; exit 1 if any fails. A malformed file fails with its findings (file:line)
    and the others still run."""
    from ..rules.scenario import run_scenario

    missing = [f for f in files if not f.is_file()]
    if missing:
        raise UsageError(f"{missing[0]}: no such file")
    results = [run_scenario(f) for f in files]
    failed = [r for r in results if not r.passed]
    if format is Format.json:
        json.dump([{"file": str(r.path), "title": r.title, "passed": r.passed,
                    "failures": r.failures, "scores": r.scores} for r in results],
                  sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        for r in results:
            typer.echo(f"{'PASS' if r.passed else 'FAIL'} {r.path}: {r.title.get(lang, '')}")
            for msg in r.failures:
                typer.echo(f"  - {msg}")
        typer.echo(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    raise typer.Exit(1 if failed else 0)
