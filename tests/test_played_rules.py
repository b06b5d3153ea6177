"""The printed rules come from the played rules (forge/rulebook/played.py): a rules game's
rulebook prints its setup, turn and end from the same `rules:` the engine plays, in words in each
language, so a change to the rules is a change to the printed text."""
from __future__ import annotations

import shutil

from conftest import ROOT

GAME = ROOT / "examples" / "cards" / "skydachka"


def _game(root):
    from forge.model import load_game
    game, findings = load_game(root)
    assert game is not None and not findings, findings
    return game


def _text(lines) -> list[str]:
    return [line.head or line.text for line in lines]


def test_the_example_reads_as_a_book_editor_writes_it_in_each_language():
    from forge.rulebook.played import played_rules
    game = _game(GAME)
    uk, en = played_rules(game, "uk"), played_rules(game, "en")
    assert _text(uk.setup)[:3] == ["Перетасуйте колоду.", "Роздайте кожному гравцеві по 7 карт з колоди.",
                                   "Перекладіть верхню карту з колоди у скид."]
    turn = _text(uk.turn)
    assert turn[:3] == ["Гравці ходять по черзі за годинниковою стрілкою. У свій хід:",
                        "Виконайте одну з дій (якщо жодна не можлива, крок пропускається):",
                        "Зіграти карту"]
    # a condition in words, with the game's names in the case the sentence needs; `and` binds
    # first, as in the rules
    assert ("Лише якщо карта підходить до скиду; або знак карти — «дика, візьми чотири» і на руці "
            "немає карт, що підходять до скиду.") in turn
    assert "Лише якщо на руці немає карт, що підходять до скиду або знак яких — «дика, візьми чотири»." in turn
    assert [(ln.depth, ln.head) for ln in uk.turn if ln.head] == [(2, "Зіграти карту"), (2, "Узяти карту")]
    assert _text(uk.end)[0] == "Гра закінчується, щойно після вашої дії на руці немає карт."
    assert "Move the top card from the deck into your hand." in _text(en.turn)
    assert _text(en.end)[1] == ("Each player's score: the total points of the cards in all players' hands "
                                "if there are no cards in your hand, otherwise 0.")
    assert [a.label for a in en.steps["turn"]] == ["Play a card", "Draw a card"]
    assert not any("count(" in t or "==" in t for t in _text(uk.setup + uk.turn + uk.end))


def test_the_rulebook_prints_what_the_rules_say_and_follows_a_change(tmp_path):
    from forge.rulebook.context import render_template
    cards = tmp_path / "cards"
    shutil.copytree(GAME, cards / "skydachka")
    shutil.copytree(ROOT / "examples" / "templates" / "skydachka", tmp_path / "templates" / "skydachka")
    out = render_template(_game(cards / "skydachka"), "rulebook", "uk")
    assert not out.findings and "- Роздайте кожному гравцеві по 7 карт з колоди." in out.markdown
    assert "    - **Узяти карту**" in out.markdown      # an action under its step, under the turn
    rules = cards / "skydachka" / "rules.yaml"
    rules.write_text(rules.read_text().replace("count: 7}", "count: 5}"))
    out = render_template(_game(cards / "skydachka"), "rulebook", "uk")
    assert "по 5 карт з колоди" in out.markdown and "по 7 карт" not in out.markdown


def test_every_construct_has_words_and_a_name_not_given_prints_as_its_id(tmp_path):
    """The inline market game of the rules tests, with no words file: rounds with a count, a
    simultaneous step, each player in turn, a die, a cost, the end's score and tiebreak."""
    from test_rules_data import GOODS, MARKET
    from forge.rulebook.played import played_rules
    root = tmp_path / "market"
    root.mkdir()
    (root / "game.yaml").write_text(MARKET)
    (root / "goods.yaml").write_text(GOODS)
    en = played_rules(_game(root), "en")
    # the row holds 3: a move of 9 there fills it (as the engine plays it), never says 9
    # a counter's start is part of the setup
    assert _text(en.setup) == ["Each player starts with 3 “coins”.", "Shuffle deck.",
                               "Deal 2 cards to each player from deck.",
                               "Move the top cards from deck to row until there are 3 in row."]
    turn = _text(en.turn)
    assert turn[:2] == ["The game lasts 4 rounds. In each round:",
                        "All players choose one of these actions at once, in secret, then reveal "
                        "and carry them out in turn:"]
    assert ["Each player in turn:", "Take one of these actions (if none is possible, the step is skipped):",
            "buy", "Choose a card from row.", "Pay 2 “coins”.", "Put it to hand.", "rest"] == turn[6:13]
    assert turn[13:] == ["Move the top cards from deck to row until there are 3 in row.",
                         "Roll a 6-sided die: die is the number rolled.", "Each player in turn:",
                         "Gain as many “coins” as 2 if die is more than 3, otherwise 1.",
                         "At the end of the round, cards that have been in row for as many rounds "
                         "(this one included) as 1 if the card's value is more than 3, otherwise 2 "
                         "move to spoiled."]
    assert _text(en.end)[-1].startswith("The player with the most points wins; on a tie, whoever has "
                                        "more: the number of cards in hand.")
    uk = played_rules(_game(root), "uk")
    assert "Гра триває 4 раунди. У кожному раунді:" in _text(uk.turn)


def test_a_game_without_rules_or_with_broken_rules_prints_none(tmp_path):
    from forge.rulebook.played import played_rules
    assert not played_rules(_game(ROOT / "cards" / "love_formula"), "uk")
    shutil.copytree(GAME, tmp_path / "skydachka")
    rules = tmp_path / "skydachka" / "rules.yaml"
    rules.write_text(rules.read_text().replace("to: discard\n    do:", "to: nowhere\n    do:"))
    from forge.model import load_game
    game, _ = load_game(tmp_path / "skydachka")
    assert not played_rules(game, "uk")


