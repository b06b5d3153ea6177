"""Hyphenation as printed (issue 27): the uk and en rulebooks and cheat sheets, the uk booklets
and card faces of the three games, read back with `pdftotext -raw` (which keeps a line-end
hyphen and the line break after it), break no word against the rules of `forge.text.uk_breaks`
(uk), leave no piece of fewer than three letters (uk and en: `hyphenation.LEFT`, `RIGHT`), and no
rulebook or cheat-sheet page ends in a broken word.

A line that ends in a letter and a hyphen, followed by a line that starts with a lower-case
letter, is a break; hard hyphens (будь-/коли) count too, and are held to the same rules. The
booklet is the rulebook imposed two pages a sheet: its breaks are read, its page ends are the
rulebook's. Column ends inside a page are not told apart from line ends here; `Para.split`,
which keeps them whole, is tested on its own.
"""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from conftest import GAMES
from pdfread import distinct_pages
from forge.rulebook import build_cheatsheet
from forge.text.hyphenation import LEFT, RIGHT, hyphenate
from forge.text.typography import SHY
from forge.text.uk_breaks import fault

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")

_LETTERS = r"[^\W\d_]"
_BREAK = re.compile(rf"({_LETTERS}+)-\n[ \t]*({_LETTERS}+)")
_PAGE_END = re.compile(rf"{_LETTERS}-\s*$")


def raw_text(pdf: bytes) -> list[str]:
    """`pdftotext -raw` of a PDF, one string per page."""
    out = subprocess.run(["pdftotext", "-raw", "-", "-"], input=pdf, capture_output=True,
                         check=True, timeout=120).stdout.decode()
    return out.split("\f")


def break_faults(pages: list[str], lang: str, page_ends: bool = True) -> list[str]:
    """Every break against the rules, as 'p<page>: left-/right (why)', and, with `page_ends`,
    every page whose last line ends in a broken word."""
    found = []
    for n, page in enumerate(pages, 1):
        for m in _BREAK.finditer(page):
            left, right = m.groups()
            if not right[0].islower():
                continue
            why = (fault(left, right) if lang == "uk" else None) or (
                "a piece of one or two letters" if len(left) < LEFT or len(right) < RIGHT else None)
            if why:
                found.append(f"p{n}: {left}-/{right} ({why})")
        if page_ends and _PAGE_END.search(page.rstrip()):
            found.append(f"p{n}: ends in {page.rstrip()[-30:]!r}")
    return found


def _house(breaks: str) -> str:
    """`breaks` ("на-при-клад") without the breaks that leave fewer than LEFT or RIGHT letters."""
    word, points, at = breaks.replace("-", ""), [], 0
    for piece in breaks.split("-")[:-1]:
        at += len(piece)
        points.append(at)
    keep = [i for i in points if LEFT <= i <= len(word) - RIGHT]
    return "-".join(word[a:b] for a, b in zip((0, *keep), (*keep, len(word))))


def test_the_words_of_the_issue_break_where_the_orthography_allows():
    """Every break the orthography allows in the issue's words (§ 63), less the ones the house
    rule of three letters drops (на-при-клад is printed напри-клад)."""
    words = {"неприкріплений": "не-при-кріп-ле-ний", "наприклад": "на-при-клад",
             "покладіть": "по-кла-діть", "відкрив": "від-крив", "закрито": "за-кри-то",
             "перекладіть": "пе-ре-кла-діть", "виключив": "ви-клю-чив", "розіграна": "розі-гра-на",
             "приспати": "при-спа-ти", "розіграйте": "розі-грай-те", "більше": "біль-ше",
             "приготування": "при-го-ту-ван-ня", "очікування": "очі-ку-ван-ня",
             "пересування": "пе-ре-су-ван-ня", "скидаються": "ски-да-ють-ся",
             "надзвичайний": "над-зви-чай-ний", "підживляти": "під-жив-ля-ти",
             "прийняти": "при-йня-ти"}
    assert _house("на-при-клад") == "напри-клад" and _house("біль-ше") == "більше"
    assert {w: hyphenate(w, "uk").replace(SHY, "-") for w in words} == {
        w: _house(b) for w, b in words.items()}


