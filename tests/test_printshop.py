"""The print-shop files read back as a press's preflight would: DeviceCMYK operators only, an
OutputIntent naming the printing condition (and no PDF/X claim), ink limits, text never in
four plates, boxes of the printed components, the `--rgb` version for screens, and what a
vendor's preset does to them (bleed, file per deck, page order)."""
from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from forge.products import BuildOptions, build_game
from forge.model import load_game
from forge.render import layout, tokens
from forge.render.draw import RICH_BLACK, cmyk_of
from conftest import sampled
from pdfread import assert_fonts_embedded

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["rules_does_not_exist", "anima_shadow_of_omega", "love_formula"]
MM = 72 / 25.4
#: Colour operators of other colour models than DeviceCMYK.
NOT_CMYK = {b"rg", b"RG", b"g", b"G", b"sc", b"scn", b"SC", b"SCN", b"cs", b"CS"}


def _game(name: str):
    game, findings = load_game(ROOT / "cards" / name)
    assert game is not None, findings
    return game


@pytest.fixture(scope="module", params=GAMES)
def shop(request, products):
    made = products.build(request.param, "printshop", lang="uk")
    return made.game, made.paths


def _streams(reader: PdfReader):
    """Every content stream of the document once: pages, then the forms they use, recursively,
    each with its resources."""
    seen: set[int] = set()

    def walk(content, resources):
        yield content, resources
        xobjects = (resources.get_object().get("/XObject") or {}) if resources else {}
        for name in xobjects:
            ref = xobjects.raw_get(name)
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            form = ref.get_object()
            if form.get("/Subtype") == "/Form":
                yield from walk(form, form.get("/Resources"))
            else:
                yield form, None  # an image

    for page in reader.pages:
        yield from walk(page.get_contents(), page.get("/Resources"))


_PARSED: dict[Path, list] = {}


def _parsed(path: Path) -> list[tuple]:
    """Every content stream of the file once (`_streams`) with its operations, None for an
    image: parsed once for all the tests that read them."""
    if path not in _PARSED:
        reader = PdfReader(path)
        _PARSED[path] = [(content, None if resources is None and content.get("/Subtype") == "/Image"
                          else ContentStream(content, reader).operations)
                         for content, resources in _streams(reader)]
    return _PARSED[path]


def _operations(path: Path):
    for content, operations in _parsed(path):
        if operations is None:
            yield content, None
        else:
            yield from operations


def test_every_printshop_pdf_uses_cmyk_operators_only(shop):
    game, paths = shop
    names = sorted(p.name for p in paths)
    assert "printshop.pdf" in names
    assert len(names) == 1 + len(tokens.printed_components(game))
    for path in paths:
        ops = set()
        for operands, op in _operations(path):
            if op is None:  # an image: must be CMYK too
                assert operands.get("/ColorSpace") == "/DeviceCMYK", path.name
                continue
            ops.add(op)
        assert not ops & NOT_CMYK, (path.name, ops & NOT_CMYK)
        assert {b"k"} <= ops, path.name


def test_every_printshop_pdf_names_its_output_intent_and_claims_no_pdfx(shop):
    _, paths = shop
    for path in paths:
        reader = PdfReader(path)
        intents = reader.trailer["/Root"]["/OutputIntents"]
        assert len(intents) == 1
        intent = intents[0].get_object()
        assert intent["/S"] == "/GTS_PDFX" and intent["/Type"] == "/OutputIntent"
        assert intent["/OutputConditionIdentifier"] == "FOGRA39"
        assert intent["/RegistryName"] == "http://www.color.org"
        assert "FOGRA39" in intent["/Info"]
        # Only a named characterisation: no profile is embedded, and the file says it is no PDF/X.
        assert "/DestOutputProfile" not in intent
        assert "/GTS_PDFXVersion" not in (reader.metadata or {})


def test_ink_stays_under_300_percent_and_text_and_lines_never_use_four_plates(shop):
    """Text and strokes are either pure K (greys, black, dark colours) or a colour that leaves
    one of C, M, Y at 0; the total ink of any colour stays under 300 %."""
    _, paths = shop
    for path in paths:
        for _, operations in _parsed(path):
            if operations is None:  # an image
                continue
            fill = (0.0, 0.0, 0.0, 1.0)
            stack = []
            for operands, op in operations:
                if op in (b"k", b"K"):
                    value = tuple(float(v) for v in operands)
                    assert sum(value) <= 3.0, (path.name, value)
                    if op == b"k":
                        fill = value
                    else:
                        assert min(value[:3]) == 0, (path.name, "stroke", value)
                elif op == b"q":
                    stack.append(fill)
                elif op == b"Q":
                    fill = stack.pop()
                elif op in (b"Tj", b"TJ"):
                    assert min(fill[:3]) == 0, (path.name, "text", fill)


