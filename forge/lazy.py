"""A package's public names imported from their modules on first use (PEP 562), so importing
the package costs nothing and a command loads only the modules it needs."""
from __future__ import annotations

from importlib import import_module
from typing import Any, Callable


def exports(package: str, api: dict[str, str], scope: dict[str, Any]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The `__getattr__` and `__dir__` of `package`, whose globals are `scope`: `api` maps each
    public name to the module (relative to the package) that defines it."""

    def __getattr__(name: str) -> Any:
        module = api.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module, package), name)
        scope[name] = value  # later look-ups skip this function
        return value

    def __dir__() -> list[str]:
        return sorted({*scope, *api})

    return __getattr__, __dir__
