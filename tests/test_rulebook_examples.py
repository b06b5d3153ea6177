"""Worked examples in print: a quoted scenario's result is a sentence a player reads, generated in
each language from the `expect:` keys the scenario `shows:` (forge/rulebook/outcome.py and the
engines' `describe_expect` hooks), never engine keys, card ids or the rest of the engine's state;
a changed scenario changes the sentence."""
from __future__ import annotations

import io
import re
import shutil

import pytest
import yaml
from pypdf import PdfReader

from conftest import CARDS, GAMES, ROOT
from forge.model import load_game
from forge.rules import ENGINES, Engine
from forge.rules.scenario import COMMON_EXPECT, Map, Rec, schema
from forge.rulebook import build_rulebook
from forge.rulebook.context import render_template
from forge.rulebook.outcome import Words, describe
from forge.rulebook.scenarios import outcome_sentences
from forge.scenario import load_scenario, run_scenario

SCENARIOS = ROOT / "tests" / "scenarios"
TEMPLATES = ROOT / "templates"
LANGS = ("uk", "en")
#: The label the examples once printed before a dump of the engine's state.
LABEL = {"uk": "Перевірено рушієм", "en": "Checked by the game engine"}


def normalised(text: str) -> str:
    """Extracted text with hyphenation undone and whitespace (no-break spaces too) collapsed."""
    text = text.replace("\u00ad", "").replace("-\n", "")
    return re.sub(r"\s+", " ", text.replace("\u00a0", " "))


def pages_text(pdf: bytes) -> list[str]:
    return [normalised(page.extract_text()) for page in PdfReader(io.BytesIO(pdf)).pages]


def printed_and_own_text(pdf: bytes) -> tuple[list[str], list[str]]:
    """Each page's text as printed, and the text of the page itself: without what its card
    pictures print (a picture is its card drawn scaled down; the page's own text is set at
    scale 1), as the rulebook with placeholders for pictures reads, less their card names."""
    printed, own = [], []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        mine: list[str] = []

        def unscaled(text, cm, tm, font, size) -> None:
            if (cm[0], cm[3]) == (1, 1):
                mine.append(text)
        printed.append(normalised(page.extract_text(visitor_text=unscaled)))
        own.append(normalised("".join(mine)))
    return printed, own


def expect_keys(engine) -> set[str]:
    """Every key an `expect:` of this engine may hold, nested keys too (zones' `hand`, ...)."""
    keys: set[str] = set()

    def walk(t) -> None:
        if isinstance(t, Rec):
            keys.update(t.fields)
            for v in t.fields.values():
                walk(v)
        elif isinstance(t, Map):
            walk(t.value)
        elif isinstance(t, (list, tuple)):
            for v in t:
                walk(v)

    walk(schema(engine).fields["expect"])
    return keys | set(COMMON_EXPECT)


def leaks(text: str, keys: set[str], ids: set[str], lang: str = "uk") -> list[str]:
    """Engine keys (`hand:`, `hand_size`, `zones`) and card ids with an underscore in `text`.
    English rules use some keys as words ("pairs: 28 cards", "in any order: buy"), so in `en`
    a `key:` counts where a dump would put it: first, after `; ` or `: `, or after a seat letter
    (`zones A hand: ; discard: festival`)."""
    lead = r"(?<![\w-])" if lang != "en" else r"(?:^|(?<=; )|(?<=: )|(?<=\b[A-H] ))"
    found = [f"{k}:" for k in sorted(keys) if re.search(rf"{lead}{re.escape(k)}:", text)]
    found += [k for k in sorted(keys) if "_" in k and k in text]
    found += ["zones"] * bool(re.search(r"\bzones\b", text))
    found += [i for i in sorted(ids)
              if "_" in i and re.search(rf"(?<!\w){re.escape(i)}(?!\w)", text)]
    return found


@pytest.fixture(scope="module")
def games(products):
    return {game_id: products.game(game_id) for game_id in GAMES}


@pytest.fixture(scope="module")
def books(products, games):
    """(game, lang) -> page texts of the rulebook as `forge build` makes it, and of the same
    pages without their card pictures (the text of the page itself)."""
    return {(game_id, lang): printed_and_own_text(products.rulebook(game_id, lang).pdf)
            for game_id in games for lang in LANGS}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAMES)
def test_no_engine_key_on_any_rulebook_page(games, books, game_id, lang):
    game = games[game_id]
    engine = ENGINES.get(game.manifest.engine or "")
    keys = expect_keys(engine) if engine is not None else set(COMMON_EXPECT)
    ids = {c.id for c in game.cards}
    printed, text_only = books[game_id, lang]
    for n, page in enumerate(printed, 1):
        # card faces are another check's business (issue 13, PnP part): ids only from the text
        found = leaks(page, keys, set(), lang)
        assert not found, (game_id, lang, n, found)
    for n, page in enumerate(text_only, 1):
        found = leaks(page, keys, ids, lang)
        assert not found, (game_id, lang, n, found)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", ["love_formula", "rules_does_not_exist"])
