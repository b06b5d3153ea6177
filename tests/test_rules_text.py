"""`forge check` finds an operation whose text no longer says what its body does: the numbers of
the text (digits, number words, printed parameters) against the body's counts and amounts
(forge/rules/data/says.py)."""
from __future__ import annotations

import shutil

from conftest import ROOT


def test_a_text_and_a_body_are_compared_by_their_numbers_in_each_language():
    from forge.rules.data.says import mismatches
    body = [{"move": {"from": "deck", "to": "hand", "count": 3}}]
    assert list(mismatches("draw", {}, {"en": "Draw three cards.", "uk": "Візьміть 3 карти."}, body)) == []
    said = list(mismatches("draw", {}, {"en": "Draw 2 cards.", "uk": "Візьміть дві карти."}, body))
    assert said == ["the text of 'draw' (en) says 2, but its body takes 3",
                    "the body of 'draw' takes 3, but its text (en) never says it",
                    "the text of 'draw' (uk) says 2, but its body takes 3",
                    "the body of 'draw' takes 3, but its text (uk) never says it"]
    # a parameter printed as the body takes it agrees; one the body changes first does not
    params = {"count": None}
    assert list(mismatches("d", params, {"en": "Draw {{ count }}."}, [{"move": {"count": "count"}}])) == []
    assert list(mismatches("d", params, {"en": "Draw {{ count }}."}, [{"move": {"count": "count + 1"}}])) \
        == ["the text of 'd' (en) prints {{ count }}, but the body changes it before using it"]
    # a 1 need not be written ("draw a card"); a number in a condition is not an amount
    assert list(mismatches("d", {}, {"en": "Draw a card."}, [{"move": {"count": 1}},
                                                            {"if": "count(hand) > 5", "then": ["end"]}])) == []
    # a number written in a branch for a parameter's value is that parameter; in no branch it is not
    branch = "{% if count == 1 %}Discard 1 card{% else %}Discard {{ count }} cards{% endif %}."
    assert list(mismatches("d", params, {"en": branch}, [{"repeat": {"times": "count"}}])) == []
    assert list(mismatches("d", params, {"en": branch.replace("count == 1", "x == 1")},
                           [{"repeat": {"times": "count"}}])) \
        == ["the text of 'd' (en) says 1, but its body takes no number"]


def test_check_reports_it_at_the_body(tmp_path):
    from forge.check import check_game
    root = tmp_path / "skydachka"
    shutil.copytree(ROOT / "examples" / "cards" / "skydachka", root)
    rules = root / "rules.yaml"
    text = rules.read_text()
    rules.write_text(text.replace("count: count}", 'count: "count + 1"}').replace("skip: [skip]", "skip: [{skip: 2}]")
                     .replace("{counter: colour, to: card.colour}", "{counter: colour, to: card.colour, whom: next}", 1))
    _, findings = check_game(root)
    # every primitive's keys are checked against the table `forge schema --rules` is made from
    assert [f.message for f in findings if f.code == "rules"] == [
        "unknown key 'whom' (known: counter, to, who)"]
    got = sorted((f.line, f.message) for f in findings if f.code == "rules-text")
    lines = text.splitlines()
    assert [line for line, _ in got] == [lines.index("  skip: [skip]") + 1, lines.index("  draw_next:") + 1]
    assert got[0][1].startswith("the body of 'skip' takes 2, but its text (uk) never says it; ")
    assert "the text of 'draw_next' (en) prints {{ count }}, but the body changes it" in got[1][1]
