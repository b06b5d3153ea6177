"""Text fitting (`forge.render.layout.fit_text`): the same lines as ever for real card text, and
work in proportion to the text for any text, however long its words (issue 10)."""
from __future__ import annotations

import sys

import pytest

from forge.render import fonts
from forge.render.layout import PT, fit_text
from forge.render.fonts import unit_width

MARKUP = ("<b>Взаємодопомога:</b> візьміть 3 карти, потім кожен інший гравець скидає одну карту "
          "з руки.")
FLAVOUR = "Найкращі друзі — ті, що поруч, навіть у п’ятницю-вечір."


def test_card_text_breaks_as_it_always_did():
    """Widths and lines (hyphenated, a hard hyphen, two faces) as the fitter made them before
    it was made linear, with issue 27's three-letter pieces (no «ски-/дає»): the PDFs of every
    game depend on them, to the bit."""
    el = {"w": 16, "h": 60, "size": 8, "min": 6, "align": "center",
          "paras": [{"markup": MARKUP}, {"text": FLAVOUR, "font": "italic", "scale": 0.88}]}
    paras, size, ok = fit_text(el, "uk")
    assert (size, ok) == (8.0, True)
    assert [p.lines for p in paras] == [
        [(40.94921875, [("Roboto-Bold", "Взаємодо-")]), (29.5625, [("Roboto-Bold", "помога:")]),
         (37.4765625, [("Roboto", "візьміть 3")]), (23.20703125, [("Roboto", "карти,")]),
         (20.90625, [("Roboto", "потім")]), (23.87109375, [("Roboto", "кожен")]),
         (38.6640625, [("Roboto", "інший гра-")]), (17.90234375, [("Roboto", "вець")]),
         (26.61328125, [("Roboto", "скидає")]), (40.57421875, [("Roboto", "одну карту")]),
         (25.375, [("Roboto", "з руки.")])],
        [(31.0853125, [("Roboto-Italic", "Найкращі")]),
         (42.7040625, [("Roboto-Italic", "друзі — ті, що")]),
         (41.9065625, [("Roboto-Italic", "поруч, навіть")]),
         (36.6953125, [("Roboto-Italic", "у п’ятницю-")]),
         (18.5384375, [("Roboto-Italic", "вечір.")])]]


def test_a_word_wider_than_the_box_is_cut_into_lines_that_keep_every_character():
    word = "ж" * 40_000
    el = {"w": 50, "h": 30, "size": 8, "min": 6, "paras": [{"text": "Draw 3."}, {"text": word}]}
    paras, size, ok = fit_text(el, "uk")
    assert (size, ok) == (6.0, False)  # reported as text-overflow
    lines = paras[1].lines
    assert "".join(t for _, frags in lines for _, t in frags) == word
    for width, frags in lines:
        (face, text), = frags
        assert width == pytest.approx(unit_width(text, face) * 6.0)
        assert width <= 50 * PT + 1e-6
        assert unit_width(text + "ж", face) * 6.0 > 50 * PT or text is frags[-1][1]


def _calls(text: str, lang: str) -> int:
    """Python and C function calls made fitting `text` (warm: caches filled by a first run);
    a count, unlike a time, is the same on every machine."""
    el = {"w": 50, "h": 30, "size": 8, "min": 6,
          "paras": [{"text": "Draw 3 cards."}, {"text": text, "font": "italic", "scale": 0.88}]}
    fit_text(el, lang)
    count = 0

    def hook(frame, event, arg):
        nonlocal count
        count += 1

    sys.setprofile(hook)
    try:
        fit_text(el, lang)
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("unit, lang", [
    ("x", "en"),  # one word, cut character by character
    ("ї", "uk"),
    ("слово-", "uk"),  # one word that breaks after every hard hyphen
    ("сло\u00adво", "en"),  # ... at every soft hyphen
    ("ab ", "en"),  # many short words
])
def test_fitting_work_grows_linearly_with_the_text(unit, lang):
    """Doubling a text at most doubles the work (a 40,000-character word took 36 s when every
    line summed the rest of the word again)."""
    fonts.register()
    short = _calls(unit * (3_000 // len(unit)), lang)
    long = _calls(unit * (6_000 // len(unit)), lang)
    assert long < 2.2 * short, (short, long)
