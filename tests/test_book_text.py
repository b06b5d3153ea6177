"""The books as printed carry no engine output (issue 27): every uk and en rulebook, booklet,
cheat sheet and summary of the three games, read back with `pdftotext`, has no «Перевірено
рушієм» / "Checked by the game engine" label, no `//` (Python's floor division) and none of the
state an example's scenario checks but does not show (`shows:`, forge/rulebook/scenarios.py).

The PDFs are the session's products (tests/conftest.py): the rulebooks and sheets other tests
read, and the uk booklet `forge build` imposes from the same rulebook (an en booklet is the en
rulebook's pages, imposed the same way).
"""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from conftest import GAMES, ROOT
from forge.rulebook import build_cheatsheet
from forge.rulebook.cheatsheet import build_summary
from forge.rulebook.outcome import describe
from forge.rulebook.scenarios import outcome_sentences
from forge.scenario import load_scenario

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")

LANGS = ("uk", "en")
LABELS = ("Перевірено рушієм", "Checked by the game engine")


def flat(text: str) -> str:
    """Text in reading order with line-end hyphens undone and all spacing one space."""
    text = text.replace("\u00ad", "").replace("-\n", "")
    return re.sub(r"\s+", " ", text)


def unshown(game_id: str, lang: str) -> dict[str, set[str]]:
    """{scenario stem: sentences of what it checks and does not show} for each scenario the
    game's rulebook template quotes."""
    template = (ROOT / "templates" / game_id / f"rulebook.{lang}.md.j2").read_text(encoding="utf-8")
    out = {}
    for stem in re.findall(r"scenario\('(\w+)'\)", template):
        path = ROOT / "tests" / "scenarios" / game_id / f"{stem}.yaml"
        sc = load_scenario(path)
        names = {c.id: c.name for c in sc.game.cards}
        everything = describe(sc.data.get("expect") or {}, lang, names, sc.engine, sc.game)
        out[stem] = {flat(s) for s in everything} - {flat(s) for s in
                                                     outcome_sentences({**sc.data, "_path": str(path)}, lang)}
    return out


def text_of(pdf: bytes) -> str:
    return flat(subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                               check=True, timeout=120).stdout.decode("utf-8"))


@pytest.fixture(scope="module")
def books(products) -> dict[tuple[str, str], dict[str, str]]:
    """(game, lang) -> {product: flat text} of every book, as the session made it (the rulebook
    and sheets other tests read; in uk, the booklet `forge build` imposes from that rulebook)."""
    out = {}
    for game_id in GAMES:
        for lang in LANGS:
            pdfs = {"rulebook": products.rulebook(game_id, lang).pdf,
                    "cheatsheet": products.once(build_cheatsheet, game_id, lang).pdf}
            if lang == "uk":
                booklet = products.build(game_id, "rulebook-booklet", lang=lang).folder / "rulebook-booklet.pdf"
                pdfs["booklet"] = booklet.read_bytes()
            if (ROOT / "templates" / game_id / f"summary.{lang}.md.j2").is_file():
                pdfs["summary"] = products.once(build_summary, game_id, lang).pdf
            out[game_id, lang] = {name: text_of(pdf) for name, pdf in pdfs.items()}
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAMES)
def test_no_engine_output_in_print(books, game_id, lang):
    dumps = unshown(game_id, lang)
    for name, text in books[game_id, lang].items():
        assert not [label for label in LABELS if label in text], name
        assert "//" not in text, (name, text[max(0, text.find("//") - 60):text.find("//") + 20])
        for stem, sentences in dumps.items():
            assert not [s for s in sentences if s in text], (name, stem)


def test_the_check_sees_a_dump():
    """Not vacuous: the Love Formula priority example checks the discard pile and a hand size it
    does not show, and those sentences are what the old books printed."""
    dumps = unshown("love_formula", "uk")["priority_example"]
    assert "У скиді лежить карта «Поцілунок»." in {s.replace("\u00a0", " ") for s in dumps}
