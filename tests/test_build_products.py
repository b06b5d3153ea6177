"""`forge build` products read back with pypdf: page sizes, order, boxes, fonts, Ukrainian text."""
from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from forge.check import check_game
from forge.products import BuildOptions, build_game, total_steps
from forge.model import load_game
from forge.scaffold import scaffold
from conftest import forge_in_process, sampled
from pdfread import assert_fonts_embedded

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["rules_does_not_exist", "anima_shadow_of_omega", "love_formula"]
MM = 72 / 25.4
A4, LETTER = (595.28, 841.89), (612.0, 792.0)


def _game(name: str):
    game, findings = load_game(ROOT / "cards" / name)
    assert game is not None, findings
    return game


@pytest.fixture(scope="session", params=GAMES)
def built(request, products):
    """The game, and its uk PnP and print-shop files by name (the session's, see `products`)."""
    made = [products.build(request.param, what, lang="uk") for what in ("pnp", "printshop")]
    return made[0].game, {p.name: p for m in made for p in m.paths}


def _size(page) -> tuple[float, float]:
    return round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)


def _physical(game) -> int:
    return sum(card.copies for card in game.cards)


@pytest.mark.parametrize("paper, size, per_page", [("a4", A4[::-1], 8), ("letter", LETTER[::-1], 8)])
def test_pnp_pages_have_the_paper_size_and_enough_interleaved_sheets(built, paper, size, per_page):
    game, files = built
    reader = PdfReader(files[f"pnp-{paper}.pdf"])
    assert {_size(p) for p in reader.pages} == {size}  # landscape 4x2 with bleed, inside a 6 mm margin
    n = len(reader.pages)
    assert n % 2 == 0
    assert n >= 2 * math.ceil(_physical(game) / per_page)
    # Back pages carry the word "зворот", front pages the crop-mark footer with "лицьовий".
    assert "лицьовий" in reader.pages[0].extract_text()
    assert "зворот" in reader.pages[1].extract_text()


_PLACED = re.compile(rb"1 0 0 1 (-?[\d.]+) (-?[\d.]+) cm\s*/(\S+) Do")
_SEGMENT = re.compile(rb"(-?[\d.]+) (-?[\d.]+) m (-?[\d.]+) (-?[\d.]+) l")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pnp_cards_carry_full_3mm_bleed_and_no_crop_mark_touches_a_trim(built, paper):
    """Read the sheet back: every placed face is a form whose box is trim + 3 mm on every side
    (69 x 94 mm for poker cards; on Letter 2.5 mm left and right, where four cards across
    fit inside the 6 mm margin only so), faces do not overlap, and no line drawn on the page
    itself (crop marks, scale bar) crosses any card's trim rectangle."""
    side = 3.0 if paper == "a4" else 2.5
    game, files = built
    size = game.manifest.card_size
    reader = PdfReader(files[f"pnp-{paper}.pdf"])
    for page in reader.pages[:4]:
        content = page.get_contents().get_data()
        xobjects = page["/Resources"]["/XObject"]
        placed = [(float(x), float(y), name.decode()) for x, y, name in _PLACED.findall(content)]
        assert placed
        trims, bleeds = [], []
        for x, y, name in placed:
            x0, y0, x1, y1 = (float(v) for v in xobjects["/" + name].get_object()["/BBox"])
            assert (x1 - x0) / MM == pytest.approx(size.width + 2 * side, abs=0.01)
            assert (y1 - y0) / MM == pytest.approx(size.height + 6, abs=0.01)
            assert (x0 / MM, y0 / MM) == pytest.approx((-side, -3), abs=0.01)
            trims.append((x, y, x + size.width * MM, y + size.height * MM))
            bleeds.append((x + x0, y + y0, x + x1, y + y1))
        w, h = _size(page)
        for n, (a0, b0, a1, b1) in enumerate(bleeds):
            assert a0 >= 0 and b0 >= 0 and a1 <= w and b1 <= h
            for c0, d0, c1, d1 in bleeds[n + 1:]:  # abutting is fine, overlapping is not
                assert min(a1, c1) - max(a0, c0) <= 0.01 or min(b1, d1) - max(b0, d0) <= 0.01
        segments = [tuple(float(v) for v in m) for m in _SEGMENT.findall(content)]
        if page is reader.pages[0] or page is reader.pages[2]:  # front pages carry the marks
            assert len(segments) >= 8
        for ax, ay, bx, by in segments:
            for tx0, ty0, tx1, ty1 in trims:
                assert not (max(ax, bx) >= tx0 and min(ax, bx) <= tx1
                            and max(ay, by) >= ty0 and min(ay, by) <= ty1), ((ax, ay, bx, by), (tx0, ty0))


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00ad", "").replace("-\n", "")).strip()


