"""Layout quality of rulebooks, cheat sheets and the summary sheet, read back from the PDFs and
from where the build placed each flowable: no heading ends a page or column, a table that breaks
keeps its header with two rows, column widths follow the text, one contents page at most, sheets
are one page and filled, and the rave rulebook promises only the sheets the toolkit prints."""
from __future__ import annotations

import io
import math
import re

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from conftest import CARDS, GAMES
from forge.products import DEFAULT_PRODUCTS
from forge.model import load_game
from forge.rulebook import build_cheatsheet
from forge.rulebook.cheatsheet import GAP, MARGIN, build_summary
from forge.rulebook.document import CellText, ContentsPlan, content_widths, contents_plan
from forge.rulebook.styles import make_styles
from pdfread import assert_fonts_embedded
from test_rulebook import normalised

LANGS = ("uk", "en")
RAVE = "rules_does_not_exist"
BODY = 9.0  # the A5 rulebook's body size (document.build_rulebook)
HEADING_SIZES = {round(BODY * s, 2) for s in (1.75, 1.3, 1.1)}  # styles.make_styles, h1-h3


def sheet(products, kind: str, game_id: str, lang: str):
    """The game's cheat sheet or summary in `lang`, built once per session."""
    return products.once(build_cheatsheet if kind == "cheatsheet" else build_summary, game_id, lang)


def runs(page) -> list[tuple[float, float, str, float, str]]:
    """Text runs of a page: (y, x, font, size in points on the page, text)."""
    out = []

    def visit(text, cm, tm, font, size):
        if not text.strip():
            return
        a, b = tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3]
        c, d = tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3]
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        name = str(font.get("/BaseFont", "")) if font else ""
        out.append((y, x, name, round(size * math.sqrt(abs(a * d - b * c)), 2), text))

    page.extract_text(visitor_text=visit)
    return out


def is_heading(run) -> bool:
    _, _, font, size, _ = run
    return font.endswith("Roboto-Bold") and size in HEADING_SIZES


# --- headings -------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAMES)
def test_no_rulebook_page_ends_with_a_heading_or_a_lead_in(products, game_id, lang):
    """The last line of text above the page foot is never set in a heading style, nor ends in
    a colon (a lead-in whose list is overleaf)."""
    reader = PdfReader(io.BytesIO(products.rulebook(game_id, lang).pdf))
    text_sizes = HEADING_SIZES | {round(BODY * s, 2) for s in (1.0, 0.95, 0.92, 0.85)}
    for number, page in enumerate(reader.pages, 1):
        lines = [r for r in runs(page) if r[0] > 14 * mm and r[3] in text_sizes]
        if not lines:
            continue
        last = min(lines, key=lambda r: (round(r[0], 1), not is_heading(r)))
        assert not is_heading(last), f"{game_id} {lang} page {number} ends with the heading {last[4]!r}"
        text = "".join(r[4] for r in sorted(lines, key=lambda r: r[1]) if abs(r[0] - last[0]) < 1)
        assert not text.rstrip().endswith(":"), f"{game_id} {lang} page {number} ends with the lead-in {text!r}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAMES)
def test_no_rulebook_page_holds_only_space(products, game_id, lang):
    """Every page has something drawn on it besides space: the space after the book's last
    block once started a page of its own (Anima uk, page 19, blank but for its foot)."""
    built = products.rulebook(game_id, lang)
    drawn = {p.page for p in built.placements if p.kind != "Spacer"}
    assert set(range(1, built.pages + 1)) <= drawn, f"{game_id} {lang}: pages with nothing on them"


def check_headings_lead(built, what: str) -> int:
    """Every heading is followed, in the same column of the same page, by what comes after it
    (placements recorded while building). Returns the number of headings seen."""
    placed = [p for p in built.placements if p.kind not in ("Spacer",)]
    seen = 0
    for here, after in zip(placed, placed[1:]):
        if here.kind == "heading":
            seen += 1
            assert (after.page, after.frame) == (here.page, here.frame), (
                f"{what}: a heading ends column {here.frame} of page {here.page}")
    return seen


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAMES)
def test_headings_stay_with_what_follows(products, game_id, lang):
    assert check_headings_lead(products.rulebook(game_id, lang), f"{game_id} rulebook {lang}") > 10
    assert check_headings_lead(sheet(products, "cheatsheet", game_id, lang), f"{game_id} cheat sheet {lang}") > 3


