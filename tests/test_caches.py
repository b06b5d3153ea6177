"""The per-user cache (compiled templates, parsed fonts and hyphenation patterns, plural rules,
fitted card faces) can only speed forge up: a warm cache gives the same bytes as a cold one, and a damaged or
foreign entry is ignored and rebuilt, never an error and never a different output."""
from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import shutil

import pytest
from reportlab.pdfbase.ttfonts import TTFont

from conftest import forge_forked
from forge.render.fontfile import _pickled
from forge.render.fonts import FACES, font_folder
from forge.scaffold import scaffold

#: A scaffolded game's Ukrainian cheat sheet: its build uses every kind of entry (compiled
#: templates, fonts, hyphenation patterns, plural rules, parsed operation texts, fitted faces)
#: at a tenth of a built-in game's cost.
BUILD = ["build", "g", "--what", "cheatsheet", "--lang", "uk"]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A scaffolded project holding the game `g`, made once (its files are only read)."""
    folder = tmp_path_factory.mktemp("project")
    scaffold(folder, "g", ["uk", "en"], ["action", "character"])
    return folder


def forge(cache, *args, out, cwd):
    """`forge ARGS --out OUT` in `cwd` with the cache `cache`, in a process of its own that
    has read nothing from any cache before (`forge_forked`): what it uses, it reads back from
    disk."""
    return forge_forked(*args, "--out", str(out), cwd=cwd, env={"FORGE_CACHE": str(cache)})


def cheatsheet(out) -> bytes:
    return (out / "g" / "uk" / "cheatsheet.pdf").read_bytes()


@pytest.fixture(scope="module")
def cold(tmp_path_factory, project):
    """A cache filled by one build from empty, and that build's cheat sheet (made once)."""
    where = tmp_path_factory.mktemp("cold")
    first = forge(where / "cache", *BUILD, out=where / "first", cwd=project)
    assert first.returncode == 0, first.stderr
    return where / "cache", cheatsheet(where / "first")


@pytest.fixture
def built(tmp_path, cold):
    """A copy of that cache, the test's own to damage, and the cold build's cheat sheet."""
    cache, pdf = cold
    shutil.copytree(cache, tmp_path / "cache")
    return tmp_path / "cache", pdf