def test_cmyk_conversion_rules():
    assert cmyk_of("#000000") == (0, 0, 0, 1.0)
    assert cmyk_of("#1a1a1a") == (0, 0, 0, pytest.approx(0.898, abs=0.001))  # grey: K only
    assert cmyk_of("#777777")[:3] == (0, 0, 0)
    assert cmyk_of("#1b1b2f")[:3] == (0, 0, 0)  # dark text: K only
    assert cmyk_of("#000000", "area") == RICH_BLACK and sum(RICH_BLACK) == pytest.approx(2.4)
    assert cmyk_of("#1b1b2f", "area")[0] > 0  # a dark navy area keeps its colour
    for value in ("#a61e4d", "#0b5563", "#ff0000", "#100000", "#ffdeeb"):
        c, m, y, k = cmyk_of(value)
        assert min(c, m, y) == 0 and c + m + y + k < 3.0


def test_printed_components_have_trim_and_bleed_boxes_and_a_page_per_side(shop):
    game, paths = shop
    by_name = {p.name: p for p in paths}
    for comp in tokens.printed_components(game):
        reader = PdfReader(by_name[f"printshop-{comp.kind}-{comp.id}.pdf"])
        assert len(reader.pages) == 2 * comp.count
        assert reader.metadata["/Subject"] == tokens.describe(comp, "uk") and f"{comp.count} шт." in reader.metadata["/Subject"]
        for page in reader.pages[:4]:
            trim, bleed = page.trimbox, page.bleedbox
            assert float(trim.width) / MM == pytest.approx(comp.size.width, abs=0.01)
            assert float(trim.height) / MM == pytest.approx(comp.size.height, abs=0.01)
            assert float(bleed.width) / MM == pytest.approx(comp.size.width + 6, abs=0.01)
            assert (float(trim.left) - float(bleed.left)) / MM == pytest.approx(3, abs=0.01)
        assert_fonts_embedded(PdfReader(by_name["printshop.pdf"]))


def test_rgb_option_writes_screen_files_under_their_own_names(tmp_path, products):
    game = sampled(products.game("love_formula"), 2)  # (every card is drawn by the same calls)
    paths = build_game(game, ["printshop"], BuildOptions(rgb=True), tmp_path)
    assert sorted(p.name for p in paths) == ["printshop-rgb.pdf", "printshop-token-heart_token-rgb.pdf"]
    for path in paths:
        reader = PdfReader(path)
        ops = {op for _, op in _operations(path)}
        assert b"rg" in ops and b"k" not in ops and b"K" not in ops
        assert "/OutputIntents" not in reader.trailer["/Root"]


def test_printshop_builds_are_byte_identical(tmp_path, products):
    """A build of a fresh load gives the session's bytes."""
    a = products.build("anima_shadow_of_omega", "printshop").paths
    b = build_game(_game("anima_shadow_of_omega"), ["printshop"], BuildOptions(), tmp_path)
    assert [p.name for p in a] == [p.name for p in b]
    for x, y in zip(a, b):
        assert x.read_bytes() == y.read_bytes(), x.name


def test_no_transparency_in_any_printshop_pdf(shop):
    """Nothing needs flattening: no soft masks, no constant alpha below 1, no blend modes."""
    _, paths = shop
    for path in paths:
        reader = PdfReader(path)
        for content, resources in _streams(reader):
            assert "/SMask" not in content, path.name
            states = (resources.get_object().get("/ExtGState") or {}) if resources else {}
            for state in states.values():
                state = state.get_object()
                assert float(state.get("/CA", 1)) == 1 and float(state.get("/ca", 1)) == 1, path.name
                assert state.get("/BM", "/Normal") in ("/Normal", "/Compatible"), path.name


def test_art_goes_into_a_cmyk_file_as_a_cmyk_image(tmp_path):
    import io

    from PIL import Image
    from reportlab.pdfgen.canvas import Canvas

    from forge.render.draw import _image
    art = tmp_path / "art.png"
    Image.new("RGB", (8, 8), (166, 30, 77)).save(art)
    img = _image(art, cmyk=True)
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    c.drawImage(img, 0, 0, 20, 20)
    c.save()
    (xobject,) = PdfReader(buf).pages[0]["/Resources"]["/XObject"].values()
    assert xobject.get_object()["/ColorSpace"] == "/DeviceCMYK"


