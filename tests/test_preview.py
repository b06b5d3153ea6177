"""`forge preview`: one card face as a PNG of the print size, drawn with PDFium (no poppler),
started fast: only the command that runs is imported, and what it draws does not depend on it."""
from __future__ import annotations

import io
import os
import pkgutil
import subprocess
import sys

from PIL import Image

from conftest import ROOT, forge_forked


def test_preview_writes_one_png_of_the_print_size_without_poppler(tmp_path, monkeypatch):
    out = tmp_path / "kiss.png"
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # no pdftoppm, no helper program at all
    result = forge_forked("preview", "love_formula", "kiss", "--lang", "en", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("kiss.png")
    image = Image.open(out)
    assert image.format == "PNG"
    assert image.size == (825, 1125), "a 63 x 88 mm card: The Game Crafter's 825 x 1125 px"
    # The face is drawn, not blank: the bleed colour at the edge and the light panel inside.
    rgb = image.convert("RGB")
    edge, inside = rgb.getpixel((5, 5)), rgb.getpixel((412, 900))
    assert edge != inside and sum(inside) > 600


def test_preview_default_path_back_and_errors(tmp_path):
    # From a folder without cards/, a game id names a built-in game.
    ok = forge_forked("preview", "rules_does_not_exist", "glowstick_gremlin", "--back", cwd=tmp_path)
    missing = forge_forked("preview", "rules_does_not_exist", "glowstik_gremlin", cwd=tmp_path)
    lang = forge_forked("preview", "rules_does_not_exist", "glowstick_gremlin", "--lang", "fr", cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    written = tmp_path / ok.stdout.strip()
    assert written == tmp_path / "output" / "rules_does_not_exist" / "uk" / "preview" / "glowstick_gremlin-back.png"
    assert Image.open(written).size == (825, 1125)
    assert missing.returncode == 2 and "did you mean glowstick_gremlin" in missing.stderr
    assert lang.returncode == 2 and "no locale 'fr'" in lang.stderr
    assert "Traceback" not in missing.stderr + lang.stderr


def test_preview_draws_each_language_asked(tmp_path):
    """`--lang uk,en` draws a PNG of each, named by language in the --out folder; a file for
    --out cannot hold two and is a usage error before any drawing."""
    from conftest import forge_in_process
    both = forge_in_process("preview", "rules_does_not_exist", "glowstick_gremlin", "--lang", "uk,en",
                            "--out", f"{tmp_path}/shots/")
    assert both.returncode == 0, both.stderr
    shots = tmp_path / "shots"
    assert both.stdout.splitlines() == [str(shots / f"glowstick_gremlin.{lang}.png") for lang in ("uk", "en")]
    uk, en = (Image.open(shots / f"glowstick_gremlin.{lang}.png") for lang in ("uk", "en"))
    assert uk.size == en.size == (825, 1125) and uk.tobytes() != en.tobytes(), "each in its language"
    one_file = forge_in_process("preview", "rules_does_not_exist", "glowstick_gremlin", "--lang", "uk,en",
                                "--out", str(tmp_path / "one.png"))
    assert one_file.returncode == 2 and "give a folder" in one_file.stderr
    assert not (tmp_path / "one.png").exists()


def test_raster_gives_exact_sizes_and_same_bytes():
    from reportlab.pdfgen.canvas import Canvas

    from forge import raster

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(200, 100), invariant=1)
    c.setFillColorRGB(1, 0, 0)
    c.rect(0, 0, 100, 100, fill=1, stroke=0)
    c.showPage()
    c.save()
    pdf = buf.getvalue()
    first = list(raster.png_pages(pdf, (333, 167)))
    assert len(first) == 1
    image = Image.open(io.BytesIO(first[0]))
    assert image.size == (333, 167)
    assert image.getpixel((10, 80))[:3] == (255, 0, 0) and image.getpixel((300, 80))[:3] == (255, 255, 255)
    assert list(raster.png_pages(pdf, (333, 167))) == first, "deterministic"
    assert Image.open(io.BytesIO(next(raster.png_pages(pdf, dpi=144)))).size == (400, 200)


def test_preview_bytes_are_those_of_the_library_with_everything_imported(tmp_path):
    """The command imports only what a preview needs; the library, with the checker, the rules
    engines and the rulebooks loaded as in a full build, draws the same PNG bytes."""
    import forge.check  # noqa: F401
    import forge.rulebook.products  # noqa: F401
    import forge.rules  # noqa: F401
    from forge import load_game
    from forge.api import card_png

    game, _ = load_game(ROOT / "cards" / "love_formula")
    for card_id, args, side in (("kiss", [], "front"), ("kiss", ["--back"], "back")):
        out = tmp_path / f"{card_id}-{side}.png"
        result = forge_forked("preview", "love_formula", card_id, "--out", str(out), *args, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert out.read_bytes() == card_png(game, game.card(card_id), "uk", side), side


def _modules_after(*args: str) -> set[str]:
    """The modules a `forge ARGS` process has imported when it ends."""
    code = ("import sys\nfrom forge.cli import main\nsys.argv = ['forge', *sys.argv[1:]]\n"
            "try:\n    main()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
            "print('\\n'.join(sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_a_command_imports_only_what_it_needs(tmp_path):
    shown = _modules_after("preview", "love_formula", "kiss", "-q", "--out", str(tmp_path / "k.png"))
    # the engine is loaded: a face prints its rule numbers (`rules`), as the build's faces do
    assert {"forge.cli.preview", "forge.model", "forge.render", "forge.rules.printed", "pypdfium2"} <= shown
    unneeded = {"forge.check", "forge.rulebook", "reportlab.platypus", "pypdf",
                "forge.cli.build", "forge.cli.simulate", "rich"}
    assert not unneeded & shown, unneeded & shown
    # A check whose books' layouts are kept renders the rulebooks and lays none out. The first
    # check in this run's cache may have to lay them out (this test alone, or first).
    _modules_after("check", "love_formula", "-q")
    shown = _modules_after("check", "love_formula", "-q")
    assert "forge.rulebook.context" in shown
    unneeded = {"forge.rulebook.document", "forge.rulebook.products", "reportlab.platypus", "markdown_it", "pypdf"}
    assert not unneeded & shown, unneeded & shown
    for args in (["--version"], ["--help"]):
        shown = _modules_after(*args)
        assert not {m for m in shown if m.startswith(("forge.cli.", "forge.model", "reportlab", "pydantic"))
                    } - {"forge.cli.app", "forge.cli.progress"}, args


def test_the_command_table_is_the_commands():
    """`forge.cli.COMMANDS` names every command, the module that registers it and the help that
    `forge --help` shows without importing it: the same as the command's own."""
    import typer

    from forge.cli import COMMANDS, app
    for module in pkgutil.iter_modules([str(ROOT / "forge" / "cli")]):
        __import__(f"forge.cli.{module.name}")
    group = typer.main.get_command(app)
    registered = {info.name or typer.main.get_command_name(info.callback.__name__): info.callback.__module__
                  for info in app.registered_commands}
    assert registered == {name: f"forge.cli.{module}" for name, (module, _) in COMMANDS.items()}, \
        "add the command to forge.cli.COMMANDS (or fix its module there)"
    for name, (_, summary) in COMMANDS.items():
        assert group.commands[name].get_short_help_str(10**6) == summary, \
            f"forge.cli.COMMANDS[{name!r}]: copy the first sentence of the command's docstring"
    from typer.testing import CliRunner
    listed = " ".join(CliRunner().invoke(app, ["--help"], terminal_width=10**4).stdout.split())
    for name, (_, summary) in COMMANDS.items():
        assert f"{name} {summary}" in listed


def test_completing_a_command_name_and_a_typo_suggestion():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "_FORGE_COMPLETE": "complete_bash",
           "COMP_WORDS": "forge pr", "COMP_CWORD": "1"}
    done = subprocess.run([sys.executable, "-m", "forge"], env=env, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.stdout.split() == ["preview"]
    typo = forge_forked("previwe", "love_formula", "kiss")
    assert typo.returncode == 2 and "Did you mean 'preview'" in typo.stderr


def test_a_layout_that_does_not_parse_is_named_as_the_designer_sees_it(tmp_path):
    from forge.scaffold import scaffold

    scaffold(tmp_path, "g", ["en"], ["action"])
    layout = tmp_path / "templates" / "g" / "cards" / "action.yaml.j2"
    layout.write_text(layout.read_text(encoding="utf-8") + "{% if %}\n", encoding="utf-8")
    result = forge_forked("preview", "g", "action_1", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("forge: templates/g/cards/action.yaml.j2:"), result.stderr
    assert "Traceback" not in result.stderr


def test_out_names_a_png_or_a_folder_to_draw_the_card_into(tmp_path):
    """An existing folder, or any name ending in a slash (made when the PNG is written), holds
    <card>[-back].png; anything else is the PNG itself."""
    from forge.cli.preview import png_path

    (tmp_path / "shots").mkdir()
    assert png_path(f"{tmp_path}/shots", "kiss", False) == tmp_path / "shots" / "kiss.png"
    assert png_path(f"{tmp_path}/new/", "kiss", True) == tmp_path / "new" / "kiss-back.png"
    assert png_path(f"{tmp_path}/new", "kiss", False) == tmp_path / "new"