def _by_column(built) -> list[list]:
    """The placements of a built document, column by column, spacers left out."""
    columns: dict[tuple, list] = {}
    for p in built.placements:
        if p.kind != "Spacer":
            columns.setdefault((p.page, p.frame), []).append(p)
    return list(columns.values())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAMES)
def test_card_pictures_stay_in_their_section_and_out_of_tables(products, game_id, lang):
    """A card picture (a `Row`) never opens a column with the next section's heading right
    under it (it floated away from its own section), and never sits between two parts of a
    table that broke across columns, nor between two items of a list (rave uk p.13 once)."""
    built = products.rulebook(game_id, lang)
    columns = _by_column(built)
    assert any(p.kind == "Row" for column in columns for p in column)
    for before, column in zip([[]] + columns, columns):
        rows = [i for i, p in enumerate(column) if p.kind == "Row"]
        if rows and rows[0] == 0 and len(column) > 1 and column[1].kind == "heading":
            raise AssertionError(f"{game_id} {lang} page {column[0].page}: a picture above the next heading")
        if rows and before and before[-1].kind == "HeaderTable/part" and rows[0] == 0 and any(
                p.kind == "HeaderTable/part" and p.head == before[-1].head for p in column[1:2]):
            raise AssertionError(f"{game_id} {lang} page {column[0].page}: a picture inside a table")
    placed = [p for column in columns for p in column]
    for picture, after in zip(placed, placed[1:]):
        assert not (picture.kind == "Row" and after.kind.endswith("/list")), (
            f"{game_id} {lang} page {picture.page}: a picture between two items of a list")


# --- tables ---------------------------------------------------------------------------------

def test_a_table_breaks_with_its_header_and_two_rows_on_each_side(products):
    parts = []
    for game_id in GAMES:
        for lang in LANGS:
            for built in (products.rulebook(game_id, lang), sheet(products, "cheatsheet", game_id, lang)):
                parts += [p for p in built.placements if p.kind == "HeaderTable/part"]
    assert parts, "no table broke anywhere: the test would prove nothing"
    assert all(p.rows >= 2 for p in parts), [p for p in parts if p.rows < 2]


def test_table_pages_show_the_repeated_header(products):
    """Read back: each page a broken rulebook table continues on prints its header row again,
    above at least two of its rows."""
    books = [products.rulebook(game_id, lang) for game_id in GAMES for lang in LANGS]
    broken = [(built, [p for p in built.placements if p.kind == "HeaderTable/part"]) for built in books]
    broken = [(built, parts) for built, parts in broken if len({p.page for p in parts}) >= 2]
    assert broken, "no rulebook table continues on another page: the test would prove nothing"
    for built, parts in broken:
        reader = PdfReader(io.BytesIO(built.pdf))
        for part in parts:
            lines = [normalised(line) for line in reader.pages[part.page - 1].extract_text().splitlines()]
            head = normalised(part.head.split(" | ")[0]).strip()
            at = [i for i, line in enumerate(lines) if line.strip().startswith(head)]
            assert at and len(lines) - at[0] >= 3, (part, lines[:5])


def test_short_columns_get_their_text_and_long_ones_wrap():
    # a name column, a number column and a long text column in 250 pt
    cells = [[CellText(70, 40, 25), CellText(8, 8, 8), CellText(400, 50, 30)] for _ in range(20)]
    widths = content_widths(cells, 250, 6)
    assert widths[0] >= 70 + 6 and widths[1] >= 8 + 6
    assert sum(widths) <= 250 + 0.01
    # everything fits: the table is as wide as its text
    assert content_widths([[CellText(50, 20, 20), CellText(60, 30, 30)]], 250, 6) == [56, 66]
    # a header whose every cell wraps gets widened as a whole
    head = [CellText(110, 35, 35), CellText(100, 50, 50), CellText(95, 45, 45)]
    widths = content_widths([head] + [[CellText(10, 10, 10)] * 3] * 10, 200, 6)
    assert sum(widths) <= 200.01 and min(widths) > 50


