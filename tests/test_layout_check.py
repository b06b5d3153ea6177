"""The layout contract: `check` renders every layout and reports each bad element at its template
line (and `build` refuses with the same findings); a game's own SVG icons are drawn, and broken or
hostile ones are findings; docs/layouts.md states exactly what the validator accepts."""
from __future__ import annotations

import contextlib
import io
import re
import shutil
from pathlib import Path

import jinja2
import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from conftest import CARDS, ROOT, forge_in_process
from forge import raster
from forge.check import check_game
from forge.model import load_game
from forge.render import draw_card, layout, tokens
from forge.render.draw import draw_face, use_cmyk
from forge.render.elements import CELL, KINDS, PARAGRAPH, Invalid, validate
from forge.render.icons import ICONS, game_icons, load_icons
from forge.render.layout import PT
from forge.scaffold import scaffold

DOC = (ROOT / "docs" / "layouts.md").read_text(encoding="utf-8")
PURPLE, GLEAM = (0x6A, 0x4C, 0x93), (0xE5, 0xDB, 0xFF)  # the worked example's colours


def _project(tmp_path: Path, game: str = "love_formula") -> Path:
    """A project folder with a copy of a built-in game and of the templates."""
    proj = tmp_path / "proj"
    shutil.copytree(CARDS / game, proj / "cards" / game)
    shutil.copytree(ROOT / "templates", proj / "templates")
    return proj


def _insert(path: Path, after: str, lines: list[str]) -> list[int]:
    """Insert `lines` after the first line equal to `after`; their line numbers (1-based)."""
    text = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(n for n, line in enumerate(text) if line.rstrip("\n") == after) + 1
    text[at:at] = [line + "\n" for line in lines]
    path.write_text("".join(text), encoding="utf-8")
    return [at + 1 + i for i in range(len(lines))]


def _block(start: str) -> str:
    """The fenced code block of docs/layouts.md that starts with `start`."""
    return next(body for body in re.findall(r"```\w*\n(.*?)```", DOC, re.S) if body.startswith(start))


def _pixels(pdf: bytes, box_mm: tuple[float, float, float, float], dpi: int = 300) -> list[tuple]:
    """The RGB pixels of the first page inside box (x, y, w, h) mm from its top-left corner."""
    image = Image.open(io.BytesIO(next(raster.png_pages(pdf, dpi=dpi)))).convert("RGB")
    x, y, w, h = (round(v / 25.4 * dpi) for v in box_mm)
    data = image.crop((x, y, x + w, y + h)).tobytes()
    return [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]


def _near(pixels: list[tuple], colour: tuple, tolerance: int = 12) -> int:
    return sum(all(abs(a - b) <= tolerance for a, b in zip(p, colour)) for p in pixels)


def _card_pdf(game, card, lang: str = "en", cmyk: bool = False) -> bytes:
    size = game.manifest.card_size
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(size.width * PT, size.height * PT), invariant=1)
    if cmyk:
        use_cmyk(c)
    draw_card(c, game, card, lang, 0, 0)
    c.showPage()
    c.save()
    return buf.getvalue()


# --------------------------------------------------------------------------------------------
# Bad elements: a finding each, at the template's line, from check and from build


def test_check_reports_every_bad_element_at_its_template_line_and_build_refuses(tmp_path):
    """The faces' check (the rulebooks are not laid out: no bad element comes from there), then
    `forge build`, which checks the same and prints what it refuses on."""
    proj = _project(tmp_path)
    template = proj / "templates" / "love_formula" / "cards" / "pair.yaml.j2"
    lines = _insert(template, "{% block main %}", [
        "{{ el('rectt', x=1, y=1, w=2, h=3) }}",
        "{{ el('rect', x=1, w=2, h=3, fill='#ff0000') }}",
        "{{ el('icon', name='hart', x=1, y=1, size=3) }}",
    ])
    with contextlib.chdir(proj):  # findings name files relative to the working folder
        _, findings = check_game(proj / "cards" / "love_formula", typeset=False)
    said = "\n".join(map(str, findings))
    kind, missing, icon = (f"templates/love_formula/cards/pair.yaml.j2:{n}:1: layout-element [" for n in lines)
    assert kind in said and "unknown element kind 'rectt'; did you mean 'rect'?" in said
    assert missing in said and "rect needs y" in said
    assert icon in said and "'hart' is neither a built-in icon" in said and "did you mean 'heart'?" in said
    out = tmp_path / "out"
    built = forge_in_process("build", str(proj / "cards" / "love_formula"), "--out", str(out), cwd=proj)
    refused = built.stdout + built.stderr
    assert built.returncode == 1 and "Traceback" not in refused and "internal error" not in refused
    for where in (kind, missing, icon):
        assert where in refused, refused
    assert not out.exists()


