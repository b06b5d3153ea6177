"""The rave game's scenarios (docs/scenarios.md): the keys it adds to the scenario schema
(`SCENARIO`), placing a position (`scenario_setup`), checking its own `expect:` keys
(`scenario_expect`), and those keys as sentences a player reads, in Ukrainian and English, for
the rulebook's worked examples (`describe_expect`). forge/rulebook/outcome.py phrases the
common keys and hands `w` (card names in quotes, seats as «гравець А» by case, plurals); a key
not phrased here is not printed.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from ..core import SEAT_NAMES, ScenarioKeys
from ..scenario import ANY, SEAT, Map, N, Rec, SetupContext, card
from .state import State
from .tables import CLASS, MERC, MONSTER, SOUND, Rave, Strength


_SOUND = card("sound")
_MERC = Rec({"card": card("mercenary"), "under": [_SOUND]}, required=("card",))
#: The zones `sizes:` may name (attributes of the match), and in words where each is (uk, en).
_ZONES = {"deck": ("у колоді Звуку", "the Sound deck holds"),
          "discard": ("у скиді", "the discard pile holds"),
          "monsters": ("у колоді Монстрів", "the Monster deck holds"),
          "classes": ("у колоді Класів", "the Class deck holds"),
          "merc_deck": ("у колоді Найомничків", "the Mercenary deck holds")}
#: What a rave came to: the expectation, the winner (or `none`), each lineup's bonus and duration.
_RAVE = Rec({"expectation": N, "winner": (SEAT, frozenset({"none"})), "bonus": Map(SEAT, N),
             "duration": Map(SEAT, N)})
SCENARIO = ScenarioKeys(
    setup={"turn": SEAT, "deck": [_SOUND], "discard": [_SOUND]},
    seat=Rec({"hand": [_SOUND], "inventory": [_SOUND], "class": card("class"),
              "mercenaries": [(card("mercenary"), _MERC)], "souls": N, "skip": N, "out": bool}),
    expect={
        "souls": Map(SEAT, N),
        "zones": Map(SEAT, Rec({"hand": [ANY], "hand_size": N, "inventory": [ANY],
                                "inventory_size": N, "class": (card("class"), None),
                                "mercenaries": [ANY], "under": Map(card("mercenary"), N)})),
        "out": [SEAT], "skip": Map(SEAT, N), "resets": N, "turns": N, "first": SEAT,
        "rave": _RAVE, "raves": [_RAVE],
        "invited": Map(card("monster"), N), "satisfied": Map(card("monster"), N),
        "discard": [ANY], "sizes": Map(frozenset(_ZONES), N)},
    stops={"turns": "turn"})


def scenario_setup(m: State, d: dict, ctx: SetupContext) -> None:
    """Place a position: seats' hands, inventories, Classes, Mercenaries (with the cards under
    them), souls, skipped turns, players out; the top of the Sound deck and the discard; every
    other card goes to its deck (monsters to the face-up row), shuffled. The game resumes with
    the turn of `turn` (default A). With `deal: true` the engine deals from the seed."""
    if d.get("deal"):
        m.setup()
        return
    p = m.p
    for name, spec in (d.get("seats") or {}).items():
        s, at = ctx.seat(name), ("seats", name)
        spec = spec or {}
        m.hand[s] += ctx.take_all(at + ("hand",), spec.get("hand", []))
        m.inv[s] += ctx.take_all(at + ("inventory",), spec.get("inventory", []))
        if "class" in spec:
            m.cls[s].append(ctx.take(spec["class"], at + ("class",)))
        for i, ms in enumerate(spec.get("mercenaries", [])):
            ms = {"card": ms} if isinstance(ms, str) else ms
            merc = ctx.take(ms["card"], at + ("mercenaries", i, "card"))
            m.mercs[s].append(merc)
            m.under[merc] = ctx.take_all(at + ("mercenaries", i, "under"), ms.get("under", []))
        m.refx(s)
        m.souls[s] = spec.get("souls", 0)
        m.skip[s] = spec.get("skip", 0)
        if spec.get("out"):
            if m.hand[s] or m.inv[s] or m.cls[s] or m.mercs[s]:
                raise ctx.error(at + ("out",), f"seat {name} is out of the game but holds cards")
            m.alive[s], m.souls[s], m.out_turn[s] = False, 0, 0
    top = ctx.take_all(("deck",), d.get("deck", []))
    m.discard += ctx.take_all(("discard",), d.get("discard", []))
    rest = ctx.rest(shuffle=True)
    sounds = [h for h in rest if p.type[h] == SOUND]
    m.deck = sounds + top[::-1]           # drawn with pop(): the top is the end
    m.monsters = [h for h in rest if p.type[h] == MONSTER]
    m.classes = [h for h in rest if p.type[h] == CLASS]
    m.merc_deck = [h for h in rest if p.type[h] == MERC]
    m.start_at = ctx.seat(d.get("turn", "A"))
    for s in range(m.n):
        if len(m.hand[s]) > m.hand_limit(s) or len(m.inv[s]) > m.inv_limit(s):
            raise ctx.error(("seats", SEAT_NAMES[s]), f"seat {SEAT_NAMES[s]} is over its hand or "
                            "inventory limit")


def scenario_expect(m: State, e: dict, ctx: SetupContext) -> None:
    """Check this game's `expect:` keys (docs/scenarios.md)."""
    seat = SEAT_NAMES.index
    for name, v in (e.get("souls") or {}).items():
        if m.souls[seat(name)] != v:
            ctx.fail(("souls", name), f"{name} has {m.souls[seat(name)]} souls, expected {v}")
    for name, z in (e.get("zones") or {}).items():
        s = seat(name)
        for key, zone in (("hand", m.hand[s]), ("inventory", m.inv[s]), ("mercenaries", m.mercs[s])):
            if key in z and ctx.card_ids(zone) != sorted(z[key]):
                ctx.fail(("zones", name, key), f"{name}'s {key}: {ctx.card_ids(zone)}, expected {sorted(z[key])}")
        for key, zone in (("hand_size", m.hand[s]), ("inventory_size", m.inv[s])):
            if key in z and len(zone) != z[key]:
                ctx.fail(("zones", name, key), f"{name}'s {key}: {len(zone)}, expected {z[key]}")
        if "class" in z:
            held = m.p.cid[m.cls[s][0]] if m.cls[s] else None
            if held != z["class"]:
                ctx.fail(("zones", name, "class"), f"{name}'s Class: {held}, expected {z['class']}")
        for mid, k in (z.get("under") or {}).items():
            counts = [len(m.under[x]) for x in m.mercs[s] if m.p.cid[x] == mid]
            if counts != [k]:
                ctx.fail(("zones", name, "under", mid), f"cards under {mid}: {counts or 'not in play'}, expected {k}")
    if "out" in e:
        gone = sorted(SEAT_NAMES[s] for s in range(m.n) if not m.alive[s])
        if gone != sorted(e["out"]):
            ctx.fail(("out",), f"out of the game: {gone}, expected {sorted(e['out'])}")
    for name, v in (e.get("skip") or {}).items():
        if m.skip[seat(name)] != v:
            ctx.fail(("skip", name), f"{name} skips {m.skip[seat(name)]} turn(s), expected {v}")
    for key, count in (("resets", m.resets), ("turns", m.turns)):
        if key in e and count != e[key]:
            ctx.fail((key,), f"{key}: {count}, expected {e[key]}")
    if "first" in e and SEAT_NAMES[m.first] != e["first"]:
        ctx.fail(("first",), f"{SEAT_NAMES[m.first]} plays first, expected {e['first']}")
    if "rave" in e:
        if m.last_rave is None:
            ctx.fail(("rave",), "no rave was held")
        else:
            _expect_rave(m.last_rave, e["rave"], ("rave",), ctx)
    if "raves" in e:
        want = e["raves"]
        if len(m.raves) != len(want):
            ctx.fail(("raves",), f"{len(m.raves)} rave(s) held, expected {len(want)}")
        for i, (r, w) in enumerate(zip(m.raves, want)):
            _expect_rave(r, w or {}, ("raves", i), ctx)
    for key, table in (("invited", m.invited), ("satisfied", m.satisfied)):
        for mid, v in (e.get(key) or {}).items():
            times = sum(k for d, k in table.items() if m.p.def_ids[d] == mid)
            if times != v:
                ctx.fail((key, mid), f"{mid} {key} {times} time(s), expected {v}")
    if "discard" in e:
        have = Counter(m.p.cid[h] for h in m.discard)
        missing = Counter(e["discard"]) - have
        if missing:
            ctx.fail(("discard",), f"not in the discard: {sorted(missing.elements())}")
    for zone, v in (e.get("sizes") or {}).items():
        size = len(getattr(m, zone))
        if size != v:
            ctx.fail(("sizes", zone), f"{zone} holds {size} cards, expected {v}")


