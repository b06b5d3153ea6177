"""PNG export (`forge build --what png`): PDFium, no poppler; exact sizes and files per preset."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from PIL import Image

from conftest import forge_in_process
from forge.products import BuildOptions, total_steps
from forge.render import layout, presets

#: Image size of a 63 x 88 mm card per preset (docs/print-presets.md): every vendor makes it as
#: its poker card (DriveThruCards: 2.75 x 3.75 in at 300 dpi).
SIZES = {"generic": (825, 1125), "tgc": (825, 1125), "mpc": (822, 1122), "dtc": (825, 1125)}


def _close(a: tuple[int, ...], b: str) -> bool:
    want = tuple(int(b[i:i + 2], 16) for i in (1, 3, 5))
    return all(abs(x - y) <= 3 for x, y in zip(a[:3], want))


def test_tgc_preset_without_poppler_gives_825_by_1125_per_deck(tmp_path, monkeypatch, products):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # no pdftoppm, no helper program at all
    result = forge_in_process("build", "love_formula", "--what", "png", "--preset", "tgc",
                       "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    game = products.game("love_formula")
    folder = tmp_path / "out" / "love_formula" / "uk" / "png-tgc"
    decks = {layout.back_key(game, card) for card in game.cards}
    assert {p.name for p in folder.iterdir()} == decks
    pngs = sorted(folder.glob("*/*.png"))
    assert len(pngs) == len(game.cards) + len(decks)
    assert {Image.open(p).size for p in pngs} == {(825, 1125)}
    for deck in decks:
        # the back fills its bleed with the deck's colour: drawn, not blank
        back = Image.open(folder / deck / "back.png").convert("RGB")
        assert _close(back.getpixel((3, 3)), game.manifest.backs[deck].color)
        rows = list(csv.DictReader((folder / deck / "cards.csv").open(encoding="utf-8")))
        mine = [c for c in game.cards if layout.back_key(game, c) == deck]
        assert [(r["file"], int(r["copies"]), r["name"]) for r in rows] == \
            [(f"{c.id}.png", c.copies, c.name["uk"]) for c in mine]
        assert {r["file"] for r in rows} | {"back.png"} == {p.name for p in (folder / deck).glob("*.png")}


@pytest.mark.parametrize("name", ["generic", "mpc", "dtc"])  # tgc: the test above
def test_each_preset_writes_its_sizes_and_files_with_a_progress_step_per_png(products, name):
    made = products.build("rules_does_not_exist", "png", lang="en", preset=name)
    game, files, steps = made.game, made.files(), list(made.steps)
    pngs = [f for f in files if f.endswith(".png")]
    assert steps == [1] * len(pngs) and len(pngs) == total_steps(game, ["png"], BuildOptions(lang="en", preset=name))
    decks = {layout.back_key(game, card) for card in game.cards}
    if name == "generic":  # one folder, as before presets
        expected = {f"png/{c.id}.png" for c in game.cards} | {f"png/back-{d}.png" for d in decks}
    else:  # a folder per deck: its back, its fronts, and the copies of each
        expected = ({f"png-{name}/{layout.back_key(game, c)}/{c.id}.png" for c in game.cards}
                    | {f"png-{name}/{d}/{f}" for d in decks for f in ("back.png", "cards.csv")})
    assert set(files) == expected
    sizes = {Image.open(io.BytesIO(data)).size for f, data in files.items() if f.endswith(".png")}
    assert sizes == {SIZES[name]}


def test_preset_sizes_for_other_cards_scale_by_the_same_dpi_and_bleed():
    tgc, mpc, dtc, generic = (presets.PRESETS[n] for n in ("tgc", "mpc", "dtc", "generic"))
    assert tgc.pixels(63.5, 88.9) == (825, 1125) and mpc.pixels(63.5, 88.9) == (822, 1122)
    assert dtc.pixels(63.5, 88.9) == dtc.pixels(63, 88) == (825, 1125)  # 2.75 x 3.75 in
    assert tgc.pixels(70, 120) == (902, 1492)  # 70 + 2 x 3.175 mm at 300 dpi
    assert mpc.pixels(70, 120) == (899, 1489)  # 36 px of bleed a side
    assert generic.pixels(70, 120) == presets.png_size(70, 120) == (898, 1488)  # 3 mm
    assert {p.dpi for p in presets.PRESETS.values()} == {300}
    assert all(p.sources for p in presets.PRESETS.values() if p.name != "generic")


def test_unknown_presets_are_refused_naming_the_known_ones(tmp_path):
    unknown = forge_in_process("build", "rules_does_not_exist", "--what", "png", "--preset", "tcg",
                        "--out", str(tmp_path))
    assert unknown.returncode == 2 and "tgc" in unknown.stderr
    assert "Traceback" not in unknown.stderr
    assert not any(Path(tmp_path).iterdir())
