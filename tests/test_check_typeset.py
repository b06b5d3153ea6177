"""`forge check` lays out the rulebooks and cheat sheets: what only typesetting finds (here a
word wider than its column) is a finding at check, not first at build, and a layout is kept
(`rulebook.typeset`): checking again lays nothing out."""
from __future__ import annotations

import shutil
from pathlib import Path

from forge.check import check_game
from forge.rulebook import document
from forge.scaffold import scaffold

WIDE = "0123456789" * 14  # one unbreakable piece, wider than any column


def test_a_word_too_wide_for_its_column_is_a_check_finding_and_the_layout_is_kept(tmp_path, monkeypatch):
    scaffold(tmp_path, "mygame", ("uk", "en"), ("spell",))
    templates = tmp_path / "templates" / "mygame"
    for name in ("rulebook.uk.md.j2", "cheatsheet.en.md.j2"):
        with (templates / name).open("a", encoding="utf-8") as f:
            f.write(f"\n\nAn identifier: {WIDE}\n")
    laid_out = []
    real = document.overfull_in
    monkeypatch.setattr(document, "overfull_in", lambda *a, **k: laid_out.append(a[2]) or real(*a, **k))
    for times in (1, 2):
        _, findings = check_game(tmp_path / "cards" / "mygame")
        wide = sorted((f.file.rpartition("/")[2], f.code) for f in findings if WIDE in f.message)
        assert wide == [("cheatsheet.en.md.j2", "rulebook-overfull"),
                        ("rulebook.uk.md.j2", "rulebook-overfull")], findings
        assert sorted(laid_out) == ["en", "uk"]  # each rulebook set once, by the first check


def test_a_copy_of_the_game_elsewhere_is_not_laid_out_again(tmp_path, monkeypatch):
    """The kept layout names the files of its card rows and scenarios as its findings do (from
    the working directory), so a project copied elsewhere and checked from its own folder, rows,
    scenario and all, is not set again."""
    scaffold(tmp_path / "a", "mygame", ("uk", "en"), ("spell",))
    with (tmp_path / "a" / "templates" / "mygame" / "rulebook.uk.md.j2").open("a", encoding="utf-8") as f:
        f.write(f"\n\n{{{{ scenario('play_a_card') }}}}\n\nAn identifier: {WIDE}\n")
    laid_out = []
    real = document.overfull_in
    monkeypatch.setattr(document, "overfull_in", lambda *a, **k: laid_out.append(a[2]) or real(*a, **k))
    found = {}
    for copy in ("a", "b"):
        if copy == "b":
            shutil.copytree(tmp_path / "a", tmp_path / "b")
        monkeypatch.chdir(tmp_path / copy)
        _, findings = check_game(Path("cards/mygame"))
        found[copy] = [(f.file, f.line, f.code) for f in findings]
    assert sorted(laid_out) == ["en", "uk"]  # by the first check only
    assert found["b"] == found["a"]
    assert ("templates/mygame/rulebook.uk.md.j2", 60, "rulebook-overfull") in found["b"]
