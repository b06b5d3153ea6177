"""Benchmark: PNG export through PDFium (`forge.raster`, what `forge build --what png` uses)
against poppler's `pdftoppm`, which the png product ran before (issue 14).

Both sides rasterise the same PDF, made once before the clock starts: the png product's pages
(every design's front and every deck's back of the built-in games, 825 x 1125 px each) and
write PNG files. pdftoppm runs as the product ran it (`-png -r 300 -scale-to-x W -scale-to-y H`
into a temporary folder, then the files read back); PDFium renders each page to exactly W x H
and encodes it with Pillow at the product's zlib level. pdftoppm is needed only here.

    python bench/bench_png.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GAMES = ["love_formula", "rules_does_not_exist", "anima_shadow_of_omega"]


def pdftoppm(exe: str, pdf: bytes, size: tuple[int, int]) -> list[bytes]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cards.pdf"
        path.write_bytes(pdf)
        subprocess.run([exe, "-png", "-r", "300", "-scale-to-x", str(size[0]), "-scale-to-y",
                        str(size[1]), str(path), str(Path(tmp) / "p")], check=True, capture_output=True)
        pages = sorted(Path(tmp).glob("p-*.png"), key=lambda p: int(p.stem.split("-")[-1]))
        return [p.read_bytes() for p in pages]


def pdfium(pdf: bytes, size: tuple[int, int]) -> list[bytes]:
    from forge import raster
    return list(raster.png_pages(pdf, size, compress=raster.FAST))


def best(run, repeat: int) -> tuple[float, list[list[bytes]]]:
    """The shortest of `repeat` runs, and what the run made."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        made = run()
        times.append(time.perf_counter() - t0)
    return min(times), made


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    repeat = ap.parse_args().repeat
    exe = shutil.which("pdftoppm")
    if exe is None:
        sys.exit("bench_png: pdftoppm (poppler-utils) is needed for the comparison")
    from forge.model import load_game
    from forge.render import presets
    from forge.render.sheets import png_faces, png_pdf
    jobs = []
    for name in GAMES:
        game = load_game(ROOT / "cards" / name)[0]
        size = game.manifest.card_size
        px = presets.png_size(size.width, size.height)
        faces = list(png_faces(game, per_deck=False))
        jobs.append((png_pdf(game, "uk", px, faces), px, len(faces)))
    pages = sum(n for _, _, n in jobs)
    slow, theirs = best(lambda: [pdftoppm(exe, pdf, px) for pdf, px, _ in jobs], repeat)
    fast, ours = best(lambda: [pdfium(pdf, px) for pdf, px, _ in jobs], repeat)
    assert [len(p) for p in theirs] == [len(p) for p in ours] == [n for _, _, n in jobs]
    mb = lambda made: sum(len(png) for pngs in made for png in pngs) / 1e6  # noqa: E731
    print(f"{pages} card faces of {len(GAMES)} games, 825 x 1125 px, best of {repeat}")
    print(f"pdftoppm (poppler): {slow:.2f} s  ({slow / pages * 1000:.0f} ms a face, {mb(theirs):.1f} MB)")
    print(f"pypdfium2 (forge):  {fast:.2f} s  ({fast / pages * 1000:.0f} ms a face, {mb(ours):.1f} MB)")
    print(f"ratio: {slow / fast:.2f}x faster (issue 14 asks at least 2x)")


if __name__ == "__main__":
    main()
