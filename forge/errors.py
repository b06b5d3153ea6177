"""One tree of error types and the `Finding` that every check reports.

A `Finding` is a user-facing problem in the data: where it is (file:line:col), what is wrong and,
when known, how to fix it. Library code collects findings instead of raising, so one run reports
every problem at once; `ForgeError` is raised only when work cannot go on (bad usage, I/O).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


class ForgeError(Exception):
    """Root of every error the library raises on purpose."""


class UsageError(ForgeError):
    """The caller asked for something that does not exist (an unknown game, language, option)."""


class PathError(ForgeError, OSError):
    """The operating system refused to read or write a path (permissions, a full disk, a file
    where a folder should be, a missing font file). It is the user's environment, not a bug, so
    it exits 1 with a message naming the path; being an `OSError` too, code that already copes
    with I/O failures (the caches) keeps doing so."""


class EngineError(ForgeError):
    """A rules engine cannot be found, loaded or configured (an unknown engine or option, an
    engine that breaks the contract of docs/engines.md). It is about the setup, not a
    position: the CLI reports it with exit 1, never a traceback."""


class IllegalAction(ForgeError):
    """A choice that is not among the options the engine offered (or a scripted chance outcome
    that is not possible)."""


class InvariantViolation(ForgeError):
    """A rule-independent or rule-specific invariant failed while a game was being played."""


class FindingsError(ForgeError):
    """Work stopped because the data has findings; they are attached."""

    def __init__(self, findings: list[Finding]):
        self.findings = findings
        super().__init__(f"{len(findings)} finding(s)")


@dataclass(frozen=True, order=True)
class Finding:
    file: str
    line: int = 0
    col: int = 0
    code: str = field(default="", compare=False)
    message: str = field(default="", compare=False)
    fix: str = field(default="", compare=False)
    card: str = field(default="", compare=False)

    def where(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col}"
        return self.file

    def __str__(self) -> str:
        card = f" [{self.card}]" if self.card else ""
        fix = f" (fix: {self.fix})" if self.fix else ""
        return f"{self.where()}: {self.code}{card}: {self.message}{fix}"

    def as_dict(self, severity: str = "error") -> dict:
        """The finding for programs; `severity` "note" marks one that is only told (exit 0)."""
        return {"file": self.file, "line": self.line, "col": self.col, "severity": severity,
                "code": self.code, "card": self.card, "message": self.message, "fix": self.fix}


def display_path(path: Path) -> str:
    """Paths in messages are relative to the working directory when they can be. A symbolic
    link is named as itself, not as the file it leads to (a finding about a link is at it)."""
    path = Path(path)
    full = path.resolve() if path.name in ("", "..") else path.parent.resolve() / path.name
    try:
        return str(full.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
