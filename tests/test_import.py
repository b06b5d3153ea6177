"""`forge import`: card data from CSV, XLSX and ODS sheets into YAML that `forge check` accepts,
findings at the sheet's row and column, and an existing file's comments and order kept."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from conftest import forge_in_process, tree_digest
from forge.check import check_game
from forge.errors import UsageError
from forge.scaffold import scaffold
from forge.spreadsheet import import_sheet, read_sheet
from odsfile import ods, table_rows


@pytest.fixture
def project(tmp_path):
    """A scaffolded game `g` (action: action_1 x1 and action_2 x2; character likewise)."""
    scaffold(tmp_path, "g", ["uk", "en"], ["action", "character"])
    return tmp_path


def _csv(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _set_count(project: Path, type_id: str, count: int) -> None:
    manifest = project / "cards" / "g" / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.strip().startswith(f"{type_id}:") and
               line.strip().split(":")[1].strip().isdigit())
    manifest.write_text(text.replace(old, old.split(":")[0] + f": {count}"), encoding="utf-8")


def test_csv_updates_a_card_file_in_place_and_check_accepts_it(project):
    target = project / "cards" / "g" / "action.yaml"
    original = target.read_text(encoding="utf-8")
    # a comment of the designer's between the cards and at the end of a line
    target.write_text(original.replace("- id: action_2", "# keep this note\n- id: action_2")
                      .replace("cost: 2", "cost: 2  # the dear one"), encoding="utf-8")
    sheet = _csv(project / "action.csv",
                 "id;name.uk;name.en;cost;effects;flavor.uk;flavor.en;# notes\n"
                 "action_1;Іскра;Spark;3;[draw: 2, gain: 1];;;too strong?\n")
    result = forge_in_process("import", "g", str(sheet), "--type", "action", "--file", "action", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 updated" in result.stderr and "1 not in the sheet kept" in result.stderr
    text = target.read_text(encoding="utf-8")
    assert "# keep this note\n- id: action_2" in text and "cost: 2  # the dear one" in text
    assert text.startswith(original.split("\n- id:")[0]), "the file's header comment stays"
    assert 'name: {uk: "Іскра", en: "Spark"}' in text and "cost: 3" in text
    assert "    - draw: 2\n    - gain: 1\n" in text, "the project's list style"
    assert "flavor" not in text.split("- id: action_2")[0], "an empty cell removes the key"
    # action_2 is not in the sheet: byte for byte as it was
    assert text.split("- id: action_2")[1] == original.split("- id: action_2")[1].replace(
        "cost: 2", "cost: 2  # the dear one")
    checked = forge_in_process("check", "g", cwd=project)
    assert checked.returncode == 0, checked.stdout


def test_xlsx_and_ods_write_new_files_that_check_accepts(project):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    for row in (["id", "name.uk", "name.en", "cost", "effects", "copies"],
                ["hero", "Герой", "Hero", 3, "gain: 2", 1],
                [],
                ["villain", "Лиходій", "Villain", 4.0, "[draw: 1, gain: 1]", 2]):
        sheet.append(row)
    book.save(project / "heroes.xlsx")
    (project / "extra.ods").write_bytes(ods(table_rows([["id", "name.uk", "name.en", "cost", "effects"],
                                                        ["rally", "Збір", "Rally", 1, "draw: 2"]])))
    root = project / "cards" / "g"
    _set_count(project, "character", 6)  # the designer updates the manifest's counts
    first = import_sheet(root, project / "heroes.xlsx", "character")
    _set_count(project, "action", 4)
    second = import_sheet(root, project / "extra.ods", "action", set_id="base")
    assert first.written and first.added == ["hero", "villain"] and first.findings == []
    assert second.written and second.added == ["rally"] and second.findings == []
    text = (root / "heroes.yaml").read_text(encoding="utf-8")
    assert "cost: 4\n" in text and "copies: 2" in text, "4.0 from the sheet is the int 4"
    game, findings = check_game(root)
    assert findings == []
    assert game.card("villain").copies == 2 and game.card("rally").name["en"] == "Rally"


def test_a_bad_cell_is_a_finding_at_its_row_and_column_and_nothing_is_written(project):
    before = tree_digest(project / "cards")
    sheet = _csv(project / "bad.csv",
                 "id,name.uk,name.en,cost,effects,bogus,name.fr\n"
                 "ok_card,Так,Yes,1,draw: 1,,\n"
                 "bad_cost,Ні,No,eleven,draw: 1,,\n"
                 "bad_yaml,А,B,2,\"[draw: 1\",,\n"
                 "big,А,B,12,draw: 9,x,y\n")
    result = forge_in_process("import", "g", str(sheet), "--type", "action", cwd=project)
    assert result.returncode == 1
    lines = result.stdout + result.stderr
    for where in ("bad.csv:1:6: unknown-column",   # a header that is no card key
                  "bad.csv:3:4: invalid [bad_cost]",  # 'eleven' in an int column
                  "bad.csv:4:5: cell-yaml",          # effects that are not YAML
                  "bad.csv:5:4: out-of-range [big]",  # cost 12 > max 10
                  "bad.csv:5:5: out-of-range [big]",  # draw 9 > max 5, inside the effects cell
                  "bad.csv:5:7: unknown-key [big]"):  # name.fr: not a locale of the game
        assert where in lines, (where, lines)
    assert "Traceback" not in result.stderr and "not written" in result.stderr
    assert tree_digest(project / "cards") == before


def test_findings_of_the_whole_game_point_at_cells(project, monkeypatch):
    """forge check's own checks beyond the card model (ids unique in the game, text that fits
    its box) name the sheet's cells too."""
    monkeypatch.chdir(project)
    sheet = _csv(project / "dupes.csv", "id,name.uk,name.en,cost,effects\n"
                                        "action_1,А,A,1,draw: 1\n"
                                        "fresh,Б,B,1,draw: 1\n")
    result = import_sheet(Path("cards/g"), sheet, "action", write=False)
    assert not result.written
    assert [(f.file, f.line, f.col, f.code) for f in result.findings if f.file == "dupes.csv"] == [
        ("dupes.csv", 2, 1, "duplicate-id")], result.findings
    long_name = " ".join(["Supercalifragilistic"] * 12)
    sheet = _csv(project / "long.csv", f"id,name.uk,name.en,cost,effects\nwordy,Б,{long_name},1,draw: 1\n")
    result = import_sheet(Path("cards/g"), sheet, "action", write=False)
    assert [(f.file, f.line, f.col) for f in result.findings if f.card == "wordy"] == [("long.csv", 2, 3)], \
        result.findings


