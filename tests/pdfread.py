"""Reading PDFs back the way a print shop's preflight would."""
from __future__ import annotations

from pypdf import PdfReader

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