def test_check_reads_the_words_files(tmp_path):
    from forge.check import check_game
    shutil.copytree(GAME, tmp_path / "cards" / "skydachka")
    words = tmp_path / "templates" / "skydachka"
    shutil.copytree(ROOT / "examples" / "templates" / "skydachka", words)
    uk = words / "words.uk.yaml"
    uk.write_text(uk.read_text().replace("zones:\n", "zones:\n  dek: {name: колода}\n")
                  .replace("in: на руці,", "inn: на руці,"))
    (words / "words.en.yaml").write_text("zones: [unclosed\n")
    _, findings = check_game(tmp_path / "cards" / "skydachka")
    got = sorted((f.file.rsplit("/", 1)[-1], f.line, f.code, f.message) for f in findings)
    assert [g[:3] for g in got] == [("words.en.yaml", 2, "syntax"), ("words.uk.yaml", 5, "rules-words"),
                                    ("words.uk.yaml", 8, "rules-words")], got
    assert got[1][3] == "'dek' is not one of the rules' zones (deck, discard, hand)"
    assert got[2][3].startswith("unknown form 'inn' (known: name, it, in, from, to, of)")


def test_the_example_builds_its_rulebook_with_the_turn_printed_from_its_rules(tmp_path):
    from pypdf import PdfReader
    from conftest import forge_in_process
    done = forge_in_process("build", "skydachka", "--lang", "uk", "--what", "rulebook,cheatsheet",
                            "--out", str(tmp_path), cwd=ROOT / "examples")
    assert done.returncode == 0, done.stderr
    text = " ".join(p.extract_text() for p in PdfReader(tmp_path / "skydachka" / "uk" / "rulebook.pdf").pages)
    text = " ".join(text.split()).replace("\u00ad", "")
    assert "Роздайте кожному гравцеві по 7 карт з колоди." in text
    assert "Гра закінчується, щойно після вашої дії на руці немає карт." in text
    assert len(PdfReader(tmp_path / "skydachka" / "uk" / "cheatsheet.pdf").pages) == 1


def test_counts_that_are_expressions_read_as_words_and_whose_zone_is_said_only_for_a_players(tmp_path):
    from test_rules_data import GOODS, MARKET
    from forge.rulebook.played import played_rules
    root = tmp_path / "market"
    root.mkdir()
    more = ("    - move: {from: deck, to: row, count: 9}\n"
            "    - deal: {from: deck, to: hand, count: \"players - 1\"}\n"
            "    - {skip: 2}\n    - {turn: prev}\n    - repeat: {times: players, do: [reverse]}\n"
            "    - move: {from: deck, to: table, who: next}\n")
    (root / "game.yaml").write_text(MARKET.replace("    - move: {from: deck, to: row, count: 9}\n", more))
    (root / "goods.yaml").write_text(GOODS)
    assert _text(played_rules(_game(root), "en").setup)[4:] == [
        "Deal the number of players minus 1 cards to each player from deck.",
        "The next 2 players miss a turn.", "The turn passes to the previous player.",
        "Do this the number of players times:", "The direction of play reverses.",
        "Move the top card from deck to table of the next player."]


def test_simultaneous_order_and_aside_each_opponent_picks_from_others_and_costs_read_the_card(tmp_path):
    """What the vocabulary gained for the drafting and market games and Love Formula reads in
    words too: `together` with `order:`/`aside:`, `each_player: {others: true}`, `move` with
    `where:`, `choose_card` `by:` another from `others.ZONE`, a cost read from the card, and
    `sum`/`run` of the cards for which a condition holds."""
    from test_rules_data import GOODS, MARKET
    from forge.rulebook.played import played_rules
    root = tmp_path / "market"
    root.mkdir()
    rules = (MARKET.replace("        - together: show\n",
                            "        - {together: show, order: card.value, aside: table}\n")
             .replace("cost: {coins: 2}", "cost: {coins: card.value}")
             .replace("    - move: {from: deck, to: row, count: 9}\n",
                      "    - each_player: {others: true, do: [{move: {from: hand, to: table, all: true,"
                      " where: \"card.suit == 'salt'\"}}]}\n"
                      "    - choose_card: {from: others.table, by: next, do: [{move: {card: true, from: "
                      "table, to: deck, who: target}}]}\n")
             .replace('tiebreak: ["count(hand)"]', 'tiebreak: ["sum(table where card.suit == \'salt\', value)",'
                                                   ' "run(table, value)"]'))
    (root / "game.yaml").write_text(rules)
    (root / "goods.yaml").write_text(GOODS)
    en = played_rules(_game(root), "en")
    assert _text(en.setup)[3:] == [
        "Each other player in turn:", "Move all cards from hand whose suit is salt to table.",
        "The next player chooses a card from table of the other players:",
        "Move this card from table of the chosen player to deck."]
    turn = _text(en.turn)
    after = turn.index("Carry out the card's effect.") + 1     # the action's last line
    assert turn[after:after + 2] == ["The cards chosen are laid to table at once; a card no longer there when its "
                         "turn comes is not played.",
                         "The choices are carried out in order of the card's value, highest first; "
                         "equal ones clockwise."]
    assert "Pay as many “coins” as the card's value." in turn
    assert _text(en.end)[-1].startswith("The player with the most points wins; on a tie, whoever has "
                                        "more: the total value of the cards in table whose suit is salt, "
                                        "the longest run of consecutive value among the cards in table.")
