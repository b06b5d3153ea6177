"""Read YAML into plain data while keeping where every node came from.

Every later stage reports problems as file:line:col, so the loader records the position of each
mapping key and list item under its path (a tuple of keys and indexes). It never raises on bad
input: undecodable bytes, tabs, syntax errors, duplicate keys, recursive or exploding aliases and
input past the limits below all come back as findings.

libyaml (`CSafeLoader`, where available) scans and parses; its parser keeps its state on the
heap, so any depth is safe there. Composing a node tree is not: PyYAML's composers (libyaml's
and the pure-Python one) recurse once per level, and 50,000 nested brackets overflow the C
stack. So no node tree is composed: the data is built here from the parser's event stream with
an explicit stack, and each limit is checked when the event that crosses it arrives, at that
event's line and column, before anything is built for it. (A pre-scan of the text would have to
redo YAML's tokenising to be sound, since a quote opens a string only in some places, and one
wrong guess lets a crafted file through; the events are exact, and building from them costs no
more than composing and walking a node tree did.)
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Finding, display_path

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
_INT, _BOOL, _NULL = "tag:yaml.org,2002:int", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"
_SEQ, _MAP = "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"

# Limits of one file, far above real card data (the built-in files are at most 29 KB, nest 9
# levels deep, make at most 1,049 nodes, and their longest string has 441 characters). They
# bound the memory and time a shared game folder can cost; docs/data-format.md states them.
#: Bytes in one file.
MAX_FILE_BYTES = 10 * 2**20
#: Characters in one string (a key or a value).
MAX_STRING = 100_000
#: Lists and mappings nested in one another.
MAX_DEPTH = 100
#: Nodes (every key and value: strings, numbers, lists, mappings), each alias expansion counted
#: again: this stops 'billion laughs' aliases (at ~1 s and ~300 MB), and lets a file of 20,000
#: cards through.
MAX_NODES = 1_000_000
#: Digits in one whole number (its sign, base prefix and `_` or `:` separators not counted):
#: Python will not turn an integer of over 4,300 digits into text, so every later message or
#: output that shows one would fail; card data needs a handful.
MAX_INT_DIGITS = 100

Loc = tuple[int | str, ...]


@dataclass(frozen=True)
class Document:
    """One YAML file: its data and the (line, col) of every path inside it, both 1-based."""

    path: Path
    data: Any
    positions: dict[Loc, tuple[int, int]] = field(repr=False)
    #: The file's name as findings give it, per working folder: every finding and card source
    #: of the file names it, and resolving the path each time was most of checking a big game.
    _names: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def name(self) -> str:
        cwd = os.getcwd()
        if cwd not in self._names:
            self._names[cwd] = display_path(self.path)
        return self._names[cwd]

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
    def __init__(self, mark: Any, code: str, message: str, fix: str = ""):
        self.at = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
        self.code, self.message, self.fix = code, message, fix


def load_yaml(path: Path) -> tuple[Document | None, list[Finding]]:
    """Parse one file; on any problem return no document and the findings that say why."""
    name = display_path(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)  # never more: the size is a finding, not a read
    except OSError as exc:
        return None, [Finding(name, 0, 0, "io", f"cannot read the file: {exc.strerror}")]
    if len(raw) > MAX_FILE_BYTES:
        return None, [Finding(name, 1, 1, "too-large", f"the file is larger than "
                              f"{MAX_FILE_BYTES // 2**20} MiB", "split it into several card files")]
    text, findings = _decode(raw, name)
    if findings:
        return None, findings
    return parse_yaml(text, path)


def parse_yaml(text: str, path: Path) -> tuple[Document | None, list[Finding]]:
    """`load_yaml` for text already read (a file's, or YAML that a template wrote), with every
    check but the file's size and encoding; `path` names it in the findings."""
    name = display_path(path)
    if "\t" in text:
        return None, [Finding(name, n, line.index("\t") + 1, "tab", "tab character; YAML "
                              "indentation and card text take spaces",
                              "replace the tab with spaces")
                      for n, line in enumerate(text.splitlines(), 1) if "\t" in line]
    positions: dict[Loc, tuple[int, int]] = {}
    try:
        data = _build(text, positions)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        limit = _limit_before(text, mark)
        if limit is not None:
            return None, [Finding(name, *limit.at, limit.code, limit.message, limit.fix)]
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        reason = exc.problem or exc.context or "invalid YAML"
        return None, [Finding(name, line, col, "syntax", f"YAML syntax error: {reason}")]
    except yaml.YAMLError as exc:  # reader errors: control characters and the like
        return None, [Finding(name, 0, 0, "syntax", f"YAML error: {exc}")]
    except _Rejected as exc:
        return None, [Finding(name, *exc.at, exc.code, exc.message, exc.fix)]
    return Document(path, data, positions), []


def _build(text: str, positions: dict[Loc, tuple[int, int]]) -> Any:
    events = yaml.parse(text, Loader=_Loader)
    try:
        return _Builder(positions).build(events)
    finally:
        events.close()


def _limit_before(text: str, mark: Any) -> _Rejected | None:
    """One of forge's own limits crossed before a parser's error, or None.

    The scanner reads up to 1,024 characters past the events it has handed over (a simple key
    may follow), and libyaml 0.2.6 (PyYAML 6.0.4's wheels) refuses nesting past 1,000 levels in
    its own words there, before forge has seen level 101. So the text before the error is built
    again alone: it holds the same lists and mappings, or fewer where a key was cut off, so a
    depth or size crossed there is crossed in the whole file too."""
    if mark is None or not 0 < mark.index < len(text):
        return None
    try:
        _build(text[:mark.index], {})
    except _Rejected as exc:
        return exc if exc.code in ("depth", "too-large") else None
    except yaml.YAMLError:
        pass
    return None


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


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


_NO_KEY = object()
_NODE_STARTS = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)
_NODE_ENDS = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


