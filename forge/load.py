"""Read YAML into plain data while keeping where every node came from.

Every later stage reports problems as file:line:col, so the loader records the position of each
mapping key and list item under its path (a tuple of keys and indexes). It never raises on bad
input: undecodable bytes, tabs, syntax errors, duplicate keys, recursive or exploding aliases all
come back as findings. Parsing is libyaml's (`CSafeLoader`) where available; the composed node tree
is walked here once, which is where duplicate keys, runaway aliases and recursion are caught.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Finding, display_path

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
_INT, _BOOL, _NULL = "tag:yaml.org,2002:int", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"
_COLLECTIONS = ("tag:yaml.org,2002:seq", "tag:yaml.org,2002:map")
#: Most nodes a document may expand to once aliases are followed; real card files stay far below.
MAX_NODES = 200_000
_MAX_DEPTH = 200

Loc = tuple[int | str, ...]


@dataclass(frozen=True)
class Document:
    """One YAML file: its data and the (line, col) of every path inside it, both 1-based."""

    path: Path
    data: Any
    positions: dict[Loc, tuple[int, int]] = field(repr=False)

    @property
    def name(self) -> str:
        return display_path(self.path)

    def where(self, loc: Loc) -> tuple[int, int]:
        """Position of `loc`, or of its nearest ancestor that has one."""
        loc = tuple(loc)
        while loc not in self.positions and loc:
            loc = loc[:-1]
        return self.positions.get(loc, (1, 1))

    def finding(self, loc: Loc, code: str, message: str, fix: str = "", card: str = "") -> Finding:
        line, col = self.where(loc)
        return Finding(self.name, line, col, code, message, fix, card)


class _Rejected(Exception):
    def __init__(self, node: yaml.Node | None, code: str, message: str, fix: str = "",
                 at: tuple[int, int] | None = None):
        self.mark = node.start_mark if node is not None else None
        self.at = at
        self.code, self.message, self.fix = code, message, fix


def load_yaml(path: Path) -> tuple[Document | None, list[Finding]]:
    """Parse one file; on any problem return no document and the findings that say why."""
    name = display_path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Finding(name, 0, 0, "io", f"cannot read the file: {exc.strerror}")]
    text, findings = _decode(raw, name)
    if findings:
        return None, findings
    tabs = [Finding(name, n, line.index("\t") + 1, "tab", "tab character; YAML indentation and card "
                    "text take spaces", "replace the tab with spaces")
            for n, line in enumerate(text.splitlines(), 1) if "\t" in line]
    if tabs:
        return None, tabs
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        reason = exc.problem or exc.context or "invalid YAML"
        return None, [Finding(name, line, col, "syntax", f"YAML syntax error: {reason}")]
    except yaml.YAMLError as exc:  # reader errors: control characters and the like
        return None, [Finding(name, 0, 0, "syntax", f"YAML error: {exc}")]
    positions: dict[Loc, tuple[int, int]] = {}
    if root is None:
        return Document(path, None, positions), []
    try:
        data = _Builder(positions).build(root, ())
    except _Rejected as exc:
        line, col = exc.at or ((exc.mark.line + 1, exc.mark.column + 1) if exc.mark else (0, 0))
        return None, [Finding(name, line, col, exc.code, exc.message, exc.fix)]
    return Document(path, data, positions), []


def _decode(raw: bytes, name: str) -> tuple[str, list[Finding]]:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return "", [Finding(name, line, col, "encoding",
                            f"byte 0x{raw[exc.start]:02x} is not UTF-8", "save the file as UTF-8")]


class _Builder:
    """Turn composed nodes into dicts, lists and scalars, recording positions by path.

    Aliases are expanded as they are met, so the walk counts the nodes it makes and stops past
    MAX_NODES ('billion laughs'), and keeps the nodes on its current path to catch an alias that
    refers to the node containing it."""

    def __init__(self, positions: dict[Loc, tuple[int, int]]):
        self.positions = positions
        self.constructor = yaml.SafeLoader("")  # resolves non-string scalars (int, bool, dates)
        self.budget = MAX_NODES
        self.open: set[int] = set()

    def build(self, node: yaml.Node, path: Loc) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise _Rejected(node, "alias", f"aliases expand this document past {MAX_NODES} nodes",
                            "write the data out instead of nesting aliases",
                            at=self.positions.get(path[:1]))
        if isinstance(node, yaml.ScalarNode):
            tag, value = node.tag, node.value
            if tag == _STR:
                return value
            if tag == _INT and value.isdigit() and (value == "0" or value[0] != "0"):
                return int(value)
            if tag == _NULL and value in ("", "~", "null"):
                return None
            if tag == _BOOL and value in ("true", "false"):
                return value == "true"
            try:
                return self.constructor.construct_object(node)
            except yaml.YAMLError as exc:
                raise _Rejected(node, "syntax", f"bad scalar: {getattr(exc, 'problem', exc)}")
        if node.tag not in _COLLECTIONS:
            raise _Rejected(node, "syntax", f"unsupported tag {node.tag!r}",
                            "card data uses plain YAML lists and mappings")
        key = id(node)
        if key in self.open:
            raise _Rejected(node, "alias", "an alias refers to the node that contains it")
        if len(self.open) >= _MAX_DEPTH:
            raise _Rejected(node, "depth", f"nesting deeper than {_MAX_DEPTH} levels")
        self.open.add(key)
        if isinstance(node, yaml.SequenceNode):
            result: Any = []
            for i, child in enumerate(node.value):
                self._mark(path + (i,), child)
                result.append(self.build(child, path + (i,)))
        else:
            result = self._mapping(node, path)
        self.open.discard(key)
        return result

    def _mapping(self, node: yaml.MappingNode, path: Loc) -> dict:
        out: dict = {}
        merged: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                merged.update(self._merge_source(value_node, path))
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                raise _Rejected(key_node, "syntax", "a mapping key must be a plain value")
            key = self.build(key_node, path)
            if key in out:
                line, _ = self.positions[path + (key,)]
                raise _Rejected(key_node, "duplicate-key", f"key {key!r} appears twice in this "
                                f"mapping (first on line {line})", "remove or rename one of them")
            self._mark(path + (key,), key_node)
            out[key] = self.build(value_node, path + (key,))
        for key, value in merged.items():
            out.setdefault(key, value)
        return out

    def _merge_source(self, node: yaml.Node, path: Loc) -> dict:
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        merged: dict = {}
        for source in reversed(sources):
            if not isinstance(source, yaml.MappingNode):
                raise _Rejected(source, "syntax", "'<<' merges only mappings")
            merged.update(self._mapping(source, path))
        return merged

    def _mark(self, path: Loc, node: yaml.Node) -> None:
        self.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
