"""Workbooks (.xlsx, .xlsm, .ods) made safe for python-calamine before it reads one.

calamine unpacks a workbook's parts and makes a sheet into a dense grid (32 bytes a cell, from
its first cell to its last) before forge can count anything: a 1.5 KB .xlsx with one cell at
XFD1048576 asks it for 512 GB and aborts the process, a 400 KB one unpacks to gigabytes. So
forge reads the archive first, within bounds: the parts' number and unpacked size, then where
the cells of every sheet lie, counted as calamine counts them (a cell or row without a
reference follows the one before it; an ODS row or cell repeated counts as many). calamine then
reads only the bytes counted here, from an archive rebuilt of them (so a part's declared size
cannot lie to one reader and not the other), as the format the name says (given bytes,
calamine guesses the format, and could read an .xlsx as the .ods or .xlsb it really is).
"""
from __future__ import annotations

import io
import re
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable
from xml.parsers import expat

from .errors import Finding, UsageError

__all__ = ["Limits", "workbook_rows"]

#: Parts of an archive, their unpacked bytes together (a workbook of 20,000 cards unpacks to
#: about 12 MiB), and the XML elements of its sheets (that one has 1.6 million).
MAX_PARTS = 1_000
MAX_UNPACKED = 64 * 2**20
MAX_ELEMENTS = 4_000_000

#: calamine reads the cells of an .xlsx part only after a `sheetData` tag (whatever the part's
#: name: the workbook's relationships say which parts are sheets); an .ods has its cells in
#: content.xml.
_SHEET_DATA = r"<(?:[^\s<>/]*:)?sheetData[\s>/]"
_UTF16 = {b"\xff\xfe": "utf-16-le", b"<\x00": "utf-16-le", b"\xfe\xff": "utf-16-be", b"\x00<": "utf-16-be"}
_REF = re.compile(r"([A-Za-z]{0,3})([0-9]{1,7})")


@dataclass(frozen=True)
class Limits:
    rows: int
    columns: int
    cells: int  # from A1 to a sheet's last cell (rows x columns), and cell elements in a sheet


class _Refused(Exception):
    def __init__(self, message: str, row: int = 0, col: int = 0, code: str = "too-large"):
        super().__init__(message)
        self.row, self.col, self.code = row, col, code


