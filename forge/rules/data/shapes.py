"""The shape of `rules:`: each construct's keys and what each holds. One table serves twice: the
compiler reports a key it does not list as a finding (`Compiler.keys`), and `forge schema
--rules` turns it into the JSON Schema editors complete `rules:` with (`rules_schema`)."""
from __future__ import annotations

from typing import Any

from .expr import PLAYERS

# What a key holds: a name of the table below (a mapping of that shape), or one of these.
EXPR = "expr"          # an expression (docs/rules.md): text, a whole number or true/false
EXPRS = "exprs"        # one expression or a list of them
ZONE = "zone_ref"      # a zone's name, `next.hand` for a player's
CARDS = "cards_ref"    # a zone, or `others.hand` / `all.hand`: that zone of every other player / of all
NAME = "name"          # a counter's, step's or operation's name
INT = "int"
BOOL = "bool"
WORDS = "words"        # a list of words
WHO = "who"            # me, next, prev, target
EFFECTS = "effects"    # a list of effects
FLOW = "flow"          # a flow block or a list of them
NOTHING = "nothing"    # a primitive without an argument (`reverse`)

#: construct -> {key: what it holds}. A mapping's own type is ("map", what its values hold);
#: ("one", a, b, ...) is one of some words; ("any", a, b, ...) holds any of the shapes a, b, ....
SHAPES: dict[str, dict[str, Any]] = {
    "rules": {"zones": ("map", "zone"), "counters": ("map", "counter"), "defs": ("map", EXPR),
              "setup": EFFECTS, "flow": FLOW, "actions": ("map", "action"),
              "effects": ("map", EFFECTS), "end": "end"},
    "zone": {"per": ("one", "game", "player"), "visibility": ("one", "hidden", "owner", "public"),
             "limit": INT, "restock": "restock", "expire": "expire"},
    "restock": {"from": ZONE, "keep": INT},
    "expire": {"after": EXPR, "to": ZONE},
    "counter": {"per": ("one", "game", "player"), "start": EXPR, "min": INT, "max": INT,
                "values": WORDS},
    "action": {"step": NAME, "from": ZONE, "if": EXPR, "cost": ("map", EXPR), "to": ZONE,
               "do": EFFECTS},
    "end": {"when": EXPRS, "score": EXPR, "tiebreak": EXPRS},
    # the effect primitives whose argument is a mapping
    "move": {"from": ZONE, "to": ZONE, "count": EXPR, "all": BOOL, "card": BOOL, "who": WHO,
             "where": EXPR},
    "deal": {"from": ZONE, "to": ZONE, "count": EXPR},
    "gain": {"counter": NAME, "amount": EXPR, "who": WHO},
    "lose": {"counter": NAME, "amount": EXPR, "who": WHO},
    "set": {"counter": NAME, "to": EXPR, "who": WHO},
    "choose": {"counter": NAME, "from": WORDS},
    "choose_player": {"others": BOOL},
    "choose_card": {"from": CARDS, "where": EXPR, "do": EFFECTS, "who": WHO, "by": WHO},
    "roll": {"sides": INT, "counter": NAME, "from": WORDS, "who": WHO},
    "repeat": {"times": EXPR, "while": EXPR, "do": EFFECTS},
    "top": {"zone": ZONE, "do": EFFECTS},
    "if": {"if": EXPR, "then": EFFECTS, "else": EFFECTS},
    # each_player's longer form (its short one is the list of effects: `BARE`)
    "each_player": {"others": BOOL, "do": EFFECTS},
}
#: The effect primitives among `SHAPES` (`if` stands beside its `then:`, not above it).
PRIMITIVE_SHAPES = ("move", "deal", "gain", "lose", "set", "choose", "choose_player", "choose_card",
                    "roll", "repeat", "top")
#: The effect primitives whose argument is not a mapping.
BARE = {"shuffle": ZONE, "each_player": ("any", EFFECTS, "each_player"), "skip": EXPR, "turn": WHO,
        "reverse": NOTHING, "resolve": NOTHING, "end": NOTHING}
