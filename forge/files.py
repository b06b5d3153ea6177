"""Writing output files so that a failure, Ctrl-C or kill -9 never leaves a half-written file, or
a mix of old and new files, where good ones stood.

- `write_folder(folder, files)`: the files of one build of a game in one language, as a set.
  They are written into a new folder beside `folder` (`.<name>.<random>.tmp`) that also gets a
  hard link to everything else `folder` holds (other products, a user's own files; a copy
  where the file system has no hard links), and the new folder is swapped with the old one in
  one system call (Linux's `renameat2(RENAME_EXCHANGE)`): at every moment `folder` is the old
  set or the new one. Where the system cannot swap folders (not Linux; NFS), the old folder is
  renamed aside (`.<name>.<random>.old`) and the new one renamed in: a run killed between the
  two leaves no `folder` until the next write beside it puts the old one back. A folder that
  is, or holds, a mount point cannot be replaced: its files are written as by `write_files`.
- `write_files(files)`: a few files anywhere (a new game, a report, a cache entry), each to a
  temporary file beside it, `.<name>.<random>.tmp`, renamed over its target only once every one
  is written: on a failure forge sees (an error, Ctrl-C) every target keeps its old bytes; a
  kill -9 between two renames leaves some renamed.

Every file is flushed to disk before it is renamed, the folders after. A run holds an `flock`
on each of its temporaries (and on the folder it replaces) while it works; the kernel drops it
when the run ends, however it ends. So a temporary that can be locked is provably abandoned, and
the next write beside it removes it; one that cannot belongs to a live run, in this container
or in another sharing the folder (a process id says nothing across PID namespaces). Where the
system has no `flock` (Windows), nothing is taken for abandoned.
"""
from __future__ import annotations

import ctypes
import errno
import os
import re
import shutil
import stat
import sys
import tempfile
from contextlib import ExitStack, suppress
from functools import cache
from pathlib import Path
from typing import Mapping

from .errors import PathError, display_path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

#: A temporary of `write_files` or `write_folder` (earlier versions put a process id before the
#: random part); group 1 names its target; `.old`: a folder renamed aside by `_swap`.
_TEMP = re.compile(r"\.(.+?)\.(?:\d{1,9}\.)?[a-z0-9_]{8}\.(tmp|old)")


def write_atomic(path: Path, data: bytes) -> None:
    """Write one file: all of `data` ends up at `path`, or nothing changes there."""
    write_files({path: data})


def write_files(files: Mapping[Path, bytes]) -> None:
    """Write every file or none; an OS failure is a `PathError` naming the file (an `OSError`
    too, so callers that tolerate I/O failures still do)."""
    temps: dict[Path, Path] = {}
    path = None
    with ExitStack() as held:
        try:
            for folder in {p.parent for p in files}:
                _remove_stale(folder)
            for path, data in files.items():
                path.parent.mkdir(parents=True, exist_ok=True)
                if path.is_dir():
                    raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
                fd, temps[path] = _temp_file(path, held)
                with os.fdopen(fd, "wb", closefd=fcntl is None) as f:  # else held: it holds the lock
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.chmod(temps[path], 0o666 & ~_umask())  # mkstemp makes 0600; outputs are ordinary files
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


