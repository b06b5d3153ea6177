"""`forge new`: a scaffolded game checks and builds at once, in a folder outside the checkout."""
from __future__ import annotations

import json

from pypdf import PdfReader

from conftest import forge_forked, forge_in_process, tree_digest
from pdfread import assert_fonts_embedded
from forge.model import load_game
from forge.scaffold import scaffold
from forge.scenario import run_scenario


def test_new_game_checks_plays_and_builds_in_an_empty_folder(tmp_path):
    """`forge new g && forge check g && forge simulate g --games 1000 && forge build g`, with
    no Python written: the game's rules are data that forge's rules engine plays, and its
    rulebook prints the turn from them."""
    made = forge_in_process("new", "my_game", "--types", "action,character,relic", "--format", "json",
                            cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    listed = [f["path"] for f in json.loads(made.stdout)]
    for name in ("cards/my_game/game.yaml", "cards/my_game/relic.yaml",
                 "templates/my_game/cards/relic.yaml.j2", "templates/my_game/rulebook.uk.md.j2",
                 "templates/my_game/cheatsheet.en.md.j2", "cards/my_game/rules.yaml",
                 "templates/my_game/words.uk.yaml", "tests/scenarios/my_game/play_a_card.yaml"):
        assert name in listed and (tmp_path / name).is_file(), name
    assert not (tmp_path / "templates" / "_common").exists(), "layouts fall back to forge's own"
    # the manifest counts what the card files hold, and the types' names are localised
    manifest = (tmp_path / "cards/my_game/game.yaml").read_text(encoding="utf-8")
    assert "action: 3" in manifest and '{uk: "Дія", en: "Action"}' in manifest

    checked = forge_in_process("check", "my_game", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "my_game: 9 cards, 0 findings" in checked.stderr

    played = forge_in_process("simulate", "my_game", "--games", "1000", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "1000 games" in played.stdout and "timeouts): 0 of 1000" in played.stdout
    scenario = forge_in_process("scenario", "tests/scenarios/my_game/play_a_card.yaml", cwd=tmp_path)
    assert scenario.returncode == 0 and "1 passed, 0 failed" in scenario.stdout + scenario.stderr, scenario.stderr

    built = forge_in_process("build", "my_game", "--lang", "en", "--paper", "a4", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    out = tmp_path / "output" / "my_game" / "en"
    assert sorted(p.name for p in out.iterdir()) == [
        "cheatsheet.pdf", "pnp-a4.pdf", "printshop.pdf", "rulebook-booklet.pdf", "rulebook.pdf"]
    shop = PdfReader(out / "printshop.pdf")
    assert len(shop.pages) == 2 * 9, "a front and a back per card, copies included"
    rulebook = PdfReader(out / "rulebook.pdf")
    text = " ".join(page.extract_text() for page in rulebook.pages)
    assert "My Game" in text and "Relic 2" in text and "Gain 2 points." in text
    # the turn, printed from the rules the engine just played
    assert "Players take turns clockwise" in text and "Lose as many coins as the card" in text
    cheat = PdfReader(out / "cheatsheet.pdf")
    assert len(cheat.pages) == 1 and "Draw 1 card." in cheat.pages[0].extract_text()
    assert_fonts_embedded(rulebook)


def test_new_refuses_an_existing_game_and_bad_names(tmp_path):
    assert forge_in_process("new", "mine", "--lang", "en", cwd=tmp_path).returncode == 0
    before = tree_digest(tmp_path)
    again = forge_in_process("new", "mine", "--lang", "en,uk", cwd=tmp_path)
    assert again.returncode == 1
    assert "already exists" in again.stderr and "Traceback" not in again.stderr
    assert tree_digest(tmp_path) == before, "nothing of the existing game is touched"
    (tmp_path / "templates" / "other").mkdir()
    assert forge_in_process("new", "other", cwd=tmp_path).returncode == 1, "a templates folder counts too"
    for args in (["Bad-Id"], ["ok", "--lang", "english"], ["ok", "--lang", "xx"], ["ok", "--types", "a,a"],
                 ["ok", "--types", ","]):
        result = forge_in_process("new", *args, cwd=tmp_path)
        assert result.returncode == 2, (args, result.stderr)
        assert "Traceback" not in result.stderr
    assert not (tmp_path / "cards" / "ok").exists()


def test_other_languages_get_english_text_to_translate(tmp_path):
    from forge.scaffold import plan

    files = plan("jeu", ["fr", "en"], ["action"])
    assert "templates/jeu/rulebook.fr.md.j2" in files
    manifest = files["cards/jeu/game.yaml"]
    assert 'fr: "Draw {{ count }}' in manifest, "the operation texts keep their Jinja"
    assert "locales: [fr, en]" in manifest


def test_version_comes_from_the_package_metadata():
    from forge.cli.app import package_version

    result = forge_forked("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"forge {package_version()}"
    assert package_version()[0].isdigit(), "found in the installed distribution's metadata"


def test_a_type_without_cost_checks_and_no_face_prints_its_id(tmp_path):
    """The scaffold's rulebook and cheat sheet list each type's own fields, so a type whose `cost`
    became another field still checks; and a face shows no card id (only `--proof` stamps it)."""
    from forge.model import load_game
    from forge.render.layout import front

    assert forge_in_process("new", "demo", "--types", "action,hero", cwd=tmp_path).returncode == 0
    cards = tmp_path / "cards" / "demo"
    manifest = (cards / "game.yaml").read_text(encoding="utf-8")
    head, hero = manifest.split("  hero:\n")
    (cards / "game.yaml").write_text(head + "  hero:\n" + hero.replace("cost:", "power:", 1), encoding="utf-8")
    (cards / "hero.yaml").write_text((cards / "hero.yaml").read_text(encoding="utf-8").replace("cost:", "power:"),
                                     encoding="utf-8")
    layout = tmp_path / "templates/demo/cards/hero.yaml.j2"
    layout.write_text(layout.read_text(encoding="utf-8").replace("card.cost", "card.power"), encoding="utf-8")
    checked = forge_in_process("check", "demo", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr

    (tmp_path / "templates/demo/rulebook.en.md.j2").write_text("{{ card_by_id('hero_1').cost }}", encoding="utf-8")
    broken = forge_in_process("check", "demo", cwd=tmp_path)
    assert broken.returncode == 1
    assert "card 'hero_1' (type 'hero') has no field 'cost'" in broken.stderr
    assert "forge.model" not in broken.stderr, "no class of forge's in the message"

    game, _ = load_game(cards)
    for card in game.cards:
        printed = " ".join(text for _, _, text in front(game, card, "en").texts)
        assert card.name["en"] in printed and card.id not in printed


def test_a_game_in_one_language_has_a_scenario_in_that_language(tmp_path):
    """A scenario's title and story are asked in the game's own languages: the scenario that
    `forge new --lang uk` writes (Ukrainian only) passes."""
    scaffold(tmp_path, "mygame", ("uk",), ("spell",))
    result = run_scenario(tmp_path / "tests" / "scenarios" / "mygame" / "play_a_card.yaml",
                          load_game(tmp_path / "cards" / "mygame")[0])
    assert result.passed, result.failures
