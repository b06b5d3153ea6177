"""A process that has loaded forge once and does each piece of work in a fresh fork of itself.

Python's start-up and the libraries' imports (typer, pydantic, ReportLab, Jinja, PDFium,
Pillow) are about half of a `forge preview` run. A command that goes on (`forge preview
--watch`) loads them, and the fonts, once (`preload`), and runs each drawing in a child forked
from that state (`forked`): the child costs the game's loading and the drawing only, and starts
with nothing of any earlier drawing, so the caches that assume files do not change under them
(compiled layouts, art, fitted text) never see an old file, and a drawing that fails cannot
take the watcher with it. Where there is no fork (Windows) the child is a fresh `forge` process.
"""
from __future__ import annotations

import os
import subprocess
import sys
import traceback
from importlib import import_module
from typing import Callable

from .app import reported


#: What drawing a card imports (see `forge.api.card_png`).
_MODULES = ("forge.api", "forge.model", "forge.render", "forge.render.presets", "forge.render.sheets",
            "forge.raster", "pypdfium2", "PIL.PngImagePlugin")


def preload() -> None:
    """Import what drawing a card imports and load every font face: installed code and data
    only, the same for every game, nothing read from a game folder."""
    for name in _MODULES:
        import_module(name)
    from reportlab.pdfbase import pdfmetrics

    from ..render import fonts

    fonts.register()
    for face in fonts.FACES:
        pdfmetrics.getFont(face)


def forked(run: Callable[[], object]) -> int:
    """Run `run()` in a child forked from this process and return its exit code (as `main`
    gives it: errors are reported by the child). Without fork, run `forge` with this
    process's arguments, less `--watch`, in a new process."""
    if not hasattr(os, "fork"):
        argv = [arg for arg in sys.argv[1:] if arg != "--watch"]
        return subprocess.run([sys.executable, "-m", "forge", *argv]).returncode
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller's loop
        code = 3
        try:
            code = reported(run)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # noqa: BLE001 - with FORGE_DEBUG, a bug of ours: its traceback
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)
