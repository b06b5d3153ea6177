"""Typography rules (forge.text.typography, forge.text.hyphenation, forge.text.ragged) and the
`typography` check: each rule on the smallest text that shows it."""
from __future__ import annotations

import pytest

from forge.check import check_game
from forge.render.layout import PT, fit_text
from forge.text.hyphenation import LEFT, MIN_FILL, RIGHT, hyphenate
from forge.text.typography import APOSTROPHE, MINUS, NBSP, SHY, typeset, typeset_markup


def show(text: str) -> str:
    """No-break spaces as `_`, so expectations are readable."""
    return text.replace(NBSP, "_")


# --- typeset -----------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, printed", [
    # one-letter words and the short words an editor keeps with the next word
    ("Кохання з першого погляду", "Кохання з_першого погляду"),
    ("Черга в гардероб", "Черга в_гардероб"),
    ("У свою фазу і в чужу", "У_свою фазу і_в_чужу"),
    ("А і Б грають", "А_і_Б_грають"),
    ("Кадзуо та Томіко", "Кадзуо та_Томіко"),
    ("не можна до кінця ходу", "не_можна до_кінця ходу"),
    # a number and what it counts
    ("візьміть 5 карт", "візьміть 5_карт"),
    ("отримайте 2 ПО", "отримайте 2_ПО"),
    ("+2 до Сили", "+2_до_Сили"),
    ("1/4 ПО, 2,5 очка", "1/4_ПО, 2,5_очка"),
    ("№ 5 і § 3", "№_5_і_§_3"),
    ("з 5 карт", "з_5_карт"),
    # quotes, nested, and the apostrophe
    ('"Аптечка" і "карта "Б""', "«Аптечка» і_«карта „Б“»"),
    ("пʼять, п'ять, п’ять, п`ять", f"п{APOSTROPHE}ять, п{APOSTROPHE}ять, п{APOSTROPHE}ять, п{APOSTROPHE}ять"),
    # dashes, minus, ranges, ellipsis
    ("Перший - хто ходить", "Перший_— хто ходить"),
    ("Перший — хто ходить", "Перший_— хто ходить"),
    ("Перший -- хто ходить", "Перший_— хто ходить"),  # a typewriter's dash
    ("-2 до Сили", f"{MINUS}2_до_Сили"),
    ("кидок (-1)", f"кидок ({MINUS}1)"),
    ("1-3: нічого", "1–3: нічого"),
    ("будь-який 2-й гравець", "будь-який 2-й гравець"),
    ("і так далі...", "і_так далі…"),
])
def test_uk_rules(raw, printed):
    assert show(typeset(raw, "uk")) == printed


@pytest.mark.parametrize("raw, printed", [
    ("Hunter's \"Trail\"", "Hunter’s “Trail”"),
    ("the 'quoted' word", "the ‘quoted’ word"),
    ("Smugglers' League", "Smugglers’ League"),
    ("draw 3 cards - then discard", "draw 3_cards_– then discard"),
    ("draw 3 cards -- then discard", "draw 3_cards_– then discard"),
    ("gets -1 Speed", f"gets {MINUS}1_Speed"),
])
def test_en_rules(raw, printed):
    assert show(typeset(raw, "en")) == printed


@pytest.mark.parametrize("lang", ["uk", "en"])
@pytest.mark.parametrize("raw", [
    'Візьміть 3 карти з колоди - "Аптечку" чи "Дім" (-1 ПО)...',
    "Hunter's \"Trail\": draw 2 cards - a 'gift' at 1-3.",
    "<b>Колискова:</b> оберіть 1 персонажа",
])
def test_typeset_is_idempotent(raw, lang):
    once = typeset(raw, lang)
    assert typeset(once, lang) == once
    assert typeset_markup(typeset_markup(raw, lang), lang) == typeset_markup(raw, lang)


def test_markup_keeps_its_tags_and_quotes_pair_across_them():
    got = typeset_markup('<b>"Кузня"</b> в <i>"Брамі"</i> - 2 карти<br/>далі', "uk")
    assert show(got) == "<b>«Кузня»</b> в_<i>«Брамі»</i>_— 2_карти<br/>далі"