def write_folder(folder: Path, files: Mapping[str, bytes]) -> list[Path]:
    """Write `files` ({name relative to `folder`: bytes}) into `folder` as one change, keeping
    everything else it holds (see the module's docstring); the paths written. An OS failure is
    a `PathError` naming the file, and `folder` is left as it was."""
    paths = {folder / name: data for name, data in files.items()}
    live = Path(os.path.realpath(folder))  # a link to the output folder is written through, as ever
    if _mounts(live):
        write_files(paths)
        return list(paths)
    shown = next(iter(paths), folder)
    stage = None
    with ExitStack() as held:
        try:
            live.parent.mkdir(parents=True, exist_ok=True)
            _remove_stale(live.parent)
            _remove_stale(live)
            stage = _temp_folder(live, held)
            for shown, data in paths.items():
                target = stage / shown.relative_to(folder)
                target.parent.mkdir(parents=True, exist_ok=True)
                with open(target, "xb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
            shown = folder
            old = _commit(stage, live, set(files), held)
        except BaseException as exc:
            if stage is not None:
                shutil.rmtree(stage, ignore_errors=True)
            if isinstance(exc, OSError) and not isinstance(exc, PathError):
                raise PathError(f"cannot write {display_path(shown)}: {exc.strerror or exc}") from exc
            raise
        if old is not None:  # best effort: the new set is in place; the old one is litter now
            with suppress(OSError):
                _carry_late(old, live, set(files))
            shutil.rmtree(old, ignore_errors=True)
    _sync_folder(live.parent)
    return list(paths)


def writing(path: Path, target: Path) -> bool:
    """Whether `path` is `target`, lies in it, or is (in) one of the temporaries forge writes
    it through (so a watcher can tell its own writes from a user's saves)."""
    return any(p == target or (p.parent == target.parent and p.name.startswith(f".{target.name}.")
                               and _TEMP.fullmatch(p.name) is not None)
               for p in (path, *path.parents))


def _temp_file(path: Path, held: ExitStack) -> tuple[int, Path]:
    """A new temporary file beside `path`, locked by this run until `held` closes."""
    while True:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        if fcntl is None:
            return fd, Path(tmp)
        held.callback(os.close, fd)
        if _lock(fd):
            return fd, Path(tmp)


def _temp_folder(live: Path, held: ExitStack) -> Path:
    """A new folder beside `live`, with its mode, locked by this run until `held` closes."""
    mode = stat.S_IMODE(live.stat().st_mode) if live.is_dir() else 0o777 & ~_umask()
    while True:
        stage = Path(tempfile.mkdtemp(prefix=f".{live.name}.", suffix=".tmp", dir=live.parent))
        if fcntl is not None:
            fd = os.open(stage, os.O_RDONLY)
            held.callback(os.close, fd)
            if not _lock(fd):
                continue
        os.chmod(stage, mode)
        return stage


def _lock(fd: int) -> bool:
    """Lock a temporary this run just made; False if a cleaner removed it first (a cleaner
    holds the lock while it removes, so once this run has it, the file is gone or is its own)."""
    fcntl.flock(fd, fcntl.LOCK_EX)
    return os.fstat(fd).st_nlink > 0


def _hold(live: Path, held: ExitStack) -> bool:
    """Lock the folder about to be replaced, waiting while another run replaces it (then lock
    the folder it put there); False if there is none."""
    if fcntl is None:
        return live.exists()
    while True:
        try:
            fd = os.open(live, os.O_RDONLY | os.O_NONBLOCK)
        except FileNotFoundError:
            return False
        fcntl.flock(fd, fcntl.LOCK_EX)
        with suppress(FileNotFoundError):
            if os.path.samestat(os.fstat(fd), os.stat(live)):
                held.callback(os.close, fd)
                return True
        os.close(fd)


def _commit(stage: Path, live: Path, replaced: set[str], held: ExitStack) -> Path | None:
    """Put `stage` where `live` is, with everything of `live` that `replaced` does not
    replace; where the old folder is now (None: there was none)."""
    while True:
        if _hold(live, held):
            _mirror(live, stage, replaced)
            for folder, _, _ in os.walk(stage):
                _sync_folder(Path(folder))
            return _swap(stage, live, stage.with_name(stage.name.removesuffix(".tmp") + ".old"))
        try:
            os.rename(stage, live)
            return None
        except OSError as exc:
            if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                raise  # else another run made it meanwhile: carry its files over


def _mirror(old: Path, new: Path, replaced: set[str], under: str = "") -> None:
    """Hard-link into `new` everything in `old` that `replaced` does not name (copy where links
    cannot be made); a folder where a new file goes, or a file where it needs a folder, is an
    error naming it."""
    for entry in os.scandir(old):
        name, target = under + entry.name, new / entry.name
        if entry.is_dir(follow_symlinks=False):
            if name in replaced:
                _refuse(errno.EISDIR, entry.path)
            if not target.is_dir():
                target.mkdir()
                os.chmod(target, stat.S_IMODE(entry.stat(follow_symlinks=False).st_mode))
            _mirror(Path(entry.path), target, replaced, name + "/")
        elif name not in replaced:
            if os.path.lexists(target):  # a folder made for new files
                _refuse(errno.ENOTDIR, entry.path)
            try:
                os.link(entry.path, target, follow_symlinks=False)
            except (OSError, NotImplementedError):  # no hard links here (or to another's file)
                shutil.copy2(entry.path, target, follow_symlinks=False)


def _mounts(folder: Path) -> bool:
    """Whether `folder` is a mount point or holds one (what is mounted is not forge's to move)."""
    return os.path.ismount(folder) or any(os.path.ismount(os.path.join(parent, name))
                                          for parent, names, _ in os.walk(folder) for name in names)


def _refuse(code: int, path: str) -> None:
    raise PathError(f"cannot write {display_path(Path(path))}: {os.strerror(code)}")


def _swap(new: Path, live: Path, aside: Path) -> Path:
    """Exchange the folders `new` and `live` in one step where the system can, else rename
    `live` aside and `new` in; where the old folder is now."""
    try:
        _exchange(new, live)
        return new
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
            raise
    os.rename(live, aside)
    try:
        os.rename(new, live)
    except BaseException:
        os.rename(aside, live)
        raise
    return aside


def _exchange(a: Path, b: Path) -> None:
    """Swap two paths atomically: Linux's renameat2(RENAME_EXCHANGE); ENOSYS elsewhere."""
    rename = _renameat2()
    if rename is None:
        raise OSError(errno.ENOSYS, os.strerror(errno.ENOSYS), str(b))
    at_fdcwd, rename_exchange = -100, 2
    if rename(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(b))


@cache
def _renameat2():
    if not sys.platform.startswith("linux"):
        return None
    rename = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)  # glibc 2.28+
    if rename is not None:
        rename.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    return rename