def test_the_rules_name_every_bad_break_of_the_issue():
    bad = ["неприк-ріплений", "наприк-лад", "пок-ладіть", "відк-рив", "зак-лич", "док-ладе",
           "зак-рито", "перек-ладіть", "вик-лючив", "розіг-рана", "прис-пати", "розіг-райте"]
    assert {w: fault(*w.split("-")) for w in bad} == dict.fromkeys(
        bad, "the root's first consonant left with its prefix")
    assert fault("бі", "льше") == "a consonant with its ь carried before a consonant"
    assert fault("приготува", "ння") == "doubled consonants carried together"
    assert fault("сіль", "ʼю") == "ь or the apostrophe starts a line"
    assert fault("ба", "йка") == "й torn from its vowel"
    assert fault("пай", "ок") == "йо or ьо split"
    assert fault("ход", "жу") == "дж or дз split"
    assert fault("о", "зеро") == "a one-letter piece"
    for good in ("непри-кріплений", "неприкріп-лений", "від-дати", "за-йти", "жит-тя", "сест-ра",
                 "під-живляти", "біль-ше", "па-йок", "кни-га"):
        assert fault(*good.split("-")) is None, good


def test_the_reader_finds_breaks_and_page_ends():
    pages = ["Відкриті шанси кла-\nдіть горілиць, наприк-\nлад так. Будь-\nколи по-\nтім, біль-\nше.\n",
             "Кінець сторін-\n"]
    assert break_faults(pages, "uk") == [
        "p1: наприк-/лад (the root's first consonant left with its prefix)",
        "p1: по-/тім (a piece of one or two letters)", "p1: біль-/ше (a piece of one or two letters)",
        "p2: ends in 'Кінець сторін-'"]


@pytest.fixture(scope="module")
def printed(products) -> dict[str, list[str]]:
    """{'<game>/<lang>/<file>': raw pages} of the rulebook (A5) and the cheat sheet in uk and en,
    and the uk booklet and print-shop faces, of every game: the session's products (see
    conftest.Products). An en booklet is its rulebook's pages imposed (imposing the three
    would cost 0.8 s more), and en words have no rules but the one-letter one."""
    texts = {}
    for game_id in GAMES:
        for lang in ("uk", "en"):
            texts[f"{game_id}/{lang}/rulebook.pdf"] = raw_text(products.rulebook(game_id, lang).pdf)
            texts[f"{game_id}/{lang}/cheatsheet.pdf"] = raw_text(products.once(build_cheatsheet, game_id, lang).pdf)
        booklet = products.build(game_id, "rulebook-booklet", lang="uk").folder / "rulebook-booklet.pdf"
        texts[f"{game_id}/uk/rulebook-booklet.pdf"] = raw_text(booklet.read_bytes())  # as test_book_text's
        shop = products.build(game_id, "printshop", lang="uk").folder / "printshop.pdf"
        texts[f"{game_id}/uk/printshop.pdf"] = raw_text(distinct_pages(shop))  # a card's copies: one page
    return texts


def test_no_break_against_the_rules_and_no_page_ends_in_a_broken_word(printed):
    faults = {}
    for name, pages in printed.items():
        lang = name.split("/")[1]
        found = break_faults(pages, lang, page_ends="rulebook.pdf" in name or "cheatsheet" in name)
        if found:
            faults[name] = found
    assert faults == {}


def test_a_paragraph_split_at_a_page_end_leaves_no_broken_word_on_the_page():
    """Split where its last line ends in a broken word, a paragraph gives that line to the next
    page (or column); ReportLab alone would leave «кла-» at the foot of the page."""
    from reportlab.lib.enums import TA_JUSTIFY
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    from forge.render.fonts import REGULAR, register
    from forge.rulebook.markdown import Para, _broken
    register()
    style = ParagraphStyle("t", fontName=REGULAR, fontSize=9, leading=11, hyphenationLang="",
                           embeddedHyphenation=0, uriWasteReduce=0, alignment=TA_JUSTIFY)
    markup = hyphenate("Відкриті шанси кладіть горілиць поруч із колодою шансів, а неприкріплені "
                       "приготування лишаються на руці до наступного розігрування карт.", "uk")
    plain = Paragraph(markup, style)
    plain.wrap(80, 1000)
    at = next(n for n, line in enumerate(plain.blPara.lines) if n and _broken(line))
    height = (at + 1) * style.leading  # room for the lines up to the broken one
    first = plain.split(80, height)[0]
    assert _broken(first.blPara.lines[-1])  # ReportLab alone
    para = Para(markup, style)
    para.wrap(80, 1000)
    first = para.split(80, height)[0]
    assert len(first.blPara.lines) == at and not _broken(first.blPara.lines[-1])