def test_update_of_a_built_in_card_file_touches_only_the_changed_line(game_copy, tmp_path, monkeypatch):
    """The file as written is the claim: the game it makes is checked as `check_game(root,
    typeset=False)` checks it (laying out its changed rulebooks and sheets again would be nine
    tenths of the cost, and is `forge check`'s to test)."""
    import forge.check
    monkeypatch.setattr(forge.check, "run_checks", functools.partial(forge.check.run_checks, typeset=False))
    folder = game_copy("rules_does_not_exist")
    target = folder / "monsters.yaml"
    original = target.read_text(encoding="utf-8")
    sheet = _csv(tmp_path / "monsters.csv",
                 "id,level,reward_souls,reward_sounds,failure,name.uk,name.en,flavor.uk,flavor.en\n"
                 "glowstick_gremlin,1,0,1,\"discard: {count: 1, zone: hand}\",Гремлін із лайтстиком,"
                 "Glowstick Gremlin,Гризе лайтстики.,Chews glowsticks.\n")
    result = import_sheet(folder, sheet, "monster")
    assert result.written and result.updated == ["glowstick_gremlin"], result.findings
    assert result.findings == []
    text = target.read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(original.splitlines(), text.splitlines()) if a != b]
    assert changed == [('    uk: "Гризе лайтстики, доки сам не почне світитися."', '    uk: "Гризе лайтстики."'),
                       ('    en: "Chews glowsticks until it starts to glow."', '    en: "Chews glowsticks."')]
    assert len(text.splitlines()) == len(original.splitlines())


