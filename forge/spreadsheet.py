"""Card data from a spreadsheet (`forge import`): one row per card, one column per field.

Reading: a regular file of at most 10 MiB (a FIFO or a device is refused before it is opened).
`.csv` / `.tsv` with the standard library (UTF-8; the delimiter is the one of comma, semicolon
and tab that splits the first record into most columns); `.xlsx`, `.xlsm` and `.ods` with
python-calamine (its first sheet unless one is named), once `forge.workbook` has bounded the
archive and where its cells lie (MAX_ROWS, MAX_COLUMNS, MAX_CELLS). `.xls` and `.xlsb` are
binary formats whose cells cannot be counted before calamine makes a grid of them: refused.
The first non-empty row is the header; every other non-empty row is a card. Rows and columns
are counted from 1 as the spreadsheet shows them (CSV: records, so a quoted cell spanning lines
is still one row).

Columns: a column's name is a card key (`id`, `subtype`, `set`, `copies`, `art`, `replaces`, or
a field of the card type), with a dot for the parts of a mapping: `name.uk`, `name.en`,
`flavor.en`, or `stats.attack` for an `object` field. Values follow the field's type from the
manifest: numbers for `int` (`3`, `3.0` and `3.00` alike; `3.5` is a finding, and so is a
number of more digits than Python reads), `true`/`false`/`yes`/`no`/`1`/`0` for `bool`, text as
written otherwise. `effects`, `list`, `object` and `effects`-typed fields hold YAML flow
text, read by forge's own YAML loader with its limits: `draw: 3`, `[draw: 3, discard: {count: 1}]`,
`[techno, house]` (a list without its brackets gets them; a block list pasted with its line
breaks, `- draw: 3`, is read as it is). An empty cell leaves the key out (and
removes it from a card being updated); a column whose header starts with `#` is the designer's
own (notes, sums) and is skipped. The type is the `--type` of the import, the set `--set`, else
the card's own when updated, else the manifest's first set.

Validation is forge's: the rows become a document whose positions are sheet cells, validated
by the card models `load_game` uses (`forge.model.game.read_cards`), then the game with those
cards runs every check of `forge check` (`forge.check.run_checks`). So every
finding about an imported card names the sheet, the row and the column: `cards.csv:7:3: ...`.

Writing: the cards go into `cards/<game>/<file>.yaml` (by default the sheet's name). A card
whose id is already in that file is updated in place and the others keep their order, comments
and formatting (ruamel.yaml round trip); new cards are appended in the sheet's order; cards the
sheet does not name stay. Nothing is written while a row cannot become a card (a model error
or a cell that cannot be read: the file would lose that card) or the data checks find one of
the sheet's cards wrong (an id another card has, a reference to no card: the file would hold
the conflict); `--dry-run` refuses the same rows. Findings of the other checks (counts in the
manifest, text fit ...) are reported after writing, as `forge check` would report them.
"""
from __future__ import annotations

import csv
import datetime
import io
import os
import re
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

from .errors import Finding, ForgeError, UsageError, display_path
from .files import write_atomic
from .load import MAX_FILE_BYTES, MAX_STRING, Document, load_yaml, parse_yaml
from .model import load_game
from .model.cards import COMMON_KEYS, card_models
from .model.game import refusal
from .workbook import Limits, workbook_rows
from .yamledit import fresh, round_trip, update

__all__ = ["Cell", "ImportResult", "Sheet", "card_rows", "import_sheet", "read_sheet", "SHEET_SUFFIXES"]

CSV_SUFFIXES = (".csv", ".tsv")
CALAMINE_SUFFIXES = (".xlsx", ".xlsm", ".ods")
SHEET_SUFFIXES = CSV_SUFFIXES + CALAMINE_SUFFIXES
BINARY_SUFFIXES = (".xls", ".xlsb")  # refused: see read_sheet
#: Most rows and columns a sheet may have (the YAML limits make 20,000 cards load in a second),
#: and cells from A1 to a workbook sheet's last one (python-calamine makes them a grid).
MAX_ROWS = 100_000
MAX_COLUMNS = 1_000
MAX_CELLS = 2_000_000
#: The type of each key every card has, as a field spec's type.
COMMON_TYPES = {"id": "str", "type": "str", "subtype": "str", "set": "str", "copies": "int",
                "name": "text", "text": "text", "flavor": "text", "art": "str", "replaces": "str",
                "back": "str", "effects": "effects"}
