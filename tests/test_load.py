"""The loader: positions for every node, and every bad input a finding (tests/cases/load/)."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml

from forge.load import load_yaml

CASES = Path(__file__).parent / "cases" / "load"
EXPECTED = yaml.safe_load((CASES / "expected.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_case(name):
    started = time.perf_counter()
    doc, findings = load_yaml(CASES / name)
    assert time.perf_counter() - started < 5, "the loader must never hang"
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
