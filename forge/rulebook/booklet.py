"""Saddle-stitch imposition with pypdf: two pages side by side on a sheet twice their size.

Pages are padded with blanks to a multiple of 4. Sheet side k (0-based) of n pages holds, left
then right: side 2i (front of sheet i) = n-1-2i | 2i, side 2i+1 (back) = 2i+1 | n-2-2i. Printed
duplex with a flip on the short edge (the usual booklet setting), folded and stapled in the
middle, the pages read in order. A5 pages go on landscape A4, A4 pages on landscape A3.
"""
from __future__ import annotations

import io

from pypdf import PageObject, PdfReader, PdfWriter, Transformation


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


def impose_booklet(pdf: bytes) -> bytes:
    """A saddle-stitch booklet of `pdf` (all pages the size of the first)."""
    reader = PdfReader(io.BytesIO(pdf))
    pages = list(reader.pages)
    if not pages:
        raise ValueError("a booklet needs at least one page")
    box = pages[0].mediabox
    w, h = float(box.width), float(box.height)
    writer = PdfWriter()
    for left, right in booklet_order(len(pages)):
        sheet = PageObject.create_blank_page(width=2 * w, height=h)
        for index, dx in ((left, 0.0), (right, w)):
            if index is not None:
                sheet.merge_transformed_page(pages[index], Transformation().translate(dx, 0))
        writer.add_page(sheet)
    info = reader.metadata or {}
    writer.add_metadata({k: v for k, v in info.items() if k in ("/Title", "/Author", "/Creator",
                                                                  "/Subject")})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