assert set(COMMON_TYPES) == set(COMMON_KEYS)


@dataclass(frozen=True)
class Cell:
    row: int  # 1-based, as the spreadsheet shows it
    col: int  # 1-based (A = 1)
    value: Any  # str (stripped, never empty), int, float, bool, date or time


@dataclass
class Sheet:
    path: Path
    rows: list[list[Cell]]  # non-empty rows, each with its non-empty cells; the first is the header

    @property
    def name(self) -> str:
        return display_path(self.path)

    def finding(self, row: int, col: int, code: str, message: str, fix: str = "", card: str = "") -> Finding:
        return Finding(self.name, row, col, code, message, fix, card)


# --------------------------------------------------------------------------------------------
# Reading


def read_sheet(path: Path, sheet: str | None = None) -> tuple[Sheet | None, list[Finding]]:
    """The non-empty cells of a CSV file or a workbook's sheet; findings when it cannot be read."""
    name = display_path(path)
    suffix = path.suffix.lower()
    if suffix in BINARY_SUFFIXES:
        raise UsageError(f"{name}: forge does not read {suffix} workbooks (a binary format whose cells "
                         "cannot be counted before they are read); save the sheet as .xlsx or .ods")
    if suffix not in SHEET_SUFFIXES:
        raise UsageError(f"{name}: not a spreadsheet forge reads (use {', '.join(SHEET_SUFFIXES)})")
    try:
        raw = _read_file(path, name)
    except OSError as exc:
        return None, [Finding(name, 0, 0, "io", f"cannot read the file: {exc.strerror}")]
    if len(raw) > MAX_FILE_BYTES:
        return None, [Finding(name, 0, 0, "too-large", f"the file is larger than "
                              f"{MAX_FILE_BYTES // 2**20} MiB", "split the cards into several sheets")]
    if suffix in CSV_SUFFIXES:
        if sheet is not None:
            raise UsageError("--sheet names a sheet of a workbook; a CSV file has one")
        rows, findings = _csv_rows(raw, name, suffix)
    else:
        rows, findings = workbook_rows(raw, name, suffix, sheet, Limits(MAX_ROWS, MAX_COLUMNS, MAX_CELLS))
    if findings:
        return None, findings
    cells = []
    for r, values in enumerate(rows, 1):
        if r > MAX_ROWS:
            return None, [Finding(name, r, 1, "too-large", f"more than {MAX_ROWS:,} rows",
                                  "split the cards into several sheets")]
        row = []
        for c, value in enumerate(values, 1):
            if isinstance(value, str):
                value = value.strip()
                if len(value) > MAX_STRING:
                    return None, [Finding(name, r, c, "too-large", f"a cell of {len(value):,} "
                                          f"characters; the limit is {MAX_STRING:,}")]
            if value is None or value == "":
                continue
            if c > MAX_COLUMNS:
                return None, [Finding(name, r, c, "too-large", f"more than {MAX_COLUMNS:,} columns")]
            row.append(Cell(r, c, value))
        if row:
            cells.append(row)
    if not cells:
        return None, [Finding(name, 0, 0, "empty", "the sheet has no cells",
                              "put a header row (id, name.uk, ...) and a row per card")]
    return Sheet(path, cells), []