def test_a_bad_element_in_a_once_block_is_reported_on_every_run(tmp_path):
    """A `once` block with a bad element is not kept, so checking again in the same process
    (as `forge watch` does) reports it again instead of reusing the block without it."""
    proj = _project(tmp_path)
    template = proj / "templates" / "love_formula" / "cards" / "pair.yaml.j2"
    (line,) = _insert(template, "{% block main %}", ["{% call once(C) %}{{ el('circle', cx=1, cy=1) }}{% endcall %}"])
    for _ in range(2):  # (the rulebooks are not laid out: no card layout's finding comes from there)
        _, findings = check_game(proj / "cards" / "love_formula", typeset=False)
        assert [(f.line, f.code) for f in findings if f.file.endswith("pair.yaml.j2")] == [(line, "layout-element")]
        assert "circle needs r" in findings[0].message


def test_a_backs_misspelt_icon_is_a_finding_at_the_manifest_not_in_forges_own_template(tmp_path):
    """forge's shared back layout draws the manifest's `backs` entry: what to fix is the entry."""
    scaffold(tmp_path, "g", ["en"], ["action"])
    manifest = tmp_path / "cards" / "g" / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("icon: star}", "icon: strr}", 1), encoding="utf-8")
    _, findings = check_game(tmp_path / "cards" / "g")
    line = next(n for n, said in enumerate(text.splitlines(), 1) if "icon: star}" in said)
    assert [(f.file, f.line, f.code) for f in findings] == [(str(manifest), line, "layout-element")], findings
    assert "'strr'" in findings[0].message and "did you mean 'star'?" in findings[0].message


def test_a_yaml_layout_reports_each_element_at_the_template_line_that_wrote_it(tmp_path):
    proj = _project(tmp_path)
    (proj / "templates" / "love_formula" / "cards" / "vp.yaml.j2").write_text(
        "{# the victory point cards, written as YAML #}\n"
        "- {kind: rect, x: 0, y: 0, w: '{{ W }}', h: '{{ H }}', fill: '#ffffff'}\n"
        "{% for i in range(2) %}\n"
        "- {kind: text, x: 1, y: {{ i }}, text: '{{ card.id }}'}\n"
        "{% endfor %}\n"
        "- kind: label\n"
        "  x: 1\n"
        "  y: 2\n"
        "  text: '{{ card.value }}'\n"
        "  colour: red\n", encoding="utf-8")
    _, findings = check_game(proj / "cards" / "love_formula", typeset=False)  # the faces' findings
    assert [(Path(f.file).name, f.line, f.code) for f in findings] == [
        ("vp.yaml.j2", 4, "layout-element"), ("vp.yaml.j2", 6, "layout-element")]
    assert "element 2: text needs w, h" in findings[0].message
    assert "label has no parameter 'colour'; did you mean 'color'?" in findings[1].message
    assert all(f.card.startswith("vp_") for f in findings)


# --------------------------------------------------------------------------------------------
# A game's own SVG icons