def test_every_card_name_is_in_the_text_of_the_front_pages(built):
    game, files = built
    reader = PdfReader(files["pnp-a4.pdf"])
    text = _norm(" ".join(reader.pages[i].extract_text() for i in range(0, len(reader.pages), 2)))
    missing = [c.id for c in game.cards if _norm(c.name["uk"]) not in text]
    assert missing == []


@pytest.mark.parametrize("name", ["pnp-a4.pdf", "pnp-letter.pdf", "printshop.pdf"])
def test_every_font_is_embedded_and_no_base14_font_is_referenced(built, name):
    _, files = built
    assert_fonts_embedded(PdfReader(files[name]))


def test_pdfs_pass_qpdf_check(built):
    if shutil.which("qpdf") is None:
        pytest.skip("qpdf not installed")
    _, files = built
    for pdf in files.values():
        result = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


def test_printshop_pages_have_trim_box_and_a_bleed_box_3_mm_larger(built):
    game, files = built
    reader = PdfReader(files["printshop.pdf"])
    size = game.manifest.card_size
    assert len(reader.pages) == 2 * _physical(game)
    for page in reader.pages:
        trim, bleed = page.trimbox, page.bleedbox
        assert float(trim.width) == pytest.approx(size.width * MM, abs=0.01)
        assert float(trim.height) == pytest.approx(size.height * MM, abs=0.01)
        for a, b in ((trim.left, bleed.left), (trim.bottom, bleed.bottom)):
            assert float(a) - float(b) == pytest.approx(3 * MM, abs=0.01)
        for a, b in ((bleed.right, trim.right), (bleed.top, trim.top)):
            assert float(a) - float(b) == pytest.approx(3 * MM, abs=0.01)
    # Front, then back: the first page names the first card, the second does not.
    first = game.cards[0].name["uk"]
    assert _norm(first) in _norm(reader.pages[0].extract_text())
    assert _norm(first) not in _norm(reader.pages[1].extract_text())


def test_two_builds_give_the_same_bytes(tmp_path, products):
    """A build of a fresh load (no shared caches) gives the session's bytes."""
    a = [p for what in ("pnp", "printshop") for p in products.build("rules_does_not_exist", what).paths]
    b = build_game(_game("rules_does_not_exist"), ["pnp", "printshop"], BuildOptions(), tmp_path)
    assert [p.name for p in a] == [p.name for p in b]
    for x, y in zip(a, b):
        assert x.read_bytes() == y.read_bytes(), x.name


def test_backs_first_and_home_and_alignment_options(tmp_path, products):
    game = sampled(products.game("rules_does_not_exist"), 3)  # (the options place every card alike)
    opts = BuildOptions(paper=("a4",), backs_first=True, home=True, alignment_page=True)
    build_game(game, ["pnp", "printshop"], opts, tmp_path)
    folder = tmp_path / game.id / "uk"
    shop = PdfReader(folder / "printshop.pdf")
    assert _norm(game.cards[0].name["uk"]) in _norm(shop.pages[1].extract_text())
    assert _norm(game.cards[0].name["uk"]) not in _norm(shop.pages[0].extract_text())
    pnp = PdfReader(folder / "pnp-home-a4.pdf")  # home mode: a file of its own
    assert "суміщення" in pnp.pages[0].extract_text()
    # home: 3x3, no bleed; then one sheet (front and back) of the 60 soul tokens
    assert len(pnp.pages) == 2 + 2 * math.ceil(_physical(game) / 9) + 2


def test_the_catalogue_lists_every_product_its_modules_register():
    """`forge build --help`, `--what` and the default build know products from
    `forge.products.CATALOGUE` without importing them: it must say what the modules register."""
    from importlib import import_module

    from forge.products import CATALOGUE, DEFAULT_PRODUCTS, PRODUCTS
    for module, _ in CATALOGUE.values():
        import_module(module)
    assert set(PRODUCTS) == set(CATALOGUE)  # (registered in whatever order they were first asked for)
    assert all(PRODUCTS[name].__module__ == module for name, (module, _) in CATALOGUE.items())
    assert DEFAULT_PRODUCTS == ["pnp", "printshop", "rulebook", "rulebook-booklet", "cheatsheet", "summary"]


