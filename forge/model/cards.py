"""Cards and their effect operations, as models built from a game's manifest.

Each card type becomes a frozen pydantic model with the common keys (id, type, set, name ...)
and the type's declared fields; each effect step is validated against its operation's
parameter model, so an unknown operation or a wrong parameter is caught with its exact location.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (BaseModel, Field, PlainSerializer, PlainValidator, PrivateAttr,
                      ValidationError)
from pydantic_core import PydanticCustomError

from ..paths import DataPathError, data_path
from .fields import STRICT, object_model
from .manifest import BackKey, Id, text_model

if TYPE_CHECKING:
    from ..load import Document

#: Keys every card may have, whatever its type; a game's own fields may not reuse them.
COMMON_KEYS = ("id", "type", "subtype", "set", "copies", "name", "effects", "text", "flavor",
               "art", "replaces", "back")


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
    """Base of every game's card models; fields are added per card type.

    Templates read cards (`forge.templating`), so every public method here is pure: where a
    card was written is set by the loader through `place`, which templates cannot reach."""

    model_config = STRICT
    _doc: Document | None = PrivateAttr(None)
    _index: int = PrivateAttr(0)

    @property
    def source(self) -> Source:
        line, col = self._doc.where((self._index,)) if self._doc else (0, 0)
        return Source(self._doc.name if self._doc else "", line, col)

    def finding(self, loc: tuple, code: str, message: str, fix: str = ""):
        """A finding at `loc` inside this card (a path such as ('name', 'uk'))."""
        return self._doc.finding((self._index, *loc), code, message, fix, card=self.id)

    @property
    def game_fields(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in type(self).model_fields if k not in COMMON_KEYS}


def art_file(card: Card, root: Path) -> Path | None:
    """`card`'s art resolved by `data_path` inside `root`, or None when it has none or may not be
    read. A function, not a method: a layout that could call it with a root of its own choosing
    would learn which files exist outside the game."""
    if not card.art:
        return None
    try:
        return data_path(root, card.art, "art")
    except DataPathError:
        return None


def card_document(card: Card) -> Document | None:
    """The card file `card` was read from (its data and positions). A function, not a method:
    layouts read cards, and must not reach the file."""
    return card._doc


def place(card: Card, doc: Document, index: int) -> Card:
    """Record that `card` is item `index` of the card file `doc` (for its findings)."""
    card._doc, card._index = doc, index
    return card


def _bare(names: tuple[str, ...], value: Any) -> Any:
    """`draw: 3` is `draw: {count: 3}` when the operation has exactly one parameter."""
    if value is None and not names:
        return {}
    if len(names) == 1 and not isinstance(value, dict):
        return {names[0]: value}
    return value


class _OperationValidator:
    """Validates one effect step against the game's declared operations.

    A function validator rather than a union of per-operation models: one parameter model per
    operation is all pydantic has to build, which keeps `forge check` start-up short."""

    def __init__(self, manifest: Any):
        Text = text_model(manifest.locales)
        self.params = {name: object_model(f"{manifest.id}_{name}", spec.params, Text, None)
                       for name, spec in manifest.operations.items()}
        self.names = {name: tuple(spec.params) for name, spec in manifest.operations.items()}
        self.known = ", ".join(manifest.operations) or "none declared"

    def __call__(self, value: Any) -> Operation:
        if isinstance(value, str):  # a bare name (`- skip_turn`) takes no parameters
            value = {value: {}}
        if not isinstance(value, dict) or len(value) != 1:
            raise PydanticCustomError("operation_shape", "an effect step is one operation, such "
                                      "as `draw: 3` or `discard: {count: 1}`")
        name, raw = next(iter(value.items()))
        model = self.params.get(name)
        if model is None:
            # the finding (forge/model/game.py) puts the operation's name before this message
            raise PydanticCustomError("unknown_operation", "not an operation of this game "
                                      "(known: {known})", {"name": name, "known": self.known})
        try:
            return Operation(name, model.model_validate(_bare(self.names[name], raw)))
        except ValidationError as exc:  # re-raised with the operation's name in the path
            raise ValidationError.from_exception_data(exc.title, [
                {"type": e["type"], "loc": (name, *e["loc"]), "input": e["input"],
                 **({"ctx": e["ctx"]} if "ctx" in e else {})} for e in exc.errors()]) from None


def effects_type(manifest: Any) -> Any:
    """The type of an effect list for this game: a tuple of `Operation`."""
    step = Annotated[Operation, PlainValidator(_OperationValidator(manifest)),
                     PlainSerializer(lambda op: {op.name: op.params.model_dump(mode="json")})]
    return Annotated[tuple[step, ...], Field(max_length=50)]


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
            replaces=(Id | None, None), back=(BackKey | None, None))
        models[type_id] = object_model(f"{manifest.id}_{type_id}", spec.fields, Text, Effects,
                                       base=Card, extra=common)
    return models