def workbook_rows(raw: bytes, name: str, suffix: str, sheet: str | None,
                  limits: Limits) -> tuple[list[list[Any]], list[Finding]]:
    """The rows of a workbook's sheet (the first unless named), from A1, once the archive holds
    every bound; else a finding (at the far cell where one is to blame). `suffix`: .xlsx,
    .xlsm or .ods."""
    import python_calamine

    with tempfile.TemporaryDirectory(prefix="forge-import-") as folder:
        path = Path(folder) / f"sheet{suffix}"
        try:
            _rebuild(raw, path, suffix == ".ods", limits)
        except _Refused as exc:
            fix = ("save it again as .xlsx or .ods" if exc.code == "syntax" else
                   f"keep the cards within {limits.rows:,} rows and {limits.columns:,} columns, with no "
                   "stray cell far away, and other tables in another workbook")
            return [], [Finding(name, exc.row, exc.col, exc.code, str(exc), fix)]
        try:
            with python_calamine.CalamineWorkbook.from_path(str(path)) as book:
                if sheet is None:
                    if not book.sheet_names:
                        return [], [Finding(name, 0, 0, "empty", "the workbook has no sheet")]
                    data = book.get_sheet_by_index(0)
                elif sheet in book.sheet_names:
                    data = book.get_sheet_by_name(sheet)
                else:
                    raise UsageError(f"{name} has no sheet {sheet!r} (it has {', '.join(book.sheet_names)})")
                return data.to_python(skip_empty_area=False), []
        except (UsageError, KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 (calamine's errors are many: zip, XML, password
            # ...; a panic in its Rust code is pyo3's PanicException, which is no Exception)
            return [], [Finding(name, 0, 0, "syntax", f"cannot read the workbook: {type(exc).__name__}: {exc}")]


def _rebuild(raw: bytes, target: Path, ods: bool, limits: Limits) -> None:
    """Write the workbook's parts, stored, to `target`, each read only up to its declared size
    once the sizes add up to little, and every sheet's cells counted."""
    elements = [0]
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as z, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as out:
            infos = z.infolist()
            if len(infos) > MAX_PARTS:
                raise _Refused(f"the archive has {len(infos):,} parts; a workbook has a few dozen")
            total = sum(info.file_size for info in infos)
            if total > MAX_UNPACKED:
                raise _Refused(f"the workbook unpacks to {total / 2**20:,.0f} MiB; "
                               f"forge reads at most {MAX_UNPACKED // 2**20} MiB")
            names = set()
            for info in infos:
                if info.filename in names:
                    raise _Refused(f"two parts are named {info.filename!r}", code="syntax")
                names.add(info.filename)
                data = z.read(info)  # stops at the declared size; checks the CRC
                if info.filename == "content.xml" if ods else _is_sheet(data):
                    _check_sheet(data, ods, limits, elements)
                out.writestr(info.filename, data)
    except (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError, ValueError) as exc:
        raise _Refused(f"not a workbook forge reads ({exc})", code="syntax") from None


def _is_sheet(data: bytes) -> bool:
    """Whether calamine could read cells from an .xlsx part (UTF-16 XML, too: its XML reader
    knows the encoding from the first bytes)."""
    if data[:2] in _UTF16:
        if re.search(_SHEET_DATA, data.decode(_UTF16[data[:2]], "replace")):
            raise _Refused("a sheet is in UTF-16; forge reads sheets in UTF-8", code="syntax")
        return False
    return re.search(_SHEET_DATA.encode(), data) is not None


def _check_sheet(data: bytes, ods: bool, limits: Limits, elements: list[int]) -> None:
    """Refuse a part whose cells reach beyond the limits (every table of it, as calamine reads
    every table of an .ods when it opens it), or that is not XML that expat reads."""
    elements[0] += data.count(b"<")
    if elements[0] > MAX_ELEMENTS:
        raise _Refused(f"the sheets have more than {MAX_ELEMENTS:,} XML elements")
    far = [0, 0]

    def cell(row: int, col: int) -> None:
        if row > limits.rows or col > limits.columns:
            raise _Refused(f"a cell at row {row:,}, column {col:,}; forge reads at most "
                           f"{limits.rows:,} rows and {limits.columns:,} columns", row, col)
        far[0], far[1] = max(far[0], row), max(far[1], col)
        if far[0] * far[1] > limits.cells:
            raise _Refused(f"the cells from A1 to row {far[0]:,}, column {far[1]:,} are more than "
                           f"{limits.cells:,}", row, col)

    def table() -> None:
        far[0] = far[1] = 0

    parser = expat.ParserCreate()  # no namespaces: calamine, too, goes by local names
    parser.StartDoctypeDeclHandler = _no_doctype
    (_ods_reader if ods else _xlsx_reader)(parser, cell, table, limits)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise _Refused(f"a sheet is not well-formed XML: {expat.ErrorString(exc.code)} at line "
                       f"{exc.lineno}", code="syntax") from None


def _no_doctype(*_: Any) -> None:
    raise _Refused("a sheet declares a DTD (it could define entities)", code="syntax")


def _local(name: str) -> str:
    return name.rpartition(":")[2]


def _xlsx_reader(parser: Any, cell: Callable[[int, int], None], table: Callable[[], None],
                 limits: Limits) -> None:
    """Place each cell with a value (a `v` or `is` in its `c`), 1-based, as calamine does: by
    the cell's `r`, else right of the cell before it, in the row its `row` names, else after
    the row before it."""
    at = {"row": 1, "col": 1, "cell": None, "count": 0}

    def start(name: str, attrs: dict) -> None:
        local = _local(name)
        if local == "row":
            at["col"] = 1
            if "r" in attrs:
                at["row"] = _ref(attrs["r"])[0]
        elif local == "c":
            at["count"] += 1
            if at["count"] > limits.cells:
                raise _Refused(f"a sheet has more than {limits.cells:,} cells")
            row, col = _ref(attrs["r"]) if "r" in attrs else (at["row"], at["col"])
            at["col"], at["cell"] = col + 1, (row, col)
        elif local in ("v", "is") and at["cell"] is not None:
            cell(*at["cell"])
            at["cell"] = None

    def end(name: str) -> None:
        local = _local(name)
        if local == "c":
            at["cell"] = None
        elif local == "row":
            at["row"], at["col"] = at["row"] + 1, 1

    parser.StartElementHandler, parser.EndElementHandler = start, end


def _ref(ref: str) -> tuple[int, int]:
    """`XFD1048576` as (1048576, 16384); a reference beyond any limit is refused."""
    match = _REF.fullmatch(ref)
    if match is None:
        raise _Refused(f"a cell reference forge does not read: {ref[:20]!r} (column ZZZ and row "
                       "9,999,999 at most)")
    col = 0
    for letter in match[1].upper():
        col = col * 26 + ord(letter) - ord("A") + 1
    return int(match[2]), col


def _ods_reader(parser: Any, cell: Callable[[int, int], None], table: Callable[[], None],
                limits: Limits) -> None:
    """Place the far corner of each row with a value, repeats counted, 1-based; count the cells
    as calamine keeps them while reading (a row's cells up to its last value, once for a
    repeated row)."""
    at = {"row": 0, "col": 0, "last": 0, "times": 1, "kept": 0, "depth": 0}

    def start(name: str, attrs: dict) -> None:
        local = _local(name)
        if at["depth"]:  # inside a cell: anything there is its value
            at["depth"] += 1
            at["last"] = at["col"]
        elif local == "table":
            at["row"] = 0
            table()
        elif local == "table-row":
            at["col"] = at["last"] = 0
            at["times"] = _repeats(attrs, "number-rows-repeated")
        elif local in ("table-cell", "covered-table-cell"):
            at["col"] += _repeats(attrs, "number-columns-repeated")
            at["depth"] = 1
            if any(_local(a) in ("value-type", "formula") for a in attrs):
                at["last"] = at["col"]

    def end(name: str) -> None:
        if at["depth"]:
            at["depth"] -= 1
        elif _local(name) == "table-row":
            if at["last"]:
                at["kept"] += at["last"]
                if at["kept"] > limits.cells:
                    raise _Refused(f"a sheet has more than {limits.cells:,} cells")
                cell(at["row"] + at["times"], at["last"])
            at["row"] += at["times"]

    parser.StartElementHandler, parser.EndElementHandler = start, end


def _repeats(attrs: dict, name: str) -> int:
    value = next((v for a, v in attrs.items() if _local(a) == name), "1")
    if not value.isdigit() or len(value) > 9:
        raise _Refused(f"a repeat count forge does not read: {value[:20]!r}", code="syntax")
    return int(value)
