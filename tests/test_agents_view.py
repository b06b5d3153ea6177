"""Agents read `match.view(seat)`, the options and the printed card data, never hidden zones.

For Love Formula's `greedy`, the rave game's `sensible` and Anima's `pursuer` agent:

- the agent plays whole games through a stand-in match that has nothing but the view and the
  static card tables (`_ViewOnly`): reading anything else is an AttributeError;
- at many decision points of seeded games, the match is replayed to that point and what the
  deciding seat cannot know is changed (the deck order, the other seats' hands swapped for other
  cards from the deck, Love Formula's face-down VP cards under the goals, the rave game's
  face-down Mercenary cards): the seat's view stays the same, and the agent, with the same rng
  state, takes the same option; a deliberately cheating agent is caught by the same check;
- a seat's view never names a card of another seat's hand (or draft pack) that it cannot see
  elsewhere on the table.
"""
from __future__ import annotations

import random
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest

from forge.model import load_game
from forge.rules import anima_shadow_of_omega as anima, love_formula as lf, rules_does_not_exist as rave
from forge.rules.agents import random_agent
from forge.rules.core import View, play_game, replay

ROOT = Path(__file__).resolve().parents[1] / "cards"


@pytest.fixture(scope="module")
def lf_game():
    g, _ = load_game(ROOT / "love_formula")
    return g


@pytest.fixture(scope="module")
def rave_game():
    g, _ = load_game(ROOT / "rules_does_not_exist")
    return g


class _ViewOnly:
    """A match as an agent may see it: the seat's view and the prepared game's card tables."""

    __slots__ = ("p", "_match")

    def __init__(self, match):
        self.p = match.p
        self._match = match

    def view(self, seat: int) -> View:
        return self._match.view(seat)


def _through_view(agent):
    return lambda m, s, options, rng: agent(_ViewOnly(m), s, options, rng)


# ------------------------------------------------------------------ what a seat cannot know
def _swap_with_deck(zone: list[int], deck: list[int]) -> bool:
    """Swap the cards of ``zone`` for as many cards from the bottom of ``deck``."""
    k = min(len(zone), len(deck))
    if not k:
        return False
    zone[:k], deck[:k] = deck[:k], zone[:k]
    return True


def _perturb_love_formula(m, seat: int, rng: random.Random) -> bool:
    """Change what ``seat`` cannot know; True when something hidden changed."""
    changed = False
    for deck in (m.deck, m.chance_deck, m.goal_deck, m.vp_deck):
        rng.shuffle(deck)
    for o in range(m.n):
        if o != seat:
            for zone in (m.hand[o], m.pack[o], m.picked[o]):
                changed |= _swap_with_deck(zone, m.deck)
    if m.goals_on and m.p.config.goals_variant != "same":
        # face-down VP cards under goals nobody has won yet change places with each other and
        # with the VP deck (a won goal's VP is already banked)
        down = [i for i in range(len(m.goals)) if not m.goal_open[i] and not m.goal_claimed[i]]
        pool = [m.goal_vp[i] for i in down] + m.vp_deck
        rng.shuffle(pool)
        for i in down:
            m.goal_vp[i] = pool.pop()
            m.goal_value[i] = m.p.value[m.goal_vp[i]]
            changed = True
        m.vp_deck[:] = pool
    return changed


def _perturb_rave(m, seat: int, rng: random.Random) -> bool:
    changed = False
    rng.shuffle(m.deck)
    rng.shuffle(m.classes)
    rng.shuffle(m.merc_deck)
    for o in range(m.n):
        if o != seat:
            changed |= _swap_with_deck(m.hand[o], m.deck)
    tossing = m.decision is not None and m.decision.kind == "toss"
    for o in range(m.n):
        if o == seat and tossing:          # the seat is choosing among these very cards
            continue
        for merc in m.mercs[o]:
            changed |= _swap_with_deck(m.under[merc], m.deck)
    return changed


