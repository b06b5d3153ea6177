"""Rulebooks read back from the PDF: outline, page numbers, fonts, counts from the data, plurals;
data changes reach the rulebook; a missing card is a `forge check` finding at the template line;
the booklet is in saddle-stitch order."""
from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from pdfread import assert_fonts_embedded

from conftest import CARDS, GAMES, ROOT
from forge.check import check_game
from forge.model import load_game
from forge.rulebook import booklet_order, build_rulebook, impose_booklet, render_template
from forge.rulebook.document import Heading
from forge.text import plural

TEMPLATES = ROOT / "templates"
UK_CARDS = ("карта", "карти", "карт")


def normalised(text: str) -> str:
    """Extracted text with hyphenation undone and whitespace (no-break spaces too) collapsed."""
    text = text.replace("\u00ad", "").replace("-\n", "")
    return re.sub(r"\s+", " ", text.replace("\u00a0", " "))


def footer_numbers(page, split_at: float | None = None) -> dict[str, set[int]]:
    """Numbers printed in the page foot (below 40 pt), by half of the page when `split_at`."""
    found: dict[str, set[int]] = {"left": set(), "right": set()}

    def visit(text, cm, tm, font, size):
        x, y = cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3]
        if text.strip().isdigit() and y < 40:
            found["right" if split_at is not None and x >= split_at else "left"].add(int(text.strip()))

    page.extract_text(visitor_text=visit)
    return found


def outline_titles(reader: PdfReader) -> list[str]:
    return [item.title for item in reader.outline if not isinstance(item, list)]


@pytest.fixture(scope="module")
def built(products):
    """The uk rulebook of every shipped game (built once for the session)."""
    out = {}
    for game_id in GAMES:
        result = products.rulebook(game_id, "uk")
        out[game_id] = (products.game(game_id), result, PdfReader(io.BytesIO(result.pdf)))
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_outline_has_every_top_level_section(built, game_id):
    game, result, reader = built[game_id]
    rendered = render_template(game, "rulebook", "uk")
    sections = [line[2:].strip() for line in rendered.markdown.splitlines()
                if line.startswith("# ")]
    assert len(sections) >= 3
    titles = [normalised(t) for t in outline_titles(reader)]
    # Every `#` section is a top-level outline entry, in order (titles typeset, so compare loosely).
    assert len(titles) == len(sections)
    for title, source in zip(titles, sections):
        assert title.split()[0].strip("«»\"") in source


@pytest.mark.parametrize("game_id", GAMES)
def test_pages_are_numbered_and_fonts_embedded(built, game_id):
    _, result, reader = built[game_id]
    assert len(reader.pages) == result.pages >= 4
    for number in (2, 3, len(reader.pages)):
        assert footer_numbers(reader.pages[number - 1])["left"] == {number}
    assert footer_numbers(reader.pages[0])["left"] == set()  # the title page has none
    assert_fonts_embedded(reader)


@pytest.mark.parametrize("game_id", GAMES)
def test_counts_in_print_equal_the_card_data(built, game_id):
    """The template's «Вміст» section counts the first set's cards from the data: the total and
    each card type («Монстри — 20 карт»); the title page does not repeat them."""
    game, _, reader = built[game_id]
    title_page = normalised(reader.pages[0].extract_text())
    text = normalised(" ".join(page.extract_text() for page in reader.pages))
    first = next(iter(game.manifest.sets))
    total = sum(c.copies for c in game.cards if c.set == first)
    assert f"усього {total} {plural(total, UK_CARDS, 'uk')}" in text
    assert f"{total} {plural(total, UK_CARDS, 'uk')}" not in title_page
    for type_id in game.manifest.card_types:
        n = game.count(type_id, first)
        if n:
            assert f"— {n} {plural(n, UK_CARDS, 'uk')}" in text, type_id


def test_words_before_bold_keep_their_space(built):
    """ReportLab loses the space between a hyphenated word and an opening tag unless the
    converter moves it inside the tag: «називається **Хостом**» must not print as one word."""
    _, _, reader = built["rules_does_not_exist"]
    text = normalised(" ".join(page.extract_text() for page in reader.pages))
    assert "називається Хостом" in text and "називаєтьсяХостом" not in text


def test_plural_forms_in_print(built):
    """The uk plural forms of the counts, as the data gives them: 57 карт, 4 карти (Love Formula;
    the singular is not counted there, tests/test_rulebook_examples.py has «1 душу»)."""
    _, _, reader = built["love_formula"]
    text = normalised(" ".join(page.extract_text() for page in reader.pages[:3]))
    for n, word in ((57, "карт"), (28, "карт"), (4, "карти"), (22, "карти")):
        assert re.search(rf"(?<!\d){n} {word}(?!\w)", text), (n, word)
    for n, wrong in ((57, "карти"), (4, "карт"), (22, "карт")):
        assert not re.search(rf"(?<!\d){n} {wrong}(?!\w)", text), (n, wrong)


