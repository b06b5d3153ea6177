"""Plain data: what travels between forge and a dask cluster, as JSON text, never a pickle.

Reading a pickle runs whatever code its sender chose, so a result read back from a cluster
as a pickle would let a hostile worker or scheduler run code in forge. `loads` makes only
JSON's own values, tuples, dicts with any such keys, bytes, exact fractions, frozensets and
the dataclasses registered with `kind`, built from their fields by their own ``__init__``;
the receiver then checks that what it got has the shape it expects (``check`` of the result
types) before using it.
"""
from __future__ import annotations

import base64
import binascii
import json
from dataclasses import fields, is_dataclass
from fractions import Fraction
from typing import Any, TypeVar

T = TypeVar("T")

#: The dataclasses that may travel, by name (`kind`).
_KINDS: dict[str, type] = {}


def kind(cls: type[T]) -> type[T]:
    """Let the dataclass ``cls`` travel as plain data (a class decorator)."""
    if not is_dataclass(cls) or _KINDS.setdefault(cls.__name__, cls) is not cls:
        raise TypeError(f"{cls.__name__}: a dataclass, and one name one class")
    return cls


def dumps(value: Any) -> str:
    """``value`` as JSON text; a type `loads` would not make is a TypeError."""
    return json.dumps(_encode(value), separators=(",", ":"), allow_nan=False)


def loads(text: str, expected: type[T]) -> T:
    """The value ``text`` holds, which must be an ``expected``; ValueError (or RecursionError,
    for absurd nesting) for anything else."""
    value = _decode(json.loads(text))
    if not isinstance(value, expected):
        raise ValueError(f"expected {expected.__name__}, got {type(value).__name__}")
    return value


def _encode(v: Any) -> Any:
    t = type(v)
    if v is None or t in (bool, int, str, float):
        return v
    if t is list:
        return [_encode(x) for x in v]
    if t in (tuple, frozenset):
        return {t.__name__: [_encode(x) for x in v]}
    if t is dict:
        return {"dict": [[_encode(k), _encode(x)] for k, x in v.items()]}
    if t is bytes:
        return {"bytes": base64.b64encode(v).decode("ascii")}
    if t is Fraction:
        return {"fraction": [v.numerator, v.denominator]}
    if _KINDS.get(t.__name__) is t:
        return {"kind": [t.__name__, {f.name: _encode(getattr(v, f.name)) for f in fields(v)}]}
    raise TypeError(f"a {t.__name__} does not travel as plain data")


def _decode(d: Any) -> Any:
    if d is None or type(d) in (bool, int, str, float):
        return d
    if type(d) is list:
        return [_decode(x) for x in d]
    if type(d) is dict and len(d) == 1:
        (tag, body), = d.items()
        if tag in ("tuple", "frozenset", "dict") and type(body) is list:
            items = [_decode(x) for x in body]
            if tag == "tuple":
                return tuple(items)
            if tag == "frozenset":
                return frozenset(items)
            if all(type(pair) is list and len(pair) == 2 for pair in items):
                return {_hashable(k): v for k, v in items}
        if tag == "bytes" and type(body) is str:
            try:
                return base64.b64decode(body, validate=True)
            except binascii.Error as exc:
                raise ValueError(f"bytes: {exc}") from None
        if tag == "fraction" and type(body) is list and len(body) == 2 \
                and all(type(x) is int for x in body) and body[1] > 0:
            return Fraction(*body)
        if tag == "kind" and type(body) is list and len(body) == 2 and body[0] in _KINDS \
                and type(body[1]) is dict:
            cls = _KINDS[body[0]]
            given = {name: _decode(x) for name, x in body[1].items()}
            if set(given) != {f.name for f in fields(cls)}:
                raise ValueError(f"{cls.__name__}: fields {sorted(given)}")
            return cls(**given)
    raise ValueError(f"not plain data: {str(d)[:80]}")


def _hashable(key: Any) -> Any:
    if type(key) in (list, dict):
        raise ValueError(f"a {type(key).__name__} cannot be a key")
    return key


def is_json(value: Any) -> bool:
    """Whether ``value`` is JSON's own data (dicts keyed by text, lists, text, numbers)."""
    if value is None or type(value) in (bool, int, str, float):
        return True
    if type(value) is list:
        return all(map(is_json, value))
    if type(value) is dict:
        return all(type(k) is str and is_json(x) for k, x in value.items())
    return False
