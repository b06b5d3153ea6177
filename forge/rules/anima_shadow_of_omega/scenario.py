"""Scenarios of «Аніма: Тінь омеги» (docs/scenarios.md): the keys this engine adds (`SCENARIO`),
placing a position (`scenario_setup`) and checking its own `expect:` keys (`scenario_expect`).
`scenario_text` says the same keys in words for the rulebook.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from .. import core
from ..core import SEAT_NAMES
from ..scenario import ANY, SEAT, Int, Map, N, Rec, SetupContext, card
from .flow import Match
from .tables import BONUS, CHAR, EVENT, GROUP_LIMIT, HAND_LIMIT, LOC, MISSION, REST_BONUS


_CHAR = card("character")
_LOC = card("location")
_EVENT = card("event")
_BONUS = card("bonus")
_MISSION = card("mission")
_CHARSPEC = Rec({"card": _CHAR, "rotated": bool, "asleep": bool}, required=("card",))
_MSPEC = Rec({"card": _MISSION, "progress": N}, required=("card",))
_LSPEC = Rec({"card": _LOC, "lead": _EVENT, "face_up": bool}, required=("card",))
_SIZES = ("char_deck", "char_discard", "loc_discard", "event_deck", "event_discard", "mission_deck",
          "final_deck", "bonus_deck", "bonus_discard", "active")
SCENARIO = core.ScenarioKeys(
    setup={"locations": [(_LOC, _LSPEC)], "final": _MISSION, "final_deck": [_MISSION], "turn": N,
           "event_deck": [_EVENT], "bonus_deck": [_BONUS], "character_deck": [_CHAR],
           "location_deck": [_LOC], "location_discard": [_LOC], "bonus_discard": [_BONUS],
           "character_discard": [_CHAR], "event_discard": [_EVENT]},
    seat=Rec({"group": [(_CHAR, _CHARSPEC)], "hand": [_BONUS], "missions": [(_MISSION, _MSPEC)],
              "done": [_MISSION], "organisation": card("organisation"), "at": _LOC, "skip": N,
              "rest": bool, "final_progress": N, "held": N, "hired_at": _LOC, "ticket": bool}),
    expect={
        "zones": Map(SEAT, Rec({"group": [ANY], "group_size": N, "hand": [ANY], "hand_size": N, "missions": [ANY],
                                "done": [ANY], "organisation": (frozenset({"none"}), card("organisation")),
                                "at": (frozenset({"none"}), _LOC)})),
        "locations": [ANY], "leads": Map(_LOC, (frozenset({"none"}), _EVENT)),
        "final": (frozenset({"none"}), _MISSION), "progress": Map(_MISSION, N),
        "final_progress": Map(SEAT, N), "held": Map(SEAT, N), "skip": Map(SEAT, N), "lost": [SEAT],
        "asleep": [ANY], "rotated": [ANY], "strength": Map(SEAT, Int()), "speed": Map(SEAT, Int()),
        "battle": Rec({"totals": [Int()], "winner": (SEAT, frozenset({"foe"}))}),
        "check": Rec({"total": N, "passed": bool}),
        "discards": Rec({"bonus": [ANY], "character": [ANY], "event": [ANY], "location": [ANY]}),
        "sizes": Map(frozenset(_SIZES), N), "turns": N, "winner": (SEAT, frozenset({"none"})),
        "explored": Map(_LOC, N), "alarms": N, "face_down": N},
    stops={"turns": "turn", "phases": "phase"})


def scenario_setup(m: Match, d: dict, ctx: SetupContext) -> None:
    """Place a position at the start of a turn: the active locations (with their lead events,
    face down unless `face_up`), each seat's group, hand, missions (with goals already done),
    completed missions, organisation and location; the revealed final mission; the tops of the
    decks (first = top) and the discard piles. Every card not placed goes to its deck, shuffled;
    the game goes on with the next turn. With `deal: true` the engine sets up from the seed."""
    if d.get("deal"):
        return
    p = m.p
    seats_at: list[tuple[int, str, Any]] = []
    for i, spec in enumerate(d.get("locations") or []):
        spec = {"card": spec} if isinstance(spec, str) else spec
        L = ctx.take(spec["card"], ("locations", i, "card"))
        m.active.append(L)
        if "lead" in spec:
            m.lead[L] = ctx.take(spec["lead"], ("locations", i, "lead"))
            if spec.get("face_up"):               # a face-up lead has been faced already
                m.lead_up.add(L)
                m.faced.add(L)
    for name, spec in (d.get("seats") or {}).items():
        s, at = ctx.seat(name), ("seats", name)
        spec = spec or {}
        for i, cs in enumerate(spec.get("group", [])):
            cs = {"card": cs} if isinstance(cs, str) else cs
            c = ctx.take(cs["card"], at + ("group", i))
            m.group[s].append(c)
            m.rot[c] = bool(cs.get("rotated"))
            m.asleep[c] = bool(cs.get("asleep"))
        m.hand[s] += ctx.take_all(at + ("hand",), spec.get("hand", []))
        for i, ms in enumerate(spec.get("missions", [])):
            ms = {"card": ms} if isinstance(ms, str) else ms
            h = ctx.take(ms["card"], at + ("missions", i))
            if p.final[h]:
                raise ctx.error(at + ("missions", i), f"{ms['card']} is a final mission; it is "
                                "revealed with `final:`")
            m.missions[s].append(h)
            m.gi[h] = ms.get("progress", 0)
            if m.gi[h] >= len(p.goals[h]):
                raise ctx.error(at + ("missions", i), "progress must be below the number of goals")
        m.done[s] += ctx.take_all(at + ("done",), spec.get("done", []))
        if "organisation" in spec:
            m.org[s].append(ctx.take(spec["organisation"], at + ("organisation",)))
        if "at" in spec:
            seats_at.append((s, spec["at"], at + ("at",)))
        m.skip[s] = spec.get("skip", 0)
        m.fgi[s] = spec.get("final_progress", 0)
        if spec.get("rest"):
            m.n_str[s] = m.n_spd[s] = REST_BONUS
        if spec.get("ticket"):
            m.ticket[s] = 1 + d.get("turn", 0)
        if "held" in spec:
            m.hold_n[s] = spec["held"]
            m.hold_turn[s] = d.get("turn", 0)
    for s, lid, loc in seats_at:
        Ls = [L for L in m.active if p.cid[L] == lid]
        if not Ls:
            raise ctx.error(loc, f"{lid} is not among the scenario's `locations:`")
        m.loc[s] = Ls[0]
        if m.hold_n[s]:
            m.hold_loc[s] = Ls[0]
    for s in range(m.n):
        name = SEAT_NAMES[s]
        spec = (d.get("seats") or {}).get(name) or {}
        if "hired_at" in spec:
            Ls = [L for L in m.active if p.cid[L] == spec["hired_at"]]
            if not Ls:
                raise ctx.error(("seats", name, "hired_at"), f"{spec['hired_at']} is not active")
            m.hired[s] = (Ls[0], d.get("turn", 0))
    if "final" in d:
        h = ctx.take(d["final"], ("final",))
        if not p.final[h]:
            raise ctx.error(("final",), f"{d['final']} is not a final mission")
        m.final.append(h)
    tops = {key: ctx.take_all((key,), d.get(key) or []) for key in
            ("event_deck", "bonus_deck", "character_deck", "location_deck", "final_deck")}
    for i, h in enumerate(tops["final_deck"]):
        if not p.final[h]:
            raise ctx.error(("final_deck", i), f"{p.cid[h]} is not a final mission")
    m.loc_discard += ctx.take_all(("location_discard",), d.get("location_discard") or [])
    m.bonus_discard += ctx.take_all(("bonus_discard",), d.get("bonus_discard") or [])
    m.char_discard += ctx.take_all(("character_discard",), d.get("character_discard") or [])
    m.event_discard += ctx.take_all(("event_discard",), d.get("event_discard") or [])
    rest = ctx.rest(shuffle=True)
    kind = p.kind
    m.char_deck = [h for h in rest if kind[h] == CHAR] + tops["character_deck"][::-1]
    m.event_deck = [h for h in rest if kind[h] == EVENT] + tops["event_deck"][::-1]
    m.bonus_deck = [h for h in rest if kind[h] == BONUS] + tops["bonus_deck"][::-1]
    m.mission_deck = [h for h in rest if kind[h] == MISSION and not p.final[h]]
    m.final_deck = [h for h in rest if kind[h] == MISSION and p.final[h]] + tops["final_deck"][::-1]
    locs = [h for h in rest if kind[h] == LOC]
    if m.tree:
        m.loc_decks = [[h for h in locs if p.level[h] == lv] + [h for h in tops["location_deck"][::-1]
                                                              if p.level[h] == lv] for lv in (1, 2, 3)]
    else:
        m.loc_decks = [locs + tops["location_deck"][::-1]]
    m.turn = d.get("turn", 0)
    m.dealt = True
    for s in range(m.n):
        name = SEAT_NAMES[s]
        if not 1 <= len(m.group[s]) <= GROUP_LIMIT:
            raise ctx.error(("seats", name), f"seat {name} needs a group of 1-{GROUP_LIMIT} characters")
        if len(m.hand[s]) > HAND_LIMIT:
            raise ctx.error(("seats", name), f"seat {name} holds more than {HAND_LIMIT} bonus cards")
        if m.loc[s] >= 0 and m.loc[s] in m.lead:
            raise ctx.error(("seats", name, "at"), "a group cannot stand where a lead event waits")
    if len(m.active) > m.limit:
        raise ctx.error(("locations",), f"more than {m.limit} active locations")


def scenario_expect(m: Match, e: dict, ctx: SetupContext) -> None:
    """Check this game's `expect:` keys (docs/scenarios.md and docs/rules-decisions.md)."""
    got: object                                    # what the match holds, per key
    p = m.p
    cid = p.cid
    seat = SEAT_NAMES.index
    for name, z in (e.get("zones") or {}).items():
        s = seat(name)
        for key, zone in (("group", m.group[s]), ("hand", m.hand[s]), ("missions", m.missions[s]),
                          ("done", m.done[s])):
            if key in z and ctx.card_ids(zone) != sorted(z[key]):
                ctx.fail(("zones", name, key), f"{name}'s {key}: {ctx.card_ids(zone)}, expected {sorted(z[key])}")
        if "group_size" in z and len(m.group[s]) != z["group_size"]:
            ctx.fail(("zones", name, "group_size"), f"{name}'s group: {len(m.group[s])}, expected {z['group_size']}")
        if "hand_size" in z and len(m.hand[s]) != z["hand_size"]:
            ctx.fail(("zones", name, "hand_size"), f"{name} holds {len(m.hand[s])}, expected {z['hand_size']}")
        if "organisation" in z:
            got = cid[m.org[s][0]] if m.org[s] else "none"
            if got != z["organisation"]:
                ctx.fail(("zones", name, "organisation"), f"{name}'s organisation: {got}, expected {z['organisation']}")
        if "at" in z:
            got = cid[m.loc[s]] if m.loc[s] >= 0 else "none"
            if got != z["at"]:
                ctx.fail(("zones", name, "at"), f"{name}'s group is at {got}, expected {z['at']}")
    if "locations" in e and ctx.card_ids(m.active) != sorted(e["locations"]):
        ctx.fail(("locations",), f"active locations: {ctx.card_ids(m.active)}, expected {sorted(e['locations'])}")
    for lid, ev in (e.get("leads") or {}).items():
        Ls = [L for L in m.active if cid[L] == lid]
        got = cid[m.lead[Ls[0]]] if Ls and Ls[0] in m.lead else "none"
        if got != ev:
            ctx.fail(("leads", lid), f"lead event at {lid}: {got}, expected {ev}")
    if "final" in e:
        got = cid[m.final[0]] if m.final else "none"
        if got != e["final"]:
            ctx.fail(("final",), f"final mission: {got}, expected {e['final']}")
    for mid, v in (e.get("progress") or {}).items():
        got = [m.gi[h] for h in p.handles_of.get(mid, [])]
        if v not in got:
            ctx.fail(("progress", mid), f"{mid}: {got} goal(s) done, expected {v}")
    for key, table in (("final_progress", m.fgi), ("held", m.hold_n), ("skip", m.skip)):
        for name, v in (e.get(key) or {}).items():
            if table[seat(name)] != v:
                ctx.fail((key, name), f"{key} of {name}: {table[seat(name)]}, expected {v}")
    if "lost" in e:
        got = sorted(SEAT_NAMES[s] for s in range(m.n) if m.lost[s])
        if got != sorted(e["lost"]):
            ctx.fail(("lost",), f"turn lost by {got}, expected {sorted(e['lost'])}")
    for key, flags in (("asleep", m.asleep), ("rotated", m.rot)):
        if key in e:
            got = sorted(cid[h] for h in range(p.n) if flags[h])
            if got != sorted(e[key]):
                ctx.fail((key,), f"{key}: {got}, expected {sorted(e[key])}")
    for key, f in (("strength", m.strength), ("speed", m.speed)):
        for name, v in (e.get(key) or {}).items():
            if f(seat(name)) != v:
                ctx.fail((key, name), f"{key} of {name}: {f(seat(name))}, expected {v}")
    if "battle" in e:
        b, want = m.last_battle, e["battle"]
        if b is None:
            ctx.fail(("battle",), "no battle was fought")
        else:
            totals = [b.mine, b.theirs]
            if "totals" in want and totals != want["totals"]:
                ctx.fail(("battle", "totals"), f"battle totals {totals}, expected {want['totals']}")
            if "winner" in want:
                won = b.mine >= b.theirs if b.opponent < 0 else b.mine > b.theirs
                got = SEAT_NAMES[b.seat] if won else (SEAT_NAMES[b.opponent] if b.opponent >= 0 else "foe")
                if got != want["winner"]:
                    ctx.fail(("battle", "winner"), f"the battle was won by {got}, expected {want['winner']}")
    if "check" in e:
        c, want = m.last_check, e["check"]
        if c is None:
            ctx.fail(("check",), "no Speed check was made")
        else:
            passed = c.total >= c.difficulty
            if "total" in want and c.total != want["total"]:
                ctx.fail(("check", "total"), f"Speed check total {c.total}, expected {want['total']}")
            if "passed" in want and passed != want["passed"]:
                ctx.fail(("check", "passed"), f"Speed check passed: {passed}, expected {want['passed']}")
    piles = {"bonus": m.bonus_discard, "character": m.char_discard, "event": m.event_discard,
             "location": m.loc_discard}
    for key, want in (e.get("discards") or {}).items():
        missing = Counter(want) - Counter(cid[h] for h in piles[key])
        if missing:
            ctx.fail(("discards", key), f"not in the {key} discard pile: {sorted(missing.elements())}")
    for zone, v in (e.get("sizes") or {}).items():
        got = len(getattr(m, zone))
        if got != v:
            ctx.fail(("sizes", zone), f"{zone} holds {got} cards, expected {v}")
    if "turns" in e and m.turn != e["turns"]:
        ctx.fail(("turns",), f"turns: {m.turn}, expected {e['turns']}")
    if "winner" in e:
        got = SEAT_NAMES[m.winner] if m.winner >= 0 else "none"
        if got != e["winner"]:
            ctx.fail(("winner",), f"winner: {got}, expected {e['winner']}")
    for lid, v in (e.get("explored") or {}).items():
        got = m.st_explored[p.def_ids.index(lid)]
        if got != v:
            ctx.fail(("explored", lid), f"{lid} explored {got} time(s), expected {v}")
    if "face_down" in e:
        got = sum(1 for L in m.lead if L not in m.lead_up)
        if got != e["face_down"]:
            ctx.fail(("face_down",), f"face-down lead events: {got}, expected {e['face_down']}")
    if "alarms" in e and m.st_alarms != e["alarms"]:
        ctx.fail(("alarms",), f"false alarms: {m.st_alarms}, expected {e['alarms']}")

