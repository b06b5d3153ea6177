"""PDF pages to PNG images with PDFium (pypdfium2): no poppler, no other program to install.

One small module so that everything that wants pixels (`forge preview`, the png product with
its vendor presets, the Tabletop Simulator sheets) rasterises the same way: `png_pages(pdf,
size)` renders each page of a PDF to exactly `size` pixels, as `pdftoppm -scale-to-x W
-scale-to-y H` does, and encodes it as PNG; `images` gives the pages as Pillow images.
PDFium renders the png product's card faces 4.7 times faster than pdftoppm did
(bench/bench_png.py).

Rendering is deterministic for a given pypdfium2 build, and PDFium draws the pages forge makes
(Roboto subsets, Form XObjects, clipping) as poppler does. Text is anti-aliased for print use,
not LCD-optimised. The PNG files carry no timestamp, so the same PDF gives the same bytes.
"""
from __future__ import annotations

import io
from typing import Iterator

#: Pillow's zlib level: 1 is the fastest, about 4x faster than the default 6 on a card face,
#: for files about a fifth larger.
FAST, SMALL = 1, 6


def png_pages(pdf: bytes, size: tuple[int, int] | None = None, dpi: float = 300.0,
              compress: int = SMALL, pages: list[int] | None = None) -> Iterator[bytes]:
    """Each page of `pdf` (or the 0-based `pages`) as PNG bytes: exactly `size` (width, height)
    pixels when given, else at `dpi`. A page whose proportions differ from `size` is stretched
    to fill it, as `pdftoppm -scale-to-x -scale-to-y` does."""
    for image in images(pdf, size, dpi, pages):
        out = io.BytesIO()
        image.save(out, format="PNG", compress_level=compress)
        yield out.getvalue()


def images(pdf: bytes, size: tuple[int, int] | None = None, dpi: float = 300.0,
           pages: list[int] | None = None) -> Iterator["PIL.Image.Image"]:  # type: ignore[name-defined]  # noqa: F821
    """Each page as a Pillow RGB image (see `png_pages`)."""
    import pypdfium2 as pdfium  # a compiled library: loaded only when pixels are wanted

    doc = pdfium.PdfDocument(pdf)
    try:
        for index in (range(len(doc)) if pages is None else pages):
            page = doc[index]
            try:
                yield _render(page, size, dpi)
            finally:
                page.close()
    finally:
        doc.close()


def _render(page: object, size: tuple[int, int] | None, dpi: float) -> "PIL.Image.Image":  # type: ignore[name-defined]  # noqa: F821
    width, height = page.get_size()  # type: ignore[attr-defined]  (points)
    if size is None:
        scale = dpi / 72
    else:
        # pypdfium2 makes a bitmap of ceil(points * scale) pixels: a hair under the exact
        # scale gives exactly `size` when the page has its proportions
        scale = min((size[0] - 0.01) / width, (size[1] - 0.01) / height)
    image = page.render(scale=scale).to_pil()  # type: ignore[attr-defined]
    if size is not None and image.size != tuple(size):
        from PIL import Image
        image = image.resize(size, Image.Resampling.LANCZOS)
    return image.convert("RGB") if image.mode != "RGB" else image

