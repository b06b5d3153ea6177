"""Paths that a game reaches only inside its own folders.

A game folder is shared between people, so every file forge reads from it or writes into it is
found through `data_path`: a card's art and icons, the card files and manifest, the templates and
the scenarios a rulebook quotes. One rule serves `check`, which reports a refusal as a finding,
and rendering, which refuses too (a placeholder, an error), so nothing outside is read even when
`check` is skipped. The folders beside the game's cards that hold its templates and scenarios
must themselves be folders of the project, not links to elsewhere (`project_folder`,
`real_folder`).
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path, PurePath


class DataPathError(ValueError):
    """A path that forge will not read: a finding's code, message and fix, and `at`, the path
    of the symbolic link that leads out (where the finding belongs), when one does."""

    def __init__(self, code: str, message: str, fix: str, at: Path | None = None):
        super().__init__(message)
        self.code, self.message, self.fix, self.at = code, message, fix, at


def data_path(root: Path, name: str, what: str = "path", folder: str = "the game folder",
              kind: str = "file") -> Path:
    """The regular file (`kind="folder"`: the folder) that data names by `name`, a path
    relative to the folder `root`.

    A name may only reach inside its folder: an absolute path, a `..` that climbs out and a
    symbolic link (at any component) leading out are refused, and so is anything that is not a
    regular file (a folder, a FIFO that would block a reader, a device), and a folder that forge
    may not read. `DataPathError` says why, naming the path as `what` and the folder as `folder`;
    one with code `path-missing` means there is no such file. The answer is the fully resolved
    path, the file that was checked, for the reader to open. This function never opens the
    file."""
    label = f"{what} {name!r}"
    inside = f"put the file inside {folder} and name it by a path relative to it"
    if "\0" in name:
        raise DataPathError("path-outside", f"{label} contains a NUL character", inside)
    if PurePath(name).anchor:
        raise DataPathError("path-outside", f"{label} is an absolute path; data may only name "
                            f"files inside {folder}", inside)
    if PurePath(os.path.normpath(name)).parts[:1] == ("..",):
        raise DataPathError("path-outside", f"{label} climbs out of {folder} with '..'", inside)
    base = Path(root).resolve()
    try:
        real = (base / name).resolve()
    except (OSError, RuntimeError) as exc:  # a symbolic link loop
        raise DataPathError("path-outside", f"{label} cannot be resolved ({exc})",
                            "replace the symbolic link by the file itself") from None
    if not real.is_relative_to(base):
        raise DataPathError("path-outside", f"{label} leads outside {folder} through a symbolic "
                            f"link (to {real})", f"copy the {kind} into {folder} instead of linking to it",
                            _link_out(base, name))
    try:
        mode = os.stat(real).st_mode
    except (FileNotFoundError, NotADirectoryError):
        raise DataPathError("path-missing", f"{label}: no such file in {folder}",
                            f"add the file or correct the path (relative to {base.name}/)") from None
    except OSError as exc:  # a name too long for the file system, a folder forge may not enter
        raise DataPathError("path-missing" if exc.errno == errno.ENAMETOOLONG else "io",
                            f"{label} cannot be read: {exc.strerror}", inside) from None
    if kind == "folder":
        if not stat.S_ISDIR(mode):
            raise DataPathError("path-missing", f"{label} is not a folder", inside)
        if not os.access(real, os.R_OK | os.X_OK):
            raise DataPathError("io", f"{label} cannot be read: {os.strerror(errno.EACCES)}",
                                "let your user read the folder (chmod u+rx)")
    elif not stat.S_ISREG(mode):
        raise DataPathError("path-missing", f"{label} is not a regular file", inside)
    return real


def _link_out(base: Path, name: str) -> Path:
    """The first component of `base/name` that leads outside `base`: the link to report."""
    here = base
    for part in PurePath(name).parts:
        here = here / part
        if not Path(os.path.realpath(here)).is_relative_to(base):
            return here
    return here


def project_folder(game_root: Path, name: str) -> Path | None:
    """`<project>/<name>` for the game folder `game_root` (`<project>/cards/<game>`), as it lies
    there, links not followed; None when there is nothing there. (A link on its way counts as
    there: `real_folder` refuses it, rather than forge quietly using another folder.)"""
    folder = Path(game_root).resolve().parent.parent / name
    there = os.path.lexists(folder) or os.path.realpath(folder) != str(folder)
    return folder if there else None


def real_folder(folder: Path, what: str) -> Path:
    """`folder`, an absolute path found from a real one (`project_folder`, a resolved
    $FORGE_TEMPLATES, forge's own), refused when it is a symbolic link or lies in one.

    A project's `templates/` or `tests/scenarios/<game>/` is read as the game's own, and the
    project folder may hold more than games (a `.git/` with its credentials, the user's home):
    a link there, even to a place inside the project, would make something else the game's.
    Links inside such a folder are `data_path`'s to judge."""
    real = os.path.realpath(folder)
    if real == str(folder):
        return folder
    link = next((p for p in (*reversed(folder.parents), folder) if p.is_symlink()), folder)
    raise DataPathError("path-outside", f"the {what} {folder.name!r} is a symbolic link or lies in "
                        f"one (to {real}); forge reads a game's {what} only from a folder of its "
                        "project", f"replace the link {link.name!r} by the folder itself", link)