def _read_file(path: Path, name: str) -> bytes:
    """At most one byte over the size limit of a regular file; a FIFO, a device or a folder is
    refused before it is opened (reading a FIFO waits for a writer), and checked again once open."""
    if not stat.S_ISREG(path.stat().st_mode):
        raise UsageError(f"{name}: not a regular file; give a sheet saved as a file")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with open(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UsageError(f"{name}: not a regular file; give a sheet saved as a file")
        return f.read(MAX_FILE_BYTES + 1)


#: csv.Sniffer's regular expressions take seconds on a crafted head of a few KiB (quadratic):
#: forge instead reads the first record with each delimiter it accepts, and takes the one that
#: splits it into most columns (a comma on a tie).
_DELIMITERS = ",;\t"
_HEAD = 4096


def _delimiter(text: str) -> str:
    def columns(delimiter: str) -> int:
        records = csv.reader(io.StringIO(text[:_HEAD], newline=""), delimiter=delimiter)
        try:
            return next((len(record) for record in records if any(f.strip() for f in record)), 0)
        except csv.Error:
            return 0
    return max(_DELIMITERS, key=columns)


def _csv_rows(raw: bytes, name: str, suffix: str) -> tuple[list[list[str]], list[Finding]]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        return [], [Finding(name, line, 0, "encoding", f"byte 0x{raw[exc.start]:02x} is not UTF-8",
                            "export the sheet as CSV in UTF-8")]
    delimiter = "\t" if suffix == ".tsv" else _delimiter(text)
    try:
        return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)), []
    except csv.Error as exc:
        return [], [Finding(name, 0, 0, "syntax", f"not readable as CSV: {exc}")]


# --------------------------------------------------------------------------------------------
# Columns and cells to card data


@dataclass
class _Column:
    cell: Cell  # the header cell
    path: tuple[str, ...]
    kind: str  # the field spec's type of the value at `path` (or "str")


def _columns(sheet: Sheet, manifest: Any, type_id: str, model: Any) -> tuple[list[_Column], list[Finding]]:
    spec = manifest.card_types[type_id]
    columns, findings = [], []
    seen: dict[tuple[str, ...], Cell] = {}
    for cell in sheet.rows[0]:
        header = _text(cell.value).strip()
        if header.startswith("#"):  # the designer's own column (notes, formulas): not card data
            continue
        path = tuple(part.strip() for part in header.split("."))
        if not all(path):
            findings.append(sheet.finding(cell.row, cell.col, "unknown-column",
                                          f"column {header!r} is not a card key"))
            continue
        if path[0] not in model.model_fields:
            findings.append(sheet.finding(
                cell.row, cell.col, "unknown-column", f"column {header!r}: {path[0]!r} is not a key "
                f"of {type_id} cards", "use one of: " + ", ".join(model.model_fields)))
            continue
        clash = next((other for p, other in seen.items() if p[:len(path)] == path or path[:len(p)] == p), None)
        if clash is not None:
            findings.append(sheet.finding(cell.row, cell.col, "duplicate-column",
                                          f"column {header!r} sets what column {clash.col} sets"))
            continue
        seen[path] = cell
        columns.append(_Column(cell, path, column_kind(path, spec.fields.get(path[0]))))
    if ("id",) not in seen:
        first = sheet.rows[0][0]
        findings.append(sheet.finding(first.row, first.col, "missing-column",
                                      "the header has no `id` column", "add a column `id`"))
    return columns, findings


def column_kind(path: tuple[str, ...], spec: Any) -> str:
    """The type of the value a column holds: its field's type, walked down an object's fields
    (a text's locale is a plain string)."""
    kind = COMMON_TYPES.get(path[0]) if spec is None else spec.type
    for part in path[1:]:
        if kind == "text":
            return "str"
        if kind == "object" and spec is not None and spec.fields and part in spec.fields:
            spec = spec.fields[part]
            kind = spec.type
        else:
            return "str"
    return kind or "str"


_INT = re.compile(r"([+-]?\d+)(?:\.0*)?")
_TRUE, _FALSE = {"true", "yes", "1"}, {"false", "no", "0"}


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (datetime.date, datetime.time, datetime.datetime)):
        return value.isoformat()
    return str(value)


