"""The loader: positions for every node, and every bad input a finding (tests/cases/load/)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from forge import load
from forge.load import load_yaml

CASES = Path(__file__).parent / "cases" / "load"
EXPECTED = yaml.safe_load((CASES / "expected.yaml").read_text(encoding="utf-8"))


@pytest.fixture
def nodes_built(monkeypatch) -> list[int]:
    """How many nodes the loader builds (every scalar, list and mapping, each alias expansion
    again): the work MAX_NODES bounds, counted, since a time differs from machine to machine."""
    built = [0]
    for name in ("_scalar", "_open"):
        def counted(self, *args, _real=getattr(load._Builder, name)):
            built[0] += 1
            return _real(self, *args)
        monkeypatch.setattr(load._Builder, name, counted)
    return built


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_case(name, nodes_built):
    doc, findings = load_yaml(CASES / name)
    assert nodes_built[0] <= load.MAX_NODES, "the loader must stop at MAX_NODES"
    want = EXPECTED[name]
    if "ok" in want:
        assert findings == [] and doc.data == want["ok"]
        return
    assert doc is None and len(findings) == 1
    (finding,) = findings
    assert finding.code == want["code"]
    assert finding.file.endswith(name)
    if "line" in want:
        assert (finding.line, finding.col) == (want["line"], want["col"])
    else:
        assert finding.line >= 1


def test_every_case_has_an_expectation():
    files = {p.name for p in CASES.glob("*.yaml")} - {"expected.yaml"}
    assert files == set(EXPECTED)


def test_positions_point_at_keys_and_items():
    doc, _ = load_yaml(CASES / "ok.yaml")
    assert doc.where(("b",)) == (2, 1)
    assert doc.where(("b", 0, "y", 1)) == (4, 12)
    # A path with no position of its own takes its nearest ancestor's.
    assert doc.where(("b", 0, "y", 1, "missing")) == (4, 12)


def test_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfname: \xd0\x9f\xd0\xb0\xd1\x80\xd0\xb0\n")
    doc, findings = load_yaml(path)
    assert findings == [] and doc.data == {"name": "Пара"}


def test_unsafe_tags_are_refused(tmp_path):
    path = tmp_path / "evil.yaml"
    path.write_text("a: !!python/object/apply:os.system ['true']\n", encoding="utf-8")
    doc, findings = load_yaml(path)
    assert doc is None and findings[0].code == "syntax" and findings[0].line == 1


def test_merged_keys_point_where_their_value_comes_from():
    doc, _ = load_yaml(CASES / "merge_sources.yaml")
    assert doc.where(("card", "b")) == (1, 18)  # the earlier source wins, its position too
    assert doc.where(("card", "c")) == (2, 18)
    assert doc.where(("late", "a")) == (7, 3)  # a key of its own wins over a later '<<'


LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])
DEEP = {  # text -> (line, col) where the 101st level starts
    "50,000 brackets": ("[" * 50_000, (1, 101)),
    # the scanner reads ahead to the '@' (these could be keys) and fails there: forge's limit,
    # crossed earlier, is still the finding (libyaml 0.2.6 fails the same way at 1,000 levels)
    "150 brackets, then a character no token starts with": ("[" * 150 + "@", (1, 101)),
    "1,000,000 brackets": ("[" * 1_000_000, (1, 101)),
    "1,000,000 flow mappings": ("{a: " * 1_000_000, (1, 401)),
    "3,000 indented mappings": ("".join(" " * i + "a:\n" for i in range(3_000)), (101, 101)),
    "100,000 compact sequences": ("- " * 100_000 + "x\n", (1, 201)),
    "sequences in mappings": ("".join(" " * i + "- a:\n" for i in range(0, 4_000, 2)), (51, 101)),
}


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize("name", DEEP)
def test_any_depth_is_a_finding_not_a_crash(tmp_path, monkeypatch, loader, name):
    """libyaml's composer and PyYAML's recurse per level (a segfault at 50,000 brackets): the
    loader must stop at MAX_DEPTH with either parser."""
    monkeypatch.setattr(load, "_Loader", loader)
    text, at = DEEP[name]
    path = tmp_path / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    doc, findings = load_yaml(path)
    assert doc is None and [(f.code, (f.line, f.col)) for f in findings] == [("depth", at)]
    assert f"{load.MAX_DEPTH} levels" in findings[0].message


def test_file_size_limit(tmp_path):
    path = tmp_path / "big.yaml"
    line = "# a comment line that pads the file\n"
    padding = line * (load.MAX_FILE_BYTES // len(line))
    path.write_text(padding + "#" * (load.MAX_FILE_BYTES - len(padding) - 1) + "\n")
    doc, findings = load_yaml(path)
    assert findings == [] and doc.data is None  # exactly at the limit: only comments
    with path.open("a") as f:
        f.write("x")
    doc, findings = load_yaml(path)
    assert doc is None and [(f.code, f.line) for f in findings] == [("too-large", 1)]
    assert "10 MiB" in findings[0].message


@pytest.mark.parametrize("quote", ['"', "'", ""])
def test_string_size_limit(tmp_path, quote):
    path = tmp_path / "long.yaml"
    path.write_text(f"ok: {quote}{'x' * load.MAX_STRING}{quote}\n", encoding="utf-8")
    doc, findings = load_yaml(path)
    assert findings == [] and len(doc.data["ok"]) == load.MAX_STRING
    too_long = "ж" * (load.MAX_STRING + 1)
    path.write_text(f"ok: 1\ntoo_long: {quote}{too_long}{quote}\n", encoding="utf-8")
    doc, findings = load_yaml(path)
    assert doc is None and [(f.code, f.line, f.col) for f in findings] == [("too-large", 2, 11)]
    assert f"{load.MAX_STRING + 1:,} characters" in findings[0].message


def test_node_limit_counts_every_node_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(load, "MAX_NODES", 9)
    path = tmp_path / "nodes.yaml"
    path.write_text("- {id: a, n: 1}\n- {id: b}\n")  # a list, 2 mappings, 3 keys, 3 values
    assert load_yaml(path)[1] == []
    path.write_text("- {id: a, n: 1}\n- {id: b, n: 2}\n")
    doc, findings = load_yaml(path)
    assert doc is None and [(f.code, f.line, f.col) for f in findings] == [("too-large", 2, 11)]
    assert findings[0].message == ("this file has more than 9 YAML nodes (keys and values, "
                                   "counting each alias expansion)")
    path.write_text("a: &a [1, 2, 3]\nb: *a\n")  # a mapping, 2 keys, 4 nodes and their copy
    assert [(f.code, f.line, f.col) for f in load_yaml(path)[1]] == [("alias", 2, 4)]


def test_twenty_thousand_cards_load(tmp_path):
    card = ("- id: c{n}\n  type: action\n  name: {{uk: Поцілунок, en: Kiss}}\n  effects:\n"
            "    - draw: {{count: 3}}\n")
    path = tmp_path / "cards.yaml"
    path.write_text("".join(card.format(n=n) for n in range(20_000)), encoding="utf-8")
    doc, findings = load_yaml(path)
    assert findings == [] and len(doc.data) == 20_000 and doc.where((19_999, "id")) == (99_996, 3)



def test_a_files_name_is_resolved_once_per_working_folder(tmp_path, monkeypatch):
    """Each finding and card source of a file names it: resolving its path every time was most
    of what checking a game of 20,000 cards cost."""
    path = tmp_path / "cards.yaml"
    path.write_text("- {id: a}\n")
    doc, _ = load_yaml(path)
    resolved = []
    monkeypatch.setattr(load, "display_path", lambda p, _real=load.display_path: resolved.append(p) or _real(p))
    monkeypatch.chdir(tmp_path)
    assert [doc.name for _ in range(3)] == ["cards.yaml"] * 3
    monkeypatch.chdir(tmp_path.parent)
    assert doc.name == f"{tmp_path.name}/cards.yaml"
    assert resolved == [path, path]

@pytest.mark.parametrize("number", ["9" * 5000, "-" + "9" * 5000, "0x" + "f" * 5000,
                                    "1" + "_0" * 5000, "!!int '" + "9" * 101 + "'"])
def test_integer_digit_limit(tmp_path, number):
    """Python will not print an integer of over 4,300 digits (and will not read one in base
    10): the loader's own limit comes first, at the number."""
    path = tmp_path / "big.yaml"
    path.write_text(f"ok: {'9' * load.MAX_INT_DIGITS}\nbig: {number}\n")
    doc, findings = load_yaml(path)
    assert doc is None and [(f.code, f.line, f.col) for f in findings] == [("too-large", 2, 6)]
    assert f"digits; the limit is {load.MAX_INT_DIGITS}" in findings[0].message
    path.write_text(f"ok: {'9' * load.MAX_INT_DIGITS}\n")
    assert load_yaml(path)[0].data == {"ok": int("9" * load.MAX_INT_DIGITS)}


@pytest.mark.parametrize("scalar", ['!!int ""', '!!int "abc"', '!!int "0x"', '!!float "abc"',
                                    '!!bool "x"', '!!timestamp "99999-01-01"', "2024-13-45"])
def test_a_scalar_its_tag_cannot_read_is_a_finding(tmp_path, scalar):
    """PyYAML's constructors fail with Python's own errors on these; each is a finding."""
    path = tmp_path / "bad.yaml"
    path.write_text(f"a: 1\nb: {scalar}\n")
    doc, findings = load_yaml(path)
    assert doc is None and [(f.code, f.line, f.col) for f in findings] == [("syntax", 2, 4)]
    assert "bad scalar" in findings[0].message