def test_reading_sheets():
    here = Path(__file__).parent
    with pytest.raises(UsageError, match="not a spreadsheet"):
        read_sheet(here / "conftest.py")


def test_whole_numbers_written_with_a_point_are_ints(project):
    """`3.0` in an int column is 3, as a workbook's 3.0 is; `3.5` is a finding at its cell."""
    sheet = _csv(project / "action.csv", "id;name.uk;name.en;cost;effects\n"
                                         "action_1;А;A;3.0;draw: 1\n"
                                         "action_2;Б;B;3.5;draw: 1\n")
    result = import_sheet(project / "cards" / "g", sheet, "action", write=False)
    assert [(f.line, f.col, f.code) for f in result.findings] == [(3, 4, "invalid")], result.findings
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("3.5", "+2.00"), encoding="utf-8")
    result = import_sheet(project / "cards" / "g", sheet, "action")
    assert result.written and result.findings == []
    text = (project / "cards" / "g" / "action.yaml").read_text(encoding="utf-8")
    assert "cost: 3\n" in text and "cost: 2\n" in text


@pytest.mark.parametrize("head, delimiter", [("id,name.en\n", ","), ("id;name.en\n", ";"), ("id\tname.en\n", "\t"),
                                             ('"a,b";c;d\n', ";"), ("\n\nid;x\n", ";"), ("id\n", ",")])
def test_the_delimiter_is_the_one_that_splits_the_first_record_most(tmp_path, head, delimiter):
    sheet = _csv(tmp_path / "x.csv", head + "1,2;3\t4\n")
    table, findings = read_sheet(sheet)
    header = table.rows[0]
    assert findings == [] and len(header) == len(head.strip().split(delimiter))


@pytest.mark.parametrize("suffix", [".xls", ".xlsb"])
def test_binary_workbooks_are_refused_before_they_are_read(tmp_path, suffix):
    sheet = tmp_path / f"cards{suffix}"
    sheet.write_bytes(b"\xd0\xcf\x11\xe0" * 4)
    with pytest.raises(UsageError, match="save the sheet as .xlsx or .ods"):
        read_sheet(sheet)


def test_csv_with_bad_bytes_is_a_finding(tmp_path):
    sheet = tmp_path / "x.csv"
    sheet.write_bytes(b"id,name.en\nok,\xff\n")
    table, findings = read_sheet(sheet)
    assert table is None and findings[0].code == "encoding" and findings[0].line == 2


def test_the_dry_run_and_the_real_run_refuse_a_duplicate_id_alike(project):
    """An id another file already has: `--dry-run` says the file would not be written, and the
    real run does not write it either (it once wrote the conflict after the dry run flagged it)."""
    sheet = _csv(project / "more.csv", "id,name.uk,name.en,cost\ncharacter_1,Двійник,Double,1\n")
    before = tree_digest(project / "cards")
    runs = [forge_in_process("import", "g", str(sheet), "--type", "action", *dry, cwd=project)
            for dry in (["--dry-run"], [])]
    for run in runs:
        assert run.returncode == 1
        assert "more.csv:2:1: duplicate-id [character_1]" in run.stderr, run.stderr
        assert "not written: the sheet's rows have findings" in run.stderr
    assert tree_digest(project / "cards") == before
    assert not (project / "cards" / "g" / "more.yaml").exists()


def test_the_game_imported_into_keeps_its_rules_file_and_they_are_checked(project):
    """The game as the import makes it is checked with its rules (rules.yaml), as `forge check`
    checks it: a finding of the rules is one of the import's too."""
    sheet = _csv(project / "action.csv", "id;name.uk;name.en;cost;effects\naction_1;А;A;3;draw: 1\n")
    folder = project / "cards" / "g"
    assert import_sheet(folder, sheet, "action", write=False).findings == []
    rules = folder / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("pass: {step: play}",
                                                               "pass: {step: play, colour: red}"),
                     encoding="utf-8")
    found = import_sheet(folder, sheet, "action", write=False).findings
    assert [(Path(f.file).name, f.code) for f in found] == [("rules.yaml", "rules")], found
    assert "'colour'" in found[0].message
