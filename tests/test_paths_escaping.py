"""Paths and text that card data carries into print: art is read only from inside the game
folder, and text with markup characters prints as itself (rulebook, cheat sheet, balance report).

The CLI cases (findings for paths and images) are data in tests/cases/hostile/paths.yaml; these
tests read the PDFs back, and check that rendering alone, without `check`, reads nothing outside.
"""
from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from markdown_it.tree import SyntaxTreeNode
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import SimpleDocTemplate

from conftest import CARDS, forge_forked
from forge.model import load_game
from forge.render import draw_card
from forge.render.draw import art_path
from forge.render.fonts import register
from forge.rulebook.context import Rendered, markdown_text
from forge.rulebook.markdown import Converter, parser
from forge.rulebook.styles import make_styles
from forge.scaffold import scaffold

#: An 8x8 PNG.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000080000000808020000004b6d29dc0000001449444154"
                    "789c633c2117c5800d3061151db41200fef601500f878c950000000049454e44ae426082")
IMG = '<img src="/etc/hostname"/>'
#: (Asterisks that are not card markup: `*a*` would print italic, as on a card; test_inline.py.)
HEADING = "#Goals 2*x & <y> | z"
NAMES = [f"{IMG} 2 * a* _b_ | c & d", "# [x](y) `z` &amp; 1. <b>", "- \\not ~~gone~~ <http://x.org>"]
#: The same markup in names written with typographic quotes and no backtick, so the build tests
#: can expect the text as written (typewriter marks would print typeset).
PRINTED = [n.replace('="', "=“").replace('"/', "”/").replace("`", "") for n in NAMES]


def _flat(text: str) -> str:
    """Extracted text with quotes made straight (typography curls them) and spaces collapsed."""
    return " ".join(re.sub("[“”«»„]", '"', text).split())


def _pdf_text(path: Path | io.BytesIO) -> str:
    return _flat(" ".join(page.extract_text() for page in PdfReader(path).pages))


def _project(tmp_path: Path) -> Path:
    """A project holding a copy of Love Formula (the checkout's templates serve it)."""
    game = tmp_path / "proj" / "cards" / "love_formula"
    shutil.copytree(CARDS / "love_formula", game)
    return game


def _rename(file: Path, old: str, new: str) -> None:
    text = file.read_text(encoding="utf-8")
    assert old in text, f"{file.name} no longer holds {old!r}"
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("name", NAMES + ["#RelationshipGoals", "Daisuke & Chi", "don`t -1 +2", "1. one",
                                  "2024) two", "+ three", "---", "===", "x #", "a\\b"])
@pytest.mark.parametrize("where", ["{}", "## {}", "- {}", "> {}", "| {} | x |\n|---|---|\n| {} | y |"])
def test_a_printed_value_is_text_in_any_markdown_context(name, where):
    """What `{{ }}` prints parses back to exactly the value: no emphasis, link, code, heading
    marker, entity or table cell boundary is made from it."""
    tree = SyntaxTreeNode(parser().parse(where.format(markdown_text(name), markdown_text(name))))
    texts = ["".join(c.content for c in node.children if c.type == "text")
             for node in tree.walk() if node.type == "inline"]
    assert name in texts, texts


def test_markdown_from_the_template_itself_stays_markdown():
    assert markdown_text(markdown_text("2 * a*")) == "2 \\* a\\*"  # escaped once, never twice


@pytest.mark.parametrize("lang, text", [("en", "Hajime & Kaede, Tsutomo < Kamiko"),
                                        ("uk", "сума бонусів > очікування")])
def test_a_space_before_an_escaped_character_survives_hyphenation(lang, text):
    """ReportLab drops the space between a word with soft hyphens and `&amp;` (a fragment of
    its own): «Hajime& Kaede» in the rulebook's table of pairs."""
    conv = Converter(Rendered("t.md.j2", lang), make_styles(9), 400)
    buf = io.BytesIO()
    SimpleDocTemplate(buf, invariant=1).build(conv.convert(text))
    assert _pdf_text(buf) == text


