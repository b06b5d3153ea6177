"""Where forge's built-in project lives: the three games' cards, their templates with the shared
`_common` layouts, and the scenarios their rulebooks quote.

The built-in project is laid out like a user's (`cards/`, `templates/`, `tests/scenarios/`), so
every lookup that works for a project works for it too. A wheel carries it as package data in
`forge/builtin/`, copied there from the checkout's folders by `setup.py` when the wheel is built,
and it is found with `importlib.resources`. A checkout (run from source, or installed with
`pip install -e .`) has no such folder: there the checkout itself is the built-in project, so
editing `cards/` or `templates/` takes effect at once.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["BUILTIN"]


def _builtin() -> Path:
    packaged = resources.files(__package__) / "builtin"
    # an installed wheel is unpacked on disk: its resources are plain paths (a zipped import
    # would give another Traversable, which the template loaders could not read)
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged.resolve()
    return Path(__file__).resolve().parents[1]


#: The built-in project's folder (see the module docstring).
BUILTIN = _builtin()
