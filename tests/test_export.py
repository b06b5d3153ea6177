"""`forge export`: the cards of a type as a sheet (.csv, .xlsx, .ods) that `forge import` reads
back to the same data: importing it into the card file it came from leaves the file as it was."""
from __future__ import annotations

import itertools

import pytest
import yaml

from conftest import CARDS, GAMES, forge_in_process, tree_digest
from forge.model.cards import card_models
from forge.model.game import card_files
from forge.sheet_export import EXPORT_SUFFIXES, export_sheet
from forge.spreadsheet import card_rows, import_sheet, read_sheet


def _written(path):
    """The cards of a card file as written, by type."""
    cards = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {kind: [c for c in cards if c["type"] == kind] for kind in dict.fromkeys(c["type"] for c in cards)}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_built_in_card_file_reads_back_from_every_format(game_id, products, tmp_path):
    """Each card file's cards of each type, exported to CSV, XLSX and ODS in turn, read back by
    import's reader to the data as the file writes it (all but `type`, which is the import's)."""
    game = products.game(game_id)
    models = card_models(game.manifest)
    suffixes = itertools.cycle(EXPORT_SUFFIXES)
    for path in card_files(CARDS / game_id):
        for kind, cards in _written(path).items():
            sheet = tmp_path / f"{path.stem}-{kind}{next(suffixes)}"
            assert export_sheet(game, kind, sheet, path.stem) == len(cards)
            table, findings = read_sheet(sheet)
            assert findings == []
            rows, findings = card_rows(table, game.manifest, kind, models[kind])
            assert findings == []
            assert [row.data for row in rows] == [{k: v for k, v in c.items() if k != "type"} for c in cards]


def test_export_then_import_leaves_each_card_file_byte_for_byte_as_it_was(game_copy, tmp_path, monkeypatch):
    """The whole import, once per format: into the card file the sheet came from, nothing added,
    nothing changed, no finding; and the game each import checks is the game as it was, so its
    rulebooks are laid out for the first import at most (`rulebook.typeset`)."""
    from forge.rulebook import document
    laid_out = []
    real = document.overfull_in
    monkeypatch.setattr(document, "overfull_in", lambda *a, **k: laid_out.append(a[2]) or real(*a, **k))
    root = game_copy("rules_does_not_exist")
    before = tree_digest(root)
    for stem, kind, suffix in (("classes", "class", ".csv"), ("mercenaries", "mercenary", ".xlsx"),
                               ("monsters", "monster", ".ods")):
        sheet = tmp_path / f"{stem}{suffix}"
        exported = forge_in_process("export", str(root), str(sheet), "--type", kind, cwd=tmp_path)
        assert exported.returncode == 0 and f"{sheet.name}: " in exported.stderr, exported.stderr
        result = import_sheet(root, sheet, kind, file=stem)
        assert result.findings == [] and result.written and not result.added, (sheet.name, result.findings)
        assert tree_digest(root) == before, f"{sheet.name} did not import back to {stem}.yaml as it was"
    assert len(laid_out) == len(set(laid_out)), laid_out


def test_export_refuses_an_unknown_type_and_format(tmp_path):
    bad_type = forge_in_process("export", "love_formula", str(tmp_path / "x.csv"), "--type", "spell")
    assert bad_type.returncode == 2 and "no card type 'spell'" in bad_type.stderr
    bad_format = forge_in_process("export", "love_formula", str(tmp_path / "x.xls"), "--type", "goal")
    assert bad_format.returncode == 2 and ".csv, .xlsx, .ods" in bad_format.stderr
    assert not list(tmp_path.iterdir())


def test_a_type_with_no_cards_exports_as_a_form_to_fill_in(products, tmp_path):
    """The header holds id, set, every locale's name and the type's own fields; no row."""
    game = products.game("love_formula")
    sheet = tmp_path / "goals.ods"
    assert export_sheet(game, "vp", sheet, "base_actions") == 0
    (header,) = read_sheet(sheet)[0].rows
    assert [cell.value for cell in header][:4] == ["id", "set", "name.uk", "name.en"]
    assert {f"{name}.uk" if spec.type == "text" else name
            for name, spec in game.manifest.card_types["vp"].fields.items()} <= {c.value for c in header}