def test_every_quoted_example_prints_its_result(books, game_id, lang):
    """Each `{{ scenario(...) }}` of the template prints the sentences of what it `shows:`, with
    no label, and not the engine's other checks (the state it does not show)."""
    template = (TEMPLATES / game_id / f"rulebook.{lang}.md.j2").read_text(encoding="utf-8")
    quoted = re.findall(r"scenario\('(\w+)'\)", template)
    assert quoted
    text = " ".join(books[game_id, lang][0])
    assert LABEL[lang] not in text
    printed = 0
    for stem in quoted:
        path = SCENARIOS / game_id / f"{stem}.yaml"
        sc = load_scenario(path)
        shown = outcome_sentences({**sc.data, "_path": str(path)}, lang)
        printed += len(shown)
        for sentence in shown:
            assert normalised(sentence) in text, (stem, sentence)
        names = {c.id: c.name for c in sc.game.cards}
        everything = describe(sc.data.get("expect") or {}, lang, names, sc.engine, sc.game)
        for sentence in set(everything) - set(shown):
            assert normalised(sentence) not in text, (stem, sentence)
    assert printed


def test_a_known_example_names_the_player_and_the_score(books):
    uk = " ".join(books["love_formula", "uk"][0])
    en = " ".join(books["love_formula", "en"][0])
    # scoring_11vp: A scores 11, B nothing; «гравець А» (Cyrillic), the score with its unit
    assert "Гравець А має 11 ПО, гравець Б — 0 ПО. Перемагає гравець А." in uk
    assert "Player A has 11 VP, player B has 0 VP. Player A wins." in en
    # cupid_shared: plural seats, equal scores grouped
    assert "Гравці А і Б мають по 8 ПО, гравець В — 3 ПО." in uk
    # unattached_limit shows where the cards went: printed names in the language's quotes
    assert "У гравця А неприкріплені карти «День Святого Валентина» і «Дім». У скиді лежить карта «Фестиваль»." in uk
    assert "“Festival” is in the discard pile." in en
    rave = " ".join(books["rules_does_not_exist", "uk"][0])
    assert "Гравець А має 6 душ, гравець Б — 0 душ, гравець В — 2 душі." in rave
    assert "Гравець А має 1 душу, гравець Б — 1 душу" in rave


def test_a_changed_scenario_changes_the_sentence(tmp_path, books):
    """Drop the new event instead of the old one: the scenario still passes in the engine, and
    the rulebook now says which card stays and which goes to the discard pile (before the
    change, the copy's rulebook is the session's)."""
    root = tmp_path / "cards" / "love_formula"
    shutil.copytree(CARDS / "love_formula", root)
    shutil.copytree(TEMPLATES / "love_formula", tmp_path / "templates" / "love_formula")
    shutil.copytree(TEMPLATES / "_common", tmp_path / "templates" / "_common")
    scenarios = tmp_path / "tests" / "scenarios" / "love_formula"
    shutil.copytree(SCENARIOS / "love_formula", scenarios)
    before = " ".join(books["love_formula", "uk"][1])
    old = ("У гравця А неприкріплені карти «День Святого Валентина» і «Дім». "
           "У скиді лежить карта «Фестиваль».")
    new = ("У гравця А неприкріплені карти «Фестиваль» і «Дім». "
           "У скиді лежить карта «День Святого Валентина».")
    assert old in before and new not in before

    path = scenarios / "unattached_limit.yaml"
    text = path.read_text(encoding="utf-8")
    changed = (text.replace("- A: keep valentines_day", "- A: drop valentines_day")
               .replace("A: {unattached: [valentines_day, home]}", "A: {unattached: [festival, home]}")
               .replace("discard: [festival]", "discard: [valentines_day]"))
    assert changed != text
    path.write_text(changed, encoding="utf-8")
    game, _ = load_game(root)
    assert run_scenario(path, game).passed        # the new sentence is true: the engine says so
    built = build_rulebook(game, "uk", pictures=False)
    assert not [f for f in built.findings if f.code == "rulebook-scenario"]
    after = " ".join(pages_text(built.pdf))
    assert new in after and old not in after


