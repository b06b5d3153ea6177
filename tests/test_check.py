"""`forge check`: clean on the shipped games, and every corruption a finding at its file:line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from forge.check import check_game
from conftest import CARDS, GAMES, forge_in_process, tree_digest

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "corrupt_love_formula.yaml")
                       .read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", GAMES)
def test_shipped_games_are_clean(game):
    loaded, findings = check_game(CARDS / game)
    assert [str(f) for f in findings] == []
    assert loaded.id == game


def test_cli_clean_run_exits_zero():
    result = forge_in_process("check")
    assert result.returncode == 0, result.stdout + result.stderr
    for game in GAMES:
        assert f"{game}: " in result.stderr and " 0 findings" in result.stderr


def corrupt(folder: Path, case: dict) -> Path:
    path = folder / case["file"]
    if "write" in case:
        path.write_text(case["write"], encoding="utf-8")
    elif "insert_byte" in case:
        data = path.read_bytes()
        after = case["insert_byte"]["after"].encode()
        cut = data.index(after) + len(after)
        path.write_bytes(data[:cut] + bytes([case["insert_byte"]["byte"]]) + data[cut:])
    else:
        old, new = case["replace"]
        text = path.read_text(encoding="utf-8")
        assert old in text, f"the case no longer matches the data: {old!r}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def expected_line(path: Path, expect: dict) -> int | None:
    if "line" in expect:
        return expect["line"]
    if "line_of" in expect:
        lines = path.read_bytes().decode("utf-8", "replace").splitlines()
        return next(n for n, line in enumerate(lines, 1) if expect["line_of"] in line)
    return None


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_corruption_is_reported_at_its_line(game_copy, case):
    folder = game_copy("love_formula")
    path = corrupt(folder, case)
    before = tree_digest(folder)
    result = forge_in_process("check", str(folder), "--format", "json", cwd=folder.parent)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    findings = json.loads(result.stdout)
    line = expected_line(path, case["expect"])
    hits = [f for f in findings if f["file"].endswith(case["file"]) and f["code"] == case["expect"]["code"]
            and (line is None or f["line"] == line)]
    assert hits, f"no {case['expect']} in {findings}"
    assert all(f["line"] >= 1 for f in hits)
    assert tree_digest(folder) == before, "check must not change any file"


def test_text_output_names_file_and_line(game_copy):
    folder = game_copy("love_formula")
    corrupt(folder, CASES[7])  # broken reference
    result = forge_in_process("check", str(folder), cwd=folder.parent)
    assert result.returncode == 1
    assert result.stdout == "", "findings go to stderr"
    assert "love_formula/base_pairs.yaml:9:" in result.stderr
    assert "'hoome'" in result.stderr and "daisuke_chi" in result.stderr


def test_same_priority_and_tiebreak_on_two_designs_is_a_finding(game_copy):
    folder = game_copy("love_formula")
    # Give «Кадзуо та Томіко» the priority and tiebreak of «Дайсуке та Чі» (25/5).
    corrupt(folder, {"file": "base_pairs.yaml",
                     "replace": ["priority: 48\n  tiebreak: 3", "priority: 25\n  tiebreak: 5"]})
    _, findings = check_game(folder, typeset=False)
    assert [(f.code, f.card) for f in findings] == [("not-unique", "kazuo_tomiko")]


def test_copies_and_replacements_may_share_priority():
    game, findings = check_game(CARDS / "love_formula", typeset=False)
    assert not findings
    replaced = [c for c in game.cards if c.replaces]
    assert replaced, "the promo set replaces base cards"
    for card in replaced:
        base = game.by_id[card.replaces]
        assert (card.priority, card.tiebreak) == (base.priority, base.tiebreak)


def test_undeclared_operation_is_a_finding(game_copy):
    folder = game_copy("love_formula")
    corrupt(folder, {"file": "base_actions.yaml", "replace": ["- draw:", "- teleport:"]})
    _, findings = check_game(folder)
    assert findings and {f.code for f in findings} == {"unknown-operation"}
    assert "'teleport' is not an operation of this game (known: draw," in findings[0].message


def test_bad_operation_parameter_points_at_it(game_copy):
    folder = game_copy("love_formula")
    path = corrupt(folder, {"file": "base_actions.yaml", "replace": ["count: 3", "count: 300"]})
    _, findings = check_game(folder)
    assert [f.code for f in findings] == ["out-of-range"]
    assert findings[0].line == expected_line(path, {"line_of": "count: 300"})


def test_hand_written_text_must_keep_the_numbers(game_copy):
    folder = game_copy("love_formula")
    path = folder / "base_actions.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("- id: kiss")
    end = text.index("\n- id:", start + 1) if "\n- id:" in text[start + 1:] else len(text)
    card = text[start:end].rstrip("\n") + '\n  text: {uk: "Візьміть дві карти.", en: "Draw 2 cards."}\n'
    path.write_text(text[:start] + card + text[end:], encoding="utf-8")
    _, findings = check_game(folder)
    assert {(f.code, f.card) for f in findings} == {("text-mismatch", "kiss")}
    assert len(findings) == 2  # uk lacks 3, and en says 2 instead of 3


def test_broken_template_is_reported_at_the_manifest(game_copy):
    folder = game_copy("rules_does_not_exist")
    corrupt(folder, {"file": "game.yaml", "replace": ["{{ count }}", "{{ nope }}"]})
    _, findings = check_game(folder)
    assert [f.code for f in findings] == ["template"] and "nope" in findings[0].message


def test_only_for_fields(game_copy):
    """Monster strength is required on monsters and refused on plain events."""
    folder = game_copy("anima_shadow_of_omega")
    path = folder / "events.yaml"
    text = path.read_text(encoding="utf-8")
    monster = text.index("subtype: monster")
    strength = text.index("  strength:", monster)
    text = text[:strength] + text[text.index("\n", strength) + 1:]
    plain = text.index("subtype: event")
    text = text[:plain] + "subtype: event\n  strength: 4" + text[plain + len("subtype: event"):]
    path.write_text(text, encoding="utf-8")
    _, findings = check_game(folder)
    assert sorted(f.code for f in findings) == ["missing", "unknown-key"]
    assert all(f.file.endswith("events.yaml") for f in findings)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("spec, says", [
    ("model_dump: int", "'model_dump' is a reserved name"),
    ("copy: int", "'copy' is a reserved name"),
    ("model_dumpling: int", "'model_dumpling' is a reserved name: pydantic keeps names that begin with model_"),
    ("source: int", "'source' is a reserved name: forge's cards have"),
    ("lang: int", "'lang' is a reserved name: templates give it"),
    ("code: {type: str, pattern: '(a)\\1'}", "backreferences are not supported (patterns are matched in linear time"),
    ("mood: {type: enum, values: []}", "mood.values: should have at least 1 item"),
    ("level: {type: int, max: 3, required: false, default: 4}", "default: should be less than or equal to 3"),
    ("note: {type: text, required: false, default: x}", "default: a text field takes no default"),
    ("then: {type: effects, required: false, default: [draw: 1]}", "default: an effects field's default is the empty list"),
    ("many: {type: list, of: int, max: -1}", "a list's min and max lengths lie within 0..1000000"),
])
def test_a_field_spec_pydantic_cannot_take_is_a_finding_at_it(game_copy, spec, says):
    """Names that models already use, patterns the regex engine refuses, empty enums, defaults
    that are no value of their field: each is a finding at the spec, never a pydantic error or
    warning (a warning fails this test)."""
    folder = game_copy("love_formula")
    path = corrupt(folder, {"file": "game.yaml", "replace": ["    fields: {}", f"    fields:\n      {spec}"]})
    game, findings = check_game(folder)
    assert game is None and [(f.code, f.line) for f in findings] == [("invalid", expected_line(path, {"line_of": spec}))]
    assert says in findings[0].message


def test_a_card_type_of_over_200_fields_is_a_finding(game_copy):
    folder = game_copy("love_formula")
    fields = ", ".join(f"f{i}: {{type: int, required: false}}" for i in range(201))
    corrupt(folder, {"file": "game.yaml", "replace": ["    fields: {}", f"    fields: {{{fields}}}"]})
    game, findings = check_game(folder)
    assert game is None and [f.code for f in findings] == ["invalid"]
    assert "201 fields, nested ones counted; the limit is 200" in findings[0].message


def test_a_game_past_its_faces_is_not_loaded(game_copy, monkeypatch):
    """The game's limit counts every card written (valid or not) across its files, and the
    finding stands at the first card over it."""
    from forge.model import game as model_game

    folder = game_copy("love_formula")
    loaded, _ = check_game(folder, typeset=False)
    designs = len(loaded.cards)
    monkeypatch.setattr(model_game, "MAX_FACES", 2 * designs)  # love_formula has two languages
    assert check_game(folder, typeset=False)[1] == []
    (folder / "zz_extra.yaml").write_text("- not a card\n- nor this\n", encoding="utf-8")
    game, findings = check_game(folder, typeset=False)
    assert game is None and [(f.file.rsplit("/", 1)[-1], f.line, f.code) for f in findings] == [
        ("zz_extra.yaml", 1, "too-many-cards")]
    assert f"more than {designs:,} cards: a game may have at most {2 * designs:,} card faces" in findings[0].message


class _Passes(tuple):
    """A game's cards that count the passes made over them."""

    passes = 0

    def __iter__(self):
        type(self).passes += 1
        return super().__iter__()


