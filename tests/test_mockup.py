"""Mock-ups (`forge build --what mockup`): a fanned hand and a contact sheet per deck."""
from __future__ import annotations

from PIL import Image

from conftest import forge_in_process
from forge.render import mockup


def test_mockup_draws_a_hand_and_a_contact_sheet_per_deck(tmp_path):
    assert forge_in_process("new", "demo", "--lang", "en", "--types", "action,hero", cwd=tmp_path).returncode == 0
    built = forge_in_process("build", "demo", "--what", "mockup", "--lang", "en", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    folder = tmp_path / "output/demo/en/mockup"
    assert sorted(p.name for p in folder.iterdir()) == ["default-hand.png", "default-sheet.png"]
    w, h = round(63 / 25.4 * mockup.DPI), round(88 / 25.4 * mockup.DPI)
    gap = round(mockup.GAP * w)
    sheet = Image.open(folder / "default-sheet.png").convert("RGB")
    # four designs (two per type) in rows of three, as square as it gets; the gaps background
    assert sheet.size == (3 * (w + gap) + gap, 2 * (h + gap) + gap)
    background = Image.new("RGB", (1, 1), mockup.BACKGROUND).getpixel((0, 0))
    for n in range(6):
        row, col = divmod(n, 3)
        x, y = gap + col * (w + gap), gap + row * (h + gap)
        assert (sheet.getpixel((x + w // 2, y + h // 2)) != background) == (n < 4)
        assert sheet.getpixel((x - gap // 2, y + h // 2)) == background
    hand = Image.open(folder / "default-hand.png")
    assert hand.mode == "RGBA" and hand.width > 2 * w and h < hand.height < 2 * h
    assert hand.getpixel((0, 0))[3] == 0 and hand.getpixel((hand.width // 2, hand.height // 2))[3] == 255
