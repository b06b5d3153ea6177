"""Paths that data names (a card's art, a quoted scenario) reach only inside their folder.

A game folder is shared between people, so every path read from its data or its templates goes
through `data_path`: one rule for `check`, which reports a refusal as a finding, and for
rendering, which then draws a placeholder, so nothing outside is read even when `check` is
skipped.
"""
from __future__ import annotations

import os
from pathlib import Path, PurePath


class DataPathError(ValueError):
    """A path in card data that forge will not read: a finding's code, message and fix."""

    def __init__(self, code: str, message: str, fix: str):
        super().__init__(message)
        self.code, self.message, self.fix = code, message, fix


def data_path(root: Path, name: str, what: str = "path", folder: str = "the game folder") -> Path:
    """The regular file that data names by `name`, a path relative to the folder `root`.

    A game folder is shared between people, so a name in it may only reach inside its folder: an
    absolute path, a `..` that climbs out and a symbolic link (at any component) leading out are
    refused, and so is anything that is not a regular file (a folder, a FIFO that would block a
    reader). `DataPathError` says why, naming the path as `what` and the folder as `folder`. The
    answer is the fully resolved path, the file that was checked, for the reader to open.
    `check` reports the error as a finding; rendering draws a placeholder instead, so nothing
    outside the folder is read even when `check` is skipped. This function never opens the file."""
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
                            f"link (to {real})", f"copy the file into {folder} instead of linking to it")
    if not real.is_file():
        if real.exists():
            raise DataPathError("path-missing", f"{label} is not a regular file", inside)
        raise DataPathError("path-missing", f"{label}: no such file in {folder}",
                            f"add the file or correct the path (relative to {base.name}/)")
    return real