def _perturb_anima(m, seat: int, rng: random.Random) -> bool:
    """Anima: the decks' order, the other seats' hands and the face-down lead events."""
    changed = False
    for deck in (m.bonus_deck, m.char_deck, m.event_deck, m.mission_deck, *m.loc_decks):
        rng.shuffle(deck)
    for o in range(m.n):
        if o != seat:
            changed |= _swap_with_deck(m.hand[o], m.bonus_deck)
    for L in m.lead:
        if L not in m.lead_up and m.event_deck:
            m.lead[L], m.event_deck[0] = m.event_deck[0], m.lead[L]
            changed = True
    return changed


def _visible_anima(m, seat: int) -> set[str]:
    cid = m.p.cid
    hs = m.hand[seat] + m.bonus_discard + m.char_discard + m.event_discard + m.revealed
    for s in range(m.n):
        hs += m.group[s] + m.org[s]
    return {cid[h] for h in hs}


def _visible_love_formula(m, seat: int) -> set[str]:
    """Ids of the cards ``seat`` may see: its hand, pack and picks, the table, the discard."""
    cid = m.p.cid
    hs = m.hand[seat] + m.pack[seat] + m.picked[seat] + m.discard + m.goals
    for s in range(m.n):
        hs += m.unatt[s] + m.pairs[s]
        for pr in m.pairs[s]:
            hs += m.att[pr]
    return {cid[h] for h in hs}


def _visible_rave(m, seat: int) -> set[str]:
    cid = m.p.cid
    hs = m.hand[seat] + m.guest
    for s in range(m.n):
        hs += m.inv[s] + m.line[s] + m.cls[s] + m.mercs[s]
    return {cid[h] for h in hs}


def _hidden_hands(m, seat: int) -> set[str]:
    """Ids of the cards in the other seats' hands (and Love Formula's draft packs and picks)."""
    cid = m.p.cid
    out = set()
    for o in range(m.n):
        if o != seat:
            out |= {cid[h] for h in m.hand[o]}
            for zone in ("pack", "picked"):
                out |= {cid[h] for h in getattr(m, zone, [[]] * m.n)[o]}
    return out


def _strings(x) -> set[str]:
    """Every string in a view: values, list items and dict keys, at any depth (a dataclass's
    fields read as they are: `astuple` would deep-copy each value first, most of the cost)."""
    if is_dataclass(x):
        return _strings(tuple(getattr(x, f.name) for f in fields(x)))
    if isinstance(x, str):
        return {x}
    if isinstance(x, dict):
        return set().union(*(_strings(k) | _strings(v) for k, v in x.items())) if x else set()
    if isinstance(x, (list, tuple)):
        return set().union(*(_strings(v) for v in x)) if x else set()
    return set()


ENGINES = {
    "love_formula": (_perturb_love_formula, _visible_love_formula,
                     lambda prep, n, seed, actions: replay(prep.new(n, seed, deal=False), actions)),
    "rules_does_not_exist": (_perturb_rave, _visible_rave,
                             lambda prep, n, seed, actions: replay(
                                 prep.new(n, seed, deal=False), actions,
                                 start=lambda m: (m.setup(), m.begin()))),
    "anima_shadow_of_omega": (_perturb_anima, _visible_anima,
                              lambda prep, n, seed, actions: replay(prep.new(n, seed, deal=False), actions)),
}


