"""Rules as data (forge/rules/data): «Скидачка», Uno's rules as RLCard plays them, written as
`rules:` under examples/, is checked, simulated and played in scenarios by the `forge` command
with no Python of its own; seeded games replay exactly; a hostile `rules:` is a finding or a
bounded failure, never a hang, a crash or code run."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, forge_in_process

EXAMPLES = ROOT / "examples"
GAME = EXAMPLES / "cards" / "skydachka"
SCENARIOS = sorted((EXAMPLES / "tests" / "scenarios" / "skydachka").glob("*.yaml"))


@pytest.fixture(scope="module")
def prepared():
    from forge.model import load_game
    from forge.rules import get_engine
    game, findings = load_game(GAME)
    assert game is not None and not findings
    return get_engine("rules").prepare(game, {"cap": 100_000})


def play(prep, seed: int, players: int = 4):
    from forge.rules.agents import random_agent
    from forge.rules.core import play_game
    m = prep.new(players, seed)
    play_game(m, [random_agent] * players, m.streams.agents, check="step")
    return m


def test_the_example_checks_clean_and_names_no_engine():
    done = forge_in_process("check", str(GAME))
    assert done.returncode == 0, done.stderr
    assert "0 findings" in done.stderr
    assert not re.search(r"^engine:", (GAME / "game.yaml").read_text(), re.M)


def test_the_deck_is_rlcards_108_cards(prepared):
    from collections import Counter
    cards = prepared.rules.handles
    assert len(cards) == 108
    assert Counter(c.colour for c in cards) == {"red": 25, "yellow": 25, "green": 25, "blue": 25,
                                                "black": 8}
    assert sum(c.points for c in cards) == 4 * (2 * 45 + 6 * 20) + 8 * 50


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_of_the_example_passes(path, monkeypatch):
    from forge.scenario import run_scenario
    monkeypatch.setenv("FORGE_CARDS", str(EXAMPLES / "cards"))
    res = run_scenario(path)
    assert res.passed, res.failures


def test_there_are_at_least_ten_scenarios():
    assert len(SCENARIOS) >= 10


def test_seeded_games_are_clean_and_replay_exactly(prepared):
    from forge.rules.core import replay
    for seed in range(60):
        m = play(prepared, seed)
        assert m.result is not None and not m.result.capped
        again = play(prepared, seed)
        assert (again.result.scores, again.actions) == (m.result.scores, m.actions)
        copy = replay(prepared.new(4, seed + 1000, deal=False), m.actions)   # the log alone
        assert copy.state_digest() == m.state_digest()
        winner, = m.result.winners                 # one player went out and scored the rest
        assert m.result.scores[winner] == sum(prepared.rules.handles[h].points
                                              for s in range(4) for h in m.pz[0][s])


def test_simulate_plays_it_alike_in_one_process_or_two_and_reports_timeouts():
    """Workers load the game from a copy of its files: the rules file goes with them (100
    games: eight chunks of at most 13 between the two workers)."""
    import json

    from forge.rules.simulate import without_timings
    reports = []
    for jobs in ("1", "2"):
        done = forge_in_process("simulate", str(GAME), "--games", "100", "--players", "4",
                                "--seed", "5", "--jobs", jobs, "--format", "json")
        assert done.returncode == 0, done.stderr
        reports.append(without_timings(json.loads(done.stdout)))
    assert reports[0] == reports[1]
    assert reports[0]["violations"] == []
    assert reports[0]["engine"]["timeouts"] == 0 and reports[0]["engine"]["timeout_share"] == 0


# ---------------------------------------------------------------------------------- hostile rules

def hostile(tmp_path: Path, edit) -> Path:
    """A copy of the example whose rules.yaml ``edit`` changes (text -> text)."""
    root = tmp_path / "skydachka"
    shutil.copytree(GAME, root)
    rules = root / "rules.yaml"
    rules.write_text(edit(rules.read_text()))
    return root


@pytest.mark.parametrize("edit, found", [
    (lambda t: t.replace("      times: 100\n", ""), None),          # `while` alone: bounded, fine
    (lambda t: t.replace("  - shuffle: deck\n", "  - if: \"top(hand).points > 3 or top(next.hand).points < 0\"\n"
                         "    then: [reverse]\n  - shuffle: deck\n", 1), None),   # no card's top: 0
    (lambda t: t.replace("      while: \"top(discard).symbol == 'wild_draw_four'\"\n      times: 100\n",
                         ""), r"repeat: give `times:` or `while:`"),
    (lambda t: t.replace("count: 7", "count: 99999999999"), r"larger than 1,000,000,000"),
    (lambda t: t.replace('"count(hand) == 0"]', '"count(hand) == ' + "(" * 60 + "0" + ")" * 60 + '"]'),
     r"nested more than 40 levels"),
    (lambda t: t.replace('when: ["count(hand) == 0"]', 'when: ["__import__(\'os\') == 0"]'),
     r"unknown name '__import__'"),
    (lambda t: t.replace("to: discard\n    do:", "to: graveyard\n    do:"), r"unknown zone 'graveyard'"),
    (lambda t: t.replace("card.colour == 'black' or", "card.hue == 'black' or"), r"no card type has a field 'hue'"),
    (lambda t: t.replace("count: count", "count: 2"), r"never reads its parameter 'count'"),
    (lambda t: t.replace("  wild_colour:\n", "  wild_kolour:\n"), r"'wild_kolour' is not an operation"),
    (lambda t: t.replace('  when: ["count(hand) == 0"]\n', ""), r"the game has no end"),
    (lambda t: t.replace("step: turn}", "step: tern}"), r"no action has step 'tern'"),
    (lambda t: t.replace("  draw_next:\n    - move", "  draw_next:\n    - draw_next: {count: 1}\n    - move"),
     r"calls itself"),
    (lambda t: t.replace("if: \"symbol == 'skip'\"", "if: \"symbol == 3\""), r"compares a word with a number"),
    (lambda t: t.replace("  - turns: {step: turn}", "  - loop: [{do: [reverse]}]\n    until: 'false'\n  - turns: {step: turn}"),
     r"this loop never ends"),
    (lambda t: t.replace("card.colour == 'black' or", "card.id == 'wyld' or"),
     r"'wyld' is never a value here \(it is one of red_0, red_1, .*, \.\.\.\)"),
    (lambda t: t.replace("card.colour == 'black' or", "card.colour == 'purple' or"),
     r"'purple' is never a value here"),
    (lambda t: t.replace('if: "count(hand where fits or', 'if: "false and count(hand where fits or'),
     r"action 'draw' can never be taken"),
    # loops in loops: 28 cards to the eighth power a condition, as written; through definitions
    (lambda t: t.replace('if: "count(hand where fits or', 'if: "count(all.hand where count(all.hand where '
                         'count(all.hand where true) > 0) > 0) >= 0 and count(hand where fits or'),
     r"loops nested more than 2 deep"),
    (lambda t: t.replace("defs:\n", "defs:\n  many: \"most(count(all.hand where card.points > 5))\"\n")
     .replace('if: "count(hand where fits or', 'if: "count(hand where many > 3) >= 0 and count(hand where fits or'),
     r"loops nested more than 2 deep"),
])
def test_hostile_rules_are_findings_at_their_line(tmp_path, edit, found):
    root = hostile(tmp_path, edit)
    done = forge_in_process("check", str(root))
    if found is None:
        assert done.returncode == 0, done.stderr
        done = forge_in_process("simulate", str(root), "--games", "5", "--format", "json")
        assert done.returncode == 0, done.stderr      # and it plays, without a violation
        return
    assert done.returncode == 1, done.stderr
    assert re.search(r"rules\.yaml:\d+:\d+: rules[-a-z]*: .*" + found, done.stderr), done.stderr
    assert "Traceback" not in done.stderr


def test_a_rules_file_outside_the_game_is_refused(tmp_path):
    root = hostile(tmp_path, lambda t: t)
    manifest = root / "game.yaml"
    manifest.write_text(manifest.read_text().replace("rules: rules.yaml", "rules: ../../etc/passwd"))
    done = forge_in_process("check", str(root))
    assert done.returncode == 1
    assert re.search(r"game\.yaml:\d+:\d+: .*rules", done.stderr), done.stderr


def test_a_game_that_never_ends_is_stopped_by_the_cap_and_counted(tmp_path):
    """An end condition that can never hold (but is one): every game hits the work cap, and
    `simulate` reports them as timeouts instead of hanging; as no game ended, it exits 1."""
    root = hostile(tmp_path, lambda t: t.replace('when: ["count(hand) == 0"]', 'when: ["players == 99"]'))
    done = forge_in_process("simulate", str(root), "--games", "3", "--players", "2",
                            "--option", "cap=500", "--format", "json")
    assert done.returncode == 1 and "every game hit the work cap" in done.stderr, done.stderr
    import json
    report = json.loads(done.stdout)
    assert report["engine"]["timeouts"] == 3 and report["engine"]["timeout_share"] == 1.0


def test_nested_repeats_past_the_cap_as_written_are_a_finding(tmp_path):
    inner = "{repeat: {times: 1000, do: [{repeat: {times: 1000, do: [reverse]}}]}}"
    root = hostile(tmp_path, lambda t: t.replace("  - shuffle: deck\n", f"  - shuffle: deck\n  - {inner}\n", 1))
    done = forge_in_process("check", str(root))
    assert done.returncode == 1
    assert re.search(r"rules\.yaml:\d+:\d+: rules-cap: repeats nested here run 1,001,000 rounds",
                     done.stderr), done.stderr


def test_definitions_that_multiply_without_a_loop_are_a_finding(tmp_path):
    """Each definition names the one before ten times: 10^6 evaluations of the first, no loop."""
    chain = "".join(f'  d{i}: "{" + ".join([f"d{i - 1}"] * 10)}"\n' for i in range(1, 7))
    root = hostile(tmp_path, lambda t: t.replace("defs:\n", f'defs:\n  d0: "players"\n{chain}', 1))
    done = forge_in_process("check", str(root))
    assert done.returncode == 1
    assert re.search(r"rules\.yaml:\d+:\d+: rules-expr: this costs [\d,]+ steps", done.stderr), done.stderr


#: The worst work rules can ask for: repeats whose counts are not written (so no finding), each
#: round a scan of the deck in a scan of the deck (108 x 108 cards), with a costly condition.
WORST = ("{repeat: {times: 'players * 1000', do: [{repeat: {times: 'players * 1000', do: ["
         "{if: 'count(deck where count(deck where " + " or ".join(["card.points > 1"] * 30)
         + ") >= 0) < 0', then: [reverse]}]}}]}}")


def test_the_worst_hostile_rules_end_within_the_work_budget(tmp_path):
    """Each round of the repeats is one unit of the cap but some 300,000 of the budget: the game
    stops as a timeout once it has spent its budget, counted before the work is done (so at
    most one scan over), with the cap far from reached."""
    root = hostile(tmp_path, lambda t: t.replace("  - shuffle: deck\n", f"  - shuffle: deck\n  - {WORST}\n", 1))
    from forge.model import load_game
    from forge.rules import get_engine
    game, findings = load_game(root)
    assert game is not None and not findings
    m = get_engine("rules").prepare(game, {"budget": 100_000}).new(2, 0)
    assert m.result is not None and m.result.capped and m.work < 5
    assert 100_000 < m.spent <= 100_000 + 108 * 200      # the scan that went past it: not run
    done = forge_in_process("simulate", str(root), "--games", "2", "--players", "2",
                            "--option", "budget=100000", "--format", "json")
    assert done.returncode == 1 and "every game hit the work cap" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_statements_that_multiply_without_a_loop_are_charged_before_they_run(tmp_path):
    """`each_player` in `each_player`, 12 deep: 4^12 statements with no loop and no scan."""
    nested = "reverse"
    for _ in range(12):
        nested = f"{{each_player: [{nested}]}}"
    root = hostile(tmp_path, lambda t: t.replace("  - shuffle: deck\n", f"  - shuffle: deck\n  - {nested}\n", 1))
    from forge.model import load_game
    from forge.rules import get_engine
    game, findings = load_game(root)
    assert game is not None and not findings
    m = get_engine("rules").prepare(game, {"budget": 100_000}).new(4, 0)
    assert m.result is not None and m.result.capped and m.work == 0 and m.spent > 100_000


def test_a_flow_of_rounds_only_reports_rounds_not_zero_turns():
    from forge.rules.data import statistics
    lines = statistics(None, {"rounds": 30, "turns": 0}, 10)["lines"]
    assert lines["en"][0].startswith("rounds per game: 3.0;") and "turns" not in lines["en"][0]
    assert lines["uk"][0].startswith("раундів за гру: 3,0;")
    both = statistics(None, {"rounds": 30, "turns": 50}, 10)["lines"]["en"][0]
    assert both.startswith("turns per game: 5.0, rounds: 3.0;")


def test_nested_repeats_are_bounded_by_the_cap(tmp_path):
    """1000 x 1000 x 1000 rounds of a `repeat` (counts not written, so no finding) are cut at
    the work cap, not run."""
    inner = ("{repeat: {times: 'players * 500', do: [{repeat: {times: 'players * 500', do: "
             "[{repeat: {times: 'players * 500', do: [reverse]}}]}}]}}")
    root = hostile(tmp_path, lambda t: t.replace("  - shuffle: deck\n", f"  - shuffle: deck\n  - {inner}\n", 1))
    from forge.model import load_game
    from forge.rules import get_engine
    game, findings = load_game(root)
    assert game is not None and not findings
    prep = get_engine("rules").prepare(game, {"cap": 1000})
    m = prep.new(2, 0)
    assert m.result is not None and m.result.capped and m.work == 1001


# ---------------------------------------------------------------------------------- other constructs

MARKET = """\
id: market
title: {uk: Ринок, en: Market}
players: {min: 2, max: 4}
locales: [uk, en]
card_size: {width: 63, height: 88}
sets:
  base: {name: {uk: Основа, en: Base}, cards: {good: 16}}