def test_rulebook_and_cheat_sheet_print_card_names_literally(tmp_path):
    """A new game's (`forge new`) rulebook and cheat sheet print its cards' names in tables and
    its card types' names as headings."""
    scaffold(tmp_path, "tiny", ["uk", "en"], ["action", "character"])
    game = tmp_path / "cards" / "tiny"
    _rename(game / "action.yaml", 'en: "Action 1"', f"en: '{PRINTED[0]}'")
    _rename(game / "action.yaml", 'en: "Action 2"', f"en: '{PRINTED[1]}'")
    _rename(game / "character.yaml", 'en: "Character 1"', f"en: '{PRINTED[2]}'")
    _rename(game / "game.yaml", 'en: "Action"', f"en: '{HEADING}'")
    done = forge_forked("build", "tiny", "--what", "rulebook,cheatsheet", "--lang", "en",
                        "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    out = tmp_path / "out" / "tiny" / "en"
    sheet = _pdf_text(out / "cheatsheet.pdf")
    for name in PRINTED:  # in the tables of cards
        assert _flat(name) in sheet
    assert f"{HEADING} " in sheet  # a heading
    rulebook = PdfReader(out / "rulebook.pdf")
    text = _flat(" ".join(page.extract_text() for page in rulebook.pages))
    for name in PRINTED:
        assert _flat(name) in text
    assert f"{HEADING} " in text  # a section heading and its contents line
    assert HEADING in [item.title for part in rulebook.outline for item in (part if isinstance(part, list) else [part])]


def test_balance_report_prints_title_and_dead_cards_literally(tmp_path):
    """ReportLab's paragraph markup would load `<img src=...>` from disk: names are escaped."""
    game = _project(tmp_path)
    _rename(game / "game.yaml", 'title: {uk: "Формула кохання"', f"title: {{uk: '{IMG} & <b>Co'")
    for file in game.glob("*.yaml"):  # every card name gets the image tag in front
        if file.name != "game.yaml":
            file.write_text(file.read_text(encoding="utf-8").replace(
                'name: {uk: "', f"name: {{uk: \"{IMG.replace(chr(34), chr(39))} & "), encoding="utf-8")
    report = tmp_path / "report.pdf"
    done = forge_forked("simulate", str(game), "--games", "3", "--report", str(report), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "dead cards (no rule offered them): none" not in done.stdout, \
        "no dead card left to print: play fewer games"
    text = _pdf_text(report)
    assert f"Звіт про баланс: {IMG} & <b>Co" in text
    assert ("Мертві карти (жодне правило не запропонувало їх у жодній партії): "
            "<img src='/etc/hostname'/> & ") in text


@pytest.mark.parametrize("art, drawn", [
    ("@SECRET@", False),             # absolute
    ("../../../secret.png", False),  # climbs out
    ("art/link.png", False),         # a link leading out
    ("art/broken.png", False),       # a text file: the placeholder, no exception
    ("art/ok.png", True),
])
def test_drawing_without_check_reads_art_only_inside_the_folder(tmp_path, art, drawn):
    game_dir = _project(tmp_path)
    secret = tmp_path / "secret.png"
    secret.write_bytes(PNG)  # a real image, which would be embedded if it were read
    (game_dir / "art").mkdir()
    (game_dir / "art" / "link.png").symlink_to(secret)
    (game_dir / "art" / "broken.png").write_text("not a picture\n")
    (game_dir / "art" / "ok.png").write_bytes(PNG)
    _rename(game_dir / "base_actions.yaml", "  copies: 3\n",
            f"  copies: 3\n  art: '{art.replace('@SECRET@', str(secret))}'\n")
    game, findings = load_game(game_dir)
    assert not findings
    kiss = game.by_id["kiss"]
    assert (art_path(game, kiss) is not None) == (art in ("art/ok.png", "art/broken.png"))
    register()
    buf = io.BytesIO()
    canvas = Canvas(buf, invariant=1)
    draw_card(canvas, game, kiss, "uk", 20, 20)
    canvas.save()
    assert (b"/Subtype /Image" in buf.getvalue()) == drawn


def test_templates_are_read_only_from_inside_a_real_templates_folder(tmp_path):
    """Rendering alone, without `check`, reads no template outside its templates folder, and
    none over the size limit: a refusal is an error, never a quiet look in the next folder."""
    from jinja2.exceptions import SecurityError, TemplateError, TemplateNotFound

    from forge.templating import MAX_TEMPLATE_BYTES, Environment, FolderLoader

    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "shared.j2").write_text("SECRET")
    root = tmp_path / "proj" / "templates"
    (root / "_common" / "cards").mkdir(parents=True)
    (root / "_common" / "cards" / "shared.j2").write_text("shared")
    (root / "g").mkdir()
    (root / "g" / "cards").symlink_to(secret)                                # leads out
    (root / "g" / "inside.j2").symlink_to("../_common/cards/shared.j2")     # stays inside
    (root / "g" / "big.j2").write_text("x" * (MAX_TEMPLATE_BYTES + 1))
    layouts = Environment(loader=FolderLoader([(root, "g/cards"), (root, "_common/cards")]))
    with pytest.raises(SecurityError, match="leads outside the templates folder through a symbolic link"):
        layouts.get_template("shared.j2")
    own = Environment(loader=FolderLoader([(root, "g")]))
    assert own.get_template("inside.j2").render() == "shared"
    with pytest.raises(TemplateError, match="larger than 1 MiB"):
        own.get_template("big.j2")
    with pytest.raises(TemplateNotFound):
        own.get_template("nothing.j2")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "templates").symlink_to(root)  # a project whose templates folder is a link
    linked = Environment(loader=FolderLoader([(tmp_path / "other" / "templates", "g")]))
    with pytest.raises(SecurityError, match="the templates folder 'templates' is a symbolic link"):
        linked.get_template("inside.j2")
