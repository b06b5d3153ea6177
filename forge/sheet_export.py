"""Card data to a spreadsheet (`forge export`): the sheet `forge import` reads back to the same data.

The cards of one type (of one card file with `file`) become one row each, in the files' order,
with the columns `forge.spreadsheet` reads: `id`, `subtype`, `set`, `copies`, `name.uk`,
`name.en` ..., the type's own fields in the manifest's order (an `object` field a column per
part, `stats.attack`), then `effects`, `text`, `flavor`, `art`, `replaces`. The columns of `id`,
`set`, `name` and the type's own fields are always there, so the sheet of a type with no cards
yet is a form to fill in; the others come where a card uses them. The values are the
ones written in the card files, not the model's: importing the sheet into the file it came from
leaves the file as it was, byte for byte. Numbers are number cells and true/false boolean cells
(CSV: their text); lists, effects and any other structure are YAML flow text
(`[{draw: 3}, {discard: {count: 1}}]`), every other value a text cell.

Formats: `.csv` (UTF-8 with a byte-order mark, which spreadsheet programs need to read it as
UTF-8; comma-separated), `.xlsx` and `.ods`, each a single sheet named after the card type.
The workbooks are written here, as the smallest files the formats allow (inline strings, no
styles), with fixed dates, so the same cards give the same bytes.
"""
from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path
from typing import Any, Iterable
from xml.sax.saxutils import escape, quoteattr

import yaml

from .errors import ForgeError, UsageError, display_path
from .files import write_atomic
from .load import load_yaml
from .model import Game
from .model.game import card_files, refusal
from .spreadsheet import FIRST_KEYS, LAST_KEYS, column_kind

__all__ = ["EXPORT_SUFFIXES", "export_sheet", "sheet_rows"]

EXPORT_SUFFIXES = (".csv", ".xlsx", ".ods")


def export_sheet(game: Game, type_id: str, path: Path, file: str | None = None) -> int:
    """Write the cards of `type_id` (of the card file `file`, without its `.yaml`, if given)
    to the sheet `path`; the number of cards written."""
    suffix = path.suffix.lower()
    if suffix not in EXPORT_SUFFIXES:
        raise UsageError(f"{display_path(path)}: forge exports to {', '.join(EXPORT_SUFFIXES)}")
    if type_id not in game.manifest.card_types:
        raise UsageError(f"{game.id} has no card type {type_id!r} "
                         f"(it has {', '.join(game.manifest.card_types)})")
    files = [p for p in card_files(game.root) if refusal(game.root, p.name, "card file") is None]
    if file is not None:
        files = [p for p in files if p.stem == file.removesuffix(".yaml")]
        if not files:
            raise UsageError(f"{game.id} has no card file {file!r}")
    rows = sheet_rows(game, type_id, _written(files, type_id))
    write_atomic(path.resolve(), _WRITERS[suffix](rows, type_id))
    return len(rows) - 1


def _written(files: list[Path], type_id: str) -> list[dict]:
    """The cards of `type_id` as the files write them."""
    cards = []
    for path in files:
        doc, findings = load_yaml(path)
        if doc is None:
            raise ForgeError(f"{findings[0]} (forge check tells more); nothing was exported")
        cards += [c for c in doc.data or () if isinstance(c, dict) and c.get("type") == type_id]
    return cards


def sheet_rows(game: Game, type_id: str, cards: list[dict]) -> list[list[Any]]:
    """The header and a row per card: the cells `forge import --type TYPE` reads as `cards`."""
    fields = game.manifest.card_types[type_id].fields
    flat = [dict(_cells(card, fields)) for card in cards]
    order = {key: n for n, key in enumerate((*FIRST_KEYS, *fields, *LAST_KEYS))}
    locales = game.manifest.locales
    # the keys every card of the type may have, so that a sheet of no cards is one to fill in
    always = [("id",), ("set",), *(("name", lang) for lang in locales),
              *((name, lang) if spec.type == "text" else (name,) for name, spec in fields.items()
                if spec.type != "object" for lang in (locales if spec.type == "text" else locales[:1]))]
    seen = dict.fromkeys([*always, *(path for row in flat for path in row)])
    columns = sorted(seen, key=lambda path: order.get(path[0], len(order)))  # stable: first seen
    return [[".".join(path) for path in columns],
            *[[row.get(path) for path in columns] for row in flat]]