card_types:
  good:
    name: {uk: Товар, en: Good}
    fields:
      value: {type: int, min: 0, max: 5}
      suit: {type: enum, values: [grain, salt]}
operations:
  tax:
    params: {amount: {type: int, min: 1, max: 3}}
    text: {uk: "Податок {{ amount }}.", en: "Tax {{ amount }}."}
rules:
  zones:
    deck: {visibility: hidden}
    row: {limit: 3, expire: {after: "if(card.value > 3, 1, 2)", to: spoiled}}   # goods spoil
    spoiled: {}
    hand: {per: player, visibility: owner}
    table: {per: player}
  counters:
    coins: {per: player, start: 3, min: 0, max: 9}
    die: {min: 0, max: 6}
  setup:
    - shuffle: deck
    - deal: {from: deck, to: hand, count: 2}
    - move: {from: deck, to: row, count: 9}
  flow:
    - rounds:
        - together: show
        - each_player: [{step: buy}]
        - do:
            - move: {from: deck, to: row, count: 3}
            - roll: {sides: 6, counter: die}
            - each_player: [{gain: {counter: coins, amount: "if(die > 3, 2, 1)"}}]
      count: 4
  actions:
    show: {step: show, from: hand, to: table, do: [resolve]}
    buy: {step: buy, from: row, to: hand, cost: {coins: 2}}
    rest: {step: buy}
  effects:
    tax:
      - lose: {counter: coins, amount: amount, who: next}
      - choose_card:              # the player gives back one of their grain cards on the table
          from: table
          where: "card.suit == 'grain'"
          do: [{move: {card: true, from: table, to: deck}}]
  end:
    # the most salt on the table (a majority, shared when tied) is worth 2 more
    score: "sum(table, value) + count(table where card.suit == 'salt') + coins
            + if(count(table where card.suit == 'salt') == most(count(table where card.suit == 'salt')), 2, 0)"
    tiebreak: ["count(hand)"]