def copy_game(tmp_path: Path, game_id: str) -> Path:
    """A game with its templates in the sibling layout (cards/<game>, templates/<game>)."""
    shutil.copytree(CARDS / game_id, tmp_path / "cards" / game_id)
    shutil.copytree(TEMPLATES / game_id, tmp_path / "templates" / game_id)
    shutil.copytree(TEMPLATES / "_common", tmp_path / "templates" / "_common")
    return tmp_path / "cards" / game_id


def test_count_and_name_changes_reach_the_rulebook(built, tmp_path):
    root = copy_game(tmp_path, "rules_does_not_exist")
    before = normalised(" ".join(p.extract_text() for p in built["rules_does_not_exist"][2].pages))
    monsters = root / "monsters.yaml"
    data = monsters.read_text(encoding="utf-8")
    data = data.replace('name: {uk: "Гремлін із лайтстиком"', 'name: {uk: "Гремлін Контрольний"', 1)
    data = data.replace("  level: 1\n", "  level: 1\n  copies: 3\n", 1)
    monsters.write_text(data, encoding="utf-8")
    game, findings = load_game(root)
    assert not findings
    after = normalised(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(
        build_rulebook(game, "uk", pictures=False).pdf)).pages))
    assert "Гремлін Контрольний" in after and "Гремлін Контрольний" not in before
    assert "Монстри — 20 карт" in before and "Монстри — 22 карти" in after


def test_missing_card_is_a_check_finding_at_the_template_line(tmp_path):
    root = copy_game(tmp_path, "love_formula")
    template = tmp_path / "templates" / "love_formula" / "rulebook.uk.md.j2"
    lines = template.read_text(encoding="utf-8").splitlines()
    lines.insert(8, "Див. також {{ 'no_such_card' | card }}.")
    template.write_text("\n".join(lines) + "\n", encoding="utf-8")
    game, findings = check_game(root, typeset=False)
    hits = [f for f in findings if f.code == "rulebook-card"]
    assert len(hits) == 1, [str(f) for f in findings]
    assert hits[0].file.endswith("templates/love_formula/rulebook.uk.md.j2")
    assert hits[0].line == 9 and "no_such_card" in hits[0].message


def test_missing_card_in_a_block_helper_and_a_macro_points_at_the_game_template(tmp_path):
    root = copy_game(tmp_path, "love_formula")
    (tmp_path / "templates" / "_common" / "rulebook").mkdir(parents=True, exist_ok=True)
    (tmp_path / "templates" / "_common" / "rulebook" / "m.j2").write_text(
        "{% macro show(id) %}\n\n{{ card_picture(id) }}\n\n{% endmacro %}\n", encoding="utf-8")
    template = tmp_path / "templates" / "love_formula" / "rulebook.en.md.j2"
    text = template.read_text(encoding="utf-8")
    template.write_text('{% import "_common/rulebook/m.j2" as m with context %}\n' + text
                        + "\n{{ m.show('ghost_card') }}\n", encoding="utf-8")
    game, _ = load_game(root)
    rendered = render_template(game, "rulebook", "en")
    hits = [f for f in rendered.findings if f.code == "rulebook-card"]
    assert len(hits) == 1
    assert hits[0].file.endswith("rulebook.en.md.j2")
    assert hits[0].line == len(text.splitlines()) + 3


def test_a_quoted_example_that_fails_in_the_engine_stops_the_rulebook(tmp_path):
    """An example in print is an example that passes: a broken one is a finding at its quote."""
    root = copy_game(tmp_path, "love_formula")
    scenarios = tmp_path / "tests" / "scenarios" / "love_formula"
    shutil.copytree(ROOT / "tests" / "scenarios" / "love_formula", scenarios)
    scenario = scenarios / "scoring_11vp.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("A: 11", "A: 12"), encoding="utf-8")
    game, _ = load_game(root)
    built = build_rulebook(game, "uk", pictures=False)
    hits = [f for f in built.findings if f.code == "rulebook-scenario"]
    assert len(hits) == 1 and "scoring_11vp" in hits[0].message
    template = tmp_path / "templates" / "love_formula" / "rulebook.uk.md.j2"
    quoted = [n for n, line in enumerate(template.read_text(encoding="utf-8").splitlines(), 1)
              if "scenario('scoring_11vp')" in line]
    assert hits[0].file.endswith("rulebook.uk.md.j2") and hits[0].line in quoted