def _value(sheet: Sheet, cell: Cell, kind: str) -> tuple[Any, Finding | None]:
    """A cell's value as the field's type wants it; one that cannot be is passed on as text, so
    the card model reports it at this cell, with the model's words. YAML flow text that does
    not parse is a finding here."""
    value = cell.value
    if kind == "int":
        if isinstance(value, float) and value.is_integer():
            return int(value), None
        if isinstance(value, str) and (number := _INT.fullmatch(value)):
            try:
                return int(number[1]), None
            except ValueError:  # over Python's 4,300 digits (sys.get_int_max_str_digits)
                return None, sheet.finding(cell.row, cell.col, "too-large", f"a number of "
                                           f"{len(number[1]):,} digits", "write the number the field wants")
        return value, None
    if kind == "bool":
        if isinstance(value, bool):
            return value, None
        word = _text(value).lower()
        return (True if word in _TRUE else False if word in _FALSE else value), None
    if kind in ("list", "effects", "object"):
        if not isinstance(value, str):
            return value, None
        text = value
        opening = "{" if kind == "object" else "["
        block = kind != "object" and text.startswith("- ")  # a block list pasted with its lines
        if not text.startswith(opening) and not block:
            text = opening + text + ("}" if kind == "object" else "]")
        doc, problems = parse_yaml(text, sheet.path)
        if problems:
            return None, sheet.finding(cell.row, cell.col, "cell-yaml",
                                       f"not YAML flow text: {problems[0].message}",
                                       "write it like [draw: 3, discard: {count: 1}]")
        return doc.data, None
    return _text(value), None


@dataclass
class _Row:
    index: int  # in the sheet's data rows
    cells: dict[tuple[str, ...], Cell]  # the cell behind each key path
    data: dict[str, Any]  # the values the sheet gives (nested by path)
    cleared: list[tuple[str, ...]]  # paths whose column is there but the cell empty
    row: int
    id_col: int


def card_rows(sheet: Sheet, manifest: Any, type_id: str, model: Any) -> tuple[list[_Row], list[Finding]]:
    """Each row of the sheet as the card data it gives (`_Row.data`), by its header's columns;
    findings for columns and cells that cannot be read."""
    columns, findings = _columns(sheet, manifest, type_id, model)
    rows, more = _rows(sheet, columns)
    return rows, findings + more


def _rows(sheet: Sheet, columns: list[_Column]) -> tuple[list[_Row], list[Finding]]:
    out, findings = [], []
    by_col = {c.cell.col: c for c in columns}
    id_col = next((c.cell.col for c in columns if c.path == ("id",)), 1)
    for index, cells in enumerate(sheet.rows[1:]):
        data: dict[str, Any] = {}
        where: dict[tuple[str, ...], Cell] = {}
        for cell in cells:
            column = by_col.get(cell.col)
            if column is None:  # under a header cell that is missing or refused
                if not any(c.col == cell.col for c in sheet.rows[0]):
                    findings.append(sheet.finding(cell.row, cell.col, "unknown-column",
                                                  "a value in a column without a header",
                                                  "name the column in the header row, or clear the cell"))
                continue
            value, problem = _value(sheet, cell, column.kind)
            if problem is not None:
                findings.append(problem)
                continue
            _put(data, column.path, value)
            where[column.path] = cell
        given = set(where)
        cleared = [c.path for c in columns if c.path not in given]
        out.append(_Row(index, where, data, cleared, cells[0].row, id_col))
    return out, findings


def _put(data: dict, path: tuple[str, ...], value: Any) -> None:
    for part in path[:-1]:
        data = data.setdefault(part, {})
    data[path[-1]] = value


def _remove(data: dict, path: tuple[str, ...]) -> None:
    """Remove the key at `path`, and the mappings it leaves empty (`flavor` without a locale)."""
    if len(path) > 1:
        inner = data.get(path[0])
        if isinstance(inner, dict):
            _remove(inner, path[1:])
            if not inner:
                data.pop(path[0])
        return
    data.pop(path[0], None)


#: Key order of a new card, as this project's card files write them; the type's own fields
#: come between `name` and `effects`, in the manifest's order.
FIRST_KEYS = ("id", "type", "subtype", "set", "copies", "name")
LAST_KEYS = ("effects", "text", "flavor", "art", "replaces", "back")


def _ordered(card: dict, fields: Iterable[str]) -> dict:
    order = {key: n for n, key in enumerate((*FIRST_KEYS, *fields, *LAST_KEYS))}
    return dict(sorted(card.items(), key=lambda item: order.get(item[0], len(order))))