def test_the_worked_example_checks_and_draws_its_svg_icon_in_its_own_and_the_fill_colour(tmp_path):
    """docs/layouts.md's example, as written: a `forge new` game whose spell layout and
    icons/mana.svg come from the page, checks clean and prints the icon where the layout puts
    it: the drop in the element's fill (`currentColor`), the gleam in the file's own colour."""
    scaffold(tmp_path, "mygame", ("uk", "en"), ("spell",))
    layout_source = _block("{#- templates/mygame/cards/spell.yaml.j2")
    (tmp_path / "templates" / "mygame" / "cards" / "spell.yaml.j2").write_text(layout_source, encoding="utf-8")
    (tmp_path / "cards" / "mygame" / "icons").mkdir()
    (tmp_path / "cards" / "mygame" / "icons" / "mana.svg").write_text(_block("<svg"), encoding="utf-8")
    game, findings = check_game(tmp_path / "cards" / "mygame")
    assert findings == []
    assert "mana" in game_icons(game).svg
    card = game.by_id["spell_1"]
    size = game.manifest.card_size
    corner = _pixels(_card_pdf(game, card), (size.width - 10.5, size.height - 10, 5.5, 5.5))
    assert _near(corner, PURPLE) > 0.25 * len(corner)  # the drop fills a good part of its square
    assert _near(corner, GLEAM) > 0.02 * len(corner)
    title = _pixels(_card_pdf(game, card), (20, 6, 20, 6))  # the name: no icon colour there
    assert _near(title, GLEAM) == 0
    cmyk = _card_pdf(game, card, cmyk=True)
    from pypdf import PdfReader
    content = PdfReader(io.BytesIO(cmyk)).pages[0].get_contents().get_data().decode("latin-1")
    assert " k" in content and not re.search(r"\s(rg|RG)\s", content)  # the icon too prints in CMYK


def test_a_printed_component_wears_a_game_icon(tmp_path):
    proj = _project(tmp_path)
    game_dir = proj / "cards" / "love_formula"
    (game_dir / "icons").mkdir()
    (game_dir / "icons" / "kiss.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#00c000"/></svg>',
        encoding="utf-8")
    manifest = game_dir / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace('accent: "#ffdeeb", icon: heart}', 'accent: "#ffdeeb", icon: kiss}', 1), encoding="utf-8")
    game, findings = check_game(game_dir, typeset=False)  # the faces and components check clean
    assert findings == []
    comp = next(c for c in tokens.printed_components(game) if c.id == "heart_token")
    face = tokens.face(comp, 0, "front", "en", game_icons(game))
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(face.width * PT, face.height * PT), invariant=1)
    draw_face(c, face)
    c.showPage()
    c.save()
    middle = _pixels(buf.getvalue(), (6, 6, 4, 4))
    assert _near(middle, (0x00, 0xC0, 0x00)) == len(middle)
    with pytest.raises(Exception, match="unknown icon 'kiss'"):
        tokens.face(comp, 0, "front", "en")  # without the game's icons: not a built-in one


HOSTILE = {
    "outside": ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                'viewBox="0 0 10 10">\n<use xlink:href="../../secret.svg#s"/>\n</svg>', 2, "outside the icon"),
    "web": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n'
            '<rect width="5" height="5" fill="url(http://127.0.0.1:9/g.svg#g)"/></svg>', 2, "outside the icon"),
    "entity": ('<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY s SYSTEM "../../secret.svg">]>\n'
               '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><desc>&s;</desc></svg>', 3,
               "uses an XML entity"),
    "malformed": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n<rect width="5">\n</svg>', 3,
                  "is not well-formed XML"),
    "infinite": ('<svg xmlns="http://www.w3.org/2000/svg" width="1e400" height="10"><rect width="5" height="5"/></svg>',
                 0, "has no usable size"),
    "huge": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">' + "<rect width='1' height='1'/>" * 12_000
             + "</svg>", 0, "larger than 256 KiB"),
    "repeats": ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'
                '<defs><rect id="a0" width="1" height="1"/>'
                + "".join(f'<g id="a{i}">' + f'<use xlink:href="#a{i - 1}"/>' * 10 + "</g>" for i in range(1, 8))
                + '</defs><use xlink:href="#a7"/></svg>', 0, "draws more than 2000 elements"),
    "words": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n<text x="1" y="5">Hi</text></svg>', 2,
              "holds text"),
    "gradient": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><linearGradient id="g">'
                 '<stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient></defs>'
                 '<rect width="10" height="10" fill="url(#g)"/></svg>', 0, "gradient"),
}