"""

GOODS = "\n".join(
    f"- {{id: g{i}, type: good, set: base, copies: 2, value: {i % 6}, suit: {'salt' if i % 2 else 'grain'}, "
    f"name: {{uk: Т{i}, en: G{i}}}{', effects: [{tax: {amount: 1}}]' if i == 3 else ''}}}"
    for i in range(8)) + "\n"


def test_rounds_simultaneous_choices_a_market_with_a_limit_costs_dice_and_effects(tmp_path):
    """A second game, written inline, plays the constructs «Скидачка» does not use: rounds with
    a count, a simultaneous step, each player in turn, a shared row with a limit refilled from
    the deck, an action's cost, a die, per-player counters with bounds, an effect's parameter,
    choosing a card, a majority, cards that last some rounds."""
    from forge.check import check_game
    from forge.rules import get_engine
    from forge.rules.agents import random_agent
    root = tmp_path / "market"
    root.mkdir()
    (root / "game.yaml").write_text(MARKET)
    (root / "goods.yaml").write_text(GOODS)
    game, findings = check_game(root)
    assert not [f for f in findings if f.code.startswith(("rules", "unimpl"))], findings
    prep = get_engine("rules").prepare(game, {"cap": 10_000})
    asked = set()
    for seed in range(30):
        m = prep.new(3, seed)
        ends: list[list[int]] = []                           # the row at each round's end
        expire = m.expire
        m.expire = lambda: (ends.append(list(m.gz[1])), expire())[1]   # type: ignore[method-assign]
        while m.decision is not None:
            d = m.decision
            asked.add((d.kind, len(d.seats)))
            m.step(tuple(random_agent(m, s, o, m.streams.agents[s]) for s, o in zip(d.seats, d.options)))
            m.check_invariants()
            assert all(0 <= c <= 9 for c in m.pc[0])       # coins within their bounds
            assert len(m.gz[1]) <= 3                         # the row's limit
        assert m.round == 4 and m.result is not None and not m.result.capped
        for i, row in enumerate(ends):                       # a good is in the row at the
            for h in row:                                    # end of at most 1 or 2 rounds running
                run = next(k for k in range(i + 2) if k > i or h not in ends[i - k])
                assert run <= (1 if prep.rules.handles[h].value > 3 else 2)
        assert len(ends) == 4 and m.gz[2]                   # and some did spoil
        salt = [sum(prep.rules.handles[h].suit == "salt" for h in m.pz[1][s]) for s in range(3)]
        assert m.result.scores == [sum(prep.rules.handles[h].value for h in m.pz[1][s]) + salt[s]
                                   + m.pc[0][s] + 2 * (salt[s] == max(salt)) for s in range(3)]
    assert ("show", 3) in asked and ("buy", 1) in asked     # together, then one at a time
    assert ("choose_card", 1) in asked


def test_a_rules_file_that_is_a_link_out_of_the_game_is_refused(tmp_path):
    root = hostile(tmp_path, lambda t: t)
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text((root / "rules.yaml").read_text())
    (root / "rules.yaml").unlink()
    (root / "rules.yaml").symlink_to(outside)
    done = forge_in_process("check", str(root))
    assert done.returncode == 1
    assert "rules.yaml" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_score_that_multiplies_past_any_bound_is_bounded(tmp_path):
    huge = " * ".join(["1000000000"] * 70)          # 10**630
    root = hostile(tmp_path, lambda t: t.replace('score: "if(count(hand) == 0, sum(all.hand, points), 0)"',
                                                 f'score: "{huge}"'))
    done = forge_in_process("simulate", str(root), "--games", "20", "--players", "2", "--format", "json")
    assert done.returncode == 0, done.stderr
    import json
    assert json.loads(done.stdout)["mean_score"] == [1_000_000_000] * 2


def test_rules_with_another_engine_or_the_rules_engine_without_rules_are_findings(tmp_path):
    root = hostile(tmp_path, lambda t: t)
    manifest = root / "game.yaml"
    text = manifest.read_text()
    manifest.write_text(text.replace("rules: rules.yaml", "engine: love_formula\nrules: rules.yaml"))
    done = forge_in_process("check", str(root))
    assert done.returncode == 1
    assert re.search(r"game\.yaml:\d+:1: invalid: rules: a game with `rules:` plays with the rules "
                     r"engine", done.stderr), done.stderr
    manifest.write_text(text.replace("rules: rules.yaml", "engine: rules"))
    (root / "rules.yaml").unlink()
    done = forge_in_process("check", str(root))
    assert done.returncode == 1
    assert re.search(r"game\.yaml:\d+:\d+: rules: the rules engine plays the rules", done.stderr), done.stderr


def test_and_or_of_card_comparisons_mean_what_they_say(prepared):
    """`and`/`or` write comparisons of a card's fields inline (expr._pair): every shape, on
    every card, under several colours and symbols, against Python's own reading."""
    from itertools import product

    from forge.rules.data.expr import Scope, compile_expr
    rules = prepared.rules
    atoms = {"card.colour == colour": lambda card, g: card.colour == g[0],
             "card.symbol == symbol": lambda card, g: card.symbol == g[1],
             "card.symbol == 'wild'": lambda card, g: card.symbol == "wild",
             "card.symbol != 'n3'": lambda card, g: card.symbol != "n3",
             "colour == 'red'": lambda card, g: g[0] == "red"}

    class M:
        gc: list = []
    m = M()
    for (ta, fa), (tb, fb) in product(atoms.items(), repeat=2):
        for word, py in (("or", lambda x, y: x or y), ("and", lambda x, y: x and y)):
            _, f = compile_expr(f"{ta} {word} {tb}", Scope(rules))
            for g in (["red", "n3"], ["blue", "skip"], ["black", "wild"]):
                m.gc = g
                for h, card in enumerate(rules.handles):
                    assert bool(f(m, 0, h)) == bool(py(fa(card, g), fb(card, g))), (ta, word, tb, g, card.id)


