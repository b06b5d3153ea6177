"""Love Formula's scenario keys: how a scenario sets up a position of this game and what it may
expect of it, beyond the common keys of forge/rules/scenario.py (docs/scenarios.md)."""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from ..core import SEAT_NAMES, ScenarioKeys
from ..scenario import ANY, SEAT, Int, Map, N, Rec, SetupContext, card
from .flow import Match
from .tables import CHANCE, GOAL, PREP, ROUNDS, VP

PLAYABLE = card("preparation", "pair", "obstacle", "reaction", "connection", "action")
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


def scenario_setup(m: Match, d: dict, ctx: SetupContext) -> None:
    """Place the scenario's position (or deal from the seed) and start the flow."""
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
                if P.type[h] != PREP:
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
        m.phase, m.round = 1, ROUNDS - 1     # scoring: after the last round of the last phase
        m.start(1, ROUNDS, draft=False)
    else:
        m.phase, m.round = start.get("phase", 1) - 1, start.get("round", 1) - 1
        m.start(m.phase, m.round, draft=start.get("draft", False))


def _ids(m: Match, handles: list[int]) -> Counter:
    return Counter(m.p.cid[h] for h in handles)


def _show_ids(d: dict) -> str:
    return "{" + ", ".join(f"{k}: {sorted(v.elements())}" for k, v in sorted(d.items())) + "}"


def scenario_expect(m: Match, exp: dict, ctx: SetupContext) -> None:
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
                held = _ids(m, getattr(m, attr)[s])
                if held != Counter(z[key]):
                    fail("zones", name, key, f"{name} {key}: expected {sorted(z[key])}, "
                                             f"got {sorted(held.elements())}")
        if "hand_size" in z and len(m.hand[s]) != z["hand_size"]:
            fail("zones", name, "hand_size", f"{name} hand size: expected {z['hand_size']}, "
                                             f"got {len(m.hand[s])}")
        if "job" in z:
            jobs = [h for h in m.hand[s] if m.p.is_job[h]]
            if m.job_aside[s] >= 0:
                jobs.append(m.job_aside[s])
            job_ids = [m.p.cid[h] for h in jobs]
            if job_ids != ([z["job"]] if z["job"] else []):
                fail("zones", name, "job", f"{name} job: expected {z['job']}, got {job_ids}")
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
        claimed = [sorted(SEAT_NAMES[s] for s in m.goal_claimed[i])
                   for i, g in enumerate(m.goals) if m.p.cid[g] == gid]
        if not claimed:
            fail("goals", gid, f"goal {gid} is not in play")
        elif claimed[0] != sorted(who or []):
            fail("goals", gid, f"goal {gid}: expected {sorted(who or [])}, got {claimed[0]}")
    for cid, t in (exp.get("tokens") or {}).items():
        on = [m.tokens[h] for h in m.tokens if m.p.cid[h] == cid]
        if on != ([t] if t else []):
            fail("tokens", cid, f"tokens on {cid}: expected {t}, got {on or 0}")
    if "box" in exp:
        boxed, in_box = _ids(m, m.box), Counter(exp["box"])
        if boxed != in_box:
            fail("box", f"box: expected {sorted(in_box.elements())}, got {sorted(boxed.elements())}")
    for zone, size in (exp.get("sizes") or {}).items():
        if len(getattr(m, zone)) != size:
            fail("sizes", zone, f"size of {zone}: expected {size}, got {len(getattr(m, zone))}")
    if "goal_table" in exp:
        P = m.p
        table: dict[str, int | list[int]] = {
            "first": sum(1 for g in m.goals if P.goal[g].kind == "first"),
            "end": sum(1 for g in m.goals if P.goal[g].kind == "end"),
            "vp_cards": len(m.goal_vp), "face_up": sum(m.goal_open),
            "values": sorted(m.goal_value)}
        for key, expected in exp["goal_table"].items():
            expected = sorted(expected) if key == "values" else expected
            if table[key] != expected:
                fail("goal_table", key, f"goal table {key}: expected {expected}, "
                                        f"got {table[key]}")
    for gid, up in (exp.get("vp_face_up") or {}).items():
        faces = [m.goal_open[i] for i, g in enumerate(m.goals) if m.p.cid[g] == gid]
        if not faces:
            fail("vp_face_up", gid, f"goal {gid} is not in play")
        elif faces[0] != up:
            fail("vp_face_up", gid, f"VP card under {gid}: expected face "
                                    f"{'up' if up else 'down'}, got face {'up' if faces[0] else 'down'}")