# --- hyphenation -------------------------------------------------------------------------------

@pytest.mark.parametrize("word, lang, least", [
    *((w, "uk", (LEFT, RIGHT)) for w in ("очікування", "неприкріпленим", "приготування",
                                         "перемістити", "гардероб", "наприклад")),
    *((w, "en", (LEFT, RIGHT)) for w in ("obstacle", "preparations", "hyphenation"))])
def test_a_break_leaves_the_letters_the_language_asks_for(word, lang, least):
    """Three letters at least on either side of every break, in both languages (issue 27: no
    one- or two-letter piece)."""
    assert (LEFT, RIGHT) == (3, 3)
    pieces = hyphenate(word, lang).split(SHY)
    assert "".join(pieces) == word and len(pieces) > 1
    assert len(pieces[0].replace(APOSTROPHE, "")) >= least[0]
    assert len(pieces[-1]) >= least[1]


def test_names_in_table_cells_are_not_hyphenated():
    assert SHY in hyphenate("Томікомару", "uk")
    assert hyphenate("Кадзуо та Томікомару", "uk", names=True) == "Кадзуо та Томікомару"
    assert SHY in hyphenate("Томікомару і очікування", "uk", names=True).split()[-1]


def _lines(text: str, width_mm: float, align: str = "left") -> list[str]:
    el = {"w": width_mm, "h": 200, "size": 8, "min": 8, "align": align, "paras": [{"text": text}]}
    paras, _, _ = fit_text(el, "uk")
    return ["".join(t for _, t in frags) for _, frags in paras[0].lines]


def test_ragged_card_text_with_room_to_spare_is_not_hyphenated():
    """«Сет завжди з собою: у кишені, за вухом, у торбинці» on a 50 mm box: the second line
    is full enough to end before «торбинці», which moves whole (it printed «у тор-/бинці»)."""
    text = typeset("Сет завжди з собою: у кишені, за вухом, у торбинці.", "uk")
    lines = _lines(text, 50)
    assert not any(line.endswith("-") for line in lines), lines
    assert lines[-1].endswith("торбинці.")


def test_a_short_line_still_takes_a_hyphenated_piece():
    """A line that would be left shorter than MIN_FILL of the box takes a piece of the word."""
    text = "Це неприкріпленими"
    width = 22  # mm: «Це» alone fills much less than MIN_FILL of it
    lines = _lines(text, width)
    assert lines[0].endswith("-") and lines[0].startswith("Це ")


def test_every_hyphenated_line_was_short_without_its_piece():
    from forge.render.fonts import unit_width, REGULAR
    text = typeset("Цього ходу можете перемістити ще 2 карти приготувань у своїй ігровій зоні, "
                   "а неприкріплені приготування лишаються на руці до наступного розігрування.", "uk")
    for width in (30, 38, 45, 51):
        lines = _lines(text, width)
        for line in lines:
            if line.endswith("-") and " " in line:
                head = line.rsplit(" ", 1)[0]
                assert unit_width(head, REGULAR) * 8 < MIN_FILL * width * PT, (width, line)


def test_reportlab_paragraphs_follow_the_same_rule():
    from reportlab.lib.styles import ParagraphStyle
    from forge.render.fonts import REGULAR, register
    from forge.rulebook.markdown import Para
    from forge.text.ragged import INSTALLED
    from reportlab.platypus import Paragraph
    assert INSTALLED
    register()
    style = ParagraphStyle("t", fontName=REGULAR, fontSize=9, leading=11, hyphenationLang="",
                           embeddedHyphenation=0, uriWasteReduce=0)
    markup = hyphenate(typeset("Сет завжди з собою: у кишені, за вухом, у торбинці, а неприкріплені "
                               "приготування лишаються на руці.", "uk"), "uk")
    width = 105  # points: «у кишені, за вухом,» fills more than MIN_FILL: no «у тор-» after it

    def lines(cls):
        p = cls(markup, style)
        p.wrap(width, 1000)
        return [" ".join(str(w) for w in line[1]) for line in p.blPara.lines]
    from reportlab.pdfbase.pdfmetrics import stringWidth
    plain = lines(Paragraph)
    held = lines(Para)
    assert any(line.endswith(f"у{NBSP}тор-") for line in plain), plain  # ReportLab alone
    assert not any(line.endswith("тор-") for line in held), held
    for line in held:
        if line.endswith("-"):
            head = line.rsplit(" ", 1)[0].replace(SHY, "")
            assert stringWidth(head, REGULAR, 9) < MIN_FILL * width, (line, held)
    joined = lambda ls: "".join(ls).replace(" ", "").replace(SHY, "").replace("-", "")
    assert joined(plain) == joined(held)