def test_sum_distinct_and_runs_of_the_cards_that_match(prepared):
    """`sum`, `distinct` and `run` (sequences) read a zone, or only its cards for which `where`
    holds; `run` counts each value once."""
    from forge.rules.data.expr import ExprError, Scope, compile_expr
    m = prepared.new(2, 0)
    h = prepared.handles_of
    m.pz[0][0] = [h["red_1"][0], h["red_2"][0], h["blue_3"][0], h["blue_3"][1], h["green_5"][0],
                  h["wild"][0]]
    m.pz[0][1] = [h["red_4"][0]]

    def value(text: str, seat: int = 0) -> int:
        return compile_expr(text, Scope(prepared.rules), "number")[1](m, seat, -1)
    assert value("run(hand, points)") == 3                       # 1 2 3, then 5 and 50
    assert value("run(all.hand, points)") == 5                   # red_4 joins them: 1 to 5
    assert value("run(hand where card.colour == 'blue', points)") == 1
    assert value("sum(hand where card.colour == 'blue', points)") == 6
    assert value("distinct(hand where card.colour != 'black', colour)") == 3
    assert value("count(hand where card.colour == 'blue') + count(all.hand)") == 9
    assert value("run(hand where card.colour == 'yellow', points)") == 0
    with pytest.raises(ExprError, match="run\\(\\) reads a number field; 'colour' holds a word"):
        value("run(hand, colour)")