def test_counts_take_one_pass_over_the_cards():
    """Set counts are checked per set and type; one pass over the cards serves them all (a
    pass per set and type cost sets x types x cards)."""
    import dataclasses

    from forge.check.counts import check_counts

    loaded, _ = check_game(CARDS / "love_formula", typeset=False)
    game = dataclasses.replace(loaded, cards=_Passes(loaded.cards))
    assert list(check_counts(game)) == []
    assert _Passes.passes == 1


def test_did_you_mean_is_bounded_work(game_copy, monkeypatch):
    """Each suggestion compares the id with every id of the game: only the first
    MAX_SUGGESTIONS broken references get one, so many of them cost no more than that."""
    import difflib

    from forge.check import references

    calls = []
    real = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    folder = game_copy("love_formula")
    corrupt(folder, {"file": "base_pairs.yaml", "replace": ["requires: [first_aid_kit, home]", "requires: [first_aid_kit, hoome]"]})
    pair = "- id: p{n}\n  type: pair\n  set: base\n  name: {{uk: П, en: P}}\n  priority: 1\n  tiebreak: 1\n  requires: [nope_{n}, nope_x{n}]\n  vp_incomplete: 1\n  vp_perfect: 2\n"
    (folder / "zz_broken.yaml").write_text("".join(pair.format(n=n) for n in range(50)), encoding="utf-8")
    _, findings = check_game(folder)
    broken = [f for f in findings if f.code == "broken-reference"]
    assert len(broken) == 101 and len(calls) == references.MAX_SUGGESTIONS
    assert broken[0].fix == "did you mean 'home'?"  # base_pairs.yaml comes first