def _merge(old: Any, new: Any) -> Any:
    """`new` over `old`: mappings key by key, anything else replaced."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = dict(old)
        for key, value in new.items():
            out[key] = _merge(old.get(key), value)
        return out
    return new


# --------------------------------------------------------------------------------------------
# Import


@dataclass
class ImportResult:
    target: Path
    written: bool = False
    refused: bool = False  # the sheet's rows have findings that keep them out of the file
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # cards of the file the sheet does not name
    findings: list[Finding] = field(default_factory=list)


def target_file(root: Path, sheet_path: Path, name: str | None) -> Path:
    """`cards/<game>/<name>.yaml` (default: the sheet's name); never the manifest."""
    stem = name if name is not None else sheet_path.stem
    stem = stem[:-5] if stem.endswith(".yaml") else stem[:-4] if stem.endswith(".yml") else stem
    if not stem or "/" in stem or "\\" in stem or stem.startswith(".") or stem == "game":
        raise UsageError(f"{stem!r} cannot be a card file name: give --file a plain name (not game)")
    return root / f"{stem}.yaml"


def import_sheet(root: Path, sheet_path: Path, type_id: str, set_id: str | None = None,
                 file: str | None = None, sheet: str | None = None, write: bool = True) -> ImportResult:
    """Import the rows of a sheet as cards of `type_id` into the game at `root` (see the module
    docstring); `write=False` only validates."""
    from .check import run_checks
    from .model.game import read_cards

    target = target_file(root, sheet_path, file)
    result = ImportResult(target)
    game, game_findings = load_game(root)
    if game is None:
        result.findings = game_findings
        return result
    manifest = game.manifest
    if type_id not in manifest.card_types:
        raise UsageError(f"{game.id} has no card type {type_id!r} (it has {', '.join(manifest.card_types)})")
    if set_id is not None and set_id not in manifest.sets:
        raise UsageError(f"{game.id} has no set {set_id!r} (it has {', '.join(manifest.sets)})")
    table, findings = read_sheet(sheet_path, sheet)
    if table is None:
        result.findings = findings
        return result
    models = card_models(manifest)
    rows, findings = card_rows(table, manifest, type_id, models[type_id])

    # The file as it is: plain data by forge's loader (what check sees), and ruamel's round trip.
    existing: list[Any] = []
    if os.path.lexists(target):
        problem = refusal(root, target.name, "card file")
        if problem is not None:  # a link leading out is neither read nor replaced
            result.findings = [problem]
            return result
        doc, problems = load_yaml(target)
        if doc is None or not isinstance(doc.data, (list, type(None))):
            result.findings = problems or [doc.finding((), "shape", "a card file is a YAML list of cards")]
            return result
        existing = list(doc.data or [])
    old_by_id = {c["id"]: c for c in existing if isinstance(c, dict) and isinstance(c.get("id"), str)}

    # Each row as the card it makes (merged over the card it updates), positioned at its cells.
    data, positions = [], {}
    first_set = next(iter(manifest.sets))
    for i, row in enumerate(rows):
        card_id = row.data.get("id")
        old = old_by_id.get(card_id) if isinstance(card_id, str) else None
        card = _merge(old or {}, row.data)
        for path in row.cleared:
            _remove(card, path)
        given = row.data.get("type")
        if given is not None and given != type_id:
            cell = row.cells[("type",)]
            findings.append(table.finding(cell.row, cell.col, "type-change",
                                          f"this row is a {given} card; the import is of {type_id} cards",
                                          "import each type with its own --type", card=str(card_id or "")))
        elif old is not None and old.get("type") != type_id:
            findings.append(table.finding(row.row, row.id_col, "type-change",
                                          f"{card_id!r} is a {old.get('type')} card in "
                                          f"{display_path(target)}; this import makes {type_id} cards",
                                          "import it with its own --type", card=card_id))
        card["type"] = type_id
        if ("set",) not in row.cells:
            card["set"] = set_id or (old or {}).get("set") or first_set
        data.append(_ordered(card, manifest.card_types[type_id].fields))
        positions[(i,)] = (row.row, row.id_col)
        for path, cell in row.cells.items():
            positions[(i, *path)] = (cell.row, cell.col)
    sheet_doc = Document(table.path, data, positions)
    sheet_cards: list[Any] = []
    ids: set[str] = set()
    if data:
        findings += read_cards(sheet_doc, models, sheet_cards, ids, manifest.locales)
    else:
        findings.append(table.finding(table.rows[0][0].row, 1, "empty", "the sheet has a header but no card rows"))
    refused = bool(findings)  # a row that is not a card, or a cell that cannot be read

    # The game as it will be: the other files' cards, this file's others, and the sheet's, in
    # the order the file is written (a card updated where it stands, a new one after all), so
    # that a sheet that changes nothing is checked as the game it was (a layout kept for it too).
    named = {c["id"] for c in data if isinstance(c.get("id"), str)}
    here = display_path(target)
    placed: dict[str, list] = {}
    for card in sheet_cards:
        placed.setdefault(card.id, []).append(card)
    cards = []
    for card in game.cards:
        cards += placed.pop(card.id, []) if card.source.file == here and card.id in named else [card]
    cards += [c for group in placed.values() for c in group]
    declared = frozenset(set(game.declared_ids) | ids)
    merged = replace(game, cards=tuple(cards), declared_ids=declared)   # its rules file too
    others = [f for f in game_findings if not (f.file == here and f.card in named)]
    data_findings, more = run_checks(merged, complete=not others and not refused)
    checked = others + data_findings + more
    # a card the data checks find wrong (a duplicate id, a broken reference) is refused like a
    # row that is not a card: writing it would put the conflict in the file
    refused = refused or any(f.file == table.name for f in data_findings)
    result.refused = refused
    result.findings = sorted(set(findings + checked),
                             key=lambda f: (f.file != table.name, f.file, f.line, f.col, f.code, f.message))
    result.added = [str(c.get("id")) for c in data if c.get("id") not in old_by_id]
    result.updated = [c["id"] for c in data if c.get("id") in old_by_id]
    result.kept = [i for i in old_by_id if i not in named]
    if refused or not write:
        return result
    try:
        text = _yaml_text(target, data, table.name, type_id)
    except Exception as exc:  # noqa: BLE001 (ruamel refusing a file forge's own loader read)
        raise ForgeError(f"{here}: cannot update the file keeping its comments and order "
                         f"(ruamel.yaml: {type(exc).__name__}: {exc}); nothing was written") from exc
    write_atomic(target.resolve(), text.encode("utf-8"))  # through a link within the game, not over it
    result.written = True
    return result


# --------------------------------------------------------------------------------------------
# Writing


def _yaml_text(target: Path, cards: list[dict], source: str, type_id: str) -> str:
    """The card file with `cards` updated in place or appended, by ruamel.yaml's round trip."""
    def edit(doc: Any) -> None:
        index = {c.get("id"): n for n, c in enumerate(doc) if hasattr(c, "get")}
        for card in cards:
            n = index.get(card.get("id"))
            if n is None:
                doc.append(fresh(card))
                doc.yaml_set_comment_before_after_key(len(doc) - 1, before="\n")
                index[card.get("id")] = len(doc) - 1
            else:
                update(doc[n], card)

    header = f"{type_id} cards imported from {source} by forge import; edit here or import again."
    return round_trip(target, edit, header)


def summary(result: ImportResult, dry_run: bool = False) -> Iterable[str]:
    """What an import did (or, with `dry_run`, would do), in words."""
    where = display_path(result.target)
    kept = f", {len(result.kept)} not in the sheet kept" if result.kept else ""
    if result.refused:
        yield f"{where}: not written: the sheet's rows have findings" + (" (--dry-run)" if dry_run else "")
    elif dry_run:
        yield f"{where}: {len(result.added)} to add, {len(result.updated)} to update{kept} (--dry-run)"
    elif result.written:
        yield f"{where}: {len(result.added)} added, {len(result.updated)} updated{kept}"
    else:
        yield f"{where}: not written"
