"""The rave game's worked examples in words: its own `expect:` keys (SCENARIO in
rules_does_not_exist.py, checked by `scenario_expect` there) as sentences a player reads, in
Ukrainian and English. forge/rulebook/outcome.py phrases the common keys and hands `w` (card
names in quotes, seats as «гравець А» by case, plurals); a key not phrased here is not printed.
"""
from __future__ import annotations

from typing import Any, Callable

#: The unit of a score: the game is scored in souls (uk: the accusative after «має»).
SCORE_UNIT = {"uk": ("душу", "душі", "душ"), "en": ("soul", "souls")}

_CARDS = (("карта", "карти", "карт"), ("card", "cards"))
_TURNS = (("хід", "ходи", "ходів"), ("turn", "turns"))
_TIMES = ("раз", "рази", "разів")
_LIE = ("лежить", "лежать", "лежить")
#: `sizes:` zones: where (uk, en).
_ZONES = {"deck": ("у колоді Звуку", "the Sound deck holds"),
          "discard": ("у скиді", "the discard pile holds"),
          "monsters": ("у колоді Монстрів", "the Monster deck holds"),
          "classes": ("у колоді Класів", "the Class deck holds"),
          "merc_deck": ("у колоді Найомничків", "the Mercenary deck holds")}


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
    "rave": _rave,
    "discard": lambda ids, w: [w.in_discard(ids)] if ids else [],
    "sizes": _sizes,
}