@dataclass(slots=True)
class _Open:
    """A list or mapping whose end event has not come yet."""

    data: Any  # the list or dict being filled
    path: Loc
    mark: Any  # where it starts
    anchor: str | None
    start: int  # anchored: index of its first event in the replay log
    flat: bool  # a list of '<<' sources: its mappings merge into `path` itself
    merge: bool  # inside a '<<' source: an earlier source's or an own key's position wins
    key: Any = _NO_KEY  # a mapping's key whose value comes next
    merging: bool = False  # a mapping's '<<' source comes next
    merged: dict = field(default_factory=dict)  # a mapping's keys from '<<' (its own win)

    @property
    def wants_key(self) -> bool:
        return type(self.data) is dict and self.key is _NO_KEY and not self.merging


class _Builder:
    """Build dicts, lists and scalars from parser events, recording positions by path.

    An alias is expanded by replaying the events of the node it names (kept in `log` while an
    anchored node is open, expansions included), so each expansion is counted against MAX_NODES
    like written-out data ('billion laughs'); an alias naming a node that is still open refers
    to itself and is refused. An anchor defined again names the later node from then on, as
    YAML says."""

    def __init__(self, positions: dict[Loc, tuple[int, int]]):
        self.positions = positions
        self.constructor = yaml.SafeLoader("")  # resolves and makes non-string scalars
        self.anchors: dict[str, Any] = {}  # name -> (start, end) in log; its mark while open
        self.log: list = []
        self.recording = 0  # anchored nodes open

    def build(self, events: Any) -> Any:
        stack: list[_Open] = []
        root: list = []
        budget, documents = MAX_NODES, 0
        replay: Any = iter(())
        log = self.log
        for event in events:
            via = None  # the alias being expanded: its nodes are counted where it stands
            while event is not None:
                if self.recording:
                    log.append(event)
                parent = stack[-1] if stack else None
                if isinstance(event, _NODE_STARTS):
                    budget -= 1
                    if budget < 0:
                        raise _Rejected(via or event.start_mark, "alias" if via else "too-large",
                                        f"this file has more than {MAX_NODES:,} YAML nodes (keys "
                                        "and values, counting each alias expansion)",
                                        "write the data out instead of nesting aliases" if via
                                        else "split it into several card files")
                    if type(event) is yaml.ScalarEvent:
                        self._scalar(event, parent, root)
                    else:
                        stack.append(self._open(event, parent, len(stack)))
                elif isinstance(event, _NODE_ENDS):
                    stack.pop()
                    for key, value in parent.merged.items():
                        parent.data.setdefault(key, value)
                    if parent.anchor is not None:
                        self.recording -= 1
                        self.anchors[parent.anchor] = (parent.start, len(log))
                    self._add(stack[-1] if stack else None, root, parent.data, parent.mark)
                elif type(event) is yaml.AliasEvent:
                    span = self.anchors.get(event.anchor)
                    if span is None:
                        raise _Rejected(event.start_mark, "syntax", f"YAML syntax error: alias "
                                        f"*{event.anchor} names no anchor")
                    if type(span) is not tuple:
                        raise _Rejected(span, "alias",
                                        "an alias refers to the node that contains it")
                    if self.recording:
                        log.pop()  # its expansion is logged instead
                    replay, via = iter(log[span[0]:span[1]]), event.start_mark
                elif type(event) is yaml.DocumentStartEvent:
                    documents += 1
                    if documents > 1:
                        raise _Rejected(event.start_mark, "syntax", "YAML syntax error: a second "
                                        "document in one file", "remove the '---' line")
                event = next(replay, None)
        return root[0] if root else None

    def _scalar(self, event: Any, parent: _Open | None, root: list) -> None:
        value = event.value
        if len(value) > MAX_STRING:
            raise _Rejected(event.start_mark, "too-large", f"a string of {len(value):,} "
                            f"characters; the limit is {MAX_STRING:,}", "shorten it")
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.constructor.resolve(yaml.ScalarNode, value, event.implicit)
        if event.anchor is not None:
            if not self.recording:
                self.log.append(event)
            self.anchors[event.anchor] = (len(self.log) - 1, len(self.log))
        if parent is not None and parent.wants_key:
            if tag == _MERGE:
                parent.merging = True
                return
            key = self._value(event, tag)
            if key in parent.data:
                line, _ = self.positions[parent.path + (key,)]
                raise _Rejected(event.start_mark, "duplicate-key", f"key {key!r} appears twice "
                                f"in this mapping (first on line {line})",
                                "remove or rename one of them")
            self._mark(parent.path + (key,), event, parent.merge)
            parent.key = key
            return
        self._child(parent, event)
        self._add(parent, root, self._value(event, tag), event.start_mark)

    def _value(self, event: Any, tag: str) -> Any:
        value = event.value
        if tag == _STR:
            return value
        if tag == _INT:
            digits = len(value.lstrip("+-").removeprefix("0x").removeprefix("0b")
                         .replace("_", "").replace(":", ""))
            if digits > MAX_INT_DIGITS:
                raise _Rejected(event.start_mark, "too-large", f"a whole number of {digits:,} "
                                f"digits; the limit is {MAX_INT_DIGITS}", "write a smaller number")
            if value.isdigit() and (value == "0" or value[0] != "0"):
                return int(value)
        if tag == _NULL and value in ("", "~", "null"):
            return None
        if tag == _BOOL and value in ("true", "false"):
            return value == "true"
        node = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark, event.style)
        try:
            return self.constructor.construct_object(node)
        except yaml.YAMLError as exc:
            raise _Rejected(event.start_mark, "syntax",
                            f"bad scalar: {getattr(exc, 'problem', exc)}") from None
        except (ValueError, KeyError, IndexError, AttributeError, TypeError, OverflowError):
            # PyYAML's constructors parse without checking first: `!!int ""`, `!!bool x` and
            # `2024-13-45` fail inside them with Python's own errors
            raise _Rejected(event.start_mark, "syntax", f"bad scalar: {_short(value)} is not a "
                            f"valid {tag.rsplit(':', 1)[-1]}") from None

    def _open(self, event: Any, parent: _Open | None, depth: int) -> _Open:
        mapping = type(event) is yaml.MappingStartEvent
        if event.tag not in (None, "!", _MAP if mapping else _SEQ):
            raise _Rejected(event.start_mark, "syntax", f"unsupported tag {event.tag!r}",
                            "card data uses plain YAML lists and mappings")
        if depth >= MAX_DEPTH:
            raise _Rejected(event.start_mark, "depth", f"lists and mappings nested more than "
                            f"{MAX_DEPTH} levels deep", "flatten the data")
        if parent is not None and parent.wants_key:
            raise _Rejected(event.start_mark, "syntax", "a mapping key must be a plain value")
        path = self._child(parent, event)
        if event.anchor is not None:
            if not self.recording:
                self.log.append(event)
            self.recording += 1
            self.anchors[event.anchor] = event.start_mark
        merging = parent is not None and parent.merging
        return _Open({} if mapping else [], path, event.start_mark, event.anchor,
                     len(self.log) - 1, merging and not mapping,
                     merging or (parent is not None and parent.merge))

    def _child(self, parent: _Open | None, event: Any) -> Loc:
        """The path of a value starting at `event` (a list item's position is recorded)."""
        if parent is None:
            return ()
        if type(parent.data) is dict:
            return parent.path if parent.merging else parent.path + (parent.key,)
        if parent.flat:
            return parent.path
        path = parent.path + (len(parent.data),)
        self._mark(path, event, parent.merge)
        return path

    def _add(self, parent: _Open | None, root: list, value: Any, mark: Any) -> None:
        """Put a finished value where it belongs: list item, mapping value or '<<' source."""
        if parent is None:
            root.append(value)
        elif type(parent.data) is list:
            parent.data.append(value)
        elif parent.merging:
            for source in (reversed(value) if type(value) is list else (value,)):
                if type(source) is not dict:
                    raise _Rejected(mark, "syntax", "'<<' merges only mappings")
                parent.merged.update(source)
            parent.merging = False
        else:
            parent.data[parent.key] = value
            parent.key = _NO_KEY

    def _mark(self, path: Loc, event: Any, keep: bool) -> None:
        at = (event.start_mark.line + 1, event.start_mark.column + 1)
        if keep:
            self.positions.setdefault(path, at)
        else:
            self.positions[path] = at
