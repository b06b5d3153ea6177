"""The public API is what `forge.__all__` lists; changing it is a decision, so it is pinned."""
from pathlib import Path

import forge


def test_public_api_is_pinned():
    assert sorted(forge.__all__) == sorted([
        "Card", "Finding", "FindingsError", "ForgeError", "Game", "Operation", "UsageError",
        "build", "card_records", "check_game", "load_game", "load_yaml", "render_card"])
    for name in forge.__all__:
        assert hasattr(forge, name)


def test_build_and_render_card_are_the_commands_as_calls(tmp_path):
    """`forge.build` writes what `forge build` writes; `forge.render_card` draws what `forge
    preview` draws; bad names and games with findings raise forge's own errors. `forge.build`
    stays the function once a build has imported the products' modules (no submodule of that
    name shadows it)."""
    import io

    import pytest
    from PIL import Image

    from conftest import forge_in_process

    assert forge_in_process("new", "demo", "--lang", "en", cwd=tmp_path).returncode == 0
    game = tmp_path / "cards" / "demo"
    paths = forge.build(game, what=["pnp"], out=tmp_path / "out", paper=("a4",))
    assert [p.relative_to(tmp_path) for p in paths] == [Path("out/demo/en/pnp-a4.pdf")]
    from forge import api
    assert forge.build is api.build
    png = forge.render_card(game, "action_1")
    assert Image.open(io.BytesIO(png)).size == (825, 1125)
    loaded, _ = forge.load_game(game)
    assert forge.render_card(loaded, "action_1", side="back") != png
    with pytest.raises(forge.UsageError, match="did you mean action_1"):
        forge.render_card(game, "action_11")
    with pytest.raises(forge.UsageError, match="no option 'colour'"):
        forge.build(game, colour="red")
    with pytest.raises(forge.UsageError, match="neither a game folder"):
        forge.build(tmp_path / "nowhere")
    card_file = game / "action.yaml"
    card_file.write_text(card_file.read_text(encoding="utf-8").replace("cost: 1", "cost: 99"), encoding="utf-8")
    with pytest.raises(forge.FindingsError) as found:
        forge.build(game, what=["pnp"], out=tmp_path / "out2")
    assert any(f.code == "out-of-range" for f in found.value.findings) and not (tmp_path / "out2").exists()