def _cells(card: dict, fields: dict, path: tuple = ()) -> Iterable[tuple[tuple, Any]]:
    for key, value in card.items():
        here = (*path, str(key))
        if here == ("type",) or value is None:
            continue
        kind = column_kind(here, fields.get(here[0]))
        if isinstance(value, dict) and kind in ("text", "object") and value:
            yield from _cells(value, fields, here)
        elif isinstance(value, (dict, list)):
            yield here, _flow(value)
        else:
            yield here, value


def _flow(value: Any) -> str:
    """A list or mapping as one line of YAML flow text."""
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=2**31,
                          sort_keys=False).strip()


# --------------------------------------------------------------------------------------------
# Writers


def _csv(rows: list[list[Any]], name: str) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow(["" if v is None else "true" if v is True else "false" if v is False else v
                         for v in row])
    return out.getvalue().encode("utf-8-sig")


def _zip(parts: dict[str, str], first: str = "") -> bytes:
    """The archive of `parts`, dated 1980-01-01 (`first`, if given, stored uncompressed first:
    an OpenDocument file's `mimetype`)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, text in parts.items():
            info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED if name == first else zipfile.ZIP_DEFLATED
            z.writestr(info, text.encode("utf-8"))
    return out.getvalue()


def _column(n: int) -> str:
    """The column letters of the `n`th column, from 0: A, B, ... Z, AA ..."""
    letters = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(65 + r) + letters
    return letters


def _xlsx_cell(ref: str, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return f'<c r="{ref}" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float)):
        return f'<c r="{ref}"><v>{value}</v></c>'
    return f'<c r="{ref}" t="inlineStr"><is><t xml:space="preserve">{escape(str(value))}</t></is></c>'


_XLSX = "http://schemas.openxmlformats.org"


def _xlsx(rows: list[list[Any]], name: str) -> bytes:
    data = "".join(f'<row r="{r}">' + "".join(_xlsx_cell(f"{_column(c)}{r}", v) for c, v in enumerate(row))
                   + "</row>" for r, row in enumerate(rows, 1))
    return _zip({
        "[Content_Types].xml":
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
            'package/2006/content-types"><Default Extension="rels" ContentType="application/'
            'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
            'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType='
            '"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
        "_rels/.rels":
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_XLSX}/package/2006/'
            f'relationships"><Relationship Id="rId1" Type="{_XLSX}/officeDocument/2006/'
            'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml":
            f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{_XLSX}/spreadsheetml/2006/'
            f'main" xmlns:r="{_XLSX}/officeDocument/2006/relationships"><sheets><sheet name='
            f'{quoteattr(name[:31])} sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels":
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_XLSX}/package/2006/'
            f'relationships"><Relationship Id="rId1" Type="{_XLSX}/officeDocument/2006/'
            'relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml":
            f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{_XLSX}/spreadsheetml/2006/'
            f'main"><sheetData>{data}</sheetData></worksheet>',
    })


def _ods_cell(value: Any) -> str:
    if value is None:
        return "<table:table-cell/>"
    if isinstance(value, bool):
        word = "true" if value else "false"
        return (f'<table:table-cell office:value-type="boolean" office:boolean-value="{word}">'
                f"<text:p>{word.upper()}</text:p></table:table-cell>")
    if isinstance(value, (int, float)):
        return (f'<table:table-cell office:value-type="float" office:value="{value}">'
                f"<text:p>{value}</text:p></table:table-cell>")
    lines = "".join(f"<text:p>{escape(line)}</text:p>" for line in str(value).split("\n"))
    return f'<table:table-cell office:value-type="string">{lines}</table:table-cell>'


_ODF = "urn:oasis:names:tc:opendocument:xmlns"


def _ods(rows: list[list[Any]], name: str) -> bytes:
    data = "".join("<table:table-row>" + "".join(map(_ods_cell, row)) + "</table:table-row>" for row in rows)
    return _zip({
        "mimetype": "application/vnd.oasis.opendocument.spreadsheet",
        "META-INF/manifest.xml":
            f'<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="{_ODF}:'
            'manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" '
            'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
            '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
            "</manifest:manifest>",
        "content.xml":
            f'<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="{_ODF}:'
            f'office:1.0" xmlns:table="{_ODF}:table:1.0" xmlns:text="{_ODF}:text:1.0" '
            f'office:version="1.2"><office:body><office:spreadsheet><table:table table:name='
            f'{quoteattr(name)}>{data}</table:table></office:spreadsheet></office:body>'
            "</office:document-content>",
    }, first="mimetype")


_WRITERS = {".csv": _csv, ".xlsx": _xlsx, ".ods": _ods}