def _check_hidden_information(engine: str, prep, players: int, seed: int, agent,
                              every: int = 4, limit: int = 30) -> dict:
    """Play a seeded match with ``agent`` at every seat; at every ``every``-th seat decision (at
    most ``limit``), replay the match, change what the deciding seat cannot know, and compare.

    Returns {"checked", "changed", "differ": [labels that differ], "leaks": [ids]}."""
    perturb, visible, again = ENGINES[engine]
    m = prep.new(players, seed)
    rngs = m.streams.agents
    out = {"checked": 0, "changed": 0, "differ": [], "leaks": []}
    k = 0
    while m.decision is not None:
        d = m.decision
        choices = []
        for i, (s, options) in enumerate(zip(d.seats, d.options)):
            view = m.view(s)
            leaked = (_hidden_hands(m, s) - visible(m, s)) & _strings(view)
            out["leaks"] += sorted(leaked)
            state = rngs[s].getstate()
            choice = agent(m, s, options, rngs[s])
            choices.append(choice)
            k += 1
            if k % every or out["checked"] >= limit:
                continue
            copy = again(prep, players, seed, m.actions)
            assert copy.decision is not None and copy.decision.options[i] == options
            out["changed"] += perturb(copy, s, random.Random(k))
            assert copy.view(s) == view, f"the view of seat {s} shows what it cannot know"
            rng = random.Random()
            rng.setstate(state)
            other = agent(copy, s, copy.decision.options[i], rng)
            out["checked"] += 1
            if copy.label(other) != m.label(choice):
                out["differ"].append((d.kind, m.label(choice), copy.label(other)))
        m.step(tuple(choices))
    return out


# ------------------------------------------------------------------ the tests
LF_CASES = [(("base",), "standard", 4, 1), (("base",), "standard", 3, 2),
            (("base", "chance", "goals", "promo"), "standard", 2, 3),
            (("base", "chance", "goals", "promo"), "hidden", 4, 4),
            (("base", "goals"), "planned", 3, 5)]


@pytest.mark.parametrize("sets,variant,players,seed", LF_CASES)
def test_greedy_does_not_read_hidden_information(lf_game, sets, variant, players, seed):
    prep = lf.prepare(lf_game, lf.Config(sets=sets, goals_variant=variant))
    r = _check_hidden_information("love_formula", prep, players, seed, lf.AGENTS["greedy"])
    assert r["checked"] >= 20 and r["changed"] >= 15       # the check had something to check
    assert not r["differ"], r["differ"]
    assert not r["leaks"], r["leaks"]


RAVE_CASES = [({}, 4, 1), ({}, 2, 2), ({"first_player": "gentle"}, 3, 3), ({}, 5, 4)]


@pytest.mark.parametrize("options,players,seed", RAVE_CASES)
def test_sensible_does_not_read_hidden_information(rave_game, options, players, seed):
    prep = rave.prepare(rave_game, options)
    r = _check_hidden_information("rules_does_not_exist", prep, players, seed,
                                  rave.AGENTS["sensible"], every=3)
    assert r["checked"] >= 20 and r["changed"] >= 15
    assert not r["differ"], r["differ"]
    assert not r["leaks"], r["leaks"]


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (2, 3)])
def test_pursuer_does_not_read_hidden_information(players, seed):
    g, _ = load_game(ROOT / "anima_shadow_of_omega")
    prep = anima.prepare(g, {})
    r = _check_hidden_information("anima_shadow_of_omega", prep, players, seed, anima.AGENTS["pursuer"],
                                  every=3, limit=40)
    assert r["checked"] >= 20 and r["changed"] >= 15
    assert not r["differ"], r["differ"]
    assert not r["leaks"], r["leaks"]


def _cheat(match, seat, options, rng):
    """Reads the other seats' hands and the deck: what the checks above must catch."""
    secret = sum(h for o in range(match.n) if o != seat for h in match.hand[o])
    secret += sum(match.deck[-3:])
    return options[(secret + int(rng.random() * 7)) % len(options)]


