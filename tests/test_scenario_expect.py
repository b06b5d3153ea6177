"""Every kind of `expect:` value a scenario states can fail: each value is changed by one (a count
one more, a flag flipped, a seat or a card swapped for another) in the first scenario stating it,
and the run must fail at that value's line, saying what it got and expected in the words
tests/cases/changed_expectations.yaml states. A check that reads the wrong key, compares loosely,
blames the wrong line or garbles its message would let a broken rule pass its scenarios or
mislead the designer who reads it (issue 26's mutation run). And
every kind of card list a position names refuses more copies of a card than the game has, at
its line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from conftest import GAMES, ROOT
from forge.scenario import load_scenario, run_scenario

SCENARIOS = ROOT / "tests" / "scenarios"
SEATS = "ABCDEFGH"
#: Each variant's failure messages (after its file:line:column), as `forge scenario` prints them.
SAID = yaml.safe_load((ROOT / "tests" / "cases" / "changed_expectations.yaml").read_text(encoding="utf-8"))


def _leaves(node, path=()):
    """(path, scalar node) of every value under a YAML node; seat names and list positions are
    kept in the path, so each position of a list is its own kind only by its key."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            yield from _leaves(v, path + (k.value,))
    elif isinstance(node, yaml.SequenceNode):
        for v in node.value:
            yield from _leaves(v, path + ("[]",))
    else:
        yield path, node


def _kind(path) -> tuple[str, ...]:
    """The kind of a value: its path without seat names (A's hand and B's hand are one kind)."""
    return tuple(p for p in path if p not in SEATS or len(p) != 1)


def _changed(node, kind: tuple[str, ...], text: str, types: dict[str, str], players: int) -> str | None:
    """`node`'s value changed by one: an int plus one, a flag flipped, a seat the next seat, a
    card id another card of the game, of the same type where one is left, that the file does
    not name (so no zone holds it, and the check, not the card's type, fails); a location's
    lead event `none` an event."""
    value = yaml.safe_load(node.value) if node.style is None else node.value
    if isinstance(value, bool):
        return "false" if value else "true"
    if isinstance(value, int):
        return str(value + 1)
    if isinstance(value, str) and len(value) == 1 and value in SEATS:
        return SEATS[(SEATS.index(value) + 1) % players]
    if value == "none" and kind[0] == "leads":            # no lead event left: an event is
        value = next(i for i, t in types.items() if t == "event")
    if isinstance(value, str) and value in types:
        unnamed = [i for i in types if not re.search(rf"\b{re.escape(i)}\b", text)]
        return next((i for i in unnamed if types[i] == types[value]), unnamed[0])
    return None


def _expect_of(root):
    return next((v for k, v in root.value if k.value == "expect"), None)


def _variants(game_id: str):
    """One change per kind of expected value, in the first scenario (by name) that states it."""
    seen: set[tuple[str, ...]] = set()
    for path in sorted((SCENARIOS / game_id).glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        root = yaml.compose(text)
        expect = _expect_of(root)
        if expect is None:
            continue
        types = None
        for where, node in _leaves(expect):
            kind = _kind(where)
            if kind in seen or kind[0] == "not_discarded":   # any other card is out of the pile too
                continue
            if types is None:
                sc = load_scenario(path)
                types = {c.id: c.type for c in sorted(sc.game.cards, key=lambda c: c.id)}
                players = int(sc.data["players"])
            new = _changed(node, kind, text, types, players)
            if new is None:
                continue
            seen.add(kind)
            start, end = node.start_mark.index, node.end_mark.index
            yield pytest.param(path, text[:start] + new + text[end:], node.start_mark.line + 1,
                               id=f"{path.stem}:{'.'.join(kind)}")


@pytest.mark.parametrize("path, changed, line",
                         [v for game_id in GAMES for v in _variants(game_id)])
def test_a_changed_expectation_fails_at_its_line(tmp_path, request, path, changed, line):
    folder = tmp_path / path.parent.name
    folder.mkdir()
    (folder / path.name).write_text(changed, encoding="utf-8")
    res = run_scenario(folder / path.name)
    assert not res.passed, f"{path.name}:{line} changed, and the scenario still passes"
    assert any(re.match(rf"\S*\.yaml:{line}:", f) for f in res.failures), res.failures
    said = [re.sub(r"^\S*\.yaml:\d+:\d+: ", "", f) for f in res.failures]
    assert said == SAID[request.node.callspec.id]


POSITION_SKIP = {"expect", "actions", "title", "story", "rolls", "stop", "game", "players", "options"}


def _lists(node, path=()):
    """(path, node) of every flow-style list of plain words under a position's keys."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if not path and k.value in POSITION_SKIP:
                continue
            yield from _lists(v, path + (k.value,))
    elif isinstance(node, yaml.SequenceNode):
        if node.flow_style and node.value and all(isinstance(v, yaml.ScalarNode) for v in node.value):
            yield path, node
        for v in node.value:
            yield from _lists(v, path + ("[]",))


def _overfull(game_id: str):
    """One list per kind of place a position names cards in, its first card named once more
    than the game has copies of it."""
    seen: set[tuple[str, ...]] = set()
    for path in sorted((SCENARIOS / game_id).glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        copies = None
        for where, node in _lists(yaml.compose(text)):
            kind = _kind(where)
            if kind in seen:
                continue
            if copies is None:
                copies = {c.id: c.copies for c in load_scenario(path).game.cards}
            first = node.value[0].value
            if first not in copies:
                continue
            seen.add(kind)
            start, end = node.start_mark.index, node.end_mark.index
            yield pytest.param(path, text[:start] + "[" + ", ".join([first] * (copies[first] + 1)) + "]"
                               + text[end:], node.start_mark.line + 1, id=f"{path.stem}:{'.'.join(kind)}")


@pytest.mark.parametrize("path, changed, line",
                         [v for game_id in GAMES for v in _overfull(game_id)])
def test_a_card_named_past_its_copies_is_refused_at_its_line(tmp_path, path, changed, line):
    folder = tmp_path / path.parent.name
    folder.mkdir()
    (folder / path.name).write_text(changed, encoding="utf-8")
    res = run_scenario(folder / path.name)
    assert not res.passed
    assert any(re.match(rf"\S*\.yaml:{line}:", f) for f in res.failures), res.failures
