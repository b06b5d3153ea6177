"""Editing YAML files in place, keeping what a person wrote: comments, key order, quotes, flow
style and the file's own indentation (ruamel.yaml's round trip). `forge import` updates card
files with it, and `forge check --fix` typesets their texts.

ruamel writes every sequence's dashes at one offset, the top level's too, so a file in this
project's style (top-level dashes at column 0, nested ones indented) is dumped with the nested
offset and shifted back (`_dedent`), unless that would change what the text says.
"""
from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any, Callable


def round_trip(path: Path, edit: Callable[[Any], None], header: str = "") -> str:
    """The text of the YAML file `path` after `edit` changed its ruamel tree in place; a file
    that does not exist yet starts as an empty list with `header` as its first comment."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedSeq

    yaml = YAML()  # round trip: comments, order, flow style and quotes are kept
    yaml.preserve_quotes = True
    yaml.width = 4096
    if path.exists():
        text = path.read_text(encoding="utf-8")
        mapping, offset, top = _style(text)
        doc = yaml.load(text)
        if doc is None:
            doc = CommentedSeq()
    else:
        mapping, offset, top = 2, 2, 0
        doc = CommentedSeq()
        doc.yaml_set_start_comment(header + "\n")
    edit(doc)
    # ruamel puts every sequence's dashes `offset` in, the top level's too: shift it back
    yaml.indent(mapping=mapping, sequence=offset + 2, offset=offset)
    dedent = max(offset - top, 0) if isinstance(doc, list) else 0
    out = io.StringIO()
    if dedent:
        _shift_end_comments(doc, dedent)
    yaml.dump(doc, out, transform=(lambda s: _dedent(s, dedent)) if dedent else None)
    text = out.getvalue()
    if dedent:  # the shifted text must say what ruamel wrote; if not (a block scalar), keep that
        unshifted = io.StringIO()
        _shift_end_comments(doc, -dedent)
        yaml.dump(doc, unshifted)
        if YAML(typ="safe").load(text) != YAML(typ="safe").load(unshifted.getvalue()):
            text = unshifted.getvalue()
    return text


_KEY = re.compile(r"( *)[^\s#-][^:#]*:\s*(#.*)?")
_DASH = re.compile(r"( *)- ")


def _style(text: str) -> tuple[int, int, int]:
    """A card file's indentation, as (mapping indent, dash offset of a nested list, column of
    the top level's dashes); this project's style is (2, 2, 0):

        - id: kiss
          flavor:
            en: ...
          effects:
            - draw: 3
    """
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    top = next((len(m[1]) for line in lines if (m := _DASH.match(line))), 0)
    mapping = offset = None
    for above, below in zip(lines, lines[1:]):
        key = _KEY.fullmatch(above)
        if key is None:
            continue
        depth = len(key[1])
        if offset is None and (dash := _DASH.match(below)) and len(dash[1]) >= depth and len(dash[1]) > top:
            offset = len(dash[1]) - depth
        elif mapping is None and not _DASH.match(below) and len(below) - len(below.lstrip()) > depth:
            mapping = len(below) - len(below.lstrip()) - depth
    return mapping or 2, 2 if offset is None else offset, top


def _shift_end_comments(node: Any, by: int) -> None:
    """Move the comments at the end of lines `by` columns right: ruamel writes each at the
    column it had, and `_dedent` then shifts their lines left."""
    import copy

    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap):
        slot, children = 2, node.values()
    elif isinstance(node, CommentedSeq):
        slot, children = 0, node
    else:
        return
    for entry in node.ca.items.values():
        token = entry[slot] if len(entry) > slot else None
        mark = getattr(token, "start_mark", None)
        if mark is not None and not token.value.startswith("\n"):
            mark = copy.copy(mark)
            mark.column = max(mark.column + by, 0)
            token.start_mark = mark
    for child in children:
        _shift_end_comments(child, by)


def _dedent(text: str, by: int) -> str:
    pad = " " * by
    return "".join(line[by:] if line.startswith(pad) and not line.lstrip().startswith("#") else line
                   for line in text.splitlines(keepends=True))


def is_text(value: Any) -> bool:
    """A localised string: a mapping of locale codes to strings."""
    return isinstance(value, dict) and bool(value) and all(
        isinstance(k, str) and re.fullmatch(r"[a-z]{2,3}(_[A-Z]{2})?", k) and isinstance(v, str)
        for k, v in value.items())


def fresh(value: Any) -> Any:
    """Plain data as ruamel nodes in this project's style: localised strings as one-line
    mappings of double-quoted strings, effects and other lists as block lists of flow items."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    if is_text(value):
        node = CommentedMap((k, DoubleQuotedScalarString(v)) for k, v in value.items())
        node.fa.set_flow_style()
        return node
    if isinstance(value, dict):
        return CommentedMap((k, fresh(v)) for k, v in value.items())
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            return _flow_inner(value)  # [techno, house]
        return CommentedSeq(_flow(v) for v in value)
    return value


def _flow(value: Any) -> Any:
    """A list item: a mapping or list inside it on one line ({count: 1, from: hand})."""
    from ruamel.yaml.comments import CommentedMap

    if isinstance(value, dict):
        return CommentedMap((k, _flow_inner(v)) for k, v in value.items())
    return _flow_inner(value)


def _flow_inner(value: Any) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(value, dict):
        node = CommentedMap((k, _flow_inner(v)) for k, v in value.items())
        node.fa.set_flow_style()
        return node
    if isinstance(value, list):
        node = CommentedSeq(_flow_inner(v) for v in value)
        node.fa.set_flow_style()
        return node
    return value


def plain(value: Any) -> Any:
    """ruamel's nodes as plain data, to compare."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    return value


def update(node: Any, card: dict) -> None:
    """Make the ruamel mapping `node` hold `card`, touching only what differs: an equal value
    keeps its formatting and comments, a new key goes last, a key the card lost is removed."""
    for key in [k for k in node if k not in card]:
        del node[key]
    for key, value in card.items():
        if key in node and plain(node[key]) == value:
            continue
        old = node.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            update(old, value)
        elif isinstance(old, str) and isinstance(value, str) and type(old) is not str:
            node[key] = type(old)(value)  # keep the string's quotes
        else:
            node[key] = fresh(value)


