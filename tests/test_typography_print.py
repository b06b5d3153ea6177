"""Typography as printed (issue 13): the uk card faces, rulebooks and cheat sheets of the three
games, read back with `pdftotext -layout`.

- No line ends in a one-letter word («Кохання з / першого погляду»).
- No line ends in a bare number followed by a line that starts with a lower-case word
  («візьми 5 / карт»).
- Ukrainian marks only: no typewriter quote or apostrophe, no ’ for the apostrophe, a real
  minus (U+2212) before a negative number (the Anima odds table).

`pdftotext -layout` keeps columns side by side, so a page line is cut into its pieces (runs
separated by 3 spaces or more: table cells, columns); a "line end" is the end of a piece, and
the line below a piece is the piece that starts in the same column. A number followed by a
lower-case piece counts when its piece starts a column (the first on the line, or after a
gutter of 6 spaces or more), not when it is a table cell next to another. Letter-spaced
capitals (type lines: «Д І Я») come back as separate letters and are skipped.

The files are made by the library call that `forge build GAME --what printshop,rulebook,cheatsheet`
makes (`build_game`), so findings of other checks do not stop this test.
"""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from conftest import GAMES
from pdfread import distinct_pages

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")

_PIECE = re.compile(r"\S+(?: {1,2}\S+)*")
_ONE_LETTER_END = re.compile(r"(?:^|\s)[^\W\d_]$")
_NUMBER_END = re.compile(r"(?:^|\s)[−+-]?\d+$")


def layout_text(pdf: bytes) -> list[str]:
    """`pdftotext -layout` of a PDF, one string per page."""
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True,
                         check=True, timeout=120).stdout.decode()
    return out.split("\f")


def line_end_faults(pages: list[str]) -> list[str]:
    """Every piece that ends in a one-letter word, or in a bare number with a lower-case piece
    below it, as 'p<page>: <piece> / <piece below>'."""
    faults = []
    for page_no, page in enumerate(pages, 1):
        lines = [[(m.start(), m.end(), m.group(0)) for m in _PIECE.finditer(line)]
                 for line in page.split("\n")]
        for i, pieces in enumerate(lines):
            below_line = lines[i + 1] if i + 1 < len(lines) else []
            for k, (start, _end, piece) in enumerate(pieces):
                if _ONE_LETTER_END.search(piece) and any(c.islower() for c in piece):
                    faults.append(f"p{page_no}: {piece[-50:]!r}")
                starts_column = k == 0 or start - pieces[k - 1][1] >= 6
                if starts_column and _NUMBER_END.search(piece):
                    below = [p for c, _, p in below_line if abs(c - start) <= 2]
                    if below and below[0][0].islower():
                        faults.append(f"p{page_no}: {piece[-40:]!r} / {below[0][:30]!r}")
    return faults


def test_the_detector_finds_the_faults_of_the_issue():
    page = ("Кохання з\n"
            "першого погляду\n"
            "Найомничків. Потім або віддай 1 душу, візьми 5\n"
            "карт Звуку й випадковий Клас.\n"
            "Перша бочка    1    техно, хардстайл, драм-н-бейс 4   3\n"
            "Шипіння        1    дабстеп, ембієнт              6   3\n"
            "                  Д І Я · П І Д Р О Б І Т О К\n")
    assert line_end_faults([page]) == ["p1: 'Кохання з'",
                                       "p1: 'ичків. Потім або віддай 1 душу, візьми 5' / "
                                       "'карт Звуку й випадковий Клас.'"]


@pytest.fixture(scope="module")
def printed(products) -> dict[str, list[str]]:
    """{'<game>/<file>': pages} for the uk print-shop faces (each distinct page once: a card's
    copies and a deck's backs are one), rulebook and cheat sheet (on A4) of every game."""
    texts = {}
    for game_id in GAMES:
        for what in ("printshop", "rulebook", "cheatsheet"):
            for path in products.build(game_id, what, lang="uk").paths:
                if path.suffix == ".pdf":
                    texts[f"{game_id}/{path.name}"] = layout_text(distinct_pages(path))
    for game_id in GAMES:
        for name in ("printshop.pdf", "rulebook.pdf", "cheatsheet.pdf"):
            assert f"{game_id}/{name}" in texts
    return texts


def test_no_line_ends_in_a_one_letter_word_or_a_number_torn_from_its_noun(printed):
    faults = {name: found for name, pages in printed.items() if (found := line_end_faults(pages))}
    assert faults == {}


def test_ukrainian_marks_only(printed):
    for name, pages in printed.items():
        text = "\f".join(pages)
        assert '"' not in text and "'" not in text, name
        assert "’" not in text, f"{name}: ’ where the Ukrainian apostrophe ʼ belongs"
        assert not re.search(r"(?<![\w\d.,)\]])-\d", text), f"{name}: a hyphen used as a minus"


def test_the_anima_odds_table_prints_real_minus_signs(printed):
    text = "\f".join(printed["anima_shadow_of_omega/cheatsheet.pdf"])
    assert re.search(r"−\d", text)