def test_names_in_the_love_formula_tables_are_not_split(products):
    """The pair names of the cheat sheet's table are never broken inside a word."""
    text = PdfReader(io.BytesIO(sheet(products, "cheatsheet", "love_formula", "uk").pdf)).pages[0].extract_text()
    lines = [line.strip() for line in text.replace("\u00a0", " ").splitlines()]
    words = {w for c in products.game("love_formula").cards_of("pair") for w in c.name["uk"].split() if len(w) > 4}
    for word in words:
        for k in range(2, len(word) - 1):
            assert not any(line.endswith(word[:k] + "-") for line in lines), word


# --- contents -------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAMES)
def test_the_contents_fill_at_most_one_page(products, game_id, lang):
    reader = PdfReader(io.BytesIO(products.rulebook(game_id, lang).pdf))
    dotted = [n for n, page in enumerate(reader.pages[:4], 1)
              if re.search(r"(\.\s+){6}\d", page.extract_text())]  # dot leaders, page number
    assert len(dotted) == 1, f"contents on pages {dotted}"
    assert dotted[0] <= 2


def test_contents_plan_decides_depth_and_place():
    styles = make_styles(9.0)

    class H:  # what contents_plan reads of a Heading
        def __init__(self, level, plain):
            self.level, self.plain = level, plain

    few = [H(1, "Мета"), H(2, "Підготовка")]
    assert contents_plan(few, styles, 300, 400, 500) == ContentsPlan(0)
    many = [H(1 + (i % 3 > 0), f"Розділ {i}") for i in range(60)]
    assert contents_plan(many, styles, 300, 200, 2000) == ContentsPlan(2, False)
    assert contents_plan(many, styles, 300, 2000, 3000) == ContentsPlan(2, True)
    assert contents_plan(many, styles, 300, 100, 500).levels == 1


# --- sheets ---------------------------------------------------------------------------------

