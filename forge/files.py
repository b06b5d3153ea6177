"""Writing output files so that a failure never leaves a half-written file where a good one stood.

`write_files()` writes each file to a temporary file beside it, `.<name>.<pid>.<random>.tmp`,
flushed to disk, and renames them over their targets only once every one of them is written; the
folders are then synced so the renames survive a power cut. On any failure the temporary files
are removed and every target keeps its old bytes (a failed rename, which needs a folder where a
file should be, is ruled out before the first one). A killed run cannot clean up after itself:
its temporary files carry its process id, and the next write into that folder removes those
whose process is gone (never another live run's).
"""
from __future__ import annotations

import errno
import os
import re
import tempfile
from contextlib import suppress
from pathlib import Path
from typing import Mapping

from .errors import PathError, display_path

_TEMP = re.compile(r"\..+\.(\d{1,9})\.[a-z0-9_]{8}\.tmp")


def write_atomic(path: Path, data: bytes) -> None:
    """Write one file: all of `data` ends up at `path`, or nothing changes there."""
    write_files({path: data})


def write_files(files: Mapping[Path, bytes]) -> None:
    """Write every file or none; an OS failure is a `PathError` naming the file (an `OSError`
    too, so callers that tolerate I/O failures still do)."""
    temps: dict[Path, Path] = {}
    path = None
    try:
        for folder in {p.parent for p in files}:
            _remove_stale(folder)
        for path, data in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_dir():
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp",
                                       dir=path.parent)
            temps[path] = Path(tmp)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs are ordinary files
        for path, tmp in temps.items():
            os.replace(tmp, path)
    except BaseException as exc:
        for tmp in temps.values():
            tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError) and path is not None:
            raise PathError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from exc
        raise
    for folder in {p.parent for p in files}:
        _sync_folder(folder)


def writing(path: Path, target: Path) -> bool:
    """Whether `path` is `target` or one of the temporary files `write_files` writes it
    through (so a watcher can tell its own writes from a user's saves)."""
    return path == target or (path.parent == target.parent and path.name.startswith(f".{target.name}.")
                              and _TEMP.fullmatch(path.name) is not None)


def _remove_stale(folder: Path) -> None:
    """Best effort: a temporary file that cannot be removed is only litter, not a failure."""
    for tmp in folder.glob(".*.tmp"):
        match = _TEMP.fullmatch(tmp.name)
        if match and not _running(int(match[1])):
            with suppress(OSError):
                tmp.unlink()


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: another user's live process
        return True
    return True


def _sync_folder(folder: Path) -> None:
    """Make the renames durable; a file system that cannot sync a folder has nothing more to do."""
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