# ------------------------------------------------------------------ worked examples in words
#: The unit of a score, in the plural forms of each language (forge/rulebook/outcome.py).
SCORE_UNIT = {"uk": ("ПО",), "en": ("VP",)}

_HEARTS = {"uk": ("жетон серця", "жетони сердець", "жетонів сердець"),
           "en": ("heart token", "heart tokens")}
#: Where `sizes:` counts cards: (uk, en) phrase and the noun counted (uk forms, en forms).
_CARDS = (("карта", "карти", "карт"), ("card", "cards"))
_VP_CARDS = (("карта ПО", "карти ПО", "карт ПО"), ("VP card", "VP cards"))
_GOALS = (("ціль", "цілі", "цілей"), ("goal", "goals"))
_SIZES = {"deck": ("у колоді", "the deck holds", _CARDS),
          "discard": ("у скиді", "the discard pile holds", _CARDS),
          "box": ("у коробці", "the box holds", _CARDS),
          "chance_deck": ("у колоді шансів", "the chance deck holds", _CARDS),
          "chance_discard": ("у скиді шансів", "the chance discard pile holds", _CARDS),
          "goal_deck": ("у колоді цілей", "the goal deck holds", _CARDS),
          "vp_deck": ("у колоді карт ПО", "the VP deck holds", _CARDS),
          "goals": ("на столі", "the table holds", _GOALS),
          "goal_vp": ("під цілями", "under the goals lie", _VP_CARDS)}


def describe_expect(expect: dict, lang: str, w: Any) -> list[str]:
    """Love Formula's own `expect:` keys as sentences a player reads, in the order the file gives
    them (forge/rulebook/outcome.py gives `w`: card names, seats, plurals). Every sentence says
    what `scenario_expect` checks, no more: `discard:` lists cards that are in the discard pile
    (not all of them), `pairs:` and `hand:` are exact."""
    out: list[str] = []
    for key, value in expect.items():
        phrase = _PHRASES.get(key)
        if phrase is not None and value is not None:
            out.extend(phrase(value, w))
    return out


def _zones(zones: dict, w: Any) -> list[str]:
    out = []
    for seat, z in zones.items():
        z = z or {}
        g = w.seat(seat, "gen")
        if "pairs" in z:
            if not z["pairs"]:
                out.append(w.pick(f"у {g} немає жодної пари в грі",
                                  f"{w.seat(seat)} has no pair in play"))
            for pair, attached in z["pairs"].items():
                if attached:
                    out.append(w.pick(
                        f"до пари {w(pair)} {g} прикріплено {w.cards(attached, 'acc')}",
                        f"{w.seat(seat)}’s pair {w(pair)} carries {w.names(attached)}"))
                else:
                    out.append(w.pick(f"пара {w(pair)} {g} лежить у грі без прикріплених карт",
                                      f"{w.seat(seat)}’s pair {w(pair)} is in play with nothing "
                                      "attached"))
        if "unattached" in z:
            ids = z["unattached"] or []
            if not ids:
                out.append(w.pick(f"у {g} немає неприкріплених карт",
                                  f"{w.seat(seat)} has no unattached card"))
            else:
                adj = "неприкріплена" if len(ids) == 1 else "неприкріплені"
                out.append(w.pick(f"у {g} {adj} {w.cards(ids)}",
                                  f"{w.seat(seat)} has {w.names(ids)} unattached"))
        if "hand" in z:
            out.append(w.hand(seat, z["hand"] or []))
        if "hand_size" in z:
            out.append(w.hand_size(seat, z["hand_size"]))
        if "job" in z:
            job = z["job"]
            out.append(w.pick(f"{w.seat(seat)} зберігає підробіток {w(job)}",
                              f"{w.seat(seat)} keeps the part-time job {w(job)}") if job else
                       w.pick(f"у {g} немає підробітку", f"{w.seat(seat)} has no part-time job"))
    return out