#: A flow block: one of the kinds, with `count` and `until` for the loops.
FLOW_BLOCK = {"step": NAME, "together": NAME, "do": EFFECTS, "turns": FLOW, "rounds": FLOW,
              "each_player": FLOW, "loop": FLOW, "count": INT, "until": EXPR,
              "order": EXPR, "aside": ZONE}   # order, aside: a together block's


def rules_schema(operations: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON Schema of `rules:` (a rules file, or the manifest's mapping), from `SHAPES`;
    with a game's ``operations`` (name -> its parameters' names), their calls and bodies by name."""
    defs: dict[str, Any] = {
        EXPR: {"type": ["string", "integer", "boolean"],
               "description": "an expression: count(hand) == 0, coins >= 3, card.colour == 'red' "
                              "(docs/rules.md)"},
        EXPRS: {"anyOf": [{"$ref": f"#/$defs/{EXPR}"},
                          {"type": "array", "items": {"$ref": f"#/$defs/{EXPR}"}}]},
        ZONE: {"type": "string", "pattern": r"^(?:(?:me|next|prev|target)\.)?[a-z_][a-z0-9_]*$",
               "description": "a zone: deck, or next.hand for another player's"},
        CARDS: {"type": "string", "pattern": r"^(?:(?:me|next|prev|target|others|all)\.)?[a-z_][a-z0-9_]*$",
                "description": "a zone: deck, next.hand, or others.hand for that zone of every "
                               "other player"},
        NAME: {"type": "string", "pattern": "^[a-z_][a-z0-9_]*$"},
        INT: {"type": "integer"},
        BOOL: {"type": "boolean"},
        WORDS: {"type": "array", "items": {"type": "string"}},
        WHO: {"enum": list(PLAYERS)},
        NOTHING: {"type": "null"},
        EFFECTS: {"type": "array", "items": {"$ref": "#/$defs/effect"}},
        FLOW: {"anyOf": [{"$ref": "#/$defs/block"},
                         {"type": "array", "items": {"$ref": "#/$defs/block"}}]},
    }

    def holds(what: Any) -> dict[str, Any]:
        if isinstance(what, tuple) and what[0] == "map":
            return {"type": "object", "additionalProperties": holds(what[1])}
        if isinstance(what, tuple) and what[0] == "any":
            return {"anyOf": [holds(w) for w in what[1:]]}
        if isinstance(what, tuple):
            return {"enum": list(what[1:])}
        return {"$ref": f"#/$defs/{what}"}

    def shape(keys: dict[str, Any], **extra: Any) -> dict[str, Any]:
        return {"type": "object", "properties": {k: holds(v) for k, v in keys.items()},
                "additionalProperties": False, **extra}

    for name, keys in SHAPES.items():
        if name != "if":
            defs[name] = shape(keys)
    ops = operations or {}
    calls = {name: {"type": "object", "properties": {p: {} for p in params},
                    "required": list(params), "additionalProperties": False}
             for name, params in ops.items()}
    one = [{"type": "object", "properties": {prim: {"$ref": f"#/$defs/{prim}"}},
            "required": [prim], "additionalProperties": False}
           for prim in SHAPES if prim in PRIMITIVE_SHAPES]
    one += [{"type": "object", "properties": {prim: holds(what)}, "required": [prim],
             "additionalProperties": False} for prim, what in BARE.items()]
    one += [{"type": "object", "properties": {name: call}, "required": [name],
             "additionalProperties": False} for name, call in calls.items()]
    one.append(shape(SHAPES["if"], required=["if"]))
    words = [prim for prim, what in BARE.items() if what in (NOTHING, EXPR)] + list(calls)
    defs["effect"] = {"anyOf": [{"enum": words}, *one]}
    defs["block"] = {"type": "object", "properties": {k: holds(v) for k, v in FLOW_BLOCK.items()},
                     "additionalProperties": False, "minProperties": 1}
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Card Forge rules",
              **shape(SHAPES["rules"]), "$defs": defs}
    if ops:
        schema["properties"]["effects"] = {
            "type": "object", "additionalProperties": False,
            "properties": {name: {"$ref": f"#/$defs/{EFFECTS}"} for name in ops}}
    return schema