def test_the_build_command_takes_rgb_and_proof(tmp_path):
    from typer.testing import CliRunner

    from forge.cli import app
    result = CliRunner().invoke(app, ["build", "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "--rgb" in result.output and "--proof" in result.output and "--home" in result.output


# -- vendor presets ----------------------------------------------------------------------------

INCH_8 = 25.4 / 8  # mm: 1/8 in, The Game Crafter's and DriveThruCards' bleed


def _bleeds(page) -> list[float]:
    """mm between the TrimBox and the BleedBox on the left, bottom, right and top."""
    trim, bleed = page.trimbox, page.bleedbox
    return [(float(trim.left) - float(bleed.left)) / MM, (float(trim.bottom) - float(bleed.bottom)) / MM,
            (float(bleed.right) - float(trim.right)) / MM, (float(bleed.top) - float(trim.top)) / MM]


def _decks(game) -> dict[str, list]:
    """Every physical card by the file-name form of the back it wears, in data order."""
    decks: dict[str, list] = {}
    for card in game.cards:
        decks.setdefault(layout.back_key(game, card).replace("/", "-"), []).extend([card] * card.copies)
    return decks


@pytest.fixture(scope="module")
def presets_built(tmp_path_factory, products):
    """Love Formula's print-shop files with each preset, all into one folder: four designs of
    each of its decks (a preset files and pages every card of a deck alike)."""
    game = sampled(products.game("love_formula"), 4)
    out = tmp_path_factory.mktemp("shop-presets")
    paths = {name: build_game(game, ["printshop"], BuildOptions(preset=name), out)
             for name in ("generic", "tgc", "mpc", "dtc")}
    return game, paths


#: DriveThruCards takes the PDF: a 63 x 88 mm card's pages are its poker card's, 2.75 x 3.75 in,
#: the trim centred (bleed across, down); its components keep the 1/8 in bleed.
DTC_CARD = ((2.75 * 25.4 - 63) / 2, (3.75 * 25.4 - 88) / 2)


@pytest.mark.parametrize("name, bleed", [("generic", 3.0), ("tgc", INCH_8), ("mpc", 36 / 300 * 25.4),
                                         ("dtc", INCH_8)])
def test_each_preset_gives_its_bleed_between_trim_and_bleed_box(presets_built, name, bleed):
    game, paths = presets_built
    size = game.manifest.card_size
    for path in paths[name]:
        reader = PdfReader(path)
        bx, by = DTC_CARD if name == "dtc" and "-deck-" in path.name else (bleed, bleed)
        for page in reader.pages[:6]:
            assert _bleeds(page) == pytest.approx([bx, by, bx, by], abs=0.005), path.name
            assert float(page.mediabox.width) / MM == pytest.approx(
                float(page.trimbox.width) / MM + 2 * bx, abs=0.005)
            if name == "dtc" and "-deck-" in path.name:
                assert (float(page.mediabox.width) / 72, float(page.mediabox.height) / 72) == pytest.approx(
                    (2.75, 3.75), abs=0.001)
        if "-deck-" in path.name or path.name == "printshop.pdf":
            trim = reader.pages[0].trimbox
            assert (float(trim.width) / MM, float(trim.height) / MM) == pytest.approx(
                (size.width, size.height), abs=0.005)


def test_generic_keeps_its_names_and_vendors_get_a_file_per_deck_of_their_own(presets_built):
    game, paths = presets_built
    comps = [f"{c.kind}-{c.id}" for c in tokens.printed_components(game)]
    decks = _decks(game)
    assert len(decks) > 1
    assert sorted(p.name for p in paths["generic"]) == sorted(
        ["printshop.pdf"] + [f"printshop-{c}.pdf" for c in comps])
    for vendor in ("tgc", "mpc", "dtc"):
        assert sorted(p.name for p in paths[vendor]) == sorted(
            [f"printshop-{vendor}-deck-{d}.pdf" for d in decks] + [f"printshop-{vendor}-{c}.pdf" for c in comps])
        for deck, cards in decks.items():  # each deck file: every copy of its cards, front and back
            assert len(PdfReader(paths[vendor][0].parent / f"printshop-{vendor}-deck-{deck}.pdf").pages) == 2 * len(cards)
    # Built one after the other into one folder, no preset replaced another's file.
    every = [p for files in paths.values() for p in files]
    assert len({p.name for p in every}) == len(every) and all(p.exists() for p in every)
    assert len(PdfReader(paths["generic"][0].parent / "printshop.pdf").pages) == 2 * sum(map(len, decks.values()))


def test_dtc_puts_each_back_before_its_front_tgc_each_front_first(presets_built):
    """DriveThruCards: page 1 the back of card 1, page 2 its front, page 3 the back of card 2 ...
    The fronts name their cards; the backs do not."""
    game, paths = presets_built
    deck, cards = max(_decks(game).items(), key=lambda item: len(item[1]))
    folder = paths["dtc"][0].parent
    for vendor, front_page in (("dtc", 1), ("tgc", 0)):
        reader = PdfReader(folder / f"printshop-{vendor}-deck-{deck}.pdf")
        seen = set()
        for i, card in enumerate(cards):
            if card.id in seen:  # a card's copies follow it: check each design once
                continue
            seen.add(card.id)
            front = reader.pages[2 * i + front_page].extract_text()
            back = reader.pages[2 * i + 1 - front_page].extract_text()
            name = " ".join(card.name["uk"].split())
            assert name in " ".join(front.split()), (vendor, card.id)
            assert name not in " ".join(back.split()), (vendor, card.id)
            if len(seen) == 4:
                break
