"""«Аніма: Тінь омеги»: its worked examples in words. The engine's own `expect:` keys (SCENARIO in
`scenario`, checked by `scenario_expect` there) as sentences a player reads, in
Ukrainian and English. forge/rulebook/outcome.py phrases the common keys and hands `w` (card
names in quotes, seats as «гравець А» by case, plurals); a key not phrased here is not printed.

The words are the rulebook's: «відбій» / “discard pile”, «попередня подія» / “preliminary event”,
«обернути» / “rotate”, a group «в дорозі» / “on the road” when it stands at no location.
"""
from __future__ import annotations

from typing import Any

#: The unit of a score (uk: the accusative after «має»): the winner scores 10 plus one for each
#: basic mission, the others one for each (docs/rules-decisions.md, Anima, 30).
SCORE_UNIT = {"uk": ("очко", "очки", "очок"), "en": ("point", "points")}

_CARDS = (("карта", "карти", "карт"), ("card", "cards"))
_CHARS = (("персонаж", "персонажі", "персонажів"), ("character", "characters"))
_GOALS = (("ціль", "цілі", "цілей"), ("goal", "goals"))
_TURNS = (("хід", "ходи", "ходів"), ("turn", "turns"))
_TIMES = ("раз", "рази", "разів")
_LIE = ("лежить", "лежать", "лежить")
#: `discards:` piles: (uk where, en name).
_PILES = {"bonus": ("у відбої бонусів", "the bonus discard pile"),
          "character": ("у відбої персонажів", "the character discard pile"),
          "event": ("у відбої подій", "the event discard pile"),
          "location": ("у відбої локацій", "the location discard pile")}
#: `sizes:` zones: (uk where, uk when empty, en where, en when empty).
_ZONES = {"char_deck": ("у колоді персонажів", "колода персонажів порожня",
                        "the character deck holds", "the character deck is empty"),
          "char_discard": ("у відбої персонажів", "відбій персонажів порожній",
                           "the character discard pile holds",
                           "the character discard pile is empty"),
          "loc_discard": ("у відбої локацій", "відбій локацій порожній",
                          "the location discard pile holds", "the location discard pile is empty"),
          "event_deck": ("у колоді подій", "колода подій порожня",
                         "the event deck holds", "the event deck is empty"),
          "event_discard": ("у відбої подій", "відбій подій порожній",
                            "the event discard pile holds", "the event discard pile is empty"),
          "mission_deck": ("у колоді основних місій", "колода основних місій порожня",
                           "the basic mission deck holds", "the basic mission deck is empty"),
          "final_deck": ("у колоді кінцевих місій", "колода кінцевих місій порожня",
                         "the final mission deck holds", "the final mission deck is empty"),
          "bonus_deck": ("у колоді бонусів", "колода бонусів порожня",
                         "the bonus deck holds", "the bonus deck is empty"),
          "bonus_discard": ("у відбої бонусів", "відбій бонусів порожній",
                            "the bonus discard pile holds", "the bonus discard pile is empty")}


def describe_expect(expect: dict, lang: str, w: Any) -> list[str]:
    """This game's own `expect:` keys as sentences, in the order the file gives them. Each says
    what `scenario_expect` checks: `discards:` lists cards that are in a pile (not all of them);
    groups, hands, missions, active locations, sleeping and rotated characters are exact."""
    out: list[str] = []
    for key, value in expect.items():
        if key == "winner":
            out.extend(_winner(value, w, expect.get("winners")))
        elif key in _PHRASES and value is not None:
            out.extend(_PHRASES[key](value, w))
    return [_nested(s, lang) for s in out]


#: Outer and inner quotation marks by language (forge/text/typography.py prints the same).
_MARKS = {"uk": ("«", "»", "„", "“"), "en": ("“", "”", "‘", "’")}


def _nested(text: str, lang: str) -> str:
    """A name with quotes of its own inside a quoted name (Корчма «Ліхтар») takes the inner
    marks: «Корчма „Ліхтар“», not «Корчма «Ліхтар»»."""
    if lang not in _MARKS:
        return text
    o, c, io, ic = _MARKS[lang]
    out, depth = [], 0
    for ch in text:
        if ch == o:
            out.append(o if depth == 0 else io)
            depth += 1
        elif ch == c and depth:
            depth -= 1
            out.append(c if depth == 0 else ic)
        else:
            out.append(ch)
    return "".join(out)


# --- helpers -----------------------------------------------------------------------------

def _times(n: int, w: Any) -> str:
    if w.lang == "uk":
        return {1: "один раз", 2: "двічі"}.get(n) or w.count(n, _TIMES)
    return {1: "once", 2: "twice"}.get(n, f"{n}\u00a0times")