JINJA_DAMAGE = {
    "empty": lambda data: b"",
    "truncated": lambda data: data[: len(data) // 2],
    "garbage": lambda data: os.urandom(64),
    "bad pickle after the magic": lambda data: data[:7] + b"\x80\x05garbage",
    "not code after the checksum": lambda data: data[: data.index(b".", 7) + 1] + marshal.dumps(42),
}


@pytest.mark.parametrize("damage", JINJA_DAMAGE, ids=list(JINJA_DAMAGE))
def test_a_damaged_template_cache_is_rebuilt(tmp_path, project, built, damage):
    cache, good = built
    entries = list((cache / "jinja").iterdir())
    assert entries
    for entry in entries:
        entry.write_bytes(JINJA_DAMAGE[damage](entry.read_bytes()))
    again = forge(cache, *BUILD, out=tmp_path / "again", cwd=project)
    assert again.returncode == 0, again.stderr
    assert cheatsheet(tmp_path / "again") == good


def test_code_compiled_outside_the_sandbox_is_never_loaded(project, built):
    """A cache left by an unsandboxed forge (same template, same source) holds unchecked code:
    entries are keyed by the compiling environment, so it is not even looked at."""
    cache, _ = built
    names = {p.name for p in (cache / "jinja").iterdir()}
    import jinja2

    plain = jinja2.FileSystemBytecodeCache(str(cache / "jinja"))
    template = project / "templates" / "g" / "cheatsheet.uk.md.j2"
    name = plain.get_bucket(jinja2.Environment(), "g/cheatsheet.uk.md.j2", str(template),
                            template.read_text(encoding="utf-8")).key
    assert f"__jinja2_{name}.cache" not in names


def test_a_warm_cache_gives_the_same_bytes(tmp_path, project, built):
    cache, cold = built
    assert {p.name for p in cache.iterdir()} >= {"jinja", "fonts", "hyphenation", "plural", "parsed", "faces"}
    warm = forge(cache, *BUILD, out=tmp_path / "warm", cwd=project)
    assert warm.returncode == 0, warm.stderr
    assert cheatsheet(tmp_path / "warm") == cold


def _black(kept: bytes) -> bytes:
    """A font entry's value made from another file: the same face name, Roboto Black's glyphs."""
    return _pickled(TTFont(pickle.loads(kept).fontName, str(font_folder() / FACES["Roboto-Black"])))


def _overflowing(kept: tuple) -> tuple:
    """A faces entry's value made from another game, sound (its hash matches): every card face
    with a text that does not fit."""
    groups, faces, uses = marshal.loads(kept[1])
    faces = [(*f[:4], [((), "text-overflow", "a text from elsewhere")], *f[5:]) for f in faces]
    body = marshal.dumps((groups, faces, uses))
    return hashlib.sha1(body).hexdigest(), body


#: Per cache entry kind, a value of the right shape that would change the cheat sheet if used
#: (made from the value it replaces): no hyphenation break anywhere; every count taking the
#: «one» form; every face drawn with Roboto Black; an operation text found broken (the build
#: refuses the game); every card face overflowing (the build refuses the game).
FOREIGN = {"hyphenation": lambda kept: ({}, 0), "plural": lambda kept: {"one": "n in 0..1000000"},
           "fonts": _black,
           "parsed": lambda kept: [("draw", "uk", "template", "broken")] if isinstance(kept, list) else kept,
           "faces": _overflowing}


@pytest.mark.parametrize("part", FOREIGN)
def test_foreign_or_damaged_data_entries_change_nothing(tmp_path, project, built, part):
    cache, good = built
    if part != "faces":  # faces read back would spare the build what the others hold
        shutil.rmtree(cache / "faces")
    entries = sorted((cache / part).iterdir())
    assert entries
    keys = {}
    for n, entry in enumerate(entries):  # valid-looking entries made from something else, or garbage
        keys[entry], kept = marshal.loads(entry.read_bytes())
        entry.write_bytes(marshal.dumps(("made from something else", FOREIGN[part](kept))) if n % 2 == 0
                          else b"\x00garbage")
    again = forge(cache, *BUILD, out=tmp_path / "again", cwd=project)
    assert again.returncode == 0, again.stderr
    assert cheatsheet(tmp_path / "again") == good
    for entry in entries:
        assert marshal.loads(entry.read_bytes())[0] == keys[entry], "the entry is made again"


def test_a_font_read_back_is_the_font_parsed():
    path = font_folder() / FACES["Roboto-Italic"]
    parsed = TTFont("Roboto-Italic", str(path))
    kept = pickle.loads(_pickled(parsed))
    scale, kept_scale = parsed.face.__dict__.pop("_pdfScale"), kept.face.__dict__.pop("_pdfScale")
    assert kept.face.__dict__ == parsed.face.__dict__
    assert all(kept_scale(u) == scale(u) for u in range(-5000, 5000))
    assert kept.stringWidth("Ґанок, «їжак» і м’ята", 9.5) == parsed.stringWidth("Ґанок, «їжак» і м’ята", 9.5)


def test_a_font_is_not_kept_when_its_unit_scale_is_not_a_plain_multiplication_or_it_was_used():
    font = TTFont("Roboto", str(font_folder() / FACES["Roboto"]))
    assert _pickled(font)
    font.face._pdfScale = lambda x: x * 1000 / 2048  # not a multiplication by one kept number
    assert _pickled(font) == b""
    used = TTFont("Roboto", str(font_folder() / FACES["Roboto"]))
    import io
    from reportlab.pdfgen.canvas import Canvas
    canvas = Canvas(io.BytesIO())
    used.splitString("a", canvas._doc)
    assert _pickled(used) == b""


def test_templates_compiled_in_one_folder_are_read_back_in_a_copy_naming_the_copys_files(tmp_path):
    """Compiled templates are keyed by their source, not their file: a copy of a project in
    another folder compiles nothing again (no entry is written), and what a template raises is
    reported at the copy's own file and line."""
    first = tmp_path / "first"
    scaffold(first, "g", ["uk", "en"], ["action"])
    layout = first / "templates" / "g" / "cards" / "action.yaml.j2"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text.replace("{% import 'parts.j2' as p %}\n", "{% import 'parts.j2' as p %}\n{{ 1 / 0 }}\n", 1),
                      encoding="utf-8")
    line = layout.read_text(encoding="utf-8").splitlines().index("{{ 1 / 0 }}") + 1
    shutil.copytree(first, tmp_path / "copy")
    compiled = []
    for proj in (first, tmp_path / "copy"):
        done = forge_forked("check", str(proj / "cards" / "g"), cwd=tmp_path,
                            env={"FORGE_CACHE": str(tmp_path / "cache")})
        assert done.returncode == 1
        assert f"{proj.name}/templates/g/cards/action.yaml.j2:{line}:" in done.stderr, done.stderr
        assert "ZeroDivisionError" in done.stderr
        compiled.append({p.name: p.stat().st_mtime_ns for p in (tmp_path / "cache" / "jinja").iterdir()})
    assert compiled[0] and compiled[1] == compiled[0]