@pytest.mark.parametrize("lang", LANGS)
def test_every_scenario_reads_without_keys_or_ids(lang):
    """Every scenario of every game, quoted or not, in both languages: sentences, no keys, word
    for word those tests/cases/scenario_sentences.yaml states (what a rulebook quoting it prints)."""
    files = sorted(SCENARIOS.glob("*/*.yaml"))
    assert files
    said = yaml.safe_load((ROOT / "tests" / "cases" / "scenario_sentences.yaml").read_text(encoding="utf-8"))
    assert len(said) == len(files)
    for path in files:
        sc = load_scenario(path)
        names = {c.id: c.name for c in sc.game.cards}
        sentences = describe(sc.data.get("expect") or {}, lang, names, sc.engine, sc.game)
        assert sentences, path
        assert [s.replace("\u00a0", " ") for s in sentences] == said[f"{path.parent.name}/{path.stem}"][lang]
        text = normalised(" ".join(sentences))
        assert not leaks(text, expect_keys(sc.engine), set(names), lang), (path.name, text)
        assert not re.search(r"\b[A-H]\b" if lang == "uk" else r"[АБВГ]", text), (path.name, text)
        for s in sentences:
            assert s[0].isupper() or s[0] in "«“", (path.name, s)
            assert s.endswith("."), (path.name, s)


def test_an_engine_without_the_hook_prints_common_sentences_only():
    """A game whose engine does not phrase its own keys (Anima's, say) prints the common keys
    and nothing of the rest: no dump of keys a nobody can phrase."""
    engine = Engine("plain", (2, 4), lambda game, options, sets=None: None, {})
    expect = {"zones": {"A": {"hand": ["daisuke_chi"], "hand_size": 2}}, "discard": ["kiss"],
              "banked": {"A": 3}, "scores": {"A": 5, "B": 5}, "winners": ["A", "B"],
              "asked": {"A": ["play"]}, "order": [["B", "A"]]}
    names = {"daisuke_chi": {"uk": "Дайсуке та Чі", "en": "Daisuke & Chi"}}
    uk = describe(expect, "uk", names, engine)
    assert [s.replace("\u00a0", " ") for s in uk] == [
        "Першим ходить гравець Б, за ним — гравець А.", "Гравці А і Б мають по 5 очок.",
        "Гравці А і Б ділять перемогу."]
    en = describe(expect, "en", names, None)
    assert [s.replace("\u00a0", " ") for s in en] == [
        "Player B goes first, then player A.", "Players A and B have 5 points each.",
        "Players A and B share the victory."]
    assert describe(expect, "de", names, engine) == []


def test_plurals_and_cases_in_ukrainian():
    w = Words("uk", {})
    souls = ("душу", "душі", "душ")
    said = w.holdings({"A": 1, "B": 2, "C": 5, "D": 21}, souls).replace("\u00a0", " ")
    assert said == "гравець А має 1 душу, гравець Б — 2 душі, гравець В — 5 душ, гравець Г — 21 душу"
    assert w.holdings({"A": 3, "B": 3}, souls).replace("\u00a0", " ") == "гравці А і Б мають по 3 душі"
    assert w.holdings({"A": 1, "B": 1}, souls).replace("\u00a0", " ") == \
        "гравець А має 1 душу, гравець Б — 1 душу"    # «по» would want «по одній душі»
    assert w.seat("C", "dat").replace("\u00a0", " ") == "гравцеві В"
    assert w.seats(["A", "B"], "gen").replace("\u00a0", " ") == "гравців А і Б"
    assert w.count(5, ("карта", "карти", "карт")) == "5\u00a0карт"


def test_the_check_would_catch_the_old_debug_line():
    """The key check is not vacuous: the line the rulebooks printed before is caught, in both
    languages' rules."""
    keys = expect_keys(ENGINES.get("love_formula"))
    old = "Перевірено рушієм гри: zones A hand: ; zones B hand: ; discard: festival, hug"
    assert set(leaks(old, keys, set(), "uk")) >= {"hand:", "discard:", "zones"}
    old = "Checked by the game engine: zones B pairs daisuke_chi: ; discard: quarrel"
    assert set(leaks(old, keys, {"daisuke_chi"}, "en")) >= {"discard:", "zones", "daisuke_chi"}


def test_a_copy_checked_from_outside_its_project_plays_its_own_cards(tmp_path):
    """A rulebook's examples are played in the game it prints: a renamed card in a copy of Love
    Formula is named in its example sentence, though the working folder's `cards/` holds the
    built-in game of the same id."""
    root = tmp_path / "cards" / "love_formula"
    shutil.copytree(CARDS / "love_formula", root)
    shutil.copytree(TEMPLATES / "love_formula", tmp_path / "templates" / "love_formula")
    shutil.copytree(SCENARIOS / "love_formula", tmp_path / "tests" / "scenarios" / "love_formula")
    cards = root / "base_preparations.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace('uk: "Дім"', 'uk: "Хатинка"'),
                     encoding="utf-8")
    game, _ = load_game(root)
    examples = [block.scenario for block in render_template(game, "rulebook", "uk").blocks.values()
                if block.kind == "scenario"]
    said = " ".join(line for data in examples for line in outcome_sentences(data, "uk", game)).replace("\u00a0", " ")
    assert "«День Святого Валентина» і «Хатинка»" in said
    assert "«Дім»" not in said