def sheet_fill(built) -> list[float]:
    """How far down each column the text reaches (1.0: to the column's foot), read back."""
    reader = PdfReader(io.BytesIO(built.pdf))
    page = reader.pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    columns = len({p.frame for p in built.placements})
    column = (width - 2 * MARGIN - GAP * (columns - 1)) / columns
    top = max(p.frame_top for p in built.placements)
    lowest = [top] * columns
    for y, x, _, _, _ in runs(page):
        if MARGIN - 1 <= y < top:
            i = min(max(int((x - MARGIN + GAP / 2) // (column + GAP)), 0), columns - 1)
            lowest[i] = min(lowest[i], y)
    return [(top - y) / (top - MARGIN) for y in lowest]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAMES)
def test_a_cheat_sheet_is_one_page_and_fills_it(products, game_id, lang):
    built = sheet(products, "cheatsheet", game_id, lang)
    assert [str(f) for f in built.findings] == []
    assert len(PdfReader(io.BytesIO(built.pdf)).pages) == 1
    fill = sheet_fill(built)
    assert sum(fill) / len(fill) >= 0.8, fill
    assert min(fill) >= 0.6, fill


@pytest.mark.parametrize("lang", LANGS)
def test_the_rave_summary_is_one_filled_page_in_both_languages(products, lang):
    built = sheet(products, "summary", RAVE, lang)
    assert [str(f) for f in built.findings] == []
    reader = PdfReader(io.BytesIO(built.pdf))
    assert len(reader.pages) == 1
    assert_fonts_embedded(reader)
    text = normalised(reader.pages[0].extract_text())
    steps = {"uk": ("1. Очікування", "2. Рейв", "3. Баунті", "4. Підсумок"),
             "en": ("1. Expectation", "2. Rave", "3. Bounty", "4. Wrap-up")}[lang]
    assert all(step in text for step in steps), text
    fill = sheet_fill(built)
    assert sum(fill) / len(fill) >= 0.8, fill
    assert sheet(products, "summary", RAVE, lang).pdf == build_summary(products.game(RAVE), lang).pdf  # same bytes


def test_build_makes_the_summary_by_default_for_games_with_the_template(products):
    assert "summary" in DEFAULT_PRODUCTS
    for game_id, made in ((RAVE, True), ("love_formula", False)):
        paths = products.build(game_id, "summary", lang="en").paths
        assert [p.name for p in paths] == (["summary.pdf"] if made else [])
    pdf = (products.build(RAVE, "summary", lang="en").folder / "summary.pdf").read_bytes()
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1


def test_a_summary_that_cannot_fit_is_refused(tmp_path):
    """Half as much text again as one page holds at the smallest size (20 such paragraphs fit;
    each layout tried costs as much as the text is long)."""
    import shutil
    shutil.copytree(CARDS / RAVE, tmp_path / "cards" / RAVE)
    folder = tmp_path / "templates" / RAVE
    folder.mkdir(parents=True)
    (folder / "summary.uk.md.j2").write_text("# Забагато\n\n" + "\n\n".join(
        ["Хід гравця складається з безлічі кроків, і кожен треба описати. " * 12] * 30) + "\n",
        encoding="utf-8")
    built = build_summary(load_game(tmp_path / "cards" / RAVE)[0], "uk")
    assert "cheatsheet-overflow" in [f.code for f in built.findings]


# --- what the rave rulebook promises ----------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_rave_rulebook_promises_only_sheets_the_toolkit_prints(products, lang):
    pages = [normalised(p.extract_text()) for p in PdfReader(io.BytesIO(products.rulebook(RAVE, lang).pdf)).pages]
    text = " ".join(pages)
    assert not re.search(r"PDF|майнд|mind map|телефон|phone", text, re.I), "promises a file it does not make"
    named = {"uk": ("ультракороткі правила", "памʼятка"), "en": ("ultra-short rules", "quick reference")}[lang]
    assert all(n in text for n in named)
    # and the sheets it names exist, one page each
    assert len(PdfReader(io.BytesIO(sheet(products, "summary", RAVE, lang).pdf)).pages) == 1
    assert len(PdfReader(io.BytesIO(sheet(products, "cheatsheet", RAVE, lang).pdf)).pages) == 1


def test_a_worked_example_box_leaves_no_empty_sliver_at_a_page_foot():
    """The Anima rulebook's speed-check example once began as an empty tinted strip at the foot
    of a page: a box splits only where at least `min_part` of it fits."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph
    from forge.rulebook.markdown import Callout
    box = Callout([[[Paragraph("text " * 200, ParagraphStyle("b", fontSize=9, leading=12))]]],
                  colWidths=[300], splitInRow=1)
    box.min_part = 45
    box.wrap(300, 1000)
    assert box.split(300, 20) == []
    parts = box.split(300, 100)         # 150 pt of text: it splits where enough fits
    assert len(parts) == 2
    parts = box.split(300, 140)         # not with a line overleaf: enough goes there too
    assert len(parts) == 2 and parts[1].wrap(300, 1000)[1] >= 45


def test_a_heading_keeps_the_lines_a_paragraph_may_end_a_column_with():
    """What must fit under a heading at a column foot counts a paragraph's first lines up to
    one that does not end in a broken word: `Para.split` never leaves «розда-» at the foot, so
    two lines ending so would leave the heading alone there (LF uk p.21 once)."""
    from reportlab.lib.enums import TA_JUSTIFY
    from reportlab.lib.styles import ParagraphStyle

    from forge.render.fonts import REGULAR, register
    from forge.rulebook.document import KEEP_LINES, start_height
    from forge.rulebook.markdown import Para, _broken
    from forge.text.hyphenation import hyphenate
    register()
    style = ParagraphStyle("t", fontName=REGULAR, fontSize=9, leading=11, alignment=TA_JUSTIFY)
    markup = hyphenate("Скид перетасовують у нову колоду, зокрема й для роздачі у фазі відбору; якщо "
                       "порожні і колода, і скид, ніхто нічого не бере, а посеред фази розігрування "
                       "без колоди шансів шанс у цьому раунді не відкривають.", "uk")
    for width in range(60, 240):
        para = Para(markup, style)
        para.wrap(width, 1000)
        lines = para.blPara.lines
        if len(lines) >= 2 * KEEP_LINES + 2 and _broken(lines[KEEP_LINES - 1]):
            break
    else:
        raise AssertionError("no width breaks a word at the end of the kept lines")
    keep = next(k for k in range(KEEP_LINES, len(lines)) if not _broken(lines[k - 1]))
    assert keep > KEEP_LINES
    assert start_height([para], width, 1000) == pytest.approx(keep * style.leading)
