"""`forge scenario`: run scenario files (a position, scripted actions, expected outcome)."""
from __future__ import annotations

from pathlib import Path

import typer

from ..errors import UsageError
from .app import Format, FormatOption, Output, QuietOption, VerboseOption, app


@app.command()
def scenario(
    files: list[Path] = typer.Argument(..., help="Scenario YAML files (see docs/scenarios.md)."),
    lang: str = typer.Option("en", "--lang", help="Language of the titles shown (uk, en)."),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Run scenarios; exit 1 if any fails. A malformed file fails with its findings (file:line)
    and the others still run. Failures go to stderr (a passed scenario too with -v), then the
    count; with --format json every result goes to stdout."""
    from ..rules.scenario import run_scenario

    show = Output(format, quiet, verbose)
    missing = [f for f in files if not f.is_file()]
    if missing:
        raise UsageError(f"{missing[0]}: no such file")
    results = [run_scenario(f) for f in files]
    failed = [r for r in results if not r.passed]
    if show.json:
        show.data([{"file": str(r.path), "title": r.title, "passed": r.passed,
                    "failures": r.failures, "scores": r.scores} for r in results])
    for r in results:
        head = f"{'PASS' if r.passed else 'FAIL'} {r.path}: {r.title.get(lang, '')}"
        if r.passed:
            show.detail(head)
        elif not show.json:
            show.error("\n".join([head] + [f"  - {msg}" for msg in r.failures]))
    show.summary(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    raise typer.Exit(1 if failed else 0)
