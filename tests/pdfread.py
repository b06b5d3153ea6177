"""Reading PDFs back the way a print shop's preflight would."""
from __future__ import annotations

import copy
import io
from importlib import import_module
from importlib.util import find_spec

from pypdf import PdfReader, PdfWriter

BASE14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")


def pdf_fonts(reader: PdfReader) -> dict[str, bool]:
    """Every font used on any page, form XObjects included -> is its program embedded?"""
    found: dict[str, bool] = {}
    seen: set[int] = set()

    def walk(resources) -> None:
        if not resources:
            return
        resources = resources.get_object()
        for ref in (resources.get("/Font") or {}).values():
            font = ref.get_object()
            desc = font.get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            found[str(font.get("/BaseFont"))] = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        for ref in (resources.get("/XObject") or {}).values():
            if getattr(ref, "idnum", None) in seen:
                continue
            seen.add(getattr(ref, "idnum", id(ref)))
            walk(ref.get_object().get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    return found


def assert_fonts_embedded(reader: PdfReader) -> None:
    fonts = pdf_fonts(reader)
    assert fonts, "the PDF uses no font at all"
    assert all(fonts.values()), f"not embedded: {[f for f, e in fonts.items() if not e]}"
    assert not [f for f in fonts if any(b in f for b in BASE14)], f"base-14 reference: {list(fonts)}"


def parse_fonts_once() -> None:
    """Make pypdf's text extraction parse each font of a file once. pypdf (7.1) parses a font's
    ToUnicode map again for every page and form that uses it: on a sheet of cards (a form per
    card, the same few fonts in each) that is 85 % of reading the text back. The parsed font is
    kept on the font's dictionary, so it lives as long as its reader; a pypdf without this
    method (other versions) is left as it is."""
    font = getattr(import_module("pypdf.generic._font"), "Font", None) if find_spec("pypdf.generic._font") else None
    parse = getattr(font, "from_font_resource", None)
    if parse is None or getattr(parse, "once", False):
        return

    def once(pdf_font_dict):
        kept = getattr(pdf_font_dict, "_parsed_font", None)
        if kept is None:
            kept = parse(pdf_font_dict)
            pdf_font_dict._parsed_font = kept
        return copy.copy(kept)  # a caller may set the copy's space width

    once.once = True
    font.from_font_resource = staticmethod(once)


def distinct_pages(path) -> bytes:
    """The PDF with each of its distinct pages once, in order: a print-shop file draws a card's
    page again for each copy and a deck's back for each of its cards, and the text of one says
    what all of them say. Two pages are the same when their content is (it names the forms it
    draws, which are the document's)."""
    reader = PdfReader(path)
    writer = PdfWriter()
    seen: set[bytes] = set()
    for page in reader.pages:
        content = page.get_contents().get_data()
        if content not in seen:
            seen.add(content)
            writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
