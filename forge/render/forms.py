"""Form XObjects written without ReportLab's per-object formatting.

A PnP or print-shop PDF holds one form per distinct card face (hundreds per game). ReportLab's
`Canvas.endForm` encodes each form's stream through its PDFDocEncoding codec (a pure-Python
charmap over the whole stream), builds a resource dictionary per form and formats every
number, name and array of the form's dictionary object by object at save time. The faces' streams
are plain ASCII operators, every face uses the same fonts, and the dictionary differs only by
BBox and length: `end_form` writes the same form (same bytes a viewer sees: the stream, its
BBox, Matrix and resources) with one shared resource dictionary per set of XObjects used, and
falls back to `endForm` for anything else (colour spaces, transparency states, annotations,
non-ASCII content).
"""
from __future__ import annotations

import zlib
from functools import lru_cache

from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import PDFObject, PDFObjectReference, PDFResourceDictionary
from reportlab.pdfgen.canvas import Canvas


class _Form(PDFObject):
    """A form XObject written in one piece; its resources are a shared indirect object. Its
    stream is compressed when the document is saved, every form in a row."""

    __RefOnly__ = 1

    def __init__(self, bbox: tuple[float, float, float, float], raw: bytes, resources: PDFObjectReference):
        self.bbox, self.raw, self.resources = bbox, raw, resources

    def BBoxList(self) -> list[float]:  # what Canvas.getFormBBox asks of a form
        return list(self.bbox)

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        data = zlib.compress(self.raw)  # at save, all forms in a row (faster than between faces)
        return (b"<<\n/BBox [ %s ] /Filter [ /FlateDecode ] /FormType 1 /Length %d /Matrix [ 1 0 0 1 0 0 ] "
                b"/Resources %s\n  /Subtype /Form /Type /XObject\n>>\nstream\n"
                % (_box(self.bbox), len(data), self.resources.format(document))) + data + b"endstream\n"


@lru_cache(maxsize=256)
def _box(bbox: tuple[float, float, float, float]) -> bytes:
    """A BBox as ReportLab formats numbers (every face of a PDF has the same one)."""
    return " ".join(pdfdoc.fp_str(v) for v in bbox).encode("ascii")


def _resources(doc: pdfdoc.PDFDocument, xobjects: tuple[str, ...]) -> PDFObjectReference:
    """The document's shared resource dictionary for forms that use `xobjects` (ReportLab's
    fonts are one dictionary for the whole document already)."""
    shared = doc.__dict__.setdefault("_forge_form_resources", {})
    ref = shared.get(xobjects)
    if ref is None:
        res = PDFResourceDictionary()
        res.basicFonts()
        res.allProcs()
        if xobjects:
            res.XObject = doc.xobjDict(list(xobjects))
        ref = shared[xobjects] = doc.Reference(res, f"FormResources{len(shared)}")
    return ref


def end_form(c: Canvas) -> None:
    """`c.endForm()` for a form begun with `c.beginForm`, written as a `_Form`."""
    if (c._colorsUsed or c._shadingUsed or c._annotationrefs or c._extgstate.getState()
            or not c._pageCompression):
        c.endForm()
        return
    name, lowerx, lowery, upperx, uppery = c._formData
    try:
        data = "\n".join([c._preamble] + c._code).encode("ascii")
    except UnicodeEncodeError:
        c.endForm()
        return
    forms = tuple(dict.fromkeys(c._formsinuse))
    doc = c._doc
    doc.addForm(name, _Form((lowerx, lowery, upperx, uppery), data,
                            _resources(doc, forms)))
    c._restartAccumulators()
    c.pop_state_stack()
