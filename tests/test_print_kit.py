"""The PnP kit read back from its PDFs: paper sizes, the 6 mm printer margin, the 50 mm scale
bar, the printed components (tokens, counters), backs that survive a duplex shift, ids only on
proofs, home-mode file names, and the booklet and cheat sheet on the paper asked for."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from forge.model import load_game
from forge.products import BuildOptions, build_game
from forge.render import layout, tokens
from forge.scaffold import scaffold

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["rules_does_not_exist", "anima_shadow_of_omega", "love_formula"]
MM = 72 / 25.4
SAFE = 6.0  # mm: the printer margin the README states
PAPER_MM = {"a4": (297.0, 210.0), "letter": (279.4, 215.9)}  # as the sheets are laid out (landscape)
#: Words of the footers (the games are built in Ukrainian).
FRONT, BACK = "лицьовий", "зворот"


@pytest.fixture(scope="module", params=GAMES)
def built(request, products):
    made = products.build(request.param, "pnp", lang="uk")
    return made.game, made.folder


# --------------------------------------------------------------------------------------------
# Reading a page's drawing back


class Drawn:
    """What a page draws: path points (mm) on the page itself and in page-sized forms (the
    footer), text baselines (mm), and the forms placed with `cm` (name, x, y mm, BBox mm)."""

    def __init__(self, reader: PdfReader, page):
        self.points: list[tuple[float, float]] = []
        self.segments: list[tuple[float, float, float, float]] = []
        self.baselines: list[tuple[float, float]] = []
        self.placed: list[tuple[str, float, float, tuple[float, ...]]] = []
        self.footers: list[int] = []  # object numbers of the page-sized forms drawn
        self.width = float(page.mediabox.width) / MM
        self.height = float(page.mediabox.height) / MM
        self._reader = reader
        self._walk(page.get_contents(), page["/Resources"])

    def _walk(self, content, resources) -> None:
        xobjects = resources.get_object().get("/XObject") or {}
        shift = [(0.0, 0.0)]
        last = None
        for operands, op in ContentStream(content, self._reader).operations:
            if op == b"q":
                shift.append(shift[-1])
            elif op == b"Q":
                shift.pop()
            elif op == b"cm":
                a, b, c, d, e, f = (float(v) for v in operands)
                shift[-1] = (shift[-1][0] + e, shift[-1][1] + f)
            elif op in (b"m", b"l"):
                x, y = float(operands[0]) / MM, float(operands[1]) / MM
                self.points.append((x, y))
                if op == b"l" and last is not None:
                    self.segments.append((*last, x, y))
                last = (x, y)
            elif op == b"c":
                for i in range(0, 6, 2):
                    self.points.append((float(operands[i]) / MM, float(operands[i + 1]) / MM))
            elif op == b"re":
                x, y, w, h = (float(v) / MM for v in operands)
                self.points += [(x, y), (x + w, y + h)]
            elif op == b"Tm":
                self.baselines.append((float(operands[4]) / MM, float(operands[5]) / MM))
            elif op == b"Do":
                form = xobjects[operands[0]].get_object()
                box = tuple(float(v) / MM for v in form["/BBox"])
                if box[2] - box[0] >= self.width - 0.01:  # a page-sized form: the footer
                    self.footers.append(xobjects.raw_get(operands[0]).idnum)
                    self._walk(form, form.get("/Resources") or resources)
                else:
                    self.placed.append((str(operands[0]), shift[-1][0] / MM, shift[-1][1] / MM, box))


_READ: dict[Path, tuple[PdfReader, list[Drawn], dict[int, str]]] = {}


def _read(path: Path) -> tuple[PdfReader, list[Drawn]]:
    """The file's reader and every page's drawing (cheap); text is read per page on demand
    (`_text`: about half a second a page of cards)."""
    if path not in _READ:
        reader = PdfReader(path)
        _READ[path] = (reader, [Drawn(reader, page) for page in reader.pages], {})
    return _READ[path][:2]


def _text(path: Path, n: int) -> str:
    reader, _ = _read(path)
    texts = _READ[path][2]
    if n not in texts:
        texts[n] = reader.pages[n].extract_text().replace("\n", " ")
    return texts[n]


def _inside(x: float, y: float, width: float, height: float, margin: float = SAFE) -> bool:
    return margin - 0.01 <= x <= width - margin + 0.01 and margin - 0.01 <= y <= height - margin + 0.01


# --------------------------------------------------------------------------------------------
# Paper and margin


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_pnp_page_is_exactly_the_paper_size(built, paper):
    _, folder = built
    reader = PdfReader(folder / f"pnp-{paper}.pdf")
    for page in reader.pages:
        size = (float(page.mediabox.width) / MM, float(page.mediabox.height) / MM)
        assert size == pytest.approx(PAPER_MM[paper], abs=0.01)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_crop_mark_cut_line_trim_or_footer_within_6_mm_of_the_edge(built, paper):
    """Every path the page draws (crop marks, tokens' cut lines, the scale bar), every trim of
    a placed card or token and every text baseline lies at least 6 mm inside the paper; only
    the outer bleed may reach into the margin."""
    game, folder = built
    _, pages = _read(folder / f"pnp-{paper}.pdf")
    for n, drawn in enumerate(pages):
        W, H = drawn.width, drawn.height
        outside = [p for p in drawn.points if not _inside(*p, W, H)]
        assert not outside, (n, outside[:3])
        assert all(_inside(x, y, W, H) for x, y in drawn.baselines), (n, drawn.baselines)
        for name, x, y, (bx0, by0, bx1, by1) in drawn.placed:
            w, h = bx1 + bx0, by1 + by0  # the BBox is the trim grown by the bleed on each side
            assert _inside(x, y, W, H) and _inside(x + w, y + h, W, H), (n, name, x, y)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_card_fronts_have_crop_marks_that_touch_no_trim(built, paper):
    game, folder = built
    path = folder / f"pnp-{paper}.pdf"
    _, pages = _read(path)
    size = game.manifest.card_size
    assert FRONT in _text(path, 0)
    drawn = pages[0]
    marks = [s for s in drawn.segments if s[0] == s[2] or s[1] == s[3]]
    assert len(marks) >= 8
    trims = [(x, y, x + size.width, y + size.height) for _, x, y, _ in drawn.placed]
    assert len(trims) == 8  # A4 and Letter landscape both take 4 x 2 poker cards
    for ax, ay, bx, by in marks:
        for tx0, ty0, tx1, ty1 in trims:
            assert not (max(ax, bx) > tx0 + 0.01 and min(ax, bx) < tx1 - 0.01
                        and max(ay, by) > ty0 + 0.01 and min(ay, by) < ty1 - 0.01)


def test_the_sheet_states_the_printer_margin(built):
    _, folder = built
    text = _text(folder / "pnp-a4.pdf", 0)
    assert "6 мм" in text and "Поле принтера" in text


# --------------------------------------------------------------------------------------------
# Scale bar


def _bar(drawn: Drawn) -> tuple[float, float, list[float]]:
    """The scale bar: the longest horizontal segment below the cards, and the ticks on it."""
    flat = [(min(a, c), max(a, c), b) for a, b, c, d in drawn.segments if abs(b - d) < 1e-6 and b < 20]
    x0, x1, y = max(flat, key=lambda s: s[1] - s[0])
    ticks = sorted({round(a, 3) for a, b, c, d in drawn.segments
                    if abs(a - c) < 1e-6 and min(b, d) < y < max(b, d) and x0 - 0.01 <= a <= x1 + 0.01})
    return x0, x1, ticks


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_front_page_says_50_mm_and_its_bar_measures_50_mm(built, paper):
    """Every front page (even pages) draws a 50.00 mm bar with a tick every 10 mm; the text
    "50 мм" is read on the first card sheet and the first sheet of components."""
    game, folder = built
    path = folder / f"pnp-{paper}.pdf"
    _, pages = _read(path)
    fronts = pages[0::2]
    for drawn in fronts:
        x0, x1, ticks = _bar(drawn)
        assert x1 - x0 == pytest.approx(50.0, abs=0.005)
        assert ticks == pytest.approx([x0 + 10 * k for k in range(6)], abs=0.005)
    token_page = next(n for n, d in enumerate(pages) if n % 2 == 0 and len(d.placed) != len(pages[0].placed))
    for n in (0, token_page):
        assert FRONT in _text(path, n) and "50 мм" in _text(path, n)
    assert BACK in _text(path, 1) and "50 мм" not in _text(path, 1)


# --------------------------------------------------------------------------------------------
# Printed components


def test_every_game_lists_printed_components(products):
    for name in GAMES:
        printed = tokens.printed_components(products.game(name))
        assert printed, name
        for comp in printed:
            assert comp.kind in ("token", "counter", "board") and comp.size and comp.shape


def test_pnp_holds_every_token_counter_and_board_front_and_back(built):
    """Each printed component is placed `count` times on front pages and `count` times on back
    pages of pnp-a4.pdf, as forms of its size (plus bleed), on pages naming it."""
    game, folder = built
    path = folder / "pnp-a4.pdf"
    _, pages = _read(path)
    card = game.manifest.card_size
    for comp in tokens.printed_components(game):
        placed = {"front": 0, "back": 0}
        first = None
        for n, drawn in enumerate(pages):
            for _, _, _, (bx0, by0, bx1, by1) in drawn.placed:
                w, h = bx1 - bx0, by1 - by0
                if abs(w + 2 * bx0 - comp.size.width) < 0.01 and abs(h + 2 * by0 - comp.size.height) < 0.01 \
                        and abs(w - card.width) > 10:
                    placed["front" if n % 2 == 0 else "back"] += 1
                    first = n if first is None else first
        assert placed == {"front": comp.count, "back": comp.count}, comp.id
        assert f"{comp.name['uk']} ×{comp.count}" in _text(path, first)


def test_component_variants_give_distinct_designs(products):
    game = products.game("anima_shadow_of_omega")
    (counter,) = [c for c in tokens.printed_components(game) if c.id == "group_counter"]
    sides = {(tokens.side_of(counter, i, "front").color, tokens.side_of(counter, i, "front").icon)
             for i in tokens.copies(counter)}
    assert len(sides) == counter.count == 3


# --------------------------------------------------------------------------------------------
# Backs and duplex


def test_backs_have_no_frame_and_every_back_bleeds_more_than_2_mm(built):
    """A back printed 2 mm off its front still shows no edge: the back's layout has no stroked
    frame near the trim, and every back on the sheets carries more than 2 mm of bleed."""
    game, folder = built
    for card in game.cards:
        face = layout.back(game, card, "uk")
        for el in face.elements:
            if el["kind"] == "rect" and el.get("stroke") not in (None, "none"):
                x, y, w, h = (float(el.get(k, 0)) for k in ("x", "y", "w", "h"))
                near = min(x, y, face.width - x - w, face.height - y - h)
                assert near > 12, (card.id, el)
    _, pages = _read(folder / "pnp-a4.pdf")
    for drawn in pages[1::2]:
        assert drawn.placed
        for _, _, _, (bx0, by0, _, _) in drawn.placed:
            assert -bx0 > 2.0 and -by0 > 2.0


# --------------------------------------------------------------------------------------------
# Ids, home mode, paper of the booklet and the cheat sheet


def _first_page_ids(game, per_page: int = 8) -> list[str]:
    cards = [card for card in game.cards for _ in range(card.copies)][:per_page]
    return sorted({card.id for card in cards})


@pytest.mark.parametrize("proof", [False, True])
def test_ids_are_printed_only_on_proofs(products, proof):
    pnp, printshop = (products.build("rules_does_not_exist", what, proof=proof) for what in ("pnp", "printshop"))
    game = pnp.game
    text = PdfReader(pnp.folder / "pnp-a4.pdf").pages[0].extract_text()
    words = set(re.findall(r"[a-z0-9_]+", text))
    ids = _first_page_ids(game)
    assert all((card_id in words) == proof for card_id in ids), (ids, words & set(ids))
    shop = PdfReader(printshop.folder / "printshop.pdf")
    first = game.cards[0].id
    assert (first in shop.pages[0].extract_text()) == proof
    assert first not in shop.pages[1].extract_text()  # never on a back


def test_home_mode_writes_its_own_file_names_and_keeps_the_margin(products):
    made = products.build("love_formula", "pnp", home=True)
    assert sorted(p.name for p in made.paths) == ["pnp-home-a4.pdf", "pnp-home-letter.pdf"]
    for name, size in (("pnp-home-a4.pdf", (210.0, 297.0)), ("pnp-home-letter.pdf", (279.4, 215.9))):
        reader = PdfReader(made.folder / name)
        first = Drawn(reader, reader.pages[0])
        assert (first.width, first.height) == pytest.approx(size, abs=0.01)
        assert len(first.placed) == (9 if name.endswith("a4.pdf") else 8)
        for page in reader.pages[:4]:
            drawn = Drawn(reader, page)
            assert all(_inside(x, y, drawn.width, drawn.height) for x, y in drawn.points)
            for _, x, y, (bx0, by0, bx1, by1) in drawn.placed:
                assert (bx0, by0) == (0.0, 0.0) or bx1 - bx0 < 30  # cards without bleed
                assert _inside(x, y, drawn.width, drawn.height)


@pytest.fixture(scope="module")
def new_game(tmp_path_factory):
    """A new game (`forge new`), loaded once: its rulebook is built once for both papers."""
    project = tmp_path_factory.mktemp("new")
    scaffold(project, "tiny", ["uk", "en"], ["action"])
    game, findings = load_game(project / "cards" / "tiny")
    assert game is not None and not findings, findings
    return game


@pytest.mark.parametrize("paper, size", [(("a4", "letter"), (297.0, 210.0)), (("letter", "a4"), (279.4, 215.9))])
def test_booklet_and_cheat_sheet_are_on_the_first_paper(new_game, tmp_path, paper, size):
    """(Where each page goes is a paper's matter, not a game's: a new game's books show it.)"""
    paths = build_game(new_game, ["rulebook-booklet", "cheatsheet"], BuildOptions(paper=paper), tmp_path)
    assert sorted(p.name for p in paths) == ["cheatsheet.pdf", "rulebook-booklet.pdf"]
    for path in paths:
        for page in PdfReader(path).pages:
            got = (float(page.mediabox.width) / MM, float(page.mediabox.height) / MM)
            assert got == pytest.approx(size, abs=0.01), path.name


def test_a_printed_component_without_its_shape_is_a_finding_with_its_line(tmp_path):
    import shutil
    folder = tmp_path / "rules_does_not_exist"
    shutil.copytree(ROOT / "cards" / "rules_does_not_exist", folder)
    manifest = folder / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    text = text.replace("        shape: circle\n        size: {width: 16, height: 16}\n", "", 1)
    text = text.replace("count: 1, kind: die}", "count: 1, kind: die, shape: circle}", 1)
    manifest.write_text(text, encoding="utf-8")
    game, findings = load_game(folder)
    said = [str(f) for f in findings]
    assert game is None
    assert any("game.yaml:" in s and "a token is printed: give it shape, size" in s for s in said), said
    assert any("a die takes no shape" in s for s in said), said


@pytest.mark.parametrize("front, says", [
    ('front: {color: "#3b2a80", accent: "#e5dbff", icon: sparkl}', "unknown icon 'sparkl'"),
    ('front: {color: "#3b2a80", accent: "#e5dbff", label: {uk: "Душа безсмертна, вічна і нескінченна", '
     'en: "An immortal, eternal and endless soul"}}', "is wider than the circle"),
])
def test_a_token_that_cannot_be_drawn_is_a_check_finding_at_its_line(tmp_path, front, says):
    """`check` draws the printed components as the build will: no build needed to find them."""
    import shutil
    from forge.check import check_game
    root = tmp_path / "rules_does_not_exist"
    shutil.copytree(Path(__file__).resolve().parents[1] / "cards" / "rules_does_not_exist", root)
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    old = 'front: {color: "#3b2a80", accent: "#e5dbff", icon: sparkle}'
    assert old in text
    manifest.write_text(text.replace(old, front), encoding="utf-8")
    _, findings = check_game(root, typeset=False)  # (the rulebooks' layout is no component's)
    hits = [f for f in findings if f.code == "component"]
    line = next(n for n, row in enumerate(manifest.read_text(encoding="utf-8").splitlines(), 1)
                if row.strip().startswith("front:") and "3b2a80" in row)
    assert hits and says in hits[0].message and hits[0].line == line, [str(f) for f in findings]
