"""A card may wear a back of its own (`back:`, an entry of the manifest's `backs`)."""
from __future__ import annotations

from conftest import forge_in_process
from forge.model import load_game
from forge.render import layout
from forge.render.tts import decks

VILLAIN = '  villain: {color: "#9d0208", accent: "#ffba08", icon: skull, label: {en: "Villain"}}\n'


def test_a_card_names_its_own_back_which_must_exist(tmp_path):
    assert forge_in_process("new", "demo", "--lang", "en", "--types", "action", cwd=tmp_path).returncode == 0
    cards = tmp_path / "cards" / "demo"
    manifest = (cards / "game.yaml").read_text(encoding="utf-8")
    (cards / "game.yaml").write_text(manifest.replace("backs:", "backs:\n" + VILLAIN.rstrip("\n"), 1), encoding="utf-8")
    data = (cards / "action.yaml").read_text(encoding="utf-8").replace("  copies: 2\n", "  copies: 2\n  back: vilain\n")
    (cards / "action.yaml").write_text(data, encoding="utf-8")
    line = data.splitlines().index("  back: vilain") + 1
    checked = forge_in_process("check", "demo", cwd=tmp_path)
    assert checked.returncode == 1
    assert f"cards/demo/action.yaml:{line}:3: broken-reference [action_2]: back names 'vilain'" in checked.stderr
    assert "did you mean 'villain'?" in checked.stderr

    (cards / "action.yaml").write_text(data.replace("vilain", "villain"), encoding="utf-8")
    assert forge_in_process("check", "demo", cwd=tmp_path).returncode == 0, "a shown field: no hidden-field"
    game, _ = load_game(cards)
    one, two = game.cards
    assert (layout.back_key(game, one), layout.back_key(game, two)) == ("default", "villain")
    printed = [text for _, _, text in layout.back(game, two, "en").texts]
    assert "VILLAIN" in " ".join(printed) and "VILLAIN" not in " ".join(t for _, _, t in layout.back(game, one, "en").texts)
    assert [(d.key, [c.id for c in d.cards]) for d in decks(game)] == [("default", ["action_1"]), ("villain", ["action_2"])]
