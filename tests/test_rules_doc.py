"""docs/rules.md shows every construct of `rules:` in one game, «Every», which this test reads
from the page, checks and plays: the page cannot drift from the engine, and a construct the
compiler learns fails here until the page shows it."""
from __future__ import annotations

import re
from collections import defaultdict

import pytest

from conftest import ROOT

DOC = ROOT / "docs" / "rules.md"
#: a mapping under these keys of `rules:` holds constructs by name
NAMED = {"zones": "zone", "counters": "counter", "actions": "action"}


def files() -> dict[str, str]:
    """The page's yaml blocks whose first line names a file (`# game.yaml`): name -> text."""
    out = {}
    for body in re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        first, _, rest = body.partition("\n")
        named = re.fullmatch(r"# ([\w.]+\.yaml)", first)
        if named:
            out[named[1]] = rest
    return out


@pytest.fixture(scope="module")
def every(tmp_path_factory):
    root = tmp_path_factory.mktemp("doc") / "every"
    root.mkdir()
    written = files()
    assert set(written) == {"game.yaml", "goods.yaml"}
    for name, text in written.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def used(rules: dict) -> tuple[dict, set, set]:
    """What a `rules:` mapping writes: each construct's keys (a primitive's by its name), each
    key's values, and the words written bare in a list (`reverse`)."""
    keys: dict[str, set] = defaultdict(set)
    values: dict[str, set] = defaultdict(set)
    bare: set[str] = set()

    def walk(node, shape: str) -> None:
        if isinstance(node, dict):
            keys[shape] |= set(node)
            for k, v in node.items():
                if shape == "rules" and k in NAMED:
                    for child in v.values():
                        walk(child, NAMED[k])
                    continue
                if isinstance(v, (str, int, bool)):
                    values[k].add(v)
                walk(v, k)
        elif isinstance(node, list):
            for x in node:
                if isinstance(x, str):
                    bare.add(x)
                walk(x, shape)
    walk(rules, "rules")
    return keys, values, bare


def test_the_example_shows_every_construct_the_compiler_knows(every):
    import yaml

    from forge.rules.data.expr import FUNCTIONS
    from forge.rules.data.shapes import BARE, FLOW_BLOCK, SHAPES
    text = (every / "game.yaml").read_text(encoding="utf-8")
    keys, values, bare = used(yaml.safe_load(text)["rules"])
    every_key = set().union(*keys.values())
    for construct, shape in SHAPES.items():
        if construct == "if":                    # `if:` stands beside its `then:` and `else:`
            assert set(shape) <= every_key
            continue
        assert set(shape) <= keys[construct], (construct, set(shape) - keys[construct])
        for key, holds in shape.items():         # each of the words a key may hold
            if isinstance(holds, tuple) and holds[0] == "one":
                assert set(holds[1:]) <= values[key], (construct, key)
    assert set(FLOW_BLOCK) <= every_key, set(FLOW_BLOCK) - every_key
    assert set(BARE) <= every_key | bare, set(BARE) - every_key - bare
    for fn in FUNCTIONS:
        assert re.search(rf"\b{fn}\(", text), fn
    for prefix in ("next.", "all.", "others.", "target."):
        assert prefix in text, prefix
    for name in ("players", "round", "turn", "true"):
        assert re.search(rf"\b{name}\b", text), name


def test_the_example_checks_clean_and_plays_clean_and_alike_twice(every):
    from forge.check import check_game
    from forge.rules import get_engine
    from forge.rules.agents import random_agent
    from forge.rules.core import play_game
    game, findings = check_game(every)
    assert game is not None and not findings, findings
    prep = get_engine("rules").prepare(game, {"cap": 10_000})
    for players in (2, 3, 4):
        for seed in range(8):
            runs = []
            for _ in range(2):
                m = prep.new(players, seed)
                play_game(m, [random_agent] * players, m.streams.agents, check="step")
                assert m.result is not None and not m.result.capped
                runs.append((m.result.scores, m.round, m.turn, m.work))
            assert runs[0] == runs[1]


def test_the_example_prints_as_a_rulebook_in_each_language(every):
    """Each construct has its words (forge/rulebook/phrases): the printed setup, turn and end."""
    from forge.model import load_game
    from forge.rulebook.played import played_rules
    game, _ = load_game(every)
    for lang, roll in (("en", "Roll a 6-sided die"), ("uk", "Киньте кубик із 6 гранями")):
        played = played_rules(game, lang)
        assert played and played.setup and played.turn and played.end
        assert any(roll in line.text for line in played.turn), lang


def test_the_pages_scenario_passes(tmp_path, monkeypatch):
    """The scenario the page shows is one «Скидачка» passes, keys and expectations alike."""
    from forge.scenario import run_scenario
    shown = [body for body in re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
             if body.startswith("game: ")]
    assert len(shown) == 1
    path = tmp_path / "shown.yaml"
    path.write_text(shown[0], encoding="utf-8")
    monkeypatch.setenv("FORGE_CARDS", str(ROOT / "examples" / "cards"))
    res = run_scenario(path)
    assert res.passed, res.failures


def test_the_example_fits_the_rules_schema(every):
    """Every construct the page shows is one `forge schema --rules` offers an editor."""
    import json

    import yaml

    from conftest import forge_in_process
    from test_schema import _errors
    rules = yaml.safe_load((every / "game.yaml").read_text(encoding="utf-8"))["rules"]
    for args in (("schema", "--rules"), ("schema", "--rules", str(every))):
        done = forge_in_process(*args)
        assert done.returncode == 0, done.stderr
        schema = json.loads(done.stdout)
        assert _errors(schema, rules, schema) == []
