"""Love Formula's scenario keys: how a scenario sets up a position of this game and what it may
expect of it, beyond the common keys of forge/rules/scenario.py (docs/scenarios.md)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from .core import SEAT_NAMES, ScenarioKeys
from .scenario import ANY, SEAT, Int, Map, N, Rec, card

PLAYABLE = card("preparation", "pair", "obstacle", "reaction", "connection", "action")
ROUNDS = 10
OBSTACLE = Rec({"card": card("obstacle"), "by": SEAT, "tokens": N}, required=("card",))
PAIR = Rec({"pair": card("pair"), "attached": [card("preparation", "connection")],
            "obstacles": [(card("obstacle"), OBSTACLE)]}, required=("pair",))
SEAT_SPEC = Rec({"hand": [PLAYABLE], "job": card("job"), "unattached": [card("preparation")],
                 "pairs": [(card("pair"), PAIR)], "vp": N})
SIZE_ZONES = ("deck", "discard", "box", "chance_deck", "chance_discard", "goal_deck", "vp_deck",
              "goals", "goal_vp")

SCENARIO = ScenarioKeys(
    setup={
        "start": Rec({"phase": Int(1, 2), "round": Int(1, ROUNDS), "draft": bool, "score": bool}),
        "deck": [PLAYABLE], "discard": [PLAYABLE], "revealer": SEAT,
        "goals": [Rec({"goal": card("goal"), "vp": card("vp")}, required=("goal",))],
        "chance_deck": [card("chance")], "chance_discard": [card("chance")]},
    seat=SEAT_SPEC,
    expect={
        "banked": Map(SEAT, N),
        "zones": Map(SEAT, Rec({"pairs": Map(card("pair"), ([ANY], None)), "unattached": [ANY],
                                "hand": [ANY], "hand_size": N, "job": (card("job"), None)})),
        "discard": [ANY], "not_discarded": [ANY], "goals": Map(card("goal"), ([SEAT], None)),
        "tokens": Map(ANY, N), "box": [ANY],
        "sizes": Map(frozenset(SIZE_ZONES), N),
        "goal_table": Rec({"first": N, "end": N, "vp_cards": N, "face_up": N, "values": [N]}),
        "vp_face_up": Map(card("goal"), bool)},
    stops={"rounds": "round_end", "drafts": "draft_end"})


def scenario_setup(m: Any, d: dict, ctx: Any) -> None:
    """Place the scenario's position (or deal from the seed) and start the flow."""
    from .love_formula import CHANCE, GOAL, VP
    P, n = m.p, m.n
    if d.get("deal"):
        # the engine's own setup from the seed (jobs, goals and VP cards, decks, chance
        # revealer) runs when the runner begins `flow()`; the first draft is about to begin
        return
    for h in P.boxed:
        ctx.remove(h)
        m.box.append(h)
    take, take_all = ctx.take, ctx.take_all
    for name, spec in (d.get("seats") or {}).items():
        s, at = ctx.seat(name), ("seats", name)
        spec = spec or {}
        m.hand[s].extend(take_all(at + ("hand",), spec.get("hand", [])))
        if "job" in spec:
            h = take(spec["job"], at + ("job",))
            m.job_owner[h] = s
            m.hand[s].append(h)
        m.unatt[s].extend(take_all(at + ("unattached",), spec.get("unattached", [])))
        for i, pspec in enumerate(spec.get("pairs", [])):
            pat = at + ("pairs", i)
            pspec = {"pair": pspec} if isinstance(pspec, str) else pspec
            pr = take(pspec["pair"], pat + ("pair",))
            m.pairs[s].append(pr)
            m.att[pr] = []
            m.powner[pr] = s
            for h in take_all(pat + ("attached",), pspec.get("attached", [])):
                m._attach(h, pr)
                if P.type[h] != 0:
                    m.ctrl[h] = s
                    if P.dur[h]:
                        m.tokens[h] = P.dur[h]
            for j, ob in enumerate(pspec.get("obstacles", [])):
                ob = {"card": ob} if isinstance(ob, str) else ob
                h = take(ob["card"], pat + ("obstacles", j))
                m._attach(h, pr)
                m.ctrl[h] = ctx.seat(ob["by"]) if "by" in ob else (s + 1) % n
                tokens = ob.get("tokens", P.dur[h])
                if tokens:
                    m.tokens[h] = tokens
        m.banked[s] = spec.get("vp", 0)
    for i, g in enumerate(d.get("goals") or []):
        if "vp" not in g and not (P.config.goals_variant == "same" and P.config.goals_same_value):
            raise ctx.error(("goals", i), f"goal {g['goal']!r} needs a `vp:` card "
                            "(or the same-VP variant with goals_same_value)")
        m.lay_goal(take(g["goal"], ("goals", i, "goal")),
                   take(g["vp"], ("goals", i, "vp")) if "vp" in g else -1)
    m.goals_on = bool(m.goals)
    m.discard.extend(take_all(("discard",), d.get("discard") or []))
    m.chance_discard.extend(take_all(("chance_discard",), d.get("chance_discard") or []))
    top = take_all(("deck",), d.get("deck") or [])
    chance_top = take_all(("chance_deck",), d.get("chance_deck") or [])
    for h in ctx.rest(shuffle=True):
        t = P.type[h]
        if P.is_job[h]:
            m.box.append(h)
        elif t == CHANCE:
            (m.chance_deck if m.chance else m.box).append(h)
        elif t == GOAL:
            (m.goal_deck if m.goals_on else m.box).append(h)
        elif t == VP:
            (m.vp_deck if m.goals_on else m.box).append(h)
        else:
            m.deck.append(h)
    m.deck.extend(reversed(top))              # the deck is drawn from its end
    m.chance_deck.extend(reversed(chance_top))
    if "revealer" in d:
        m.revealer = ctx.seat(d["revealer"])
    start = d.get("start") or {}
    if start.get("score"):
        m.phase, m.round = 1, 9
        m.start(1, 10, draft=False)
    else:
        m.phase, m.round = start.get("phase", 1) - 1, start.get("round", 1) - 1
        m.start(m.phase, m.round, draft=start.get("draft", False))