def _expect_rave(r: Rave, want: dict, at: tuple, ctx: SetupContext) -> None:
    """One rave's outcome against ``want`` (an `expect: rave` mapping), failures at ``at``."""
    seat = SEAT_NAMES.index
    if "expectation" in want and r.expect != want["expectation"]:
        ctx.fail(at + ("expectation",), f"expectation {r.expect}, expected {want['expectation']}")
    if "winner" in want:
        got = SEAT_NAMES[r.winner] if r.winner >= 0 else "none"
        if got != want["winner"]:
            ctx.fail(at + ("winner",), f"the rave was won by {got}, expected {want['winner']}")
    for key in Strength._fields:              # bonus, duration
        for name, v in (want.get(key) or {}).items():
            k = r.lineups.get(seat(name))
            if k is None or getattr(k, key) != v:
                ctx.fail(at + (key, name), f"{name}'s lineup {key}: "
                         f"{getattr(k, key) if k else 'no lineup'}, expected {v}")


#: The unit of a score: the game is scored in souls (uk: the accusative after «має»).
SCORE_UNIT = {"uk": ("душу", "душі", "душ"), "en": ("soul", "souls")}

_CARDS = (("карта", "карти", "карт"), ("card", "cards"))
_TURNS = (("хід", "ходи", "ходів"), ("turn", "turns"))
_TIMES = ("раз", "рази", "разів")
_LIE = ("лежить", "лежать", "лежить")


