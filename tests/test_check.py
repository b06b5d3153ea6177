"""`forge check`: clean on the shipped games, and every corruption a finding at its file:line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from forge.check import check_game
from conftest import CARDS, GAMES, run_forge, tree_digest

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "corrupt_love_formula.yaml")
                       .read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", GAMES)
def test_shipped_games_are_clean(game):
    loaded, findings = check_game(CARDS / game)
    assert [str(f) for f in findings] == []
    assert loaded.id == game


def test_cli_clean_run_exits_zero():
    result = run_forge("check")
    assert result.returncode == 0, result.stdout + result.stderr
    for game in GAMES:
        assert f"{game}: " in result.stderr and " 0 findings" in result.stderr


def corrupt(folder: Path, case: dict) -> Path:
    path = folder / case["file"]
    if "create" in case or "write" in case:
        path.write_text(case.get("create", case.get("write")), encoding="utf-8")
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
    result = run_forge("check", str(folder), "--format", "json", cwd=folder.parent)
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
    result = run_forge("check", str(folder), cwd=folder.parent)
    assert result.returncode == 1
    assert result.stdout == "", "findings go to stderr"
    assert "love_formula/base_pairs.yaml:9:" in result.stderr
    assert "'hoome'" in result.stderr and "daisuke_chi" in result.stderr


def test_same_priority_and_tiebreak_on_two_designs_is_a_finding(game_copy):
    folder = game_copy("love_formula")
    # Give «Кадзуо та Томіко» the priority and tiebreak of «Дайсуке та Чі» (25/5).
    corrupt(folder, {"file": "base_pairs.yaml",
                     "replace": ["priority: 48\n  tiebreak: 3", "priority: 25\n  tiebreak: 5"]})
    _, findings = check_game(folder)
    assert [(f.code, f.card) for f in findings] == [("not-unique", "kazuo_tomiko")]


def test_copies_and_replacements_may_share_priority():
    game, findings = check_game(CARDS / "love_formula")
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


@pytest.mark.parametrize("args", [("check", "no_such_game"), ("cards",), ("check", "--format", "xml")])
def test_usage_errors_exit_two(args):
    result = run_forge(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