def _carry_late(old: Path, new: Path, replaced: set[str], under: str = "") -> None:
    """Move into `new` what reached `old` after it was mirrored (a preview saved meanwhile):
    anything `replaced` does not name and `new` does not hold as the same file."""
    for entry in os.scandir(old):
        name, target = under + entry.name, new / entry.name
        if entry.is_dir(follow_symlinks=False):
            if not os.path.lexists(target):
                os.rename(entry.path, target)
            elif target.is_dir() and not target.is_symlink():
                _carry_late(Path(entry.path), target, replaced, name + "/")
        elif name not in replaced and not (os.path.lexists(target) and os.path.samestat(
                entry.stat(follow_symlinks=False), target.lstat())):
            os.replace(entry.path, target)


def _remove_stale(folder: Path) -> None:
    """Remove the temporaries in `folder` that no live run holds, and put back a folder that a
    run killed half-way through `_swap` had renamed aside. Best effort: a temporary that cannot
    be removed is only litter, not a failure."""
    if fcntl is None:
        return
    try:
        names = [name for name in os.listdir(folder) if _TEMP.fullmatch(name)]
    except OSError:
        return
    for name in names:
        path = folder / name
        try:  # O_NONBLOCK: a FIFO named like a temporary does not hang the build
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        with suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            is_dir = stat.S_ISDIR(os.fstat(fd).st_mode)
            target = folder / _TEMP.fullmatch(name)[1]
            if name.endswith(".old") and is_dir and not os.path.lexists(target):
                os.rename(path, target)
            elif is_dir:
                shutil.rmtree(path)
            elif name.endswith(".tmp"):
                path.unlink()
        os.close(fd)


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
