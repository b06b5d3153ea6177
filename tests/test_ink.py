"""Total ink against a vendor's limit (`forge.render.ink`): DriveThruCards' 240 %."""
from __future__ import annotations

import pytest
from PIL import Image

from conftest import forge_in_process
from forge.render.ink import art_ink


def test_art_ink_is_the_darkest_square_of_the_picture_as_the_press_gets_it(tmp_path):
    picture = Image.new("RGB", (640, 320), "#ffffff")
    picture.paste((64, 0, 0), (0, 0, 40, 40))  # dark red: no K-only grey, M 100 + Y 100 + K 75
    picture.paste((0, 0, 0), (600, 300, 601, 301))  # one black pixel: no area of ink
    picture.save(tmp_path / "art.png")
    assert art_ink(tmp_path / "art.png") == pytest.approx(2.75, abs=0.03)
    Image.new("RGB", (64, 64), "#808080").save(tmp_path / "grey.png")
    assert art_ink(tmp_path / "grey.png") == pytest.approx(0.5, abs=0.02), "a grey prints in K alone"


def test_a_dtc_build_warns_of_colours_above_240_percent(tmp_path):
    assert forge_in_process("new", "demo", "--lang", "en", "--types", "action", cwd=tmp_path).returncode == 0
    layout = tmp_path / "templates/demo/cards/action.yaml.j2"
    layout.write_text(layout.read_text(encoding="utf-8").replace("'#1d4e89'", "'#400000'"), encoding="utf-8")
    cards = tmp_path / "cards" / "demo"  # a game's own icon, inline in one card's text, prints its own colours
    (cards / "icons").mkdir()
    (cards / "icons" / "drop.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M2 2 H22 V22 Z" fill="currentColor"/>'
        '<circle cx="8" cy="14" r="5" fill="#ffffff" stroke="#400000"/></svg>', encoding="utf-8")
    data = (cards / "action.yaml").read_text(encoding="utf-8")
    data = data.replace("    - draw: 1\n", '    - draw: 1\n  text: {en: "Draw 1 :drop:"}\n', 1)
    (cards / "action.yaml").write_text(data, encoding="utf-8")
    built = forge_in_process("build", "demo", "--what", "printshop", "--preset", "dtc", "--lang", "en", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert ("warning: demo: card 'action_1' (and 1 more): colour #400000 (as an area) prints with 275 % ink, "
            "above 240 %") in built.stderr
    assert "warning: demo: card 'action_1': icon drop.svg's colour #400000 prints with 275 % ink, above 240 %" \
        in built.stderr, built.stderr
    plain = forge_in_process("build", "demo", "--what", "printshop", "--preset", "tgc", "--lang", "en", cwd=tmp_path)
    assert plain.returncode == 0 and "warning" not in plain.stderr, "only a vendor with a limit warns"