def _are(ids: list, w: Any) -> str:
    """en: “is” for one card, “are” for more."""
    return "are" if len(ids) > 1 else "is"


# --- zones of the seats -----------------------------------------------------------------

def _zones(zones: dict, w: Any) -> list[str]:
    out: list[str] = []
    places: dict[str, list[str]] = {}          # location (or "none") -> seats standing there
    for seat, z in zones.items():
        z = z or {}
        g, p = w.seat(seat, "gen"), f"{w.seat(seat)}’s"
        if "group" in z:
            ids = list(z["group"] or [])
            if not ids:
                out.append(w.pick(f"у {g} немає групи", f"{w.seat(seat)} has no group"))
            elif len(ids) == 1:
                out.append(w.pick(f"у групі {g} лише {w.names(ids)}",
                                  f"{p} group is {w.names(ids)} alone"))
            else:
                out.append(w.pick(f"у групі {g} — {w.names(ids)}",
                                  f"{p} group is {w.names(ids)}"))
        if "group_size" in z:
            n = z["group_size"]
            out.append(w.pick(f"у групі {g} {w.count(n, _CHARS[0])}",
                              f"{p} group has {w.count(n, _CHARS[1])}"))
        if "hand" in z:
            out.append(w.hand(seat, list(z["hand"] or [])))
        if "hand_size" in z:
            out.append(w.hand_size(seat, z["hand_size"]))
        if "missions" in z:
            ids = list(z["missions"] or [])
            if not ids:
                out.append(w.pick(f"у {g} немає незавершених місій",
                                  f"{w.seat(seat)} has no unfinished mission"))
            else:
                many = len(ids) > 1
                out.append(w.pick(
                    f"{'незавершені місії' if many else 'незавершена місія'} {g} — {w.names(ids)}",
                    f"{p} unfinished {'missions are' if many else 'mission is'} {w.names(ids)}"))
        if "done" in z:
            ids = list(z["done"] or [])
            if not ids:
                out.append(w.pick(f"{w.seat(seat)} ще не виконав жодної місії",
                                  f"{w.seat(seat)} has not completed any mission yet"))
            else:
                noun = "місії" if len(ids) > 1 else "місію"
                out.append(w.pick(f"{w.seat(seat)} виконав {noun} {w.names(ids)}",
                                  f"{w.seat(seat)} has completed {w.names(ids)}"))
        if "organisation" in z:
            org = z["organisation"]
            out.append(w.pick(f"у {g} немає організації", f"{w.seat(seat)} has no organisation")
                       if org == "none" else
                       w.pick(f"організація {g} — {w(org)}", f"{p} organisation is {w(org)}"))
        if "at" in z:
            places.setdefault(z["at"], []).append(seat)
    for place, seats in places.items():
        many = len(seats) > 1
        whose = w.seats(seats, "gen")
        if place == "none":
            out.append(w.pick(
                f"{'групи' if many else 'група'} {whose} в дорозі: "
                f"{'вони не стоять' if many else 'вона не стоїть'} у жодній локації",
                f"the {'groups' if many else 'group'} of {w.seats(seats)} "
                f"{'are' if many else 'is'} on the road, at no location"))
        else:
            out.append(w.pick(
                f"{'групи' if many else 'група'} {whose} {'стоять' if many else 'стоїть'} "
                f"у локації {w(place)}",
                f"the {'groups' if many else 'group'} of {w.seats(seats)} "
                f"{'are' if many else 'is'} at {w(place)}"))
    return out


# --- the table ---------------------------------------------------------------------------

def _locations(ids: list, w: Any) -> list[str]:
    ids = list(ids or [])
    if not ids:
        return [w.pick("активних локацій немає", "there is no active location")]
    if len(ids) == 1:
        return [w.pick(f"єдина активна локація — {w.names(ids)}",
                       f"the only active location is {w.names(ids)}")]
    return [w.pick(f"активні локації — {w.names(ids)}",
                   f"the active locations are {w.names(ids)}")]


def _leads(leads: dict, w: Any) -> list[str]:
    out = []
    for loc, ev in leads.items():
        if ev == "none":
            out.append(w.pick(f"на локації {w(loc)} попередньої події вже немає",
                              f"{w(loc)} has no preliminary event left"))
        else:
            out.append(w.pick(f"попередня подія на локації {w(loc)} — {w(ev)}",
                              f"the preliminary event at {w(loc)} is {w(ev)}"))
    return out


