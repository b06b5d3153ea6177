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


def _fits(value, schema, defs, path="") -> list[str]:
    """Where `value` does not fit `schema` (the keywords `forge schema --rules` writes)."""
    if "$ref" in schema:
        return _fits(value, defs[schema["$ref"].rsplit("/", 1)[1]], defs, path)
    if "anyOf" in schema:
        tries = [_fits(value, s, defs, path) for s in schema["anyOf"]]
        return [] if any(not t for t in tries) else [f"{path}: fits no alternative"]
    if "enum" in schema:
        return [] if value in schema["enum"] else [f"{path}: {value!r} not in {schema['enum']}"]
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds or []
    py = {"object": dict, "array": list, "string": str, "integer": int, "boolean": bool, "null": type(None)}
    if kinds and not any(isinstance(value, py[k]) for k in kinds):
        return [f"{path}: {value!r} is not {kinds}"]
    out = []
    if isinstance(value, dict):
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        out += [f"{path}: {k!r} missing" for k in schema.get("required", []) if k not in value]
        for k, v in value.items():
            sub = props.get(k, extra)
            if sub is False:
                out.append(f"{path}: unknown key {k!r}")
            elif isinstance(sub, dict):
                out += _fits(v, sub, defs, f"{path}.{k}")
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            out += _fits(v, schema["items"], defs, f"{path}[{i}]")
    return out


def test_rules_schema_is_the_compilers_own_table_and_fits_every_example(tmp_path):
    """`forge schema --rules`: made from the table the compiler checks keys against, so a rules
    file the engine plays fits it, and a key the compiler refuses does not."""
    import yaml
    from forge.rules.data.effects import PRIMITIVES
    from forge.rules.data.shapes import BARE, PRIMITIVE_SHAPES
    from forge.scaffold import plan
    from test_rules_data import MARKET
    assert set(PRIMITIVES) == set(PRIMITIVE_SHAPES) | set(BARE) | {"if"}, "every primitive is described"
    result = forge_in_process("schema", "--rules", "examples/cards/skydachka")
    assert result.returncode == 0, result.stderr
    schema = json.loads(result.stdout)
    assert set(schema["properties"]["effects"]["properties"]) == {"skip", "reverse", "draw_next", "wild_colour"}
    sky = yaml.safe_load(open("examples/cards/skydachka/rules.yaml", encoding="utf-8"))
    assert _fits(sky, schema, schema["$defs"]) == []
    generic = json.loads(forge_in_process("schema", "--rules").stdout)
    scaffolded = yaml.safe_load(plan("g", ["en"], ["action"])["cards/g/rules.yaml"])
    for rules in (yaml.safe_load(MARKET)["rules"], scaffolded, sky):
        assert _fits(rules, generic, generic["$defs"]) == []
    sky["actions"]["play"]["colour"] = "red"
    sky["setup"][1]["deal"]["cards"] = 7
    assert sorted(_fits(sky, generic, generic["$defs"])) == [".actions.play: unknown key 'colour'",
                                                             ".setup[1]: fits no alternative"]