def test_a_product_is_imported_only_when_asked_for(tmp_path):
    """Building PnP sheets imports none of the rulebook's modules (platypus, markdown-it, pypdf)."""
    code = (f"import sys; from pathlib import Path; from forge.model import load_game; "
            f"from forge.products import BuildOptions, build_game; "
            f"game = load_game(Path({str(ROOT / 'cards' / 'rules_does_not_exist')!r}))[0]; "
            f"build_game(game, ['pnp'], BuildOptions(paper=('a4',)), Path({str(tmp_path)!r})); "
            f"print(sorted(m for m in sys.modules if m.startswith(('forge.rulebook', 'reportlab.platypus', 'pypdf'))))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert run.stdout.strip() == "[]"
    assert (tmp_path / "rules_does_not_exist" / "uk" / "pnp-a4.pdf").is_file()


@pytest.mark.parametrize("what", [["pnp"], ["printshop"], ["tts"], ["cheatsheet", "rulebook"]])
def test_products_report_as_many_progress_steps_as_they_announce(products, tmp_path, what):
    """`total_steps` is what a progress bar's total is set to before the build: the products
    then report exactly that many, a card (pnp, printshop) or an image (tts) at a time, and a
    product without steps of its own one when it is done (`products` records the steps each
    build reports, a product at a time; tts draws a few designs of each deck, as test_tts)."""
    game = products.game("rules_does_not_exist")
    asked = dict(lang="en", paper=("a4", "letter"), preset="tgc")
    if what == ["tts"]:
        game, steps = sampled(game, 2), []
        build_game(game, what, BuildOptions(**asked, progress=steps.append), tmp_path)
    else:
        steps = [n for name in what for n in products.build(game.id, name, **asked).steps]
    options = BuildOptions(**asked, progress=steps.append)
    assert sum(steps) == total_steps(game, what, options)
    pieces = _physical(game) + 60  # every card copy and the 60 soul tokens
    if what == ["pnp"]:  # a sheet at a time, counted in the pieces on it, on each paper
        assert sum(steps) == 2 * pieces and steps.count(60) == 2  # the tokens: a sheet each
        assert len(steps) > 4 and max(n for n in steps if n != 60) <= 8  # cards: 8 a sheet
    elif what == ["printshop"]:  # a piece at a time
        assert steps == [1] * pieces
    elif what == ["tts"]:  # an image at a time
        assert steps == [1] * sum(steps) and len(steps) > 4
    else:
        assert steps == [1, 1]
    # The callback is no option of the output: options with and without it are equal.
    assert options == BuildOptions(lang="en", paper=("a4", "letter"), preset="tgc")
    assert hash(options) == hash(BuildOptions(lang="en", paper=("a4", "letter"), preset="tgc"))


def _new_game(tmp_path: Path) -> Path:
    """A new game's folder (`forge new`): a card whose name cannot print is any game's finding."""
    scaffold(tmp_path, "tiny", ["uk", "en"], ["action", "character"])
    return tmp_path / "cards" / "tiny"


def _rename_first_card(folder: Path, new_name: str) -> str:
    """Replace the Ukrainian name of the first card of the first card file; return its id."""
    import yaml
    file = sorted(p for p in folder.glob("*.yaml") if p.name != "game.yaml")[0]
    cards = yaml.safe_load(file.read_text(encoding="utf-8"))
    cards[0]["name"]["uk"] = new_name
    file.write_text(yaml.safe_dump(cards, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return cards[0]["id"]


@pytest.mark.parametrize("bad, code", [(" ".join(["слово"] * 90), "text-overflow"),
                                       ("Карта 漢", "missing-glyph")])
def test_check_fails_naming_the_card_whose_name_cannot_print(tmp_path, bad, code):
    """The card faces' check (the rulebooks are not laid out: a name that cannot print is a
    face's finding; how `forge check` prints findings and exits is test_cli's)."""
    folder = _new_game(tmp_path)
    card_id = _rename_first_card(folder, bad)
    _, findings = check_game(folder, typeset=False)
    lines = [str(f) for f in findings if code in str(f)]
    assert lines and all(f"[{card_id}]" in ln for ln in lines), [str(f) for f in findings]


def test_build_refuses_a_game_with_findings(tmp_path):
    folder = _new_game(tmp_path)
    _rename_first_card(folder, "Карта 漢")
    result = forge_in_process("build", str(folder), "--what", "printshop", "--out", str(tmp_path / "out"),
                              cwd=tmp_path)
    assert result.returncode == 1
    assert "missing-glyph" in result.stderr
    assert not (tmp_path / "out").exists()