# --- the data: notes, and `forge check --fix` ----------------------------------------------------

def test_a_typewriter_apostrophe_in_a_card_name_is_a_note_not_a_finding(game_copy):
    from forge.check.typography import typography_notes
    folder = game_copy("love_formula")
    path = folder / "base_pairs.yaml"
    text = path.read_text(encoding="utf-8")
    old = 'name: {uk: "Кадзуо та Томіко", en: "Kazuo & Tomiko"}'
    assert old in text
    path.write_text(text.replace(old, 'name: {uk: "Кадзуо та Томіко", en: "Kazuo\'s Tomiko"}'),
                    encoding="utf-8")
    line = next(n for n, s in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "Kazuo's" in s)
    game, findings = check_game(folder, typeset=False)  # a card's data, not how books are set
    assert findings == []  # it prints typeset: nothing stops the build
    (note,) = typography_notes(game)
    assert (note.file.endswith("love_formula/base_pairs.yaml"), note.line) == (True, line)
    assert "Kazuo’s Tomiko" in note.message


def test_fix_typesets_an_operation_template_literal_text_only(tmp_path):
    """The quotes of a Jinja expression stay; the literal text's marks are typeset, the comments
    of the manifest kept (a new game's manifest: commented, its operation texts templates)."""
    import yaml
    from forge.check.typography import fix_typography, mended
    from forge.scaffold import scaffold
    source = "{% if source == 'deck' %}Найміть \"так\"{% else %}Поверніть...{% endif %}"
    assert mended(source, "uk", template=True) == "{% if source == 'deck' %}Найміть «так»{% else %}Поверніть…{% endif %}"
    assert mended("{{ 'a' }}", "uk", template=True) == "{{ 'a' }}"
    scaffold(tmp_path, "g", ["uk", "en"], ["action"])
    folder = tmp_path / "cards" / "g"
    manifest = folder / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    old = 'uk: "Візьміть {{ count }} {{ count | plural(\'карту\', \'карти\', \'карт\') }}."'
    assert old in text, "no operation text to corrupt"
    manifest.write_text(text.replace(old, old.replace("Візьміть ", 'Візьміть \\"так\\" -- ')), encoding="utf-8")
    assert fix_typography(folder, ("uk", "en")) == [manifest]
    fixed = manifest.read_text(encoding="utf-8")
    assert yaml.safe_load(fixed) == yaml.safe_load(text.replace(old, old.replace("Візьміть ", "Візьміть «так» — ")))
    comments = [line for line in text.splitlines() if line.lstrip().startswith("#")]
    assert comments and comments == [line for line in fixed.splitlines() if line.lstrip().startswith("#")]
    assert fix_typography(folder, ("uk", "en")) == []  # nothing left to mend


def test_fix_never_writes_through_a_link_out_of_the_game(game_copy, tmp_path):
    from forge.check.typography import fix_typography
    folder = game_copy("rules_does_not_exist")
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text((folder / "classes.yaml").read_text(encoding="utf-8").replace(
        'en: "', 'en: "It\'s ', 1), encoding="utf-8")
    before = outside.read_bytes()
    assert b"It's " in before
    (folder / "classes.yaml").unlink()
    (folder / "classes.yaml").symlink_to(outside)
    assert fix_typography(folder, ("uk", "en")) == []
    assert outside.read_bytes() == before
