"""`forge schema`: a JSON Schema an editor can use, exact per game."""
from __future__ import annotations

import json

from conftest import forge_in_process


def test_game_schema_describes_card_types_and_fields():
    result = forge_in_process("schema", "love_formula")
    assert result.returncode == 0, result.stderr
    schema = json.loads(result.stdout)
    assert schema["type"] == "array"
    text = json.dumps(schema)
    for needle in ('"priority"', '"tiebreak"', '"requires"', '"additionalProperties": false'):
        assert needle in text
    defs = schema["$defs"]
    pair = next(d for name, d in defs.items() if name.endswith("_pair"))
    assert {"id", "type", "set", "name", "priority", "tiebreak", "requires"} <= set(pair["required"])
    assert pair["properties"]["priority"]["maximum"] <= 100


def test_generic_schema():
    result = forge_in_process("schema")
    schema = json.loads(result.stdout)
    assert schema["items"]["required"] == ["id", "type", "set", "name"]
