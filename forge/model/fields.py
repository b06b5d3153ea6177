"""The field-spec vocabulary of the manifest, and its translation into pydantic types.

A game declares its card fields and operation parameters as data (`{type: int, min: 1}`), so a
new game needs no Python to be checked or rendered. `annotation()` turns one spec into a strict,
immutable pydantic type; `walk_refs()` finds the card references inside a validated value.
"""
from __future__ import annotations

import keyword
import re
from typing import Annotated, Any, Iterator, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, create_model, model_validator

STRICT = ConfigDict(frozen=True, extra="forbid")  # strictness is per field (ints, strings)
ID_PATTERN = r"^[a-z0-9][a-z0-9_]*$"
INT_BOUND = 1_000_000
#: Pydantic's attributes, and names Jinja gives a meaning of its own (operation parameters are
#: template variables beside `lang`).
_RESERVED = {"copy", "dict", "json", "schema", "construct", "validate", "fields", "model_fields",
             "true", "false", "none", "loop", "caller", "varargs", "kwargs", "self", "lang"}

def _names_checked(specs: dict) -> dict:
    for name in specs:
        check_name(name)
    return specs


FieldType = Literal["int", "str", "text", "bool", "enum", "ref", "list", "object", "effects"]


def check_name(name: str) -> str:
    """Field, parameter and operation names become Python attributes: keep them plain."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or keyword.iskeyword(name) or name in _RESERVED:
        raise ValueError(f"{name!r} is not a usable name (lower-case ASCII letters, digits, _)")
    return name


class FieldSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    type: FieldType
    required: bool = True
    default: Any = None
    min: int | None = None
    max: int | None = None
    pattern: str | None = None
    values: tuple[str, ...] | None = None
    to: tuple[str, ...] | None = None
    of: FieldSpec | None = None
    fields: Specs | None = None
    unique: bool = False
    #: Card fields only: the field belongs to these subtypes alone (required for them unless
    #: `required: false`, absent from cards of other subtypes).
    only_for: tuple[str, ...] | None = None

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        if isinstance(value, str):
            return {"type": value}
        if isinstance(value, dict) and isinstance(value.get("to"), str):
            return {**value, "to": (value["to"],)}
        return value

    @model_validator(mode="after")
    def _options_fit(self) -> FieldSpec:
        need = {"enum": "values", "list": "of", "object": "fields", "ref": "to"}.get(self.type)
        if need and getattr(self, need) is None:
            raise ValueError(f"a field of type {self.type!r} needs {need!r}")
        if self.pattern is not None:
            re.compile(self.pattern)
        return self


#: A mapping of names to field specs; names become Python attributes, so they are checked.
Specs = Annotated[dict[str, FieldSpec], AfterValidator(_names_checked)]
FieldSpec.model_rebuild()


def annotation(spec: FieldSpec, text: type, effects: Any, name: str = "value") -> Any:
    """The pydantic type for values of `spec`; `text` and `effects` are the game's own types."""
    t = spec.type
    if t == "int":
        lo = spec.min if spec.min is not None else -INT_BOUND
        hi = spec.max if spec.max is not None else INT_BOUND
        return Annotated[int, Field(strict=True, ge=lo, le=hi)]
    if t == "str":
        return Annotated[str, Field(strict=True, min_length=1, pattern=spec.pattern)]
    if t == "text":
        return text
    if t == "bool":
        return StrictBool
    if t == "enum":
        return Literal[spec.values]  # type: ignore[valid-type]
    if t == "ref":
        return Annotated[str, Field(strict=True, pattern=ID_PATTERN)]
    if t == "list":
        inner = annotation(spec.of, text, effects, name)
        checks = (AfterValidator(_distinct),) if spec.unique else ()
        return Annotated[tuple[inner, ...], Field(min_length=spec.min, max_length=spec.max), *checks]
    if t == "object":
        return object_model(name, spec.fields, text, effects)
    return effects


def _distinct(items: tuple) -> tuple:
    if len(set(items)) != len(items):
        raise ValueError("the list repeats an item")
    return items


def object_model(model_name: str, specs: dict[str, FieldSpec], text: type, effects: Any,
                 base: type[BaseModel] | None = None,
                 extra: dict[str, Any] | None = None) -> type[BaseModel]:
    """A frozen model whose fields follow `specs` (plus `extra` ready-made field definitions)."""
    defs = dict(extra or {})
    for field_name, spec in specs.items():
        ann = annotation(spec, text, effects, f"{model_name}_{field_name}")
        optional = not spec.required or spec.only_for is not None
        defs[field_name] = (ann | None, spec.default) if optional else (ann, ...)
    if base is not None:
        return create_model(model_name, __base__=base, **defs)
    return create_model(model_name, __config__=STRICT, **defs)


def walk(spec: FieldSpec, value: Any, loc: tuple = ()) -> Iterator[tuple[FieldSpec, Any, tuple]]:
    """Every (spec, value, loc) inside a validated value, the value itself first."""
    if value is None:
        return
    yield spec, value, loc
    if spec.type == "list":
        for i, item in enumerate(value):
            yield from walk(spec.of, item, loc + (i,))
    elif spec.type == "object":
        for name, sub in spec.fields.items():
            yield from walk(sub, getattr(value, name), loc + (name,))


def walk_refs(spec: FieldSpec, value: Any, loc: tuple) -> Iterator[tuple[tuple, str, tuple[str, ...]]]:
    """(loc, card id, allowed types) for every `ref` inside a validated value."""
    return ((at, v, s.to) for s, v, at in walk(spec, value, loc) if s.type == "ref")


def walk_effects(spec: FieldSpec, value: Any, loc: tuple) -> Iterator[tuple[tuple, tuple]]:
    """(loc, operations) for every effect list inside a validated value."""
    return ((at, v) for s, v, at in walk(spec, value, loc) if s.type == "effects")


def walk_ints(spec: FieldSpec, value: Any) -> Iterator[int]:
    """Every whole number inside a validated value (for checking hand-written texts)."""
    return (v for s, v, _ in walk(spec, value) if s.type == "int")
