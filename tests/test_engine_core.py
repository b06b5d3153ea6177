"""The engine core (forge/rules/core.py): the generator driver, decisions, chance (scripted,
seeded, enumerated), the replay log, conservation, results, operations, options, the engine
registry, the error tree; and that the core and the generic runners name no game."""
from __future__ import annotations

import random
import re
from dataclasses import fields
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

from forge.errors import EngineError, ForgeError, IllegalAction, InvariantViolation, UsageError
from forge.rules import ENGINES, register
from forge.rules.core import (Chance, Engine, Match, Operation, Option, Param, Prepared, Rolled,
                              actions_from_json, chance_odds, operation, operations_of, play_game,
                              replay, resolve_options)

ROOT = Path(__file__).resolve().parents[1]


class Coins(Match):
    """A toy: three handles; each seat in turn picks a coin from the pot; a d6 decides a bonus."""

    def __init__(self, players: int = 2, seed: int = 0, log: bool = False):
        super().__init__(players, seed, log)
        self.pot = [0, 1, 2]
        self.mine: list[list[int]] = [[] for _ in range(players)]
        self.bonus = [0] * players

    def flow(self):
        yield from self.shuffle(self.pot)
        s = 0
        while self.pot:
            c = yield from self.ask("take", s, [("take", h) for h in self.pot])
            self.pot.remove(c[1])
            self.mine[s].append(c[1])
            self._log("take", s, c[1])
            s = (s + 1) % self.n
        both = yield from self.ask_all("guess", [0, 1], [[("odd",), ("even",)]] * 2)
        roll = yield from self.die(6)
        for seat, g in enumerate(both):
            if (roll % 2 == 1) == (g == ("odd",)):
                self.bonus[seat] += 1
        yield from self.checkpoint("end")
        self.finish()

    @operation("gain", count=int, who=("you", "all"))
    def op_gain(self, seat, count, who):
        self.bonus[seat] += count

    def zones(self):
        yield "pot", self.pot
        for s in range(self.n):
            yield f"mine[{s}]", self.mine[s]

    def total(self):
        return 3

    def scores(self):
        return [len(m) + b for m, b in zip(self.mine, self.bonus)]

    def tiebreak(self, seat):
        return (-seat,)


def first(match, seat, options, rng):
    return options[0]


# ------------------------------------------------------------------ driver and decisions
def test_the_flow_runs_to_the_end_and_ranks_with_the_tiebreak():
    m = Coins(seed=3)
    m.begin()
    assert m.decision.kind == "take" and m.decision.seats == (0,)
    n = play_game(m, [first, first], m.streams.agents)
    assert m.decision is None and m.result is not None
    assert n == 3 - 1 + 2      # the last coin is forced (auto), the guess is simultaneous
    assert m.result.scores == m.scores()
    best = max((m.scores()[s], -s) for s in range(2))
    assert m.winners() == [s for s in range(2) if (m.scores()[s], -s) == best]
    assert m.reached["end"] == 1


def test_simultaneous_choices_name_every_seat_and_step_checks_options():
    m = Coins(seed=1)
    m.auto = False
    m.begin()
    with pytest.raises(IllegalAction):
        m.step((("take", 99),))
    with pytest.raises(IllegalAction, match="1 choice"):
        m.step((("take", m.pot[0]), ("take", m.pot[0])))
    while m.decision.kind == "take":
        m.step((m.decision.options[0][0],))
    d = m.decision
    assert d.kind == "guess" and d.seats == (0, 1)
    m.step((("odd",), ("even",)))
    assert m.decision.kind == "end" and m.decision.seats == ()   # a checkpoint, auto off
    m.step(())
    assert m.decision is None
    with pytest.raises(IllegalAction, match="over"):
        m.step(())


# ------------------------------------------------------------------ chance
def test_unscripted_chance_consumes_the_stream_like_random():
    m = Coins(seed=5)
    ref = random.Random()
    ref.setstate(m.rng.getstate())
    cards = list(range(40))
    m.shuffle_cards(cards)
    expect = list(range(40))
    ref.shuffle(expect)
    assert cards == expect
    assert m.resolve(Chance("pick", range(7))) == ref.choice(range(7))
    assert m.resolve(Chance("lot", range(4))) == ref.randrange(4)
    assert m.random_float("lots") == ref.random()
    assert [type(a) for a in m.actions] == [Rolled] * 4


def test_scripted_outcomes_win_and_an_impossible_one_is_refused():
    m = Coins(seed=0)
    m.script("d6", [6, 1])
    assert m.resolve(Chance("d6", range(1, 7))) == 6
    assert m.resolve(Chance("d6", range(1, 7))) == 1
    assert m.scripted("d6") == []
    m.script("d6", [7])
    with pytest.raises(IllegalAction, match="not a possible outcome"):
        m.resolve(Chance("d6", range(1, 7)))
    cards = [1, 2, 3]
    m.script("shuffle", [[3, 1, 2]])
    m.shuffle_cards(cards)
    assert cards == [3, 1, 2]
    m.script("shuffle", [[9, 9, 9]])
    with pytest.raises(IllegalAction):
        m.shuffle_cards(cards)