def test_booklet_order():
    assert booklet_order(8) == [(7, 0), (1, 6), (5, 2), (3, 4)]
    assert booklet_order(6) == [(None, 0), (1, None), (5, 2), (3, 4)]
    assert len(booklet_order(1)) == 2


def test_booklet_pages_read_back_in_saddle_stitch_order(built):
    _, result, reader = built["rules_does_not_exist"]
    n = len(reader.pages)
    booklet = PdfReader(io.BytesIO(impose_booklet(result.pdf)))
    padded = -(-n // 4) * 4
    assert len(booklet.pages) == padded // 2
    width = float(reader.pages[0].mediabox.width)
    assert float(booklet.pages[0].mediabox.width) == pytest.approx(2 * width)
    sides = list(zip(booklet.pages, booklet_order(n)))
    seen = []
    for side, (left, right) in sides:
        numbers = footer_numbers(side, split_at=width)
        for half, page in (("left", left), ("right", right)):
            expected = {page + 1} if page is not None and page > 0 else set()
            assert numbers[half] == expected, (half, page, numbers)
            seen += sorted(expected)
    assert sorted(seen) == list(range(2, n + 1))
    # The outermost sheet holds the last and the first page; the innermost the middle spread.
    assert sides[0][1] == ((padded - 1) if padded - 1 < n else None, 0)
    assert sides[-1][1] == (padded // 2 - 1, padded // 2)


def test_a_block_glued_to_text_is_a_finding_not_debug_text(tmp_path):
    """A scenario quoted with no blank line before the next list item would print its
    placeholder; the build refuses it at the quote's line instead."""
    root = copy_game(tmp_path, "love_formula")
    shutil.copytree(ROOT / "tests" / "scenarios" / "love_formula",
                    tmp_path / "tests" / "scenarios" / "love_formula")
    template = tmp_path / "templates" / "love_formula" / "rulebook.uk.md.j2"
    lines = template.read_text(encoding="utf-8").splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("9. "))
    lines.insert(at, "{{ scenario('scoring_11vp') }}")
    template.write_text("\n".join(lines) + "\n", encoding="utf-8")
    game, _ = load_game(root)
    built = build_rulebook(game, "uk", pictures=False)
    hits = [f for f in built.findings if f.code == "rulebook-block"]
    assert len(hits) == 1, [str(f) for f in built.findings]
    assert hits[0].file.endswith("rulebook.uk.md.j2") and hits[0].line == at + 1


def test_rule_numbers_reach_the_rulebook_from_the_engine():
    """The rounds of a play phase, the draft's deal and a preparation's VP are the engine's
    `rules`, spelled out in the rulebook or in digits: change the engine, the print follows."""
    from dataclasses import replace
    from forge.rules import ENGINES, love_formula
    game = load_game(CARDS / "love_formula")[0]
    uk = render_template(game, "rulebook", "uk").markdown
    en = render_template(game, "rulebook", "en").markdown
    assert "по дванадцять карт" in uk and "триває десять раундів" in uk and "Після десятого раунду" in uk
    assert "deal twelve cards" in en and "lasts ten rounds" in en and "After the tenth round" in en
    ENGINES.register(replace(love_formula.ENGINE, rules={"rounds": 8, "draft": 11, "preparation_vp": 2}))
    try:
        uk = render_template(game, "rulebook", "uk").markdown
        en = render_template(game, "rulebook", "en").markdown
        sheet = render_template(game, "cheatsheet", "uk").markdown
    finally:
        ENGINES.register(love_formula.ENGINE)
    assert "по одинадцять карт" in uk and "триває вісім раундів" in uk and "Після восьмого раунду" in uk
    assert "deal eleven cards" in en and "lasts eight rounds" in en and "After the eighth round" in en
    assert "отримує 11 карт" in sheet and "8 раундів" in sheet and "Після 8-го раунду" in sheet
    assert "each preparation card: 2 VP" in en and "(прикріплене чи ні) — 2 ПО" in sheet


@pytest.mark.parametrize("n, lang, kw, word", [
    (12, "uk", {"gender": "f"}, "дванадцять"), (1, "uk", {"gender": "f"}, "одна"),
    (2, "uk", {}, "два"), (10, "uk", {"ordinal": True, "case": "gen"}, "десятого"),
    (3, "uk", {"ordinal": True, "case": "gen"}, "третього"), (10, "en", {"ordinal": True}, "tenth"),
    (12, "en", {}, "twelve"), (21, "en", {}, "21"), (5, "de", {}, "5")])
def test_spell(n, lang, kw, word):
    from forge.text.numbers import spell
    assert spell(n, lang, **kw) == word
