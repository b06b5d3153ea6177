"""PNG export (`forge build --what png`): PDFium, no poppler; exact sizes and files per preset.

Every PNG of a preset is a page of one size, whatever its card: the files, sizes and backs are
shown by a new game (`forge new`) of two decks, four designs, not by rasterising a built-in
game's hundreds of cards."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from PIL import Image

from conftest import forge_in_process
from forge.model import load_game
from forge.products import BuildOptions, build_game, total_steps
from forge.render import layout, presets
from forge.scaffold import scaffold

#: Image size of a 63 x 88 mm card per preset (docs/print-presets.md): every vendor makes it as
#: its poker card (DriveThruCards: 2.75 x 3.75 in at 300 dpi).
SIZES = {"generic": (825, 1125), "tgc": (825, 1125), "mpc": (822, 1122), "dtc": (825, 1125)}


def _two_decks(project: Path):
    """A new game in `project` whose characters wear a back of their own (two decks, each of
    two designs, one with two copies), loaded."""
    scaffold(project, "tiny", ["uk", "en"], ["action", "character"])
    manifest = project / "cards" / "tiny" / "game.yaml"
    default = '  default: {color: "#264653", accent: "#e9c46a", icon: star}\n'
    text = manifest.read_text(encoding="utf-8")
    assert default in text
    manifest.write_text(text.replace(default, default + '  character: {color: "#b23a48", accent: "#f4d35e", '
                                     'icon: mask}\n'), encoding="utf-8")
    game, findings = load_game(manifest.parent)
    assert game is not None and not findings, findings
    assert len({layout.back_key(game, card) for card in game.cards}) == 2
    return game


def _close(a: tuple[int, ...], b: str) -> bool:
    want = tuple(int(b[i:i + 2], 16) for i in (1, 3, 5))
    return all(abs(x - y) <= 3 for x, y in zip(a[:3], want))


def test_tgc_preset_without_poppler_gives_825_by_1125_per_deck(tmp_path, monkeypatch):
    game = _two_decks(tmp_path)
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # no pdftoppm, no helper program at all
    result = forge_in_process("build", "tiny", "--what", "png", "--preset", "tgc",
                              "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "out" / "tiny" / "uk" / "png-tgc"
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
def test_each_preset_writes_its_sizes_and_files_with_a_progress_step_per_png(tmp_path, name):
    game = _two_decks(tmp_path)
    steps: list[int] = []
    paths = build_game(game, ["png"], BuildOptions(lang="en", preset=name, progress=steps.append), tmp_path / "out")
    folder = tmp_path / "out" / "tiny" / "en"
    files = {str(p.relative_to(folder)): p.read_bytes() for p in paths}
    pngs = [f for f in files if f.endswith(".png")]
    assert steps == [1] * len(pngs) and len(pngs) == total_steps(game, ["png"], BuildOptions(lang="en", preset=name))
    decks = {layout.back_key(game, card) for card in game.cards}
    if name == "generic":  # one folder, as before presets
        expected = {f"png/{c.id}.png" for c in game.cards} | {f"png/back-{d}.png" for d in decks}
    else:  # a folder per deck: its back, its fronts, and the copies of each
        expected = ({f"png-{name}/{layout.back_key(game, c)}/{c.id}.png" for c in game.cards}
                    | {f"png-{name}/{d}/{f}" for d in decks for f in ("back.png", "cards.csv")})
    assert set(files) == expected
    images = [Image.open(io.BytesIO(data)) for f, data in files.items() if f.endswith(".png")]
    assert {(image.format, image.size) for image in images} == {("PNG", SIZES[name])}


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