def test_the_check_catches_an_agent_reading_hidden_zones(lf_game, rave_game):
    r = _check_hidden_information("love_formula", lf.prepare(lf_game, {}), 4, 1, _cheat)
    assert r["differ"]
    r = _check_hidden_information("rules_does_not_exist", rave.prepare(rave_game, {}), 4, 1,
                                  _cheat, every=3)
    assert r["differ"]

    def cheat_anima(match, seat, options, rng):
        secret = sum(h for o in range(match.n) if o != seat for h in match.hand[o])
        secret += sum(match.bonus_deck[-3:])
        return options[(secret + int(rng.random() * 7)) % len(options)]
    prep = anima.prepare(load_game(ROOT / "anima_shadow_of_omega")[0], {})
    assert _check_hidden_information("anima_shadow_of_omega", prep, 2, 1, cheat_anima, every=3)["differ"]
    with pytest.raises(AttributeError):
        m = lf.prepare(lf_game, {}).new(4, 1)
        play_game(m, [_through_view(_cheat)] * 4, m.streams.agents)


@pytest.mark.parametrize("sets,players", [(("base",), 4),
                                          (("base", "chance", "goals", "promo"), 2)])
def test_greedy_reads_only_the_view_and_the_card_tables(lf_game, sets, players):
    prep = lf.prepare(lf_game, lf.Config(sets=sets))
    for seed in range(3):
        a, b = prep.new(players, seed), prep.new(players, seed)
        greedy = lf.AGENTS["greedy"]
        agents = [greedy, random_agent] * 2
        play_game(a, agents[:players], a.streams.agents)
        play_game(b, [_through_view(x) if x is greedy else x for x in agents[:players]],
                  b.streams.agents)
        assert a.actions == b.actions and a.result == b.result


@pytest.mark.parametrize("options,players", [({}, 4), ({"first_player": "gentle"}, 5)])
def test_sensible_reads_only_the_view_and_the_card_tables(rave_game, options, players):
    prep = rave.prepare(rave_game, options)
    for seed in range(3):
        a, b = prep.new(players, seed), prep.new(players, seed)
        sensible = rave.AGENTS["sensible"]
        play_game(a, [sensible] * players, a.streams.agents)
        play_game(b, [_through_view(sensible)] * players, b.streams.agents)
        assert a.actions == b.actions and a.result == b.result


def test_rave_view_shows_the_public_facts_the_agent_needs(rave_game):
    prep = rave.prepare(rave_game, {"souls_to_win": 7})
    m = prep.new(3, 2)
    v = m.view(1)
    assert v.souls_to_win == 7
    assert [len(b) for b in v.lineup_boosts] == [len(x) for x in v.lineups]
    merc = next(h for h in range(prep.n) if prep.type[h] == rave.MERC and prep.fx[h]["boost"])
    card = m.hand[0][0]
    m.hand[0].remove(card)
    m.line[0].append(card)
    m.boost[card] = prep.fx[merc]["boost"]
    assert m.view(2).lineup_boosts[0] == [prep.fx[merc]["boost"]]


def test_hidden_vp_cards_stay_hidden_in_the_view(lf_game):
    """Hidden-VP variant: a goal's VP card won face down counts in its owner's view of the
    banked VP, and in nobody else's; the same-VP variant shows the agreed value to all."""
    prep = lf.prepare(lf_game, {"goals_variant": "hidden"}, ("base", "goals"))
    for seed in range(40):
        m = prep.new(3, seed)
        rng = random.Random(seed)
        while m.decision is not None:
            won = [(i, who[0]) for i, who in enumerate(m.goal_claimed) if who]
            if won:
                break
            m.step(tuple(random_agent(m, s, o, rng) for s, o in zip(m.decision.seats, m.decision.options)))
        if not won:
            continue
        i, owner = won[0]
        other = (owner + 1) % 3
        assert not m.goal_open[i]
        assert m.view(owner).banked[owner] == m.banked[owner]
        assert m.view(other).banked[owner] == m.banked[owner] - m.goal_value[i]
        assert m.view(owner).goals[i].vp == m.goal_value[i]
        assert m.view(other).goals[i].vp is None
        break
    else:
        pytest.fail("no goal was won in 40 seeded games")
    same = lf.prepare(lf_game, {"goals_variant": "same", "goals_same_value": 5}, ("base", "goals")).new(3, 1)
    assert all(g.vp == 5 for g in same.view(0).goals)
