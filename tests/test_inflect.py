"""Names in the case a sentence needs (forge/text/inflect.py), the `card('acc')` and `inflect`
filters with a game's words file, and the `rulebook-case` check (forge/check/cases.py)."""
from __future__ import annotations

import pytest

from conftest import ROOT
from forge.check.cases import case_findings
from forge.rulebook.context import render_template
from forge.rulebook.words import read_words
from forge.text.inflect import CaseError, inflect


@pytest.mark.parametrize("name, case, form", [
    ("Аптечка", "acc", "Аптечку"),                                   # Love Formula
    ("Велика відстань", "acc", "Велику відстань"),
    ("Велика відстань", "gen", "Великої відстані"),
    ("Червона нитка долі", "ins", "Червоною ниткою долі"),          # a genitive after the noun stays
    ("Любовний лист", "acc", "Любовний лист"),                       # a thing: accusative = nominative
    ("Переплетені долі", "gen", "Переплетених доль"),
    ("Акіра та Міцукі", "gen", "Акіри та Міцукі"),                   # each side of «та»
    ("Руки геть!", "gen", "Руки геть!"),                             # a sentence stays
    ("#ІдеальнеПобачення", "gen", "#ІдеальнеПобачення"),             # a hashtag stays
    ("Мисливська стежка", "acc", "Мисливську стежку"),              # Anima
    ("Крижана цитадель Вельмар", "gen", "Крижаної цитаделі Вельмар"),
    ("Незримі", "gen", "Незримих"),
    ("Скажені вовки", "acc", "Скажених вовків"),                     # people and beasts: acc = gen
    ("Попеляста виверна", "acc", "Попелясту виверну"),              # a noun the dictionary lacks
    ("Утримати міст", "gen", "Утримати міст"),
    ("Час летить", "acc", "Час летить"),
    ("Бібліотека Шепотів", "gen", "Бібліотеки Шепотів"),            # not the verb «шепотів»
    ("Великий Олег", "acc", "Великого Олега"),                       # the rave game
    ("Хромова касета", "gen", "Хромової касети"),                    # not the surname «Хромова»
    ("Кабельний змій", "ins", "Кабельним змієм"),
    ("Мʼяка іграшка", "dat", "Мʼякій іграшці"),                     # the apostrophe kept
])
def test_real_names_decline(name, case, form):
    assert inflect(name, case, "uk") == form


def test_given_forms_first_other_languages_and_the_nominative_as_they_are():
    assert inflect("Орсен Тіньолов", "acc", "uk", {"acc": "Орсена Тіньолова"}) == "Орсена Тіньолова"
    assert inflect("First Aid Kit", "acc", "en") == "First Aid Kit"
    assert inflect("Аптечка", "nom", "uk") == "Аптечка"
    with pytest.raises(CaseError):
        inflect("Аптечка", "akk", "uk")


def _render(products, tmp_path, game_id: str, body: str, words: str = ""):
    folder = tmp_path / game_id
    folder.mkdir(parents=True)
    (folder / "rulebook.uk.md.j2").write_text(body, encoding="utf-8")
    if words:
        (folder / "words.uk.yaml").write_text(words, encoding="utf-8")
    return render_template(products.game(game_id), "rulebook", "uk", tmp_path)


def test_filters_take_a_case_and_the_words_file(products, tmp_path):
    out = _render(products, tmp_path, "anima_shadow_of_omega",
                  "Ви обертаєте {{ 'orsen_shadowcatch' | card('acc') }} і граєте "
                  "{{ 'hunters_trail' | card('acc') }} без {{ 'the_unseen' | card_name('gen') }}; "
                  "{{ 'Перешкода' | inflect('gen') }}, {{ 'Ціль' | inflect('gen') }}, "
                  "{{ 'kiss' | card }}, {{ 'sleep_spell' | card('akk') }}.\n",
                  "cards:\n  orsen_shadowcatch: {acc: Орсена Тіньолова}\nterms:\n  Ціль: {gen: Цілі}\n")
    assert out.markdown.startswith("Ви обертаєте «Орсена Тіньолова» і граєте «Мисливську стежку» "
                                   "без Незримих; Перешкоди, Цілі,")
    assert [(f.code, f.line) for f in out.findings] == [("rulebook-card", 1), ("rulebook-case", 1)]


def test_words_file_problems_are_findings_at_their_line(products, tmp_path):
    folder = tmp_path / "love_formula"
    folder.mkdir()
    (folder / "words.uk.yaml").write_text(
        "cards:\n  kiss: {acc: Поцілунок}\n  no_such: {gen: Х}\n  home: {genitive: Дому}\n",
        encoding="utf-8")
    words, findings = read_words(products.game("love_formula"), "uk", tmp_path)
    assert words.cards == {"kiss": {"acc": "Поцілунок"}}
    assert [(f.code, f.line) for f in findings] == [("words-forms", 3), ("words-forms", 4)]


def test_check_flags_a_nominative_after_a_governing_word(products, tmp_path):
    out = _render(products, tmp_path, "love_formula",
                  "Вступ.\n\nАліна розігрує {{ 'first_aid_kit' | card }}, а потім грає карту "
                  "{{ 'long_distance' | card }}.\nЧерез {{ 'exams' | card }} і крім "
                  "{{ 'long_distance' | card }} теж.\n")
    found = [(f.line, f.card, f.message) for f in case_findings(products.game("love_formula"), out, {})
             if f.file == out.template]
    assert found == [
        (3, "first_aid_kit", "«розігрує «Аптечка»»: after «розігрує» the name takes the accusative, "
                             "«Аптечку»"),
        (4, "long_distance", "«крім «Велика відстань»»: after «крім» the name takes the genitive, "
                             "«Великої відстані»")]


@pytest.mark.parametrize("game_id", ["love_formula", "anima_shadow_of_omega", "rules_does_not_exist"])
def test_the_books_have_no_name_in_the_wrong_case(products, game_id):
    game = products.game(game_id)
    forms = read_words(game, "uk", ROOT / "templates")[0].cards
    for kind in ("rulebook", "cheatsheet"):
        out = render_template(game, kind, "uk")
        assert out.quoted or kind == "cheatsheet"
        assert not [str(f) for f in case_findings(game, out, forms)]
