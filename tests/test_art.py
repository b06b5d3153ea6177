"""Art is opened by content as PNG or JPEG only, decoded completely, and quietly
(`forge.art.open_art`), by `check` and by drawing alike. The CLI cases are data in
tests/cases/hostile/art.yaml."""
from __future__ import annotations

import io
import struct
import warnings
import zlib

import pytest
from PIL import EpsImagePlugin, Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from forge.art import ArtError, open_art
from forge.render.draw import _image

EPS = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 1 1\n0 0 moveto\n%%EOF\n"
#: A 2x2 RGB PNG whose rows start with filter type 7: every checksum is right, it does not decode.
BAD_FILTER = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000002000000020802000000fdd49a730000000e49444154"
                           "789c636700037608050000a1000f867ff8070000000049454e44ae426082")


@pytest.fixture
def ghostscript(monkeypatch):
    """The calls that would have started Ghostscript."""
    calls = []
    monkeypatch.setattr(EpsImagePlugin, "Ghostscript", lambda *a, **k: calls.append(a))
    return calls


def _saved(tmp_path, fmt: str, mode: str = "RGB", **options):
    path = tmp_path / f"art-{fmt}.png"  # the name says PNG whatever the content
    Image.new(mode, (16, 16), "#a61e4d" if mode != "1" else 1).save(path, fmt, **options)
    return path


@pytest.mark.parametrize("fmt", ["BMP", "GIF", "TIFF", "WEBP", "ICO", "PPM", "TGA", "PCX", "SGI", "DDS"])
def test_art_in_any_other_format_is_refused_by_content(tmp_path, fmt):
    with pytest.raises(ArtError, match="it is not a PNG or JPEG file"):
        open_art(_saved(tmp_path, fmt))


def test_postscript_art_never_reaches_ghostscript(tmp_path, ghostscript):
    path = tmp_path / "art.png"
    path.write_bytes(EPS)
    assert Image.open(path).format == "EPS"  # what Pillow makes of it when it may try everything
    with pytest.raises(ArtError, match="not a PNG or JPEG"):
        open_art(path, check=True)
    assert _image(path) is None and _image(path, cmyk=True) is None  # the placeholder
    assert ghostscript == []


def test_png_and_jpeg_art_are_drawn_and_a_jpeg_goes_into_the_pdf_as_it_is(tmp_path):
    for fmt in ("PNG", "JPEG"):
        path = _saved(tmp_path, fmt)
        assert open_art(path, check=True) and open_art(path).size == (16, 16)
        buf = io.BytesIO()
        c = Canvas(buf, invariant=1)
        c.drawImage(_image(path), 0, 0, 20, 20)
        c.save()
        (xobject,) = PdfReader(buf).pages[0]["/Resources"]["/XObject"].values()
        assert ("/DCTDecode" in str(xobject.get_object()["/Filter"])) == (fmt == "JPEG")


def test_check_decodes_art_completely(tmp_path):
    path = tmp_path / "art.png"
    path.write_bytes(BAD_FILTER)
    with pytest.raises(ArtError, match="it is broken"):
        open_art(path, check=True)
    assert _image(path) is None
    # a PNG cut after its last row draws, but `check` refuses it: its end is missing
    whole = _saved(tmp_path, "PNG").read_bytes()
    path.write_bytes(whole[:whole.rindex(b"IEND") - 8])
    assert open_art(path).size == (16, 16)
    with pytest.raises(ArtError, match="it is broken or truncated"):
        open_art(path, check=True)


def test_check_decodes_a_jpeg_at_an_eighth_of_its_size(tmp_path):
    """The work that bounds `check`'s cost: every byte of the data, an eighth of the pixels."""
    Image.new("RGB", (800, 640), "#a61e4d").save(tmp_path / "a.jpg")
    assert open_art(tmp_path / "a.jpg", check=True).size == (100, 80)
    assert open_art(tmp_path / "a.jpg").size == (800, 640)


@pytest.mark.parametrize("make", [
    lambda p: _saved(p, "PNG", "P", transparency=bytes([0] * 16)),  # transparency as bytes
    lambda p: _saved(p, "PNG", "1"),
])
def test_art_opens_and_draws_without_a_warning(tmp_path, make):
    path = make(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert open_art(path, check=True).mode in ("RGB", "RGBA")
        assert _image(path) is not None and _image(path, cmyk=True) is not None


def _grey_png(width: int, height: int) -> bytes:
    """A PNG that declares `width` x `height` grey pixels, with data for one row only."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(width + 1))) + chunk(b"IEND", b""))


@pytest.mark.parametrize("size, says", [
    ((10000, 10000), "10000x10000 pixels, more than the 50 million"),  # past Pillow's warning
    ((20000, 10000), "over 178,956,970 pixels, more than the 50 million"),  # past Pillow's error
])
def test_art_over_the_pixel_limit_is_refused_before_it_is_decoded(tmp_path, size, says):
    path = tmp_path / "art.png"
    path.write_bytes(_grey_png(*size))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Pillow's DecompressionBombWarning
        with pytest.raises(ArtError, match=says):
            open_art(path)
