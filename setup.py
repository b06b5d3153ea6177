"""Puts forge's built-in project into the wheel; everything else is in pyproject.toml.

The checkout's `cards/`, `templates/` and `tests/scenarios/` stay where they are: they are the
example of a user's project and what the tests read. `build_py` copies them into the built
package as `forge/builtin/<same path>`, where `forge.resources` finds them. An editable install
(`pip install -e .`) copies nothing: forge then reads them from the checkout.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: The checkout's folders that make the built-in project (see `forge/resources.py`).
BUILTIN = ("cards", "templates", "tests/scenarios")


class BuildPyWithBuiltins(build_py):
    def _builtin_files(self) -> list[tuple[Path, Path]]:
        """(source, target in the build folder) of every file of the built-in project."""
        here = Path(__file__).resolve().parent
        target = Path(self.build_lib, "forge", "builtin")
        return [(path, target / path.relative_to(here))
                for folder in BUILTIN for path in sorted((here / folder).rglob("*"))
                if path.is_file() and "__pycache__" not in path.parts]

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        # a file deleted from the checkout must not linger from an earlier build
        shutil.rmtree(Path(self.build_lib, "forge", "builtin"), ignore_errors=True)
        for source, target in self._builtin_files():
            self.mkpath(str(target.parent))
            self.copy_file(str(source), str(target))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if self.editable_mode:
            return outputs
        return outputs + [str(target) for _, target in self._builtin_files()]


setup(cmdclass={"build_py": BuildPyWithBuiltins})