def test_simultaneous_choices_carried_out_in_the_order_of_the_cards_chosen(tmp_path):
    """`together: STEP` with `order: EXPR`: the choices are carried out highest first (equal
    ones in seat order), and the order is what a scenario's `expect: order` reads; with
    `aside: ZONE` the cards chosen wait there, out of the hand, until their turn."""
    from forge.model import load_game
    from forge.rules import get_engine
    from forge.rules.agents import random_agent
    root = tmp_path / "market"
    root.mkdir()
    (root / "game.yaml").write_text(MARKET.replace(
        "        - together: show\n",
        "        - together: show\n          order: \"card.value\"\n          aside: chosen\n").replace(
        "    table: {per: player}\n", "    table: {per: player}\n    chosen: {per: player, visibility: owner}\n"))
    (root / "goods.yaml").write_text(GOODS)
    game, findings = load_game(root)
    assert game is not None and not findings
    prep = get_engine("rules").prepare(game, {"cap": 10_000})
    value = [c.value for c in prep.rules.handles]
    unsorted = 0
    for seed in range(5):
        m = prep.new(3, seed, deal=False)
        shown: dict[int, list] = {}                          # round -> (seat, card) as carried out
        act = m.act

        def noted(a, s, o, source=None, act=act, m=m, shown=shown):
            if a.name == "show":
                shown.setdefault(m.round, []).append((s, o[1]))
                assert o[1] in m.pz[2][s] and o[1] not in m.pz[0][s]   # aside, not in hand
            yield from act(a, s, o, source)
        m.act = noted                                        # type: ignore[method-assign]
        m.begin()
        while m.decision is not None:
            d = m.decision
            m.step(tuple(random_agent(m, s, o, m.streams.agents[s]) for s, o in zip(d.seats, d.options)))
        rounds = [shown.get(r, []) for r in range(1, 5)]
        assert not any(m.pz[2])
        assert m.orders == [[s for s, _ in r] for r in rounds] and len(rounds) == 4
        for r in rounds:
            assert r == sorted(r, key=lambda sh: (-value[sh[1]], sh[0]))
        unsorted += any(r != sorted(r) for r in rounds)
    assert unsorted                                          # not merely seat order


