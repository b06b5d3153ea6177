"""The field-spec vocabulary of the manifest, and its translation into pydantic types.

A game declares its card fields and operation parameters as data (`{type: int, min: 1}`), so a
new game needs no Python to be checked or rendered. `annotation()` turns one spec into a strict,
immutable pydantic type; `walk_refs()` finds the card references inside a validated value.
"""
from __future__ import annotations

import keyword
import re
from typing import Annotated, Any, Iterator, Literal

from pydantic import (AfterValidator, BaseModel, ConfigDict, Field, PlainValidator, StrictBool,
                      TypeAdapter, ValidationError, create_model, field_validator, model_validator)
from pydantic_core import SchemaError, SchemaValidator, core_schema

STRICT = ConfigDict(frozen=True, extra="forbid")  # strictness is per field (ints, strings)
ID_PATTERN = r"^[a-z0-9][a-z0-9_]*$"
INT_BOUND = 1_000_000
#: Names Jinja gives a meaning of its own (operation parameters are template variables beside
#: `lang`). Every attribute of pydantic's models is reserved too (see `check_name`).
_JINJA_NAMES = {"true", "false", "none", "loop", "caller", "varargs", "kwargs", "self", "lang"}
#: The longest `pattern` of a `str` field.
MAX_PATTERN = 1000
#: Fields of one card type or parameters of one operation, nested ones included: every card
#: is checked field by field, so this bounds the work per card (real types have a dozen).
MAX_FIELDS = 200

FieldType = Literal["int", "str", "text", "bool", "enum", "ref", "list", "object", "effects"]


def check_name(name: str) -> str:
    """Field, parameter and operation names become attributes of pydantic models and template
    variables: keep them plain, and clear of what models and Jinja already call so (a field
    `model_dump` or `copy` would replace the model's own method, and pydantic warns on stderr
    of any name beginning with one of its own, such as `model_dumpling`)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or keyword.iskeyword(name):
        raise ValueError(f"{name!r} is not a usable name (lower-case ASCII letters, digits, _)")
    if name in _JINJA_NAMES or hasattr(BaseModel, name) or name.startswith("model_"):
        raise ValueError(f"{name!r} is a reserved name: "
                         + ("templates give it a meaning of their own" if name in _JINJA_NAMES
                            else "forge's data models have an attribute of that name"
                            if hasattr(BaseModel, name) else "pydantic keeps names that begin with "
                            "model_ for its models' own attributes"))
    return name


def check_card_field_name(name: str) -> str:
    """`check_name`, and clear of the attributes forge's cards have (`source`, `art_file` ...)."""
    from .cards import Card  # cards.py builds on this module

    check_name(name)
    if hasattr(Card, name):
        raise ValueError(f"{name!r} is a reserved name: forge's cards have an attribute of that name")
    return name


def _pattern_problem(pattern: str) -> str:
    """Why `pattern` cannot check a field, or "". It is matched by pydantic's regex engine
    (Rust's `regex`), which takes time linear in the text and knows no look-around or
    back-references: it is compiled here by that engine, so the manifest is refused, not a
    card later; its length bounds what compiling it costs."""
    if len(pattern) > MAX_PATTERN:
        return f"a pattern of {len(pattern):,} characters; the limit is {MAX_PATTERN:,}"
    try:
        SchemaValidator(core_schema.str_schema(pattern=pattern))
    except SchemaError as exc:
        reason = str(exc).strip().splitlines()[-1].strip()
        reason = reason.removeprefix("error: ").removeprefix("SchemaError: ").rstrip(".")
        if "not supported" in reason:
            reason += " (patterns are matched in linear time: no look-around, no back-references)"
        return f"the pattern does not compile: {reason}"
    return ""


def _no_text(value: Any) -> Any:
    raise ValueError("a text field takes no default")


def _no_effects(value: Any) -> Any:
    if value not in ([], ()):
        raise ValueError("an effects field's default is the empty list, [], or none")
    return ()


#: Stand for the game's text and effect types when a default is checked (`FieldSpec`).
_NO_TEXT = Annotated[Any, PlainValidator(_no_text)]
_NO_EFFECTS = Annotated[Any, PlainValidator(_no_effects)]