def describe_expect(expect: dict, lang: str, w: Any) -> list[str]:
    """This game's own `expect:` keys as sentences, in the order the file gives them. Each says
    what `scenario_expect` checks: `discard:` lists cards that are in the discard pile (not all of
    them); hands, inventories and Mercenaries are exact."""
    out: list[str] = []
    for key, value in expect.items():
        if key == "invited":
            out.extend(_invited(value or {}, w, expect.get("satisfied")))
        elif key == "satisfied":
            out.extend(_satisfied(value or {}, w, expect.get("invited")))
        elif key in _PHRASES and value is not None:
            out.extend(_PHRASES[key](value, w))
    return out


def _times(n: int, w: Any) -> str:
    if w.lang == "uk":
        return w.count(n, _TIMES)
    return {1: "once", 2: "twice"}.get(n, f"{n}\u00a0times")


def _zones(zones: dict, w: Any) -> list[str]:
    out = []
    for seat, z in zones.items():
        z = z or {}
        g, p = w.seat(seat, "gen"), f"{w.seat(seat)}’s"
        if "hand" in z:
            out.append(w.hand(seat, z["hand"] or []))
        if "hand_size" in z:
            out.append(w.hand_size(seat, z["hand_size"]))
        if "inventory" in z:
            ids = z["inventory"] or []
            if not ids:
                out.append(w.pick(f"інвентар {g} порожній", f"{p} inventory is empty"))
            else:
                lie = "лежать" if len(ids) > 1 else "лежить"
                out.append(w.pick(f"в інвентарі {g} {lie} {w.cards(ids)}",
                                  f"{p} inventory holds {w.names(ids)}"))
        if "inventory_size" in z:
            n = z["inventory_size"]
            out.append(w.pick(f"в інвентарі {g} {w.form(n, _LIE)} {w.count(n, _CARDS[0])}" if n
                              else f"інвентар {g} порожній",
                              f"{p} inventory holds {w.count(n, _CARDS[1])}" if n
                              else f"{p} inventory is empty"))
        if "class" in z:
            cls = z["class"]
            out.append(w.pick(f"Клас {g} — {w(cls)}", f"{p} Class is {w(cls)}") if cls else
                       w.pick(f"у {g} немає Класу", f"{w.seat(seat)} has no Class"))
        if "mercenaries" in z:
            ids = z["mercenaries"] or []
            if not ids:
                out.append(w.pick(f"у {g} немає Найомничків", f"{w.seat(seat)} has no Mercenary"))
            elif len(ids) == 1:
                out.append(w.pick(f"Найомничок {g} — {w.names(ids)}",
                                  f"{p} Mercenary is {w.names(ids)}"))
            else:
                out.append(w.pick(f"Найомнички {g} — {w.names(ids)}",
                                  f"{p} Mercenaries are {w.names(ids)}"))
        for merc, n in (z.get("under") or {}).items():
            out.append(w.pick(
                f"під Найомничком {w(merc)} {g} {w.form(n, _LIE)} {w.count(n, _CARDS[0])}" if n
                else f"під Найомничком {w(merc)} {g} немає карт",
                f"{p} Mercenary {w(merc)} has {w.count(n, _CARDS[1])} under it" if n
                else f"{p} Mercenary {w(merc)} has no card under it"))
    return out


def _out(seats: list, w: Any) -> list[str]:
    seats = list(seats or [])
    if not seats:
        return [w.pick("ніхто не вибуває з гри", "nobody is out of the game")]
    many = len(seats) > 1
    return [w.pick(f"{w.seats(seats)} {'вибувають' if many else 'вибуває'} з гри",
                   f"{w.seats(seats)} {'are' if many else 'is'} out of the game")]