def _face_down(n: int, w: Any) -> list[str]:
    if not n:
        return [w.pick("закритих попередніх подій на столі немає",
                       "no preliminary event lies face down")]
    forms = ("закрита попередня подія", "закриті попередні події", "закритих попередніх подій")
    return [w.pick(f"на столі {w.form(n, _LIE)} {w.count(n, forms)}",
                   f"there {'is' if n == 1 else 'are'} "
                   f"{w.count(n, ('preliminary event', 'preliminary events'))} face down")]


def _final(mid: str, w: Any) -> list[str]:
    if mid == "none":
        return [w.pick("кінцеву місію ще не відкрито", "the final mission is not revealed yet")]
    return [w.pick(f"кінцева місія — {w(mid)}", f"the final mission is {w(mid)}")]


def _progress(progress: dict, w: Any) -> list[str]:
    out = []
    for mid, n in progress.items():
        if not n:
            out.append(w.pick(f"у місії {w(mid)} ще не виконано жодної цілі",
                              f"no goal of {w(mid)} is done yet"))
        else:
            out.append(w.pick(f"у місії {w(mid)} виконано {w.count(n, _GOALS[0])}",
                              f"{w(mid)} has {w.count(n, _GOALS[1])} done"))
    return out


def _final_progress(values: dict, w: Any) -> list[str]:
    out = []
    for seat in sorted(values):
        n = values[seat]
        out.append(w.pick(
            f"{w.seat(seat)} виконав {w.count(n, _GOALS[0])} кінцевої місії" if n
            else f"{w.seat(seat)} ще не виконав жодної цілі кінцевої місії",
            f"{w.seat(seat)} has done {w.count(n, _GOALS[1])} of the final mission" if n
            else f"{w.seat(seat)} has done no goal of the final mission yet"))
    return out


def _held(values: dict, w: Any) -> list[str]:
    out = []
    for seat in sorted(values):
        n = values[seat]
        out.append(w.pick(
            f"{w.seat(seat, 'dat')} зараховано {w.count(n, _TURNS[0])} утримання" if n
            else f"{w.seat(seat, 'dat')} не зараховано жодного ходу утримання",
            f"{w.seat(seat)} has {w.count(n, ('hold turn', 'hold turns'))} counted" if n
            else f"{w.seat(seat)} has no hold turn counted"))
    return out


def _skip(values: dict, w: Any) -> list[str]:
    out = []
    for seat in sorted(values):
        n = values[seat]
        out.append(w.pick(
            f"{w.seat(seat)} має пропустити {w.count(n, _TURNS[0])}" if n
            else f"{w.seat(seat, 'dat')} не треба пропускати ходів",
            f"{w.seat(seat)} must skip {w.count(n, _TURNS[1])}" if n
            else f"{w.seat(seat)} has no turn to skip"))
    return out


def _lost(seats: list, w: Any) -> list[str]:
    seats = list(seats or [])
    if not seats:
        return [w.pick("ніхто не втратив ходу", "nobody has lost a turn")]
    many = len(seats) > 1
    return [w.pick(f"{w.seats(seats)} {'втратили' if many else 'втратив'} хід",
                   f"{w.seats(seats)} {'have' if many else 'has'} lost the turn")]


def _asleep(ids: list, w: Any) -> list[str]:
    ids = list(ids or [])
    if not ids:
        return [w.pick("жоден персонаж не спить", "no character is asleep")]
    return [w.pick(f"{'сплять' if len(ids) > 1 else 'спить'} лише {w.names(ids)}",
                   f"only {w.names(ids)} {_are(ids, w)} asleep")]


def _rotated(ids: list, w: Any) -> list[str]:
    ids = list(ids or [])
    if not ids:
        return [w.pick("жодну карту не обернено", "no card is rotated")]
    return [w.pick(f"обернено лише {w.cards(ids, 'acc')}",
                   f"only {w.names(ids)} {_are(ids, w)} rotated")]


def _stat(uk: str, en: str) -> Any:
    """Group Strength or Speed by seat: «Сила групи гравця А — 6, гравця Б — 4»."""
    def phrase(values: dict, w: Any) -> list[str]:
        parts = []
        for i, seat in enumerate(sorted(values)):
            v = values[seat]
            if i == 0:
                parts.append(w.pick(f"{uk} групи {w.seat(seat, 'gen')} — {v}",
                                    f"{w.seat(seat)}’s group has {en} {v}"))
            else:
                parts.append(w.pick(f"{w.seat(seat, 'gen')} — {v}",
                                    f"{w.seat(seat)}’s {v}"))
        return [", ".join(parts)] if parts else []
    return phrase