def test_a_flow_may_yield_a_chance_and_the_driver_resolves_it():
    class Yields(Coins):
        def flow(self):
            v = yield Chance("coin", ["heads", "tails"])
            self.got = v
            self.finish()
    m = Yields()
    m.script("coin", ["tails"])
    m.begin()
    assert m.got == "tails" and m.decision is None and Rolled(("coin", "tails")) in m.actions


def test_exact_odds_by_enumeration():
    d6 = Chance("d6", range(1, 7))
    assert d6.odds() == {k: Fraction(1, 6) for k in range(1, 7)}
    two = chance_odds([d6, d6], lambda a, b: a + b)
    assert two[7] == Fraction(6, 36) and two[2] == Fraction(1, 36) and sum(two.values()) == 1
    weighted = Chance("w", ["a", "b"], [1, 3])
    assert weighted.odds() == {"a": Fraction(1, 4), "b": Fraction(3, 4)}
    with pytest.raises(EngineError):
        Chance("bad", [1, 2], [1])


def test_the_cheat_sheet_tables_come_from_the_core():
    from forge.rulebook import odds
    assert odds.D6.kind == "d6" and isinstance(odds.D6, Chance)
    assert [str(odds.d6_odds(n)) for n in (1, 5, 6, 7)] == ["6/6", "2/6", "1/6", "0/6"]
    assert str(odds.d6_battle(0).tie) == "6/36" and str(odds.d6_battle(1).win) == "21/36"


def test_replay_reproduces_a_game_from_its_log_even_with_another_seed():
    m = Coins(seed=2)
    m.begin()
    play_game(m, [first, first], m.streams.agents)
    again = replay(Coins(seed=999), m.actions)
    assert again.state_digest() == m.state_digest() and again.result == m.result
    as_json = [({"chance": a.kind, "value": list(a.value) if isinstance(a.value, tuple) else a.value}
                if isinstance(a, Rolled) else [list(c) for c in a]) for a in m.actions]
    assert actions_from_json(as_json) == m.actions


# ------------------------------------------------------------------ invariants
def test_conservation_catches_a_lost_or_doubled_handle():
    m = Coins()
    m.check_invariants()
    m.mine[0].append(m.pot[0])
    with pytest.raises(InvariantViolation, match="not conserved"):
        m.check_invariants()
    m = Coins()
    m.pot.pop()
    with pytest.raises(InvariantViolation, match="not conserved"):
        m.check_invariants()


def test_the_games_own_invariants_run_after_conservation():
    class Strict(Coins):
        def invariants(self):
            if len(self.mine[0]) > 1:
                raise InvariantViolation("seat 0 is greedy")
    m = Strict()
    m.mine[0] += [m.pot.pop(), m.pot.pop()]
    with pytest.raises(InvariantViolation, match="greedy"):
        m.check_invariants()


# ------------------------------------------------------------------ declarations
def test_operations_are_registered_with_their_parameter_schema():
    ops = operations_of(Coins)
    assert Coins.OPERATIONS == ops and set(ops) == {"gain"}
    gain = ops["gain"]
    assert gain.param_names() == ("count", "who")
    assert gain.params["count"] == Param(int)
    assert gain.params["who"].choices == ("you", "all") and gain.params["who"].type is str
    assert gain.params["count"].accepts(2) and not gain.params["count"].accepts(True)
    m = Coins()
    gain.func(m, 0, count=2, who="you")
    assert m.bonus[0] == 2


def test_options_parse_text_and_refuse_what_they_do_not_take():
    opts = (Option("rounds", int, 3), Option("mode", str, "a", ("a", "b")), Option("fast", bool, False))
    assert resolve_options(opts, {}) == {"rounds": 3, "mode": "a", "fast": False}
    assert resolve_options(opts, {"rounds": "5", "fast": "yes"}) == {"rounds": 5, "mode": "a",
                                                                      "fast": True}
    for bad in ({"rounds": "x"}, {"mode": "c"}, {"fast": "maybe"}, {"nope": 1}):
        with pytest.raises(EngineError):
            resolve_options(opts, bad)


def test_one_error_tree():
    for cls in (IllegalAction, InvariantViolation, EngineError):
        assert issubclass(cls, ForgeError) and not issubclass(cls, UsageError)