def _ids(m: Any, handles: list[int]) -> Counter:
    return Counter(m.p.cid[h] for h in handles)


def _show_ids(d: dict) -> str:
    return "{" + ", ".join(f"{k}: {sorted(v.elements())}" for k, v in sorted(d.items())) + "}"


def scenario_expect(m: Any, exp: dict, ctx: Any) -> None:
    """Love Formula's own `expect:` keys; each mismatch is a failure at its key's line."""
    def fail(*loc_and_message: Any) -> None:
        *loc, message = loc_and_message
        ctx.fail(tuple(loc), message)

    seat = SEAT_NAMES.index
    for name, v in (exp.get("banked") or {}).items():
        if m.banked[seat(name)] != v:
            fail("banked", name, f"banked VP of {name}: expected {v}, got {m.banked[seat(name)]}")
    for name, z in (exp.get("zones") or {}).items():
        s = seat(name)
        if "pairs" in z:
            got = {m.p.cid[pr]: _ids(m, m.att[pr]) for pr in m.pairs[s]}
            want = {k: Counter(v or []) for k, v in z["pairs"].items()}
            if got != want:
                fail("zones", name, "pairs", f"{name} pairs: expected {_show_ids(want)}, "
                                             f"got {_show_ids(got)}")
        for key, attr in (("unattached", "unatt"), ("hand", "hand")):
            if key in z:
                got = _ids(m, getattr(m, attr)[s])
                if got != Counter(z[key]):
                    fail("zones", name, key, f"{name} {key}: expected {sorted(z[key])}, "
                                             f"got {sorted(got.elements())}")
        if "hand_size" in z and len(m.hand[s]) != z["hand_size"]:
            fail("zones", name, "hand_size", f"{name} hand size: expected {z['hand_size']}, "
                                             f"got {len(m.hand[s])}")
        if "job" in z:
            jobs = [h for h in m.hand[s] if m.p.is_job[h]]
            if m.job_aside[s] >= 0:
                jobs.append(m.job_aside[s])
            got = [m.p.cid[h] for h in jobs]
            if got != ([z["job"]] if z["job"] else []):
                fail("zones", name, "job", f"{name} job: expected {z['job']}, got {got}")
    if "discard" in exp:
        have = _ids(m, m.discard)
        for i, cid in enumerate(exp["discard"]):
            if have[cid] <= 0:
                fail("discard", i, f"discard: {cid} is not in the discard pile")
            have[cid] -= 1
    if "not_discarded" in exp:
        have = _ids(m, m.discard)
        for i, cid in enumerate(exp["not_discarded"]):
            if have[cid]:
                fail("not_discarded", i, f"discard: {cid} should not be in the discard pile")
    for gid, who in (exp.get("goals") or {}).items():
        got = [sorted(SEAT_NAMES[s] for s in m.goal_claimed[i])
               for i, g in enumerate(m.goals) if m.p.cid[g] == gid]
        if not got:
            fail("goals", gid, f"goal {gid} is not in play")
        elif got[0] != sorted(who or []):
            fail("goals", gid, f"goal {gid}: expected {sorted(who or [])}, got {got[0]}")
    for cid, t in (exp.get("tokens") or {}).items():
        got = [m.tokens[h] for h in m.tokens if m.p.cid[h] == cid]
        if got != ([t] if t else []):
            fail("tokens", cid, f"tokens on {cid}: expected {t}, got {got or 0}")
    if "box" in exp:
        got, want = _ids(m, m.box), Counter(exp["box"])
        if got != want:
            fail("box", f"box: expected {sorted(want.elements())}, got {sorted(got.elements())}")
    for zone, size in (exp.get("sizes") or {}).items():
        if len(getattr(m, zone)) != size:
            fail("sizes", zone, f"size of {zone}: expected {size}, got {len(getattr(m, zone))}")
    if "goal_table" in exp:
        P = m.p
        got = {"first": sum(1 for g in m.goals if P.goal[g][0] == "first"),
               "end": sum(1 for g in m.goals if P.goal[g][0] == "end"),
               "vp_cards": len(m.goal_vp), "face_up": sum(m.goal_open),
               "values": sorted(m.goal_value)}
        for key, want in exp["goal_table"].items():
            want = sorted(want) if key == "values" else want
            if got[key] != want:
                fail("goal_table", key, f"goal table {key}: expected {want}, got {got[key]}")
    for gid, up in (exp.get("vp_face_up") or {}).items():
        got = [m.goal_open[i] for i, g in enumerate(m.goals) if m.p.cid[g] == gid]
        if not got:
            fail("vp_face_up", gid, f"goal {gid} is not in play")
        elif got[0] != up:
            fail("vp_face_up", gid, f"VP card under {gid}: expected face "
                                    f"{'up' if up else 'down'}, got face {'up' if got[0] else 'down'}")
