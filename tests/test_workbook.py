"""forge.workbook: a workbook's cells are placed as python-calamine places them, before calamine
reads them, so a sheet is refused exactly when its grid would pass the limits."""
from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import pytest

from forge.workbook import Limits, workbook_rows
from odsfile import ods

TYPES = ('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" '
         'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/'
         'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>')
ROOT = ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="w" '
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>')
BOOK = ('<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.'
        'openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="cards" sheetId="1" r:id="s"/>'
        '</sheets></workbook>')
RELS = ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="s" '
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
        'Target="worksheets/sheet1.xml"/></Relationships>')


def xlsx(sheet_data: str, **more: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in {"[Content_Types].xml": TYPES, "_rels/.rels": ROOT, "xl/workbook.xml": BOOK,
                           "xl/_rels/workbook.xml.rels": RELS, **more,
                           "xl/worksheets/sheet1.xml": '<worksheet xmlns="http://schemas.openxmlformats.org/'
                           f'spreadsheetml/2006/main"><sheetData>{sheet_data}</sheetData></worksheet>'}.items():
            z.writestr(name, text)
    return out.getvalue()


def V(n: int = 1) -> str:
    return f"<v>{n}</v>"


XLSX_SHEETS = {
    "references": f'<row r="1"><c r="A1">{V()}</c></row><row r="7"><c r="D7">{V()}</c></row>',
    "cells follow the one before": f'<row r="2"><c r="B2">{V()}</c><c>{V()}</c><c/><c>{V()}</c></row>',
    "rows follow the one before": f'<row>{"<c/>"}</row><row/><row><c>{V()}</c><c>{V()}</c></row>',
    "a cell's own row wins": f'<row r="2"><c r="C9">{V()}</c><c>{V()}</c></row><row><c>{V()}</c></row>',
    "styled empty cells are no cells": f'<row r="1"><c r="A1">{V()}</c><c r="Z40" s="3"/></row>',
    "inline strings": '<row r="3"><c r="E3" t="inlineStr"><is><t>x</t></is></c></row>',
    "prefixed names": f'<x:row xmlns:x="urn:x" r="4"><x:c r="F4"><x:v>1</x:v></x:c></x:row>',
}
ODS_CELL = '<table:table-cell office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell>'
ODS_SHEETS = {
    "repeated rows": f'<table:table-row>{ODS_CELL}</table:table-row><table:table-row '
                     f'table:number-rows-repeated="4">{ODS_CELL}{ODS_CELL}</table:table-row>',
    "empty repeats between": f'<table:table-row table:number-rows-repeated="3"><table:table-cell/></table:table-row>'
                             f'<table:table-row><table:table-cell table:number-columns-repeated="5"/>{ODS_CELL}'
                             '<table:table-cell table:number-columns-repeated="1000"/></table:table-row>'
                             '<table:table-row table:number-rows-repeated="1048000"><table:table-cell '
                             'table:number-columns-repeated="1024"/></table:table-row>',
    "repeated cells": f'<table:table-row><table:table-cell table:number-columns-repeated="3" '
                      'office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>',
}
CASES = [(".xlsx", name, xlsx(data)) for name, data in XLSX_SHEETS.items()] + \
        [(".ods", name, ods(data)) for name, data in ODS_SHEETS.items()]


@pytest.mark.parametrize("suffix, name, raw", CASES, ids=[f"{s} {n}" for s, n, _ in CASES])
def test_cells_are_placed_where_calamine_places_them(tmp_path, suffix, name, raw):
    """calamine's own grid (height x width from A1) passes limits of exactly that size; one
    row or column or cell less is refused."""
    import python_calamine

    path = tmp_path / f"t{suffix}"
    path.write_bytes(raw)
    grid = python_calamine.CalamineWorkbook.from_path(str(path)).get_sheet_by_index(0).to_python(skip_empty_area=False)
    rows, cols = len(grid), max(len(r) for r in grid)
    got, findings = workbook_rows(raw, "t", suffix, None, Limits(rows, cols, max(rows * cols, 2)))
    assert findings == [] and got == grid
    for limits in (Limits(rows - 1, cols, rows * cols), Limits(rows, cols - 1, rows * cols),
                   Limits(rows, cols, rows * cols - 1)):
        _, findings = workbook_rows(raw, "t", suffix, None, limits)
        assert [f.code for f in findings] == ["too-large"], (limits, findings)


LIMITS = Limits(100_000, 1_000, 2_000_000)


def test_a_cell_far_away_is_refused_at_that_cell():
    _, findings = workbook_rows(xlsx(f'<row r="1"><c r="A1">{V()}</c><c r="XFD1048576">{V()}</c></row>'),
                                "x.xlsx", ".xlsx", None, LIMITS)
    assert [(f.line, f.col, f.code) for f in findings] == [(1048576, 16384, "too-large")]
    # within each limit, but a grid of 100,000 x 1,000 cells
    _, findings = workbook_rows(xlsx(f'<row r="100000"><c r="ALL100000">{V()}</c></row>'), "x", ".xlsx", None, LIMITS)
    assert findings[0].message.endswith("are more than 2,000,000")


def test_a_sheet_part_that_is_not_well_formed_or_declares_entities_is_refused():
    broken = xlsx(f'<row r="1"><c r="A1">{V()}</c></row><row>')
    _, findings = workbook_rows(broken, "x", ".xlsx", None, LIMITS)
    assert findings[0].code == "syntax" and "well-formed" in findings[0].message
    z = zipfile.ZipFile(io.BytesIO(xlsx("")))
    parts = {i.filename: z.read(i) for i in z.infolist()}
    parts["xl/worksheets/sheet1.xml"] = b'<!DOCTYPE w [<!ENTITY a "aaaa">]>' + parts["xl/worksheets/sheet1.xml"]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    _, findings = workbook_rows(out.getvalue(), "x", ".xlsx", None, LIMITS)
    assert findings[0].code == "syntax" and "DTD" in findings[0].message


def test_a_part_whose_declared_size_lies_is_read_no_further():
    """The central directory says 100 bytes; the data unpacks to 50 MiB: forge reads 100 and
    finds the checksum wrong, and calamine never sees the part."""
    raw = bytearray(xlsx(f'<row r="1"><c r="A1" t="s">{V(0)}</c></row>', **{
        "xl/sharedStrings.xml": "<sst><si><t>" + "a" * (50 << 20) + "</t></si></sst>"}))
    at = raw.rfind(b"PK\x01\x02", 0, raw.find(b"xl/sharedStrings.xml", raw.find(b"PK\x01\x02")) + 1)
    raw[at + 24:at + 28] = struct.pack("<I", 100)  # the uncompressed size in the central directory
    _, findings = workbook_rows(bytes(raw), "x", ".xlsx", None, LIMITS)
    assert findings[0].code == "syntax" and "CRC" in findings[0].message, findings


def test_a_panic_in_calamine_is_a_finding(monkeypatch):
    """pyo3 raises a panic of calamine's Rust code as a BaseException, not an Exception."""
    import python_calamine

    class PanicException(BaseException):
        pass

    def panic(path):
        raise PanicException("index out of bounds")
    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_path", panic)
    _, findings = workbook_rows(xlsx(f'<row r="1"><c r="A1">{V()}</c></row>'), "x.xlsx", ".xlsx", None, LIMITS)
    assert [(f.code, f.message) for f in findings] == [
        ("syntax", "cannot read the workbook: PanicException: index out of bounds")]