def test_the_registry_holds_engines_and_an_engine_checks_its_own_fields():
    assert "love_formula" in ENGINES and ENGINES["love_formula"].name == "love_formula"
    prepare = lambda game, options, sets=None: None  # noqa: E731
    bad = {"name": ("my engine", "name must be an identifier"),
           "players": ((3, 1), "players must be (min, max)"),
           "operations": ({"take": Operation("other", {}, Coins.OPERATIONS["gain"].func)},
                          "operations must map names"),
           "options": ([Option("x")], "options must be a tuple of Option"),
           "option_aliases": ({"old": "nope"}, "option_aliases must map names to declared"),
           "requires": ({"pair": ()}, "requires must be a Requires"),
           "agents": ({"a": 1}, "agents must map names to agent functions"),
           "default_agents": (("nobody",), "default_agents must be a tuple of known agents"),
           "score_unit": ({"en": "VP"}, "score_unit must map languages"),
           "rules": ({"rounds": "ten"}, "rules must map identifiers to whole numbers"),
           "prepare": (lambda game: None, "prepare must be a function taking (game, options, sets)"),
           "statistics": (lambda prepared, records: {}, "statistics must be a function taking "
                                                         "(prepared, totals, games)"),
           "redeal": (lambda match, seat: None, "redeal must be a function taking "
                                                 "(match, seat, rng)"),
           "check_data": (None, None)}
    for field, (value, message) in bad.items():
        kwargs = {"name": "toy", "players": (2, 2), "prepare": prepare,
                  "operations": operations_of(Coins), field: value}
        if message is None:
            Engine(**kwargs)
            continue
        with pytest.raises(EngineError, match=rf"the rules engine '.*' breaks the engine contract: .*"
                                              rf"{re.escape(message)}"):
            Engine(**kwargs)
    with pytest.raises(EngineError, match="not a forge.rules.Engine"):
        register(SimpleNamespace(name="toy", players=(2, 2), operations={}, prepare=prepare))
    with pytest.raises(EngineError, match="default_agents must be a tuple of known agents"):
        Engine("toy", (2, 2), prepare, operations_of(Coins), default_agents=("search",))
    Engine("toy", (2, 2), prepare, operations_of(Coins), default_agents=("search",),
           redeal=lambda match, seat, rng: None)      # search plays an engine that can redeal
    good = Engine("toy", (2, 2), prepare, operations_of(Coins), agents={"first": first},
                  default_agents=("first", "random"))
    register(good)
    try:
        assert ENGINES.get("toy") is good
    finally:
        ENGINES.unregister("toy")
    assert ENGINES.get("toy") is None


def test_no_engine_field_is_looked_up_by_name():
    """What an engine declares is a typed field of its Engine: nothing in forge asks an object
    for one by name, as ten places once did with an engine module's attributes."""
    names = {f.name for f in fields(Engine)} | {"stats"}
    names |= {n.upper() for n in names}                     # the module attributes of old
    found = [f"{path.relative_to(ROOT)}: {m.group(0)}"
             for path in sorted((ROOT / "forge").rglob("*.py"))
             for m in re.finditer(r"\b(?:getattr|hasattr)\([^,()]+,\s*[\"'](\w+)[\"']",
                                  path.read_text(encoding="utf-8"))
             if m.group(1) in names]
    assert not found, found


def test_prepared_defaults():
    game = SimpleNamespace(cards=[SimpleNamespace(id="x", set="base"), SimpleNamespace(id="y", set="promo")])
    p = Prepared(game, {"a": 1}, ("base",))
    assert p.def_ids == ["x"] and p.playable_ids() == ["x"] and p.cards_in_play() == {"x"}


# ------------------------------------------------------------------ no game in the generic code
GENERIC = ["forge/rules/core.py", "forge/rules/scenario.py", "forge/rules/simulate.py",
           "forge/rules/report.py", "forge/rules/agents.py", "forge/cli/simulate.py",
           "forge/cli/scenario.py", "forge/check/engine.py"]


def _game_words() -> list[str]:
    """Every game id, and every card type and operation name of the built-in games that is not
    also a plain word of the engine contract."""
    import yaml
    generic = {"action", "chance", "draw", "discard", "class", "event"}   # the core's own words
    words = set()
    for manifest in (ROOT / "cards").glob("*/game.yaml"):
        data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
        words.add(data["id"])
        words |= set(data.get("card_types") or {})
        words |= set(data.get("operations") or {})
    words |= {"Love Formula", "Формула", "greedy", "rave"}
    return sorted(w for w in words - generic if len(w) > 2)


@pytest.mark.parametrize("path", GENERIC)
def test_the_core_and_the_generic_runners_name_no_game(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    named = [w for w in _game_words() if re.search(rf"(?<![A-Za-z_]){re.escape(w)}(?![A-Za-z_])",
                                                   text, re.I)]
    assert named == [], f"{path} names {named}"