TITHE = """\
id: tithe
title: {uk: Десятина, en: Tithe}
players: {min: 2, max: 4}
locales: [uk, en]
card_size: {width: 63, height: 88}
sets:
  base: {name: {uk: Основа, en: Base}, cards: {good: 6}}
card_types:
  good: {name: {uk: Товар, en: Good}, fields: {}}
operations:
  tithe:
    params: {amount: {type: int, min: 1, max: 3}}
    text: {uk: "Десятина {{ amount }}.", en: "Tithe {{ amount }}."}
rules:
  zones:
    deck: {}
    hand: {per: player}
    table: {per: player}
  counters:
    coins: {per: player, start: 3, min: 0}
  setup:                      # A's table starts with one card of each kind
    - move: {from: deck, to: table, where: "card.id == 'g'"}
    - move: {from: deck, to: table, where: "card.id == 'h'"}
    - deal: {from: deck, to: hand}
  flow: [{turns: [{step: play}], count: 2}]
  actions:
    play: {step: play, from: hand, to: table, do: [resolve]}
  effects:
    tithe:
      - each_player: {others: true, do: [{lose: {counter: coins, amount: amount}}]}
      - choose_player: {others: true}
      - choose_card:            # the player chosen gives back a card of their own choice
          {from: table, who: target, by: target,
           do: [{move: {card: true, from: table, to: deck, who: target}}]}
  end: {score: coins}
"""