def _battle(b: dict, w: Any) -> list[str]:
    parts = []
    if b.get("totals"):
        a, d = b["totals"][0], b["totals"][-1]
        parts.append(w.pick(f"битва закінчується з рахунком {a} проти {d}",
                            f"the battle ends {a} against {d}"))
    if "winner" in b:
        win = b["winner"]
        if win == "foe":
            parts.append(w.pick("перемагає ворог", "the foe wins"))
        else:
            parts.append(w.pick(f"перемагає {w.seat(win)}", f"{w.seat(win)} wins it"))
    return ["; ".join(parts)] if parts else []


def _check(c: dict, w: Any) -> list[str]:
    passed = c.get("passed")
    if "total" in c:
        n = c["total"]
        if passed is None:
            return [w.pick(f"перевірка Швидкості дає {n}", f"the Speed check totals {n}")]
        return [w.pick(f"перевірка Швидкості дає {n}: її {'пройдено' if passed else 'провалено'}",
                       f"the Speed check totals {n} and {'succeeds' if passed else 'fails'}")]
    if passed is None:
        return []
    return [w.pick(f"перевірку Швидкості {'пройдено' if passed else 'провалено'}",
                   f"the Speed check {'succeeds' if passed else 'fails'}")]


def _discards(piles: dict, w: Any) -> list[str]:
    out = []
    for pile, ids in piles.items():
        ids = list(ids or [])
        if not ids:
            continue                       # an empty list checks nothing
        many = len(ids) > 1
        out.append(w.pick(f"{_PILES[pile][0]} {'лежать' if many else 'лежить'} {w.cards(ids)}",
                          f"{w.names(ids)} {_are(ids, w)} in {_PILES[pile][1]}"))
    return out


def _sizes(sizes: dict, w: Any) -> list[str]:
    parts = []
    for zone, n in sizes.items():
        if zone == "active":
            uk_forms = ("активна локація", "активні локації", "активних локацій")
            en_forms = ("active location", "active locations")
            parts.append(w.pick(f"на столі {w.count(n, uk_forms)}" if n
                                else "на столі немає активних локацій",
                                f"the table holds {w.count(n, en_forms)}" if n
                                else "no active location is on the table"))
            continue
        uk, uk_empty, en, en_empty = _ZONES[zone]
        parts.append(w.pick(f"{uk} {w.count(n, _CARDS[0])}" if n else uk_empty,
                            f"{en} {w.count(n, _CARDS[1])}" if n else en_empty))
    return [", ".join(parts)] if parts else []


def _turns(n: int, w: Any) -> list[str]:
    return [w.pick(f"гра дійшла до ходу {n}", f"the game has reached turn {n}")]


def _winner(win: str, w: Any, winners: Any = None) -> list[str]:
    if winners is not None and (list(winners) == [win] or (win == "none" and not winners)):
        return []                          # said with the common key `winners`
    if win == "none":
        return [w.pick("переможця поки немає", "nobody has won yet")]
    return [w.pick(f"гру виграє {w.seat(win)}", f"{w.seat(win)} wins the game")]


def _explored(values: dict, w: Any) -> list[str]:
    out = []
    for loc, n in values.items():
        out.append(w.pick(f"локацію {w(loc)} досліджено {_times(n, w)}" if n
                          else f"локацію {w(loc)} не досліджено жодного разу",
                          f"{w(loc)} is explored {_times(n, w)}" if n
                          else f"{w(loc)} is not explored at all"))
    return out


def _alarms(n: int, w: Any) -> list[str]:
    if not n:
        return [w.pick("хибних тривог не було", "there is no false alarm")]
    if n == 1:
        return [w.pick("сталася одна хибна тривога", "there is one false alarm")]
    forms = ("хибна тривога", "хибні тривоги", "хибних тривог")
    return [w.pick(f"{w.form(n, ('сталася', 'сталися', 'сталося'))} {w.count(n, forms)}",
                   f"there {'is' if n == 1 else 'are'} "
                   f"{w.count(n, ('false alarm', 'false alarms'))}")]


_PHRASES = {
    "zones": _zones, "locations": _locations, "leads": _leads, "face_down": _face_down,
    "final": _final, "progress": _progress, "final_progress": _final_progress, "held": _held,
    "skip": _skip, "lost": _lost, "asleep": _asleep, "rotated": _rotated,
    "strength": _stat("Сила", "Strength"), "speed": _stat("Швидкість", "Speed"),
    "battle": _battle, "check": _check, "discards": _discards, "sizes": _sizes,
    "turns": _turns, "explored": _explored, "alarms": _alarms,
}