def _skip(skips: dict, w: Any) -> list[str]:
    out = []
    for seat in sorted(skips):
        n = skips[seat]
        out.append(w.pick(f"{w.seat(seat)} має пропустити {w.count(n, _TURNS[0])}" if n
                          else f"{w.seat(seat)} не пропускає ходів",
                          f"{w.seat(seat)} must skip {w.count(n, _TURNS[1])}" if n
                          else f"{w.seat(seat)} has no turn to skip"))
    return out


def _resets(n: int, w: Any) -> list[str]:
    if not n:
        return [w.pick("«Обнулення» не стається", "no “Reset” happens")]
    return [w.pick(f"«Обнулення» стається {_times(n, w)}", f"a “Reset” happens {_times(n, w)}")]


def _turns(n: int, w: Any) -> list[str]:
    return [w.pick(f"зіграно {w.count(n, _TURNS[0])}",
                   f"in all, {w.count(n, _TURNS[1])} {'is' if n == 1 else 'are'} played")]


def _rave(r: dict, w: Any) -> list[str]:
    out = []
    if "expectation" in r:
        out.append(w.pick(f"очікування — {r['expectation']}",
                          f"the expectation is {r['expectation']}"))
    for key, uk, en in (("bonus", "бонус", "bonus"), ("duration", "сумарна тривалість",
                                                        "total duration")):
        values = r.get(key) or {}
        parts = []
        for i, seat in enumerate(sorted(values)):
            v = values[seat]
            if i == 0:
                parts.append(w.pick(f"{uk} лайнапу {w.seat(seat, 'gen')} — {v}",
                                    f"{w.seat(seat)}’s lineup {en} is {v}"))
            else:
                parts.append(w.pick(f"{w.seat(seat, 'gen')} — {v}", f"{w.seat(seat)}’s {v}"))
        if parts:
            out.append(", ".join(parts))
    if "winner" in r:
        win = r["winner"]
        out.append(w.pick("рейв не виграє ніхто", "nobody wins the rave") if win == "none" else
                   w.pick(f"рейв виграє {w.seat(win)}", f"{w.seat(win)} wins the rave"))
    return out


def _raves(raves: list, w: Any) -> list[str]:
    """Every rave of the file in order, each as `_rave` says the last one."""
    out = []
    for i, r in enumerate(raves or [], 1):
        said = "; ".join(_rave(r or {}, w))
        if said:
            out.append(w.pick(f"рейв {i}: {said}", f"rave {i}: {said}"))
    return out


def _invited(invited: dict, w: Any, satisfied: dict | None = None) -> list[str]:
    """How often each monster was invited, and satisfied when the file says so too."""
    satisfied = satisfied or {}
    out = []
    for monster, n in invited.items():
        name = w(monster)
        uk = f"монстра {name} запрошують {_times(n, w)}" if n else \
            f"монстра {name} не запрошують жодного разу"
        en = f"{name} is invited {_times(n, w)}" if n else f"{name} is never invited"
        if monster in satisfied:
            k = satisfied[monster]
            uk += (f" і задовольняють {_times(k, w)}" if k else
                   ", але не задовольняють жодного разу" if n else
                   " і не задовольняють жодного разу")
            en += f" and satisfied {_times(k, w)}" if k else " and never satisfied"
        out.append(w.pick(uk, en))
    return out


def _satisfied(satisfied: dict, w: Any, invited: dict | None = None) -> list[str]:
    out = []
    for monster, n in satisfied.items():
        if monster in (invited or {}):
            continue                       # said with the invitations
        out.append(w.pick(f"монстра {w(monster)} задовольняють {_times(n, w)}" if n
                          else f"монстра {w(monster)} не задовольняють жодного разу",
                          f"{w(monster)} is satisfied {_times(n, w)}" if n
                          else f"{w(monster)} is never satisfied"))
    return out


def _sizes(sizes: dict, w: Any) -> list[str]:
    return [", ".join(w.pick(f"{_ZONES[z][0]} {w.count(n, _CARDS[0])}",
                             f"{_ZONES[z][1]} {w.count(n, _CARDS[1])}")
                      for z, n in sizes.items())]


_PHRASES: dict[str, Callable[[Any, Any], list[str]]] = {
    "souls": lambda souls, w: [w.holdings(souls, SCORE_UNIT[w.lang])] if souls else [],
    "zones": _zones, "out": _out, "skip": _skip, "resets": _resets, "turns": _turns,
    "rave": _rave, "raves": lambda raves, w: _raves(raves, w),
    "first": lambda seat, w: [w.pick(f"першим ходить {w.seat(seat)}", f"{w.seat(seat)} plays first")],
    "discard": lambda ids, w: [w.in_discard(ids)] if ids else [],
    "sizes": _sizes,
}