def test_each_other_player_and_a_card_chosen_by_another_player(tmp_path):
    """`each_player: {others: true, do}` leaves the acting player out; `choose_card` with
    `by: target` is asked of the player chosen, not of the one resolving."""
    from forge.model import load_game
    from forge.rules import get_engine
    root = tmp_path / "tithe"
    root.mkdir()
    (root / "game.yaml").write_text(TITHE)
    (root / "goods.yaml").write_text("".join(
        f"- {{id: {i}, type: good, set: base, copies: 3, name: {{uk: Т, en: {i}}}, "
        "effects: [{tithe: {amount: 1}}]}\n" for i in "gh"))
    game, findings = load_game(root)
    assert game is not None and not findings
    m = get_engine("rules").prepare(game, {"cap": 1000}).new(3, 0)
    asked = []
    while m.decision is not None:
        d = m.decision
        asked.append((d.kind, d.seats))
        m.step(tuple(o[0] for o in d.options))          # always the first option
    # A plays: B and C pay; A names B, whose table is empty. B plays: A and C pay; B names A,
    # and A (not B) picks which of A's three cards goes back.
    assert m.pc[0] == [2, 2, 1]
    assert asked == [("choose_player", (0,)), ("choose_player", (1,)), ("choose_card", (0,))]
    assert [len(m.pz[1][s]) for s in range(3)] == [2, 1, 0] and len(m.gz[0]) == 2


