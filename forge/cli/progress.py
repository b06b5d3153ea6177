"""Progress bars for long jobs: rich, on stderr, and only for a person watching a terminal.

A bar is drawn only when stderr is a terminal, the environment variable CI is unset and the
caller enables it (not --quiet, not --format json); otherwise nothing at all is written, so
redirected or captured output never holds control codes.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


def interactive() -> bool:
    """Whether a person is watching stderr: a terminal, and not a CI job."""
    return sys.stderr.isatty() and not os.environ.get("CI")


class _Silent:
    """A bar that draws nothing: the same calls as `_Bar`, for output that is not a terminal."""

    def advance(self, n: int = 1, label: str | None = None) -> None:
        """Do nothing."""


class _Bar:
    """One rich task: `advance` moves it on, optionally naming the step being done."""

    def __init__(self, progress, task) -> None:
        self._progress, self._task = progress, task

    def advance(self, n: int = 1, label: str | None = None) -> None:
        if label is None:
            self._progress.update(self._task, advance=n)
        else:
            self._progress.update(self._task, advance=n, description=label)


@contextmanager
def progress(total: int | None, label: str, enabled: bool = True) -> Iterator[_Bar | _Silent]:
    """A progress bar of `total` steps (None: unknown, shown as a pulse) titled `label`,
    removed when the block ends."""
    if not (enabled and interactive()):
        yield _Silent()
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn)

    with Progress(TextColumn("{task.description:<40}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        yield _Bar(bar, bar.add_task(label, total=total))
