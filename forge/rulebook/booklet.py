"""Saddle-stitch imposition with pypdf: two pages side by side on a sheet twice their size.

Pages are padded with blanks to a multiple of 4. Sheet side k (0-based) of n pages holds, left
then right: side 2i (front of sheet i) = n-1-2i | 2i, side 2i+1 (back) = 2i+1 | n-2-2i. Printed
duplex with a flip on the short edge (the usual booklet setting), folded and stapled in the
middle, the pages read in order. A5 pages go on landscape A4 (exactly 297 x 210 mm: the pages
meet at the fold with 0.5 mm to spare at the outer edges), A4 pages on landscape A3; for Letter
paper, A5 pages are scaled to fit landscape Letter and A4 pages landscape Tabloid.
"""
from __future__ import annotations

import io

from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from pypdf.generic import NameObject, TextStringObject


def booklet_order(n_pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) page indices per sheet side, in print order; None is a blank page."""
    n = -(-n_pages // 4) * 4 if n_pages else 0

    def page(i: int) -> int | None:
        return i if i < n_pages else None

    sides = []
    for i in range(n // 4):
        sides.append((page(n - 1 - 2 * i), page(2 * i)))
        sides.append((page(2 * i + 1), page(n - 2 - 2 * i)))
    return sides


def impose_booklet(pdf: bytes, sheet: tuple[float, float] | None = None) -> bytes:
    """A saddle-stitch booklet of `pdf` (all pages the size of the first) on sheets of `sheet`
    points (width, height; default: exactly twice the page's width). The two pages meet at the
    sheet's centre, the fold; each is centred vertically and, if the half-sheet is smaller than
    the page, scaled down to fit it (A5 pages on Letter: 94 %)."""
    reader = PdfReader(io.BytesIO(pdf))
    pages = list(reader.pages)
    if not pages:
        raise ValueError("a booklet needs at least one page")
    box = pages[0].mediabox
    w, h = float(box.width), float(box.height)
    sw, sh = sheet if sheet is not None else (2 * w, h)
    scale = min(1.0, sw / 2 / w, sh / h)
    dy = (sh - h * scale) / 2
    writer = PdfWriter()
    for left, right in booklet_order(len(pages)):
        page = PageObject.create_blank_page(width=sw, height=sh)
        for index, dx in ((left, sw / 2 - w * scale), (right, sw / 2)):
            if index is not None:
                page.merge_transformed_page(pages[index], Transformation().scale(scale).translate(dx, dy))
        writer.add_page(page)
    info = reader.metadata or {}
    writer.add_metadata({k: v for k, v in info.items() if k in ("/Title", "/Author", "/Creator",
                                                                  "/Subject")})
    lang = reader.root_object.get("/Lang")
    if lang is not None:  # the book's language, as the rulebook states it
        writer.root_object[NameObject("/Lang")] = TextStringObject(str(lang))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