@pytest.mark.parametrize("args", [("check", "no_such_game"), ("cards",), ("check", "--format", "xml")])
def test_usage_errors_exit_two(args):
    result = forge_in_process(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_one_run_reports_every_finding_and_fix_mends_the_typography(tmp_path):
    """A game with one file that does not parse, one broken reference, one text too long for its
    box and one straight apostrophe: one `forge check` reports the first three together, sorted
    by file and line; the apostrophe is a note, and `--fix` writes it typeset, comments kept."""
    from conftest import forge_in_process
    assert forge_in_process("new", "mygame", cwd=tmp_path).returncode == 0
    game = tmp_path / "cards" / "mygame"
    actions = game / "action.yaml"
    text = actions.read_text(encoding="utf-8")
    long = "Every game begins with a first card and goes on. " * 30
    text = text.replace('en: "Action 2"}', 'en: "Ship\'s Action"}').replace(
        'en: "Every game begins with a first card."}', f'en: "{long.strip()}"}}')
    actions.write_text(text, encoding="utf-8")
    characters = game / "character.yaml"
    characters.write_text(characters.read_text(encoding="utf-8").replace(
        "  cost: 1\n", "  cost: 1\n  replaces: ghost_card\n", 1), encoding="utf-8")
    (game / "extra.yaml").write_text('- id: extra_1\n  type: action\n  name: {uk: "x", en: "y"\n  cost: 1\n',
                                     encoding="utf-8")

    result = forge_in_process("check", "mygame", "-v", cwd=tmp_path)
    findings = [line for line in result.stderr.splitlines() if ": note: " not in line and line.startswith("cards/")
                and not line.endswith(("finding", "findings"))]
    assert result.returncode == 1
    assert [line.split(": ")[:2] for line in findings] == [
        ["cards/mygame/action.yaml:9:3", "text-overflow [action_1]"],
        ["cards/mygame/character.yaml:9:3", "broken-reference [character_1]"],
        ["cards/mygame/extra.yaml:4:3", "syntax"]], result.stderr
    note = next(line for line in result.stderr.splitlines() if ": note: " in line)
    assert note.startswith("cards/mygame/action.yaml:17:") and "Ship’s Action" in note
    assert "mygame: 6 cards, 3 findings; 1 text with typewriter marks" in result.stderr
    as_json = forge_in_process("check", "mygame", "--format", "json", cwd=tmp_path)
    assert as_json.returncode == 1, "a note does not change the exit code"
    listed = [(f["file"], f["line"], f["severity"], f["code"]) for f in json.loads(as_json.stdout)]
    assert listed == [("cards/mygame/action.yaml", 9, "error", "text-overflow"),
                      ("cards/mygame/action.yaml", 17, "note", "typography"),
                      ("cards/mygame/character.yaml", 9, "error", "broken-reference"),
                      ("cards/mygame/extra.yaml", 4, "error", "syntax")], "sorted by file and line"

    fixed = forge_in_process("check", "mygame", "--fix", cwd=tmp_path)
    assert fixed.returncode == 1 and "typography written in 1 file" in fixed.stderr
    assert actions.read_text(encoding="utf-8") == text.replace("Ship's", "Ship’s")  # comments, layout kept
    assert "typewriter" not in fixed.stderr
    assert [line.split(": ")[:2] for line in fixed.stderr.splitlines() if line.startswith("cards/")] == [
        line.split(": ")[:2] for line in findings]


@pytest.mark.parametrize("file, old, new, says, fix", [
    ("action.yaml", "  type: action\n  set: base\n  name: {uk: \"Дія 1\"", "  typ: action\n  set: base\n  name: {uk: \"Дія 1\"",
     "the card has no `type` key", "did you mean 'type' where it says 'typ'?"),
    ("action.yaml", "type: action\n  set: base\n  name: {uk: \"Дія 1\"", "type: actoin\n  set: base\n  name: {uk: \"Дія 1\"",
     "type 'actoin' is not a card type of this game", "did you mean 'action'?"),
    ("action.yaml", "type: action\n  set: base\n  name: {uk: \"Дія 1\"", "type:\n  set: base\n  name: {uk: \"Дія 1\"",
     "`type` is empty: it names the card's type", "use one of: action"),
    ("action.yaml", "  name: {uk: \"Дія 1\"", "  nmae: {uk: \"Дія 1\"", "unknown key 'nmae'", "did you mean 'name'?"),
    ("game.yaml", "card_types:", "card_typs:", "unknown key 'card_typs'", "did you mean 'card_types'?"),
    ("action.yaml", "- draw: 1", "- draw: {cont: 1}", "unknown key 'cont'", "did you mean 'count'?"),
    ("action.yaml", "- draw: 1", "- drwa: 1", "'drwa' is not an operation of this game", "did you mean 'draw'?"),
    ("game.yaml", "card_size: {width: 63, height: 88}", "card_size: a3",
     "card_size: should be a mapping (key: value) (got 'a3')", ""),
    ("action.yaml", "cost: 1", "cost: one", "cost: should be a whole number (got 'one')", ""),
])
def test_a_misspelt_key_or_value_gets_did_you_mean_in_forges_words(tmp_path, file, old, new, says, fix):
    """Never pydantic's words ("Input should be a valid dictionary or instance of CardSize",
    "Value error, ...") nor «type None is not a card type»."""
    from forge.model import load_game
    from forge.scaffold import scaffold
    scaffold(tmp_path, "g", ["uk", "en"], ["action"])
    path = tmp_path / "cards" / "g" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    _, findings = load_game(tmp_path / "cards" / "g")
    found = [f for f in findings if says in f.message]
    assert found and found[0].fix == fix and found[0].line > 0, [str(f) for f in findings]
    for f in findings:
        assert not any(w in str(f) for w in ("Input should", "input should", "Value error", "None", "instance of"))