#: pydantic's words for a value of the wrong kind, as a designer reads them.
_KINDS = {"int": "a whole number", "float": "a number", "string": "a text", "bool": "true or false",
          "dict": "a mapping (key: value)", "model": "a mapping (key: value)",
          "model_attributes": "a mapping (key: value)", "list": "a list", "tuple": "a list"}


def refusal_reason(err: Any) -> str:
    """Why a value was refused, in forge's words rather than pydantic's ("Input should be a
    valid dictionary or instance of CardSize", "Value error, ...")."""
    kind, ctx = err["type"], err.get("ctx") or {}
    base = kind.removesuffix("_type").removesuffix("_parsing").removesuffix("_from_float")
    if base in _KINDS and kind != base:
        return f"should be {_KINDS[base]}"
    if kind in ("literal_error", "enum"):
        return f"should be {ctx.get('expected', '')}".rstrip()
    if kind in ("too_short", "too_long"):
        least = kind == "too_short"
        from ..text.plural import plural
        n = ctx.get("min_length" if least else "max_length", 0)
        return f"should have at {'least' if least else 'most'} {n} {plural(n, ('item', 'items'), 'en')}"
    if kind == "string_too_short":
        return "should not be empty"
    if kind == "string_pattern_mismatch":
        pattern = ctx.get("pattern", "")
        return ("should be an id: lower-case ASCII letters, digits and _" if pattern == ID_PATTERN
                else f"should match the pattern {pattern}")
    reason = err["msg"].replace("Value error, ", "").replace("Input should", "should")  # our validators' words
    return reason[:1].lower() + reason[1:]


class FieldSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    type: FieldType
    required: bool = True
    default: Any = None
    min: int | None = None
    max: int | None = None
    pattern: str | None = None
    values: Annotated[tuple[str, ...], Field(min_length=1)] | None = None
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

    @field_validator("pattern")
    @classmethod
    def _pattern_usable(cls, pattern: str | None) -> str | None:
        problem = pattern and _pattern_problem(pattern)
        if problem:
            raise ValueError(problem)
        return pattern

    @model_validator(mode="after")
    def _options_fit(self) -> FieldSpec:
        need = {"enum": "values", "list": "of", "object": "fields", "ref": "to"}.get(self.type)
        if need and getattr(self, need) is None:
            raise ValueError(f"a field of type {self.type!r} needs {need!r}")
        if self.type == "list" and not all(0 <= n <= INT_BOUND for n in (self.min or 0, self.max or 0)):
            raise ValueError(f"a list's min and max lengths lie within 0..{INT_BOUND}")
        if self.default is not None:
            try:  # a default is a value like any other: one that does not fit is refused here
                TypeAdapter(annotation(self, _NO_TEXT, _NO_EFFECTS)).validate_python(self.default)
            except ValidationError as exc:
                raise ValueError(f"default: {refusal_reason(exc.errors(include_url=False)[0])}") from None
        return self


def _size(specs: dict[str, FieldSpec] | None) -> int:
    """How many field specs `specs` holds, nested ones included."""
    total = 0
    for spec in (specs or {}).values():
        while spec is not None:  # a list's `of`, a list of lists' `of` ...
            total += 1 + _size(spec.fields)
            spec = spec.of
    return total


def _bounded(specs: dict[str, FieldSpec]) -> dict[str, FieldSpec]:
    if (size := _size(specs)) > MAX_FIELDS:
        raise ValueError(f"{size:,} fields, nested ones counted; the limit is {MAX_FIELDS}")
    return specs


#: A mapping of names to field specs; names become Python attributes, so they are checked,
#: each as a key (a refused name is reported at its own line).
Specs = Annotated[dict[Annotated[str, AfterValidator(check_name)], FieldSpec], AfterValidator(_bounded)]
#: A card type's own fields: names clear of the cards' attributes as well.
CardSpecs = Annotated[dict[Annotated[str, AfterValidator(check_card_field_name)], FieldSpec],
                      AfterValidator(_bounded)]
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
