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


def _errors(schema: dict, value, root: dict, at: str = "") -> list[str]:
    """Where `value` breaks `schema` (the keywords `forge schema` writes), as paths."""
    if "$ref" in schema:
        target = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return _errors(target, value, root, at)
    if "anyOf" in schema:
        tries = [_errors(option, value, root, at) for option in schema["anyOf"]]
        # the alternative that fits best: fewest breaks, then the deepest (it matched furthest)
        return [] if any(not t for t in tries) else min(tries, key=lambda t: (len(t), -len(t[0].split(":")[0])))
    if "enum" in schema and value not in schema["enum"]:
        return [f"{at}: {value!r} not in {schema['enum']}"]
    kinds = {"object": dict, "array": list, "string": str, "null": type(None), "boolean": bool,
             "integer": int, "number": (int, float)}
    kind = schema.get("type")
    kind = [kind] if isinstance(kind, str) else kind or []
    if kind and not any(isinstance(value, kinds[k]) and not (k in ("integer", "number") and isinstance(value, bool))
                        for k in kind):
        return [f"{at}: {value!r} is not {' or '.join(kind)}"]
    import re
    if isinstance(value, str) and "pattern" in schema and not re.search(schema["pattern"], value):
        return [f"{at}: {value!r} does not match {schema['pattern']}"]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        for key, ok in (("minimum", value >= schema.get("minimum", value)), ("maximum", value <= schema.get("maximum", value)),
                        ("exclusiveMinimum", value > schema.get("exclusiveMinimum", value - 1)),
                        ("exclusiveMaximum", value < schema.get("exclusiveMaximum", value + 1))):
            if not ok:
                return [f"{at}: {value!r} breaks {key}"]
    found = []
    if isinstance(value, dict):
        found += [f"{at}: no {key!r}" for key in schema.get("required", ()) if key not in value]
        for key, item in value.items():
            sub = schema.get("properties", {}).get(key, schema.get("additionalProperties", True))
            if sub is False:
                found.append(f"{at}.{key}: not allowed")
            elif isinstance(sub, dict):
                found += _errors(sub, item, root, f"{at}.{key}")
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for n, item in enumerate(value):
            found += _errors(schema["items"], item, root, f"{at}[{n}]")
    return found


def test_the_manifest_schema_takes_every_built_in_manifest_and_refuses_a_typo():
    """`forge schema --manifest` (any locales) and `forge schema GAME --manifest` (the game's):
    every built-in game.yaml is valid under both, shorthands (`cost: int`) included, and a
    misspelt key or a missing locale is not."""
    import yaml

    from conftest import CARDS, GAMES
    generic = json.loads(forge_in_process("schema", "--manifest").stdout)
    assert generic["title"] == "Card Forge manifest (game.yaml)"
    assert _errors(generic, {"card_size": {"width": 63, "height": 88}, "fields": {"cost": "int"}}, generic)
    for game in GAMES:
        data = yaml.safe_load((CARDS / game / "game.yaml").read_text(encoding="utf-8"))
        own = json.loads(forge_in_process("schema", game, "--manifest").stdout)
        assert _errors(generic, data, generic) == [] and _errors(own, data, own) == []
        assert _errors(own, {**data, "card_typs": {}}, own) == [".card_typs: not allowed"]
        assert _errors(own, {**data, "title": {"uk": "x"}}, own) == [".title: no 'en'"]
    spec = {"$ref": "#/$defs/FieldSpec", "$defs": generic["$defs"]}
    assert _errors(spec, "int", spec) == [] and _errors(spec, {"type": "ref", "to": "pair"}, spec) == []
    assert _errors(spec, "integer", spec)


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
    assert _errors(schema, sky, schema) == []
    generic = json.loads(forge_in_process("schema", "--rules").stdout)
    scaffolded = yaml.safe_load(plan("g", ["en"], ["action"])["cards/g/rules.yaml"])
    for rules in (yaml.safe_load(MARKET)["rules"], scaffolded, sky):
        assert _errors(generic, rules, generic) == []
    sky["actions"]["play"]["colour"] = "red"
    sky["setup"][1]["deal"]["cards"] = 7
    assert sorted(_errors(generic, sky, generic)) == [".actions.play.colour: not allowed",
                                                      ".setup[1].deal.cards: not allowed"]


def test_the_manifest_schemas_rules_is_the_rules_schema():
    """`rules:` written in game.yaml completes and checks as a rules file does: the manifest
    schema's `rules` is the rules schema (with GAME, its operations' bodies by name)."""
    import yaml
    game = "examples/cards/skydachka"
    data = yaml.safe_load(open(f"{game}/game.yaml", encoding="utf-8"))
    rules = yaml.safe_load(open(f"{game}/rules.yaml", encoding="utf-8"))
    for args in (("schema", "--manifest"), ("schema", game, "--manifest")):
        schema = json.loads(forge_in_process(*args).stdout)
        assert _errors(schema, {**data, "rules": rules}, schema) == []
        assert _errors(schema, data, schema) == [], "a rules file's name still fits"
        bad = {**rules, "actions": {**rules["actions"], "play": {**rules["actions"]["play"], "colour": "red"}}}
        assert _errors(schema, {**data, "rules": bad}, schema) == [".rules.actions.play.colour: not allowed"]
    effects = schema["properties"]["rules"]["anyOf"][0]["properties"]["effects"]
    assert set(effects["properties"]) == {"skip", "reverse", "draw_next", "wild_colour"}