def test_broken_and_hostile_svg_icons_are_findings_at_their_file_and_nothing_outside_is_read(tmp_path):
    proj = _project(tmp_path)
    game_dir = proj / "cards" / "love_formula"
    secret = proj / "secret.svg"
    secret.write_text('<svg xmlns="http://www.w3.org/2000/svg"><rect id="s" width="1" height="1"/>SECRET</svg>',
                      encoding="utf-8")
    icons = game_dir / "icons"
    icons.mkdir()
    for name, (source, _, _) in HOSTILE.items():
        (icons / f"{name}.svg").write_text(source, encoding="utf-8")
    (icons / "linked.svg").symlink_to(secret)
    (icons / "Bad Name.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>', encoding="utf-8")
    (icons / "notes.txt").write_text("not an icon: ignored", encoding="utf-8")
    game, findings = check_game(game_dir)
    by_file = {Path(f.file).name: f for f in findings}
    for name, (_, line, says) in HOSTILE.items():
        found = by_file.pop(f"{name}.svg")
        assert (found.code, found.line) == ("icon", line) and says in found.message, found
    assert by_file.pop("linked.svg").code == "path-outside"
    assert "lower-case letters" in by_file.pop("Bad Name.svg").message
    assert by_file == {}
    assert not any("SECRET" in str(f) for f in findings)
    assert set(HOSTILE) | {"linked"} <= game_icons(game).broken  # named, so a layout naming one is not
    assert game_icons(game).svg == {}                              # a second finding; drawn as nothing


def test_an_icons_folder_that_links_outside_the_game_is_a_finding_and_is_not_listed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "gem.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>', encoding="utf-8")
    game_dir = tmp_path / "game"
    game_dir.mkdir()
    (game_dir / "icons").symlink_to(outside)
    icons = load_icons(game_dir)
    assert icons.svg == {} and "gem" not in icons
    (problem,) = icons.problems
    assert problem.code == "path-outside" and "leads outside the game folder" in problem.message


# --------------------------------------------------------------------------------------------
# docs/layouts.md states what the validator accepts


def _cell(param) -> str:
    if param.required:
        return "required"
    if param.derived:
        return param.derived
    value = param.default
    if value is None:
        return "none"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    return f"`{value:g}`" if isinstance(value, (int, float)) else f"`{value}`"


def _doc_tables(headings: set[str]) -> dict[str, list[tuple[str, str, str]]]:
    """The parameter table under each of `headings`: [(parameter, type, default), ...]."""
    tables: dict[str, list] = {}
    heading = None
    for line in DOC.splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        elif line.startswith("| `") and heading in headings:
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            tables.setdefault(heading, []).append((cells[0].strip("`"), cells[1], cells[2]))
    return tables


@pytest.mark.parametrize("kind, params, message", [
    ("stripes", dict(x=0, y=0, w=20, h=30, step=1e-300), r"stripes step: 1e-300 mm would draw 5\.0e\+301 lines"),
    ("stripes", dict(x=0, y=0, w=10_000, h=10_000, step=1), "would draw 20,000 lines"),
    ("poly", dict(points=[[1, 1]] * 10_001), "poly points: a list of 10,001 items"),
    ("table", dict(x=0, y=0, w=10, rows=[["a"] * 100] * 101), "table rows: 10,100 cells"),
])
def test_an_element_that_would_draw_too_much_is_refused_before_drawing(kind, params, message):
    with pytest.raises(Invalid, match=message):
        validate(kind, params)
    validate("stripes", dict(x=0, y=0, w=63, h=88, step=0.5))  # a fine hatching over a card: 302 lines


def test_the_doc_states_every_element_kind_and_parameter_as_the_validator_has_them():
    specs = [*KINDS.items(), ("paragraph", PARAGRAPH), ("cell", CELL)]
    tables = _doc_tables({kind for kind, _ in specs})
    for kind, params in specs:
        assert tables.get(kind) == [(name, p.type, _cell(p)) for name, p in params.items()], kind


#: For each kind, an element with its required parameters (and some text to draw).
_BASE = {
    "rect": {"x": 5, "y": 5, "w": 20, "h": 10, "fill": "#336699", "stroke": "#000000"},
    "circle": {"cx": 20, "cy": 20, "r": 8, "fill": "#336699", "stroke": "#000000"},
    "line": {"x1": 5, "y1": 5, "x2": 40, "y2": 30},
    "poly": {"points": [[5, 5], [30, 8], [12, 30]], "stroke": "#000000"},
    "stripes": {"x": 5, "y": 5, "w": 30, "h": 20},
    "icon": {"name": "heart", "x": 5, "y": 5, "size": 10, "stroke": "#000000"},
    "label": {"x": 5, "y": 20, "text": "Card Forge labels", "w": 20},
    "text": {"x": 5, "y": 5, "w": 40, "h": 30, "paras": ["Words that wrap in their box.", {"text": "Flavour."}]},
    "art": {"x": 5, "y": 5, "w": 40, "h": 30, "icon": "star"},
    "table": {"x": 5, "y": 5, "w": 40, "rows": [["a", {"text": "b"}], ["c", "d"]]},
}


def test_leaving_a_parameter_out_draws_what_its_stated_default_draws():
    game = load_game(CARDS / "love_formula")[0]

    def drawn(el: dict) -> str:
        validate(el["kind"], {k: v for k, v in el.items() if k != "kind"})
        face = layout._fit(game, None, "en", [el])
        c = Canvas(io.BytesIO(), invariant=1)
        start = len(c._code)
        draw_face(c, face)
        return " ".join(c._code[start:])

    compared: set[str] = set()  # the kinds with at least one default compared
    assert set(_BASE) == set(KINDS)
    for kind, params in KINDS.items():
        base = {"kind": kind, **_BASE[kind]}
        plain = drawn(base)
        for name, param in params.items():
            if param.required or param.derived or name in base:
                continue
            if param.default is None:  # "none": not given; a parameter that refuses None itself
                try:
                    validate(kind, {**_BASE[kind], name: None})
                except Invalid:
                    continue
            assert drawn({**base, name: param.default}) == plain, (kind, name, param.default)
            compared.add(kind)
        for name, value in (("fill", "#ff0000"), ("size", 11), ("step", 1.5), ("radius", 3)):
            if name in params and name not in base and not params[name].required:
                assert drawn({**base, name: value}) != plain, (kind, name)  # the comparison can fail
    assert compared == set(KINDS)


def test_the_doc_names_every_variable_filter_global_and_icon_a_layout_has():
    game = load_game(CARDS / "love_formula")[0]
    card = game.cards[0]
    variables = (set(layout._game_context(game, "en")) | set(layout._context(game, card, "en"))
                 | set(layout._context(game, None, "en", "default")))
    env = layout.template_for(game, card).environment
    plain = jinja2.Environment()
    filters, globals_ = set(env.filters) - set(plain.filters), set(env.globals) - set(plain.globals)
    assert {"plural", "typeset", "mix", "x"} <= filters and {"el", "once", "round"} <= globals_
    icons_line = DOC[DOC.index("**built-in icons**"):DOC.index(": one-colour shapes")]
    assert re.findall(r"`([a-z]+)`", icons_line) == list(ICONS)
    for name in variables | filters | globals_:
        assert f"`{name}`" in DOC or f"`{name}(" in DOC, name
    parts, _, _ = env.loader.get_source(env, "parts.j2")  # the shared macros, as they are defined
    macros = re.findall(r"\{% macro (\w+\(.*?\)) -?%\}", parts)
    assert macros and all(f"`p.{signature}`" in DOC for signature in macros), macros