def _goals(goals: dict, w: Any) -> list[str]:
    out = []
    for goal, seats in goals.items():
        seats = list(seats or [])
        if not seats:
            out.append(w.pick(f"ціль {w(goal)} не дістається нікому",
                              f"nobody claims the goal {w(goal)}"))
        elif len(seats) == 1:
            out.append(w.pick(f"ціль {w(goal)} дістається {w.seat(seats[0], 'dat')}",
                              f"{w.seat(seats[0])} claims the goal {w(goal)}"))
        else:
            out.append(w.pick(f"ціль {w(goal)} дістається {w.seats(seats, 'dat')}",
                              f"{w.seats(seats)} share the goal {w(goal)}"))
    return out


def _banked(banked: dict, w: Any) -> list[str]:
    if w.lang == "uk":
        return [w.holdings(banked, SCORE_UNIT["uk"], order=banked)
                .replace(" має ", " вже має ", 1).replace(" мають ", " вже мають ", 1)]
    return [w.holdings(banked, SCORE_UNIT["en"], order=banked)
            .replace(" has ", " has already scored ").replace(" have ", " have already scored ")]


def _tokens(tokens: dict, w: Any) -> list[str]:
    out = []
    for cid, n in tokens.items():
        if not n:
            out.append(w.pick(f"на карті {w(cid)} немає жетонів сердець",
                              f"{w(cid)} carries no heart token"))
        else:
            lie = w.form(n, ("лежить", "лежать", "лежить"))
            out.append(w.pick(f"на карті {w(cid)} {lie} {w.count(n, _HEARTS['uk'])}",
                              f"{w(cid)} carries {w.count(n, _HEARTS['en'])}"))
    return out


def _box(ids: list, w: Any) -> list[str]:
    if not ids:
        return [w.pick("у коробці немає карт", "the box holds no card")]
    many = len(ids) > 1
    return [w.pick(f"у коробці {'лежать' if many else 'лежить'} {w.cards(ids)}",
                   f"{w.names(ids)} {'are' if many else 'is'} in the box")]


def _sizes(sizes: dict, w: Any) -> list[str]:
    parts = []
    for zone, n in sizes.items():
        uk, en, (uk_forms, en_forms) = _SIZES[zone]
        parts.append(w.pick(f"{uk} {w.count(n, uk_forms)}", f"{en} {w.count(n, en_forms)}"))
    return [", ".join(parts)]


def _goal_table(t: dict, w: Any) -> list[str]:
    out = []
    kinds = [(t[k], w.kind("goal", k)) for k in ("first", "end") if k in t]
    if any(n for n, _ in kinds):
        kinds = [(n, name) for n, name in kinds if n]
    if kinds:
        goals = w.join(w.pick(f"{w.count(n, _GOALS[0])} {w.quote(name)}",
                              f"{n}\u00a0{w.quote(name)} {w.form(n, _GOALS[1])}")
                       for n, name in kinds)
        out.append(w.pick(f"на столі {goals}", f"the table holds {goals}"))
    if "vp_cards" in t:
        n = t["vp_cards"]
        out.append(w.pick(f"під цілями {w.count(n, _VP_CARDS[0])}" if n else
                          "під цілями немає карт ПО",
                          f"under the goals lie {w.count(n, _VP_CARDS[1])}" if n else
                          "no VP card lies under the goals"))
    if "face_up" in t:
        n = t["face_up"]
        out.append(w.pick(f"відкрито {w.count(n, _VP_CARDS[0])}" if n else
                          "жодна карта ПО не відкрита",
                          f"the goals show {w.count(n, _VP_CARDS[1])} face up" if n else
                          "no VP card is face up"))
    if t.get("values"):
        values = w.join(str(v) for v in sorted(t["values"]))
        out.append(w.pick(f"карти ПО під цілями варті {values}\u00a0ПО",
                          f"the VP cards under the goals are worth {values}\u00a0VP"))
    return out


def _vp_face_up(faces: dict, w: Any) -> list[str]:
    return [w.pick(f"карта ПО під ціллю {w(goal)} лежить {'відкрито' if up else 'закрито'}",
                   f"the VP card under {w(goal)} is face {'up' if up else 'down'}")
            for goal, up in faces.items()]


_PHRASES: dict[str, Callable[[Any, Any], list[str]]] = {
    "zones": _zones,
    "discard": lambda ids, w: [w.in_discard(ids)] if ids else [],
    "not_discarded": lambda ids, w: [w.not_in_discard(ids)] if ids else [],
    "goals": _goals, "banked": _banked, "tokens": _tokens, "box": _box, "sizes": _sizes,
    "goal_table": _goal_table, "vp_face_up": _vp_face_up,
}
