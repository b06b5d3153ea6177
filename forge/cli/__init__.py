"""The `forge` command: a thin shell over the library; one module per command."""
from __future__ import annotations

import os
import sys

import typer

from ..errors import FindingsError, ForgeError, UsageError
from . import build, cards, check, scenario, schema, simulate  # noqa: F401  (each registers its command)
from . import import_cards, new, preview, watch  # noqa: F401  (new, import, watch, preview: issue 14)
from .app import FINDINGS, USAGE, app


def main() -> None:
    """Run the CLI; user errors become a message and an exit code, never a traceback."""
    try:
        app()
    except FindingsError as exc:
        for finding in exc.findings:
            typer.echo(str(finding), err=True)
        sys.exit(FINDINGS)
    except UsageError as exc:
        typer.echo(f"forge: {exc}", err=True)
        sys.exit(USAGE)
    except ForgeError as exc:
        typer.echo(f"forge: {exc}", err=True)
        sys.exit(FINDINGS)
    except OSError as exc:  # the system refused a path: the user's environment, not our bug
        where = f"{exc.filename}: " if exc.filename else ""
        typer.echo(f"forge: {where}{exc.strerror or exc}", err=True)
        sys.exit(FINDINGS)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # a bug of ours, not the user's: say so briefly
        if os.environ.get("FORGE_DEBUG"):
            raise
        typer.echo(f"forge: internal error: {type(exc).__name__}: {exc} "
                   "(run with FORGE_DEBUG=1 for details)", err=True)
        sys.exit(3)
