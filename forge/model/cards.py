"""Cards and their effect operations, as models built from a game's manifest.

Each card type becomes a frozen pydantic model with the common keys (id, type, set, name ...)
and the type's declared fields; effects become a discriminated union of the declared
operations, so an unknown operation or a wrong parameter is caught with its exact location.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import (AfterValidator, BaseModel, BeforeValidator, Discriminator, Field,
                      PlainSerializer, PrivateAttr, Tag, create_model)

from .fields import STRICT, object_model
from .manifest import Id, text_model

if TYPE_CHECKING:
    from ..load import Document

#: Keys every card may have, whatever its type; a game's own fields may not reuse them.
COMMON_KEYS = ("id", "type", "subtype", "set", "copies", "name", "effects", "text", "flavor",
               "art", "replaces")


@dataclass(frozen=True)
class Operation:
    """One step of an effect: `draw` with params `count=3`. Params is a frozen model."""

    name: str
    params: BaseModel

    def args(self) -> dict[str, Any]:
        return {key: getattr(self.params, key) for key in type(self.params).model_fields}


@dataclass(frozen=True)
class Source:
    """Where a card was defined."""

    file: str
    line: int
    col: int


class Card(BaseModel):
    """Base of every game's card models; fields are added per card type."""

    model_config = STRICT
    _doc: Document | None = PrivateAttr(None)
    _index: int = PrivateAttr(0)

    @property
    def source(self) -> Source:
        line, col = self._doc.where((self._index,)) if self._doc else (0, 0)
        return Source(self._doc.name if self._doc else "", line, col)

    def place(self, doc: Document, index: int) -> None:
        self._doc, self._index = doc, index

    def finding(self, loc: tuple, code: str, message: str, fix: str = ""):
        """A finding at `loc` inside this card (a path such as ('name', 'uk'))."""
        return self._doc.finding((self._index, *loc), code, message, fix, card=self.id)

    @property
    def game_fields(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in type(self).model_fields if k not in COMMON_KEYS}


def _bare(names: tuple[str, ...], value: Any) -> Any:
    """`draw: 3` is `draw: {count: 3}` when the operation has exactly one parameter."""
    if value is None and not names:
        return {}
    if len(names) == 1 and not isinstance(value, dict):
        return {names[0]: value}
    return value


def _op_name(value: Any) -> str | None:
    if isinstance(value, dict) and len(value) == 1:
        return next(iter(value))
    return None


def _named(value: Any) -> Any:
    """A bare operation name (`- skip_turn`) stands for the operation without parameters."""
    return {value: {}} if isinstance(value, str) else value


def _operation(wrapper: BaseModel) -> Operation:
    (name,) = type(wrapper).model_fields
    return Operation(name, getattr(wrapper, name))


def effects_type(manifest: Any) -> Any:
    """The type of an effect list for this game: a tuple of `Operation`."""
    Text = text_model(manifest.locales)
    members = []
    for name, spec in manifest.operations.items():
        params = object_model(f"{manifest.id}_{name}_params", spec.params, Text, None)
        wrapper = create_model(f"{manifest.id}_{name}", __config__=STRICT, **{
            name: (Annotated[params, BeforeValidator(partial(_bare, tuple(spec.params)))], ...)})
        members.append(Annotated[wrapper, Tag(name)])
    known = ", ".join(manifest.operations) or "none declared"
    if not members:
        item: Any = Annotated[dict, Field(max_length=0)]
    else:
        item = Annotated[Union[tuple(members)], Discriminator(
            _op_name, custom_error_type="unknown_operation",
            custom_error_message=f"not an operation of this game (known: {known})")]
    shown = PlainSerializer(lambda op: {op.name: op.params.model_dump(mode="json")})
    return Annotated[tuple[Annotated[item, BeforeValidator(_named), AfterValidator(_operation), shown],
                           ...], Field(max_length=50)]


def card_models(manifest: Any) -> dict[str, type[Card]]:
    """One model per card type of the manifest."""
    Text = text_model(manifest.locales)
    Effects = effects_type(manifest)
    sets = Literal[tuple(manifest.sets)]  # type: ignore[valid-type]
    models = {}
    for type_id, spec in manifest.card_types.items():
        if spec.subtypes:
            sub = Literal[tuple(spec.subtypes)]  # type: ignore[valid-type]
            subtype = (sub, ...) if spec.subtype_required else (sub | None, None)
        else:
            subtype = (None, None)
        common = dict(
            id=(Id, ...), type=(Literal[type_id], ...), subtype=subtype, set=(sets, ...),
            copies=(Annotated[int, Field(strict=True, ge=1, le=99)], 1), name=(Text, ...),
            effects=(Effects, ()), text=(Text | None, None), flavor=(Text | None, None),
            art=(Annotated[str, Field(strict=True, min_length=1)] | None, None),
            replaces=(Id | None, None))
        models[type_id] = object_model(f"{manifest.id}_{type_id}", spec.fields, Text, Effects,
                                       base=Card, extra=common)
    return models
