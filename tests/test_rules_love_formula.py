"""Love Formula engine: invariants under random legal play, replay, legality, scoring."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from forge.model import load_game
from forge.rules import IllegalAction, love_formula as lf, play_game, replay
from forge.rules.core import Rolled, Violation, actions_from_json
from conftest import modules_imported_alone

AGENTS = lf.AGENTS                    # the generic random agent and Love Formula's greedy one

ROOT = Path(__file__).resolve().parents[1] / "cards" / "love_formula"
SETS = [("base",), ("base", "chance"), ("base", "goals"), ("base", "chance", "goals", "promo")]


@pytest.fixture(scope="module")
def game():
    g, findings = load_game(ROOT)
    assert g is not None and not findings
    return g


_PREP: dict = {}


def prepared(game, sets, **kw):
    key = (sets, tuple(sorted(kw.items())))
    if key not in _PREP:
        _PREP[key] = lf.prepare(game, lf.Config(sets=sets, **kw))
    return _PREP[key]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), sets=st.sampled_from(SETS),
       agent=st.sampled_from(["random", "greedy"]))
def test_random_legal_play_never_breaks_an_invariant(game, seed, players, sets, agent):
    prep = prepared(game, sets)
    m = prep.new(players, seed)
    play_game(m, [AGENTS[agent]] * players, m.streams.agents, check="step")
    assert m.result is not None and len(m.result.scores) == players


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), sets=st.sampled_from(SETS))
def test_replaying_recorded_actions_gives_the_same_state(game, seed, sets):
    prep = prepared(game, sets)
    first = prep.new(4, seed)
    play_game(first, [AGENTS["random"]] * 4, first.streams.agents)
    again = replay(prep.new(4, seed, deal=False), first.actions)
    assert again.decision is None
    assert again.state_digest() == first.state_digest()
    assert again.result == first.result


def test_a_log_read_back_from_json_replays_the_same_game(game):
    """A violation's actions, written as JSON and read back, hold plain tuples; the engine reads
    each as the named option it equals."""
    prep = prepared(game, ("base", "chance", "goals", "promo"))
    first = prep.new(3, 5)
    play_game(first, [AGENTS["greedy"]] * 3, first.streams.agents)
    steps = json.loads(json.dumps(Violation(5, 3, "", first.actions).as_dict()))["actions"]
    again = replay(prep.new(3, 5, deal=False), actions_from_json(steps))
    assert again.state_digest() == first.state_digest() and again.result == first.result


def test_every_module_of_the_engine_imports_on_its_own():
    """With none of forge's modules imported before it, so no module leans on another having
    been imported first."""
    imported = modules_imported_alone("forge.rules.love_formula")
    assert len(imported) > 5
    assert {name: said for name, said in imported.items() if said} == {}


def test_the_log_holds_every_chance_so_another_seed_replays_the_same_game(game):
    """Shuffles, the revealer lot, exact-tie lots and random steals are all chance events the
    base resolves and logs: replaying the log on a match of another seed gives the same game."""
    prep = prepared(game, ("base", "chance", "goals", "promo"))
    first = prep.new(4, 11)
    play_game(first, [AGENTS["random"]] * 4, first.streams.agents)
    kinds = {a.kind for a in first.actions if isinstance(a, Rolled)}
    assert {"shuffle", "revealer", "lots"} <= kinds
    again = replay(prep.new(4, 12345, deal=False), first.actions)
    assert again.state_digest() == first.state_digest() and again.result == first.result


def test_an_action_outside_the_options_is_refused(game):
    m = prepared(game, ("base",)).new(4, 1)
    d = m.decision
    assert d.kind == "pick" and len(d.seats) == 4     # the draft is one simultaneous choice
    bad = tuple(("pick", -1) for _ in d.seats)
    with pytest.raises(IllegalAction):
        m.step(bad)


def test_draft_passes_clockwise_then_counterclockwise(game):
    m = prepared(game, ("base",)).new(4, 3)
    packs = [list(p) for p in m.pack]
    m.step(tuple(opts[0] for opts in m.decision.options))
    # seat 1 now holds what seat 0 had, less the card seat 0 kept
    assert sorted(m.pack[1]) == sorted(packs[0][1:])
    assert all(len(p) == 11 for p in m.pack)


def test_jobs_dealt_one_each_and_kept(game):
    m = prepared(game, ("base",)).new(3, 5)
    play_game(m, [AGENTS["random"]] * 3, m.streams.agents)
    for s in range(3):
        jobs = [h for h in m.hand[s] if m.p.is_job[h]]
        assert len(jobs) == 1 and m.job_owner[jobs[0]] == s
    assert sum(1 for h in m.box if m.p.is_job[h]) == 1


def test_promo_job_replacement_deals_only_promo_jobs(game):
    prep = prepared(game, ("base", "promo"), promo_jobs="replace")
    for seed in range(5):
        m = prep.new(4, seed)
        assert all(m.p.set_of[m.job_aside[s]] == "promo" for s in range(4))


def test_goals_are_x_plus_one(game):
    for players in (2, 3, 4):
        m = prepared(game, ("base", "goals")).new(players, 11)
        assert len(m.goals) == players + 1


def test_planned_goals_mix(game):
    m = prepared(game, ("base", "goals"), goals_variant="planned").new(4, 2)
    kinds = sorted(m.p.goal[g].kind for g in m.goals)
    assert kinds == ["end", "end", "first", "first", "first"]


def test_same_vp_variant_gives_every_goal_one_value(game):
    m = prepared(game, ("base", "goals"), goals_variant="same", goals_same_value=5).new(4, 2)
    assert m.goal_value == [5] * 5


def test_same_vp_variant_lays_no_vp_cards(game):
    m = prepared(game, ("base", "goals"), goals_variant="same").new(4, 2)
    assert m.goal_vp == [] and len(m.vp_deck) == 22
    assert m.goal_value == [m.p.value[m.vp_deck[-1]]] * len(m.goals)   # a random VP card: the top one


def test_vp_cards_face_up_by_variant(game):
    assert prepared(game, ("base", "goals"), goals_variant="open").new(3, 1).goal_open == [True] * 4
    for variant in ("standard", "hidden", "planned"):
        m = prepared(game, ("base", "goals"), goals_variant=variant).new(3, 1)
        assert m.goal_open == [False] * 4
        play_game(m, [AGENTS["random"]] * 3, m.streams.agents)
        # at the end every won VP card is face up, whatever the variant
        assert all(up == bool(c) for up, c in zip(m.goal_open, m.goal_claimed))


def test_hidden_variant_keeps_a_won_card_face_down_until_the_end(game):
    m = prepared(game, ("base", "goals"), goals_variant="hidden").new(2, 5)
    m._claim(0, 1)
    assert m.goal_claimed[0] == [1] and m.goal_open[0] is False
    s = prepared(game, ("base", "goals")).new(2, 5)
    s._claim(0, 1)
    assert s.goal_open[0] is True


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others(game):
    m = prepared(game, ("base", "goals")).new(4, 3)
    m.step(tuple(opts[0] for opts in m.decision.options))
    v = m.view(1)
    assert v.hand == [m.p.cid[h] for h in m.hand[1]]
    assert v.pack == [m.p.cid[h] for h in m.pack[1]]
    assert v.hand_sizes == [len(h) for h in m.hand]
    text = repr(v)
    for s in (0, 2, 3):            # nothing of another seat's pack or picks is in the view
        hidden = {m.p.cid[h] for h in m.pack[s] + m.picked[s]} - {m.p.cid[h] for h in
                                                                   m.pack[1] + m.picked[1]}
        assert not any(f"'{cid}'" in text for cid in hidden)
    assert all(g.vp is None for g in v.goals)     # standard variant: VP cards face down


def test_statistics_from_two_known_games(game):
    """The designer's figures from two hand-made games' counts, checked by hand: a goal in play
    in both games and won in one (by two seats: still one game), one in play and never won
    (listed as such), one never in play (a rate of 0, not a division by zero); reshuffles and
    ended pairs per game."""
    from forge.rules.love_formula.state import GameStats
    from forge.rules.love_formula.statistics import statistics
    from forge.rules.tally import add
    prep = prepared(game, ("base", "goals"))
    one = GameStats(1, 2, {"sorry_not_sorry": 2, "heartbreaker": 0}).counts()
    two = GameStats(0, 1, {"sorry_not_sorry": 0}).counts()
    out = statistics(prep, add(add({}, one), two), 2)
    assert (out["reshuffles_per_game"], out["pairs_ended_per_game"]) == (0.5, 1.5)
    goals = out["goals"]
    assert goals["sorry_not_sorry"] == {"in_play": 2, "won": 1, "won_rate": 0.5}
    assert goals["heartbreaker"] == {"in_play": 1, "won": 0, "won_rate": 0.0}
    assert goals["uno_reverse"] == {"in_play": 0, "won": 0, "won_rate": 0.0}
    assert out["lines"]["en"] == [
        "Per game: the deck reshuffled 0.50 times, 1.50 pairs ended by an obstacle",
        "Goals (games in play / won, share won):", "  #SorryNotSorry: 2 / 1 (50%)",
        "  #Heartbreaker: 1 / 0 (0%)", "Goals in play but never won in 2 games: #Heartbreaker"]
    assert out["lines"]["uk"][0] == ("За гру: колоду перетасовано 0,50 раза, перешкоди "
                                     "розірвали 1,50 пари")
    assert statistics(prep, {}, 0) == {}


def test_a_game_counts_its_reshuffles_ended_pairs_and_goals(game):
    """`stats()` of a played game agrees with its log: a reshuffle and an ended pair per event
    logged (seed 6 has one reshuffle and two ended pairs), and every goal in play with the
    seats that won it."""
    match = prepared(game, ("base", "chance", "goals")).new(4, 6, log=True)
    play_game(match, [AGENTS["random"]] * 4, match.streams.agents)
    stats = match.stats()
    events = [e[0] for e in match.log]
    assert (stats.reshuffles, stats.pairs_ended) == (events.count("reshuffle"), events.count("pair_ended")) == (1, 2)
    assert stats.goals == {match.p.cid[g]: len(match.goal_claimed[i]) for i, g in enumerate(match.goals)}
    assert len(stats.goals) == 5 and sum(stats.goals.values()) == events.count("goal")


def test_greedy_keeps_its_promises_at_every_decision_of_real_games(game):
    """`greedy`'s docstring, checked at every decision of 24 seeded games of 2 to 4 greedy
    players with every set (a random tie-break below 1 point never outweighs a whole point):
    it attaches or moves a preparation onto the pair that misses fewest requirements, before
    anything else; it aims an obstacle at the opponent pair closest to perfect; it scraps a card
    only when nothing else is offered; it drafts a preparation its own pair misses, when one is
    offered, over any card no pair of its own needs."""
    from forge.rules.love_formula.agents import greedy_agent
    from forge.rules.love_formula.tables import PREP
    seen = set()

    def checked(m, s, options, rng):
        got = greedy_agent(m, s, options, rng)
        p = m.p

        def missing(pair):
            have = {p.key[c] for c in m.att[pair] if p.type[c] == PREP}
            return len(p.req[pair] - have)

        onto = [o for o in options if o.verb in ("attach", "move")]
        theirs = [o for o in options if o.verb == "target" and o.card not in m.pairs[s]]
        picks = [o for o in options if o.verb == "pick" and p.type[o.card] == PREP]
        needed = {k for pr in m.pairs[s] for k in p.req[pr]
                  if not any(p.type[c] == PREP and p.key[c] == k for c in m.att[pr])}
        if onto:
            seen.add("onto")
            assert got in onto and missing(got.pair) == min(missing(o.pair) for o in onto)
        elif theirs and len(theirs) == len(options):
            seen.add("target")
            assert missing(got.card) == min(missing(o.card) for o in theirs)
        elif any(p.key[o.card] in needed for o in picks):
            seen.add("pick")
            assert got.verb == "pick" and p.type[got.card] == PREP and p.key[got.card] in needed
        if got.verb == "scrap":
            seen.add("scrap")
            assert all(o.verb == "scrap" for o in options)
        return got

    for seed in range(24):
        sets = SETS[seed % len(SETS)]
        m = prepared(game, sets).new(2 + seed % 3, seed)
        play_game(m, [checked] * m.n, m.streams.agents)
    assert {"onto", "target", "pick"} <= seen, seen


def test_playable_cards_are_those_a_player_can_play(game):
    """The cards a dead-card report counts: every card of the chosen sets but goals and VP cards
    (never played) and the base jobs that promo jobs replace; with the base set alone, every
    base card but those."""
    from forge.rules.love_formula.tables import GOAL, VP
    base = prepared(game, ("base",))
    assert set(base.playable_ids()) == {base.cid[h] for h in range(base.n)
                                       if base.type[h] not in (GOAL, VP)}
    full = prepared(game, ("base", "chance", "goals", "promo"), promo_jobs="replace")
    ids = set(full.playable_ids())
    goals = {full.cid[h] for h in range(full.n) if full.type[h] in (GOAL, VP)}
    base_jobs = {full.cid[h] for h in range(full.n) if full.is_job[h] and full.set_of[h] == "base"}
    promo_jobs = {full.cid[h] for h in range(full.n) if full.is_job[h] and full.set_of[h] == "promo"}
    assert goals and base_jobs and promo_jobs <= ids
    assert not ids & (goals | base_jobs | {full.cid[h] for h in full.boxed})
    added = prepared(game, ("base", "chance", "goals", "promo"))
    assert base_jobs <= set(added.playable_ids())


def test_a_seat_sees_a_goals_vp_when_face_up_shared_or_its_own(game):
    """The view's goals: each goal's id and its winners; its VP value while the card is face up
    (the open variant), when every goal is worth the same (the same variant), or to the seat
    that won it in the hidden variant, and to nobody else."""
    hidden = prepared(game, ("base", "goals"), goals_variant="hidden").new(2, 5)
    hidden._claim(0, 1)
    mine, theirs = hidden.view(1).goals, hidden.view(0).goals
    assert [g.goal for g in mine] == [hidden.p.cid[g] for g in hidden.goals]
    assert mine[0].claimed == [1] and mine[0].vp == hidden.goal_value[0] is not None
    assert theirs[0].claimed == [1] and theirs[0].vp is None
    assert all(g.vp is None for g in mine[1:])
    for variant in ("open", "same"):
        m = prepared(game, ("base", "goals"), goals_variant=variant).new(2, 5)
        assert [g.vp for g in m.view(0).goals] == m.goal_value