def test_a_card_chosen_among_every_other_players_zone(tmp_path):
    """`choose_card: {from: others.ZONE}` offers that zone's cards of every other player and
    makes the owner of the card picked the `target`."""
    from forge.model import load_game
    from forge.rules import get_engine
    root = tmp_path / "tithe"
    root.mkdir()
    body = TITHE[TITHE.index("    tithe:\n      - each_player"):TITHE.index("  end:")]
    (root / "game.yaml").write_text(TITHE.replace(body, """\
    tithe:                      # take a card from another player's table
      - choose_card:
          {from: others.table, where: "amount > 0",
           do: [{move: {card: true, from: target.table, to: table}}]}
"""))
    (root / "goods.yaml").write_text("".join(
        f"- {{id: {i}, type: good, set: base, copies: 3, name: {{uk: Т, en: {i}}}, "
        "effects: [{tithe: {amount: 1}}]}\n" for i in "gh"))
    game, findings = load_game(root)
    assert game is not None and not findings
    m = get_engine("rules").prepare(game, {"cap": 1000}).new(3, 0)
    asked = []
    while m.decision is not None:
        d = m.decision
        asked.append((d.kind, d.seats, [m.label(o) for o in d.options[0]]))
        m.step(tuple(o[0] for o in d.options))
    # A plays; no other table holds a card. B plays, and picks among A's cards (C has none).
    assert asked == [("choose_card", (1,), ["pick g", "pick h", "pick h"])]
    assert m.target == 0 and [sorted(m.p.cid[h] for h in m.pz[1][s]) for s in range(3)] == \
        [["h", "h"], ["g", "h"], []]


def test_resolve_in_an_operations_body_resolves_the_card_revealed(tmp_path):
    """`resolve` inside an operation's body (a card that reveals and resolves another) runs
    that card's effects, however deep the chain (bounded by the cards there are)."""
    from forge.model import load_game
    from forge.rules import get_engine
    root = tmp_path / "tithe"
    root.mkdir()
    body = TITHE[TITHE.index("    tithe:\n      - each_player"):TITHE.index("  end:")]
    setup = TITHE[TITHE.index("  setup:"):TITHE.index("  flow:")]
    (root / "game.yaml").write_text(TITHE.replace(body, """\
    tithe:                      # gain, then reveal a g from the deck and resolve it too
      - gain: {counter: coins, amount: amount}
      - if: "top(deck).id == 'g'"
        then: [{top: {zone: deck, do: [{move: {card: true, from: deck, to: table}}, resolve]}}]
""").replace(setup, "  setup: [{deal: {from: deck, to: hand}}]\n"))
    (root / "goods.yaml").write_text("".join(
        f"- {{id: {i}, type: good, set: base, copies: 3, name: {{uk: Т, en: {i}}}, "
        "effects: [{tithe: {amount: 1}}]}\n" for i in "gh"))
    game, findings = load_game(root)
    assert game is not None and not findings
    m = get_engine("rules").prepare(game, {"cap": 1000}).new(3, 0)   # each is dealt an h
    assert m.result is not None                          # no choice to make
    assert m.pc[0] == [3 + 1 + 3, 3 + 1, 3]              # A's h reveals the three g in turn
    assert sorted(m.p.cid[h] for h in m.pz[1][0]) == ["g", "g", "g", "h"] and not m.gz[0]


def test_a_card_that_resolves_itself_without_end_stops_as_a_timeout(tmp_path):
    """`resolve` of the card on top of the pile the card itself lies on would resolve it again
    and again: the match stops at MAX_RESOLVE cards deep, as a timeout, not a RecursionError."""
    from forge.model import load_game
    from forge.rules import get_engine
    from forge.rules.data.base import MAX_RESOLVE
    root = tmp_path / "tithe"
    root.mkdir()
    body = TITHE[TITHE.index("    tithe:\n      - each_player"):TITHE.index("  end:")]
    (root / "game.yaml").write_text(TITHE.replace(body, """\
    tithe:                      # gain, then resolve the top card of the table: this one
      - gain: {counter: coins, amount: amount}
      - top: {zone: table, do: [resolve]}
"""))
    (root / "goods.yaml").write_text("".join(
        f"- {{id: {i}, type: good, set: base, copies: 3, name: {{uk: Т, en: {i}}}, "
        "effects: [{tithe: {amount: 1}}]}\n" for i in "gh"))
    game, findings = load_game(root)
    assert game is not None and not findings
    m = get_engine("rules").prepare(game, {"cap": 1000}).new(3, 0)
    while m.decision is not None:
        m.step(tuple(o[0] for o in m.decision.options))
    assert m.result is not None and m.result.capped
    assert m.pc[0][0] == 3 + MAX_RESOLVE                 # A's card resolved itself 50 times
