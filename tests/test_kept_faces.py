"""Fitted card faces kept in the forge cache (`forge.render.kept`): a game whose inputs did not
change reads its faces back, equal to fresh ones (texts and problems, so findings, included);
a change to anything a face is made from lays them out again; a damaged entry is ignored.

Each run loads the game anew and starts from in-process caches as a fresh process has them
(`fresh`); the work is counted as calls of `layout.layout_elements`, one per face."""
from __future__ import annotations

import hashlib
import os
import marshal
import shutil
from pathlib import Path

import pytest

from conftest import CARDS, ROOT, forge_forked
from forge.check.fields import check_shown_fields
from forge.check.preflight import check_glyphs_and_fit
from forge.model import load_game
from forge.render import kept, layout
from forge.scaffold import scaffold

GAME = "rules_does_not_exist"
SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="{w}" height="10"/></svg>'


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project with the game (the first two cards of each of its files: each face is laid
    out, kept and read back alike), its own copy of the templates and an icon, and a cache of
    its own."""
    proj = tmp_path / "proj"
    shutil.copytree(CARDS / GAME, proj / "cards" / GAME)
    for cards in (proj / "cards" / GAME).glob("*.yaml"):
        if cards.name != "game.yaml":
            head, *designs = cards.read_text(encoding="utf-8").split("\n- id:")
            cards.write_text("\n- id:".join([head, *designs[:2]]), encoding="utf-8")
    shutil.copytree(ROOT / "templates", proj / "templates")
    (proj / "cards" / GAME / "icons").mkdir()
    (proj / "cards" / GAME / "icons" / "mark.svg").write_text(SVG.format(w=10), encoding="utf-8")
    monkeypatch.setenv("FORGE_CACHE", str(tmp_path / "cache"))
    return proj


def fresh() -> None:
    """Forget what a process keeps of templates and code, as a new process starts without it."""
    layout._env.cache_clear()
    layout._SELECTED.clear()
    layout._FOLDERS.clear()
    kept._installed.cache_clear()


def faces_of(game) -> list:
    """Every face of the game in every language, as plain values (what drawing reads)."""
    out = []
    for lang in game.manifest.locales:
        for card in game.cards:
            for face in (layout.front(game, card, lang), layout.back(game, card, lang)):
                out.append((face.width, face.height, face.elements, face.problems, face.texts,
                            {n: g for n, g in face.groups.items()}))
    return out


def run(proj: Path, monkeypatch) -> tuple[int, list, list, list]:
    """Check the game's faces and fields as `forge check` does: (faces laid out, glyph and fit
    findings, field findings, every face)."""
    fresh()
    made = []
    real = layout.layout_elements
    monkeypatch.setattr(layout, "layout_elements", lambda *a, **k: made.append(a[1:]) or real(*a, **k))
    game, findings = load_game(proj / "cards" / GAME)
    assert findings == []
    fit = sorted(check_glyphs_and_fit(game), key=repr)
    fields = sorted(check_shown_fields(game), key=repr)
    faces = faces_of(game)
    monkeypatch.setattr(layout, "layout_elements", real)
    return len(made), fit, fields, faces


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_faces_read_back_are_the_faces_laid_out_with_the_same_findings(project, monkeypatch):
    # a text that cannot fit, a glyph no font has, a field the layout does not show
    cards = project / "cards" / GAME / "sounds.yaml"
    _edit(cards, "name: {uk: Гул розігріву,", "name: {uk: Гул ☃ розігрівуууууууууууууууууууууууууууууууууууууууу,")
    _edit(cards, "  genres: [ambient, house, techno]", "  flavor: {uk: Тихо, en: Quiet}\n  genres: [ambient, house, techno]")
    laid, fit, fields, faces = run(project, monkeypatch)
    assert laid > 0
    assert {f.code for f in fit} == {"missing-glyph", "text-overflow"}
    assert {f.code for f in fields} == {"hidden-field"}
    again = run(project, monkeypatch)
    assert again == (0, fit, fields, faces)


CHANGES = {
    "card text": lambda p: _edit(p / "cards" / GAME / "sounds.yaml", "Гул розігріву", "Гул розминки"),
    "layout": lambda p: _edit(p / "templates" / GAME / "cards" / "sound.yaml.j2", "{", "{# edited #}{"),
    "imported template": lambda p: _edit(p / "templates" / GAME / "cards" / "_rave.j2",
                                         "{% set GOOD = '#4af29a' %}", "{% set GOOD = '#4af29b' %}"),
    "shared macros": lambda p: _edit(p / "templates" / "_common" / "cards" / "parts.j2", "{", "{# edited #}{"),
    "icon": lambda p: (p / "cards" / GAME / "icons" / "mark.svg").write_text(SVG.format(w=5), encoding="utf-8"),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_a_changed_input_lays_the_faces_out_again(project, monkeypatch, tmp_path, change):
    first = run(project, monkeypatch)
    assert run(project, monkeypatch)[0] == 0
    CHANGES[change](project)
    laid = run(project, monkeypatch)[0]
    assert laid == first[0]
    assert run(project, monkeypatch)[0] == 0  # and kept again,
    assert len(list((tmp_path / "cache" / kept.PART).iterdir())) == 2  # in place of the first


def test_a_copy_of_the_project_in_another_folder_reads_the_faces_back(project, monkeypatch, tmp_path):
    """The key holds no folder (the files' names only as a layout may read them, relative to
    the working folder): a copy run from its own folder reads every face back, and a change
    there lays them out again."""
    monkeypatch.chdir(project)
    first = run(project, monkeypatch)
    copy = tmp_path / "copy"
    shutil.copytree(project, copy, symlinks=True)
    monkeypatch.chdir(copy)
    assert run(copy, monkeypatch) == (0, *first[1:])
    CHANGES["card text"](copy)
    assert run(copy, monkeypatch)[0] == first[0]


def test_a_layout_reading_where_its_card_is_written_sees_it_move(project, monkeypatch, tmp_path):
    """A layout may read where its card is written (`card.source`): a line added above the
    cards, their data unchanged, or another working folder (the file's name is relative to
    it) lays the faces out again, and they say where the card is now."""
    _edit(project / "templates" / GAME / "cards" / "sound.yaml.j2", "{% block main %}\n",
          "{% block main %}\n{{ el('label', x=5, y=60, w=60, size=5, "
          "text=card.source.file ~ ':' ~ card.source.line) }}\n")
    monkeypatch.chdir(project)
    laid, _, _, faces = run(project, monkeypatch)
    texts = lambda faces: {t for face in faces for t in face[4]}  # noqa: E731
    assert any("cards/rules_does_not_exist/sounds.yaml:6" in str(t) for t in texts(faces))
    cards = project / "cards" / GAME / "sounds.yaml"
    cards.write_text("# a line more\n" + cards.read_text(encoding="utf-8"), encoding="utf-8")
    moved = run(project, monkeypatch)
    assert moved[0] == laid
    assert any("cards/rules_does_not_exist/sounds.yaml:7" in str(t) for t in texts(moved[3]))
    monkeypatch.chdir(tmp_path)
    elsewhere = run(project, monkeypatch)
    assert elsewhere[0] == laid
    assert any("proj/cards/rules_does_not_exist/sounds.yaml:7" in str(t) for t in texts(elsewhere[3]))


def test_a_changed_forge_source_file_lays_the_faces_out_again(project, monkeypatch, tmp_path):
    code = tmp_path / "forge"
    shutil.copytree(ROOT / "forge", code, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(kept, "_FORGE", code)  # forge's code as the key sees it
    first = run(project, monkeypatch)[0]
    assert run(project, monkeypatch)[0] == 0
    with open(code / "render" / "draw.py", "a", encoding="utf-8") as f:
        f.write("# edited\n")
    assert run(project, monkeypatch)[0] == first


DAMAGE = {
    "empty": lambda data: b"",
    "one byte changed": lambda data: data[:-100] + bytes([data[-100] ^ 1]) + data[-99:],
    "another form, its hash right": lambda data: _resealed(data),
}


def _resealed(data: bytes) -> bytes:
    key, (_, body) = marshal.loads(data)
    body = marshal.dumps(["not", "faces"])
    return marshal.dumps((key, (hashlib.sha1(body).hexdigest(), body)))


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_a_damaged_entry_is_ignored_and_made_again(project, monkeypatch, tmp_path, damage):
    laid, fit, fields, faces = run(project, monkeypatch)
    entries = sorted((tmp_path / "cache" / kept.PART).iterdir())
    assert len(entries) == 2  # one per language
    for entry in entries:
        entry.write_bytes(DAMAGE[damage](entry.read_bytes()))
    assert run(project, monkeypatch) == (laid, fit, fields, faces)
    assert run(project, monkeypatch) == (0, fit, fields, faces)  # made again


def test_faces_are_not_kept_when_a_layout_changes_while_they_are_laid_out(project, monkeypatch, tmp_path):
    """The environment reads a template once: faces laid out from the old text are not kept
    under the new one."""
    real = layout.layout_elements

    def edit_then_lay_out(*args, **kwargs):
        if not edited:
            edited.append(CHANGES["imported template"](project))
        return real(*args, **kwargs)
    edited: list = []
    fresh()
    monkeypatch.setattr(layout, "layout_elements", edit_then_lay_out)
    game = load_game(project / "cards" / GAME)[0]
    list(check_glyphs_and_fit(game))
    monkeypatch.setattr(layout, "layout_elements", real)
    assert edited
    assert not (tmp_path / "cache" / kept.PART).exists() or not list((tmp_path / "cache" / kept.PART).iterdir())


def test_sheets_drawn_from_faces_read_back_are_the_same_bytes(tmp_path):
    """Read-back faces share their `once` groups as fresh ones do: each is one form per PDF.
    A new game's layouts draw what every card of a type shares in `once`; each build is a
    process of its own, with nothing in memory of the one before."""
    scaffold(tmp_path, "tiny", ["uk", "en"], ["action", "character"])
    pdfs = []
    for run_ in ("empty", "warm"):
        done = forge_forked("build", "tiny", "--what", "pnp", "--out", str(tmp_path / run_), cwd=tmp_path,
                            env={"FORGE_CACHE": str(tmp_path / "cache")})
        assert done.returncode == 0, done.stderr
        pdfs.append({p.relative_to(tmp_path / run_): p.read_bytes() for p in (tmp_path / run_).rglob("*.pdf")})
        assert len(list((tmp_path / "cache" / kept.PART).iterdir())) == 2  # kept by the first
    assert len(pdfs[0]) == 2
    assert pdfs[0] == pdfs[1]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_the_key_reads_no_fifo_and_nothing_a_link_leads_out_to(project, monkeypatch, tmp_path):
    """A game's layout folders are untrusted: reading them for the key never blocks, and reads
    nothing the template loader would refuse (it refuses links out of the templates folder)."""
    layouts = project / "templates" / GAME / "cards"
    os.mkfifo(layouts / "pipe.j2")
    outside = tmp_path / "outside.txt"
    outside.write_text("one", encoding="utf-8")
    (layouts / "out.j2").symlink_to(outside)
    assert run(project, monkeypatch)[0] > 0
    outside.write_text("two", encoding="utf-8")
    assert run(project, monkeypatch)[0] == 0


def test_faces_of_layout_folders_past_the_limit_are_not_kept(project, monkeypatch):
    monkeypatch.setattr(kept, "MAX_FILES", 3)
    first = run(project, monkeypatch)[0]
    assert run(project, monkeypatch)[0] == first
