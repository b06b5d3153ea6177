"""Card data as plain JSON-ready records, and JSON Schemas of card files for editors."""
from __future__ import annotations

from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter

from .model import Game
from .model.cards import card_models
from .model.fields import ID_PATTERN


def card_records(game: Game) -> list[dict[str, Any]]:
    """One record per card design: the common keys first, then the game's own fields."""
    return [card.model_dump(mode="json", exclude_none=False) for card in game.cards]


def card_file_schema(manifest: Any) -> dict[str, Any]:
    """Exact schema of one game's card files: a list of cards, told apart by `type`."""
    models = list(card_models(manifest).values())
    item: Any = models[0] if len(models) == 1 else Annotated[Union[tuple(models)], Field(discriminator="type")]
    schema = TypeAdapter(list[item]).json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"{manifest.id} card file"
    return schema


_TEXT = {"type": "object", "additionalProperties": {"type": "string", "minLength": 1}, "minProperties": 1,
         "description": "A string per locale, e.g. {uk: ..., en: ...}"}


def manifest_schema(locales: tuple[str, ...] | None = None,
                    operations: dict[str, Any] | None = None) -> dict[str, Any]:
    """JSON Schema of a manifest (`game.yaml`) whose localised strings carry `locales`, or
    (None) any locales. The shorthands the model reads are in it too: a field spec written as
    its type alone (`cost: int`), a `ref` field's `to` as one type; and `rules:` written in the
    manifest is the rules schema (`forge schema --rules`, with `operations`' calls and bodies:
    name -> parameter names), its definitions as `rules_*`."""
    from .model.manifest import manifest_model, text_model
    from .rules.data.shapes import rules_schema

    schema = manifest_model(locales or ("en",)).model_json_schema()
    defs = schema["$defs"]
    if locales is None:
        defs[text_model(("en",)).__name__] = _TEXT
    spec = defs.pop("FieldSpec")
    spec["properties"]["to"]["anyOf"].append({"type": "string"})
    defs["FieldSpecMapping"] = _renamed(spec, "#/$defs/FieldSpec", "#/$defs/FieldSpecMapping")
    defs["FieldSpec"] = {"anyOf": [{"$ref": "#/$defs/FieldSpecMapping"}, spec["properties"]["type"]]}
    rules = rules_schema(operations)
    for name, part in rules.pop("$defs").items():
        defs[f"rules_{name}"] = _renamed(part, "#/$defs/", "#/$defs/rules_", prefix=True)
    inline = {k: v for k, v in rules.items() if k not in ("$schema", "title")}
    schema["properties"]["rules"]["anyOf"][0] = _renamed(inline, "#/$defs/", "#/$defs/rules_", prefix=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Card Forge manifest (game.yaml)"
    return schema


def _renamed(node: Any, old: str, new: str, prefix: bool = False) -> Any:
    """`node` with every `$ref` to `old` made one to `new` (a spec's own `of` and `fields`);
    with `prefix`, every `$ref` that starts with `old` starts with `new` instead."""
    if isinstance(node, dict):
        return {k: (new + v[len(old):] if k == "$ref" and (v == old or prefix and v.startswith(old))
                    else _renamed(v, old, new, prefix)) for k, v in node.items()}
    if isinstance(node, list):
        return [_renamed(v, old, new, prefix) for v in node]
    return node


def generic_card_file_schema() -> dict[str, Any]:
    """The keys every game's cards share; game fields are allowed but not described."""
    text = _TEXT
    card = {
        "type": "object",
        "required": ["id", "type", "set", "name"],
        "properties": {
            "id": {"type": "string", "pattern": ID_PATTERN},
            "type": {"type": "string"},
            "subtype": {"type": "string"},
            "set": {"type": "string"},
            "copies": {"type": "integer", "minimum": 1, "maximum": 99, "default": 1},
            "name": text, "text": text, "flavor": text,
            "art": {"type": "string"},
            "replaces": {"type": "string", "pattern": ID_PATTERN},
            "back": {"type": "string"},
            "effects": {"type": "array", "items": {"type": ["object", "string"]}},
        },
        "additionalProperties": True,
    }
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Card Forge card file",
            "type": "array", "items": card}
