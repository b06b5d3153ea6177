"""A minimal OpenDocument spreadsheet, as LibreOffice saves one without styles: the .ods files
the import and workbook tests read."""
from __future__ import annotations

import io
import zipfile
from xml.sax.saxutils import escape

CONTENT = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
           'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
           '<office:body><office:spreadsheet><table:table table:name="Cards">{rows}'
           "</table:table></office:spreadsheet></office:body></office:document-content>")
MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
            '<manifest:file-entry manifest:full-path="/" '
            'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
            '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
            "</manifest:manifest>")


def ods(rows: str) -> bytes:
    """The file of one sheet whose rows are `rows` (`<table:table-row>` elements)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("META-INF/manifest.xml", MANIFEST, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("content.xml", CONTENT.format(rows=rows), compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def table_rows(rows: list[list]) -> str:
    """`<table:table-row>` elements of the values in `rows` (numbers as floats, others as text)."""
    def cell(value) -> str:
        if isinstance(value, (int, float)):
            return (f'<table:table-cell office:value-type="float" office:value="{value}">'
                    f"<text:p>{value}</text:p></table:table-cell>")
        return f'<table:table-cell office:value-type="string"><text:p>{escape(value)}</text:p></table:table-cell>'
    return "".join("<table:table-row>" + "".join(cell(v) for v in row) + "</table:table-row>" for row in rows)
