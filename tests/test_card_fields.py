"""Every field a card carries is shown by its layout or declared hidden there (forge.check.fields)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from forge.check import FACE_CHECKS
from forge.check.fields import check_shown_fields
from forge.model import load_game
from forge.render import layout

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("love_formula", "rules_does_not_exist", "anima_shadow_of_omega")
FLAVOR = '  flavor: {uk: "Перше побачення — у кавʼярні.", en: "A first date at the café."}\n'


@pytest.fixture
def project(tmp_path):
    """A designer's project laid out like this checkout: cards/<game> and templates/ beside it
    (so the copy's layouts are the ones used)."""
    def make(game_id: str) -> Path:
        shutil.copytree(ROOT / "cards" / game_id, tmp_path / "cards" / game_id)
        for folder in (game_id, "_common"):
            shutil.copytree(ROOT / "templates" / folder, tmp_path / "templates" / folder)
        return tmp_path
    return make


def _add_flavor_to_first_pair(folder: Path) -> tuple[str, int]:
    """Give the first pair card of Love Formula a flavour text (the pair layout has no place for
    one); returns its file and the line of the new `flavor:` key."""
    for path in sorted(folder.glob("*.yaml")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        for n, line in enumerate(lines):
            if line.strip() == "type: pair":
                lines.insert(n + 1, FLAVOR)
                path.write_text("".join(lines), encoding="utf-8")
                return path.name, n + 2
    raise AssertionError("no pair card found")


def test_a_field_with_no_place_on_the_face_is_a_finding_at_its_line(project):
    root = project("love_formula")
    name, line = _add_flavor_to_first_pair(root / "cards" / "love_formula")
    game, problems = load_game(root / "cards" / "love_formula")
    assert not problems
    found = [f for f in check_shown_fields(game) if f.code == "hidden-field"]
    assert len(found) == 1
    f = found[0]
    assert Path(f.file).name == name and f.line == line and f.col == 3
    assert "'flavor'" in f.message and "pair.yaml.j2" in f.message
    assert "{% set hidden = ['flavor'] %}" in f.fix


def test_declaring_the_field_hidden_silences_the_finding(project):
    root = project("love_formula")
    _add_flavor_to_first_pair(root / "cards" / "love_formula")
    pair = root / "templates" / "love_formula" / "cards" / "pair.yaml.j2"
    text = pair.read_text(encoding="utf-8")
    pair.write_text(text.replace("{% extends '_base.yaml.j2' %}\n",
                                 "{% extends '_base.yaml.j2' %}\n{% set hidden = ['flavor'] %}\n", 1),
                    encoding="utf-8")
    game, _ = load_game(root / "cards" / "love_formula")
    assert list(check_shown_fields(game)) == []


def test_a_hidden_name_that_is_no_field_is_reported_at_the_layout_line(project):
    root = project("love_formula")
    pair = root / "templates" / "love_formula" / "cards" / "pair.yaml.j2"
    text = pair.read_text(encoding="utf-8")
    pair.write_text(text.replace("{% extends '_base.yaml.j2' %}\n",
                                 "{% extends '_base.yaml.j2' %}\n{# comment #}\n{% set hidden = ['flavour'] %}\n", 1),
                    encoding="utf-8")
    game, _ = load_game(root / "cards" / "love_formula")
    found = list(check_shown_fields(game))
    assert [(f.code, Path(f.file).name, f.line) for f in found] == [("unknown-hidden", "pair.yaml.j2", 3)]
    assert "'flavour'" in found[0].message


def test_hidden_must_be_a_list_of_names(project):
    root = project("love_formula")
    pair = root / "templates" / "love_formula" / "cards" / "pair.yaml.j2"
    text = pair.read_text(encoding="utf-8")
    pair.write_text(text.replace("{% extends '_base.yaml.j2' %}\n",
                                 "{% extends '_base.yaml.j2' %}\n{% set hidden = [3] %}\n", 1), encoding="utf-8")
    game, _ = load_game(root / "cards" / "love_formula")
    card = game.cards_of("pair")[0]
    with pytest.raises(layout.LayoutError, match="list of field names"):
        layout.front(game, card, "uk")


def test_what_a_layout_reads_is_what_it_shows():
    game, _ = load_game(ROOT / "cards" / "love_formula")
    pair = next(c for c in game.cards_of("pair") if c.replaces)
    use = layout.field_use(game, pair, "uk")
    # read from the card, and through the variables made from it (type_name, set_name)
    assert {"name", "priority", "tiebreak", "requires", "vp_incomplete", "vp_perfect", "replaces",
            "type", "set"} <= use.shown
    assert "effects" not in use.shown  # the pair layout never reads `effect`
    goal = game.cards_of("goal")[0]
    use = layout.field_use(game, goal, "en")
    assert {"condition", "threshold", "counts"} <= use.hidden
    assert {"effects", "text"} <= use.shown  # `effect` shows both


def test_the_check_runs_with_the_layout_checks():
    assert check_shown_fields in FACE_CHECKS


@pytest.mark.parametrize("game_id", GAMES)
def test_built_in_games_show_or_declare_every_field(game_id):
    game, problems = load_game(ROOT / "cards" / game_id)
    assert game is not None, problems
    assert [str(f) for f in check_shown_fields(game)] == []
