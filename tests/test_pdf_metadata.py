"""Every uk and en product states its title, subject and language in the book's language
(read back from the files the session already built: no product is made for this test)."""
from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from conftest import GAMES

#: (game, product, language) as other tests build them (test_print_kit, test_printshop,
#: test_typography_print, test_hyphenation_print, test_packaging, test_rulebook_layout).
BUILT = ([(g, what, "uk") for g in GAMES
          for what in ("pnp", "printshop", "rulebook", "rulebook-booklet", "cheatsheet")]
         + [("love_formula", what, "en") for what in ("pnp", "rulebook")]
         + [("rules_does_not_exist", "summary", "en")])
CYRILLIC = re.compile(r"[а-яіїєґ]", re.I)
ENGLISH_WORDS = re.compile(r"\b(print|shop|play|pcs|circle|cards|rules|quick|reference)\b", re.I)


@pytest.mark.parametrize("game_id, what, lang", BUILT)
def test_every_product_states_title_subject_and_language_in_its_own(products, game_id, what, lang):
    made = products.build(game_id, what, lang=lang)
    pdfs = [p for p in made.paths if p.suffix == ".pdf"]
    assert pdfs
    title = made.game.manifest.title[lang]
    for path in pdfs:
        reader = PdfReader(path)
        info = reader.metadata
        said = f"{path.name}: {dict(info)}"
        assert reader.root_object.get("/Lang") == lang, said
        assert info["/Title"].startswith(title) and info.get("/Subject"), said
        rest = info["/Title"][len(title):] + " " + info["/Subject"].replace(title, "")
        if lang == "uk":
            assert CYRILLIC.search(info["/Subject"]) and not ENGLISH_WORDS.search(rest), said
        else:
            assert not CYRILLIC.search(rest), said
