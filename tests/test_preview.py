"""`forge preview`: one card face as a PNG of the print size, drawn with PDFium (no poppler)."""
from __future__ import annotations

import io

from PIL import Image

from conftest import run_forge


def test_preview_writes_one_png_of_the_print_size_without_poppler(tmp_path, monkeypatch):
    out = tmp_path / "kiss.png"
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # no pdftoppm, no helper program at all
    result = run_forge("preview", "love_formula", "kiss", "--lang", "en", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("kiss.png")
    image = Image.open(out)
    assert image.format == "PNG"
    assert image.size == (825, 1125), "a 63 x 88 mm card: The Game Crafter's 825 x 1125 px"
    # The face is drawn, not blank: the bleed colour at the edge and the light panel inside.
    rgb = image.convert("RGB")
    edge, inside = rgb.getpixel((5, 5)), rgb.getpixel((412, 900))
    assert edge != inside and sum(inside) > 600


def test_preview_default_path_back_and_errors(tmp_path):
    # From a folder without cards/, a game id names a built-in game.
    ok = run_forge("preview", "rules_does_not_exist", "glowstick_gremlin", "--back", cwd=tmp_path)
    missing = run_forge("preview", "rules_does_not_exist", "glowstik_gremlin", cwd=tmp_path)
    lang = run_forge("preview", "rules_does_not_exist", "glowstick_gremlin", "--lang", "fr", cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    written = tmp_path / ok.stdout.strip()
    assert written == tmp_path / "output" / "rules_does_not_exist" / "uk" / "preview" / "glowstick_gremlin-back.png"
    assert Image.open(written).size == (825, 1125)
    assert missing.returncode == 2 and "did you mean glowstick_gremlin" in missing.stderr
    assert lang.returncode == 2 and "no locale 'fr'" in lang.stderr
    assert "Traceback" not in missing.stderr + lang.stderr


def test_raster_gives_exact_sizes_and_same_bytes():
    from reportlab.pdfgen.canvas import Canvas

    from forge import raster

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(200, 100), invariant=1)
    c.setFillColorRGB(1, 0, 0)
    c.rect(0, 0, 100, 100, fill=1, stroke=0)
    c.showPage()
    c.save()
    pdf = buf.getvalue()
    first = list(raster.png_pages(pdf, (333, 167)))
    assert len(first) == 1
    image = Image.open(io.BytesIO(first[0]))
    assert image.size == (333, 167)
    assert image.getpixel((10, 80))[:3] == (255, 0, 0) and image.getpixel((300, 80))[:3] == (255, 255, 255)
    assert list(raster.png_pages(pdf, (333, 167))) == first, "deterministic"
    assert Image.open(io.BytesIO(next(raster.png_pages(pdf, dpi=144)))).size == (400, 200)
