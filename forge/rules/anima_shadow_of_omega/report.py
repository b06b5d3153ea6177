"""Anima in the balance report, in the rulebook's words (фаза скидання, пересування, взаємодії,
дослідження; відбій; обернути; приспати): the statistics' text lines, cards named as printed and
numbers written as the language writes them; what each decision and option is called; and the
figures as the PDF's tables."""
from __future__ import annotations

from typing import Any, Callable

from ..figures import Column, FigureTable, games

#: Each kind of decision (`ask`'s ``kind``): what the seat is choosing.
KIND_NAMES = {
    "keep": {"uk": "персонаж, якого залишити на початку", "en": "character to keep at setup"},
    "return": {"uk": "бонус, який повернути на початку", "en": "bonus to return at setup"},
    "discard": {"uk": "фаза скидання", "en": "discard phase"},
    "drop": {"uk": "що скинути", "en": "what to discard"},
    "pickup": {"uk": "що підібрати з відбою", "en": "what to pick up from the discard pile"},
    "move": {"uk": "фаза пересування", "en": "movement phase"},
    "go": {"uk": "локація, куди йти", "en": "location to go to"},
    "new": {"uk": "нова локація", "en": "new location"},
    "to": {"uk": "локація, куди перенестися", "en": "location to travel to"},
    "redirect": {"uk": "куди перенаправити чужу групу", "en": "where to redirect another group"},
    "remove": {"uk": "локація, яку прибрати", "en": "location to remove"},
    "save": {"uk": "чи рятувати локацію", "en": "whether to save a location"},
    "pay": {"uk": "бонус в оплату", "en": "bonus to pay with"},
    "interact": {"uk": "фаза взаємодії", "en": "interaction phase"},
    "offer": {"uk": "пропозиція обміну", "en": "trade offer"},
    "answer": {"uk": "відповідь на обмін", "en": "answer to a trade"},
    "accept": {"uk": "чи погодитися на обмін", "en": "whether to accept a trade"},
    "victim": {"uk": "кого пограбувати", "en": "whom to rob"},
    "explore": {"uk": "фаза дослідження", "en": "exploration phase"},
    "reward": {"uk": "нагорода локації", "en": "location reward"},
    "battle": {"uk": "битва", "en": "battle"},
    "kill": {"uk": "персонаж, який гине", "en": "character who dies"},
    "guard": {"uk": "хто захищає", "en": "who guards"},
    "cancel": {"uk": "скасувати подію", "en": "cancelling an event"},
    "counter": {"uk": "відповідь на бонус суперника", "en": "answer to a rival's bonus"},
    "reroll": {"uk": "перекинути кубик", "en": "rerolling a die"},
    "lose": {"uk": "бонус, який скинути", "en": "bonus to discard"},
    "recruit": {"uk": "персонаж із відбою", "en": "character from the discard pile"},
    "sleep": {"uk": "кого приспати", "en": "whom to put to sleep"},
    "peek": {"uk": "карта, яку покласти згори", "en": "card to put on top"},
    "exchange": {"uk": "бонус, який віддати в обмін", "en": "bonus to give in exchange"},
    "take": {"uk": "бонус, який забрати з відбою", "en": "bonus to take from the discard pile"},
}
#: Each option's verb: what choosing it does.
VERB_NAMES = {
    "pass": {"uk": "пропустити", "en": "pass"},
    "discard": {"uk": "скинути", "en": "discard"},
    "drop": {"uk": "скинути бонус", "en": "discard a bonus"},
    "dismiss": {"uk": "відпустити персонажа", "en": "dismiss a character"},
    "leave": {"uk": "вийти з організації", "en": "leave the organisation"},
    "keep": {"uk": "залишити", "en": "keep"},
    "return": {"uk": "повернути в колоду", "en": "return to the deck"},
    "take": {"uk": "забрати", "en": "take"},
    "stay": {"uk": "залишитися", "en": "stay"},
    "rest": {"uk": "відпочити", "en": "rest"},
    "go": {"uk": "піти до локації", "en": "go to a location"},
    "new": {"uk": "відкрити нову локацію", "en": "open a new location"},
    "new_pick": {"uk": "нова локація з відбою", "en": "new location from the discard pile"},
    "new_deck": {"uk": "нова локація з колоди", "en": "new location from a deck"},
    "to": {"uk": "вибрати локацію", "en": "choose a location"},
    "remove": {"uk": "прибрати локацію", "en": "remove a location"},
    "save": {"uk": "рятувати", "en": "save"},
    "pay": {"uk": "заплатити", "en": "pay"},
    "attack": {"uk": "напасти", "en": "attack"},
    "trade": {"uk": "торгувати", "en": "trade"},
    "rob": {"uk": "пограбувати", "en": "rob"},
    "give": {"uk": "віддати", "en": "give"},
    "done": {"uk": "готово", "en": "done"},
    "accept": {"uk": "погодитися", "en": "accept"},
    "explore": {"uk": "досліджувати", "en": "explore"},
    "speed": {"uk": "перевірка Швидкості для місії", "en": "Speed check for a mission"},
    "challenge": {"uk": "битва за місію", "en": "battle for a mission"},
    "reward": {"uk": "узяти нагороду", "en": "take a reward"},
    "play": {"uk": "зіграти бонус", "en": "play a bonus"},
    "use": {"uk": "обернути персонажа", "en": "rotate a character"},
    "lose": {"uk": "втратити", "en": "lose"},
    "guard": {"uk": "захистити", "en": "guard"},
    "recruit": {"uk": "повернути в групу", "en": "recruit"},
    "sleep": {"uk": "приспати", "en": "put to sleep"},
    "top": {"uk": "покласти згори", "en": "put on top"},
}

_LINES: dict[str, dict[str, Any]] = {
    "en": {"length": "Game length: {mean} turns on average (median {median}, 90% within {p90}, "
                     "longest {max}); the turn cap of {cap} was hit in {capped} of {games}",
           "missions": "Missions (completed in the share of games where in play; mean turn):",
           "mission": "  {kind}: {name}: {rate}, turn {turn}", "mission_never": "  {kind}: {name}: {rate}, never",
           "kinds": {"basic": "main", "final": "final"},
           "monsters": "Monsters (strength: fights, won by the monster):",
           "monster": "  {strength:>2} {name}: {fights} fights, {rate}",
           "locations": "Locations (explorations per game; rewards taken):",
           "location": "  level {level} {name}: {per_game}; {rewards}",
           "rewards": {"bonus": "bonus", "hire": "hire", "mission": "mission", "special": "special"},
           "characters": "Characters (kept when offered at setup; survival of those who joined a group):",
           "character": "  {name}: picked {pick}, survived {surv}",
           "never_offered": "never offered", "never_joined": "never joined",
           "never": "Monsters never fought in {games}: {names}"},
    "uk": {"length": "Тривалість гри: у середньому {mean} ходу (медіана {median}, 90 % партій — "
                     "до {p90}, найдовша — {max}); межу в {cap} ходів досягнуто в {capped} з {games}",
           "missions": "Місії (частка виконаних серед партій, де місія була в грі; середній хід):",
           "mission": "  {kind}: {name}: {rate}, хід {turn}", "mission_never": "  {kind}: {name}: {rate}, жодного разу",
           "kinds": {"basic": "основна", "final": "кінцева"},
           "monsters": "Почвари (сила: битви, перемоги почвари):",
           "monster": "  {strength:>2} {name}: битв — {fights}, {rate}",
           "locations": "Локації (досліджень за гру; узяті нагороди):",
           "location": "  рівень {level} {name}: {per_game}; {rewards}",
           "rewards": {"bonus": "бонус", "hire": "найм", "mission": "місія", "special": "особливе"},
           "characters": "Персонажі (залишені, коли їх пропонували на початку; вижили з тих, хто був у групі):",
           "character": "  {name}: залишили {pick}, вижили {surv}",
           "never_offered": "не пропонували", "never_joined": "не були в групі",
           "never": "Почвари, з якими не билися за {games}: {names}"},
}


def report_lines(out: dict, n: int, names: dict, lang: str) -> list[str]:
    """The report's lines in ``lang``, cards named as printed, numbers as the language writes."""
    w = _LINES[lang]
    name = lambda cid: names.get(cid, {}).get(lang, cid)  # noqa: E731
    dec = (lambda v: str(v).replace(".", ",")) if lang == "uk" else str  # noqa: E731
    pct = (lambda v: dec(f"{v:.1f}") + "\u00a0%") if lang == "uk" else (lambda v: f"{v:.1f}%")  # noqa: E731
    t = out["turns"]
    lines = [w["length"].format(mean=dec(t["mean"]), median=t["median"], p90=t["p90"], max=t["max"],
                                cap=out["turn_cap"], capped=out["turn_cap_hits"], games=games(n, lang, "gen")), w["missions"]]
    for mid, m in out["missions"].items():
        kind = w["kinds"].get(m["kind"], m["kind"])
        if m["mean_turn"] is not None:
            lines.append(w["mission"].format(kind=kind, name=name(mid), rate=pct(100 * m["rate"]),
                                             turn=dec(m["mean_turn"])))
        else:
            lines.append(w["mission_never"].format(kind=kind, name=name(mid), rate=pct(100 * m["rate"])))
    lines.append(w["monsters"])
    for mid, m in out["monsters"].items():
        lines.append(w["monster"].format(strength=m["strength"], name=name(mid), fights=m["fights"],
                                         rate=pct(100 * m["win_rate"])))
    lines.append(w["locations"])
    for lid, loc in out["locations"].items():
        rewards = ", ".join(f"{w['rewards'].get(k, k)} {v}" for k, v in loc["rewards"].items())
        lines.append(w["location"].format(level=loc["level"], name=name(lid),
                                          per_game=dec(loc["explored_per_game"]), rewards=rewards))
    lines.append(w["characters"])
    for cid, c in out["characters"].items():
        pick = pct(100 * c["pick_rate"]) if c["pick_rate"] is not None else w["never_offered"]
        surv = pct(100 * c["survival"]) if c["survival"] is not None else w["never_joined"]
        lines.append(w["character"].format(name=name(cid), pick=pick, surv=surv))
    never = [name(mid) for mid, m in out["monsters"].items() if not m["fights"]]
    if never:
        lines.append(w["never"].format(games=games(n, lang), names=", ".join(never)))
    return lines


_TABLES: dict[str, dict[str, Any]] = {
    "en": {"missions": "Missions: completed in the games where in play",
           "kind": "Kind", "mission": "Mission", "in_play": "In play, games", "done": "Completed",
           "rate": "Completed, share", "turn": "Mean turn",
           "monsters": "Monsters: fights, and the share the monster won",
           "strength": "Strength", "monster": "Monster", "fights": "Fights", "won": "Monster won",
           "locations": "Locations: explorations a game, and rewards taken",
           "level": "Level", "location": "Location", "explored": "Explored a game",
           "characters": "Characters: kept when offered at setup, and survival in a group",
           "character": "Character", "kept": "Kept", "joined": "In a group, games",
           "survived": "Survived",
           "characters_note": "A dash: never offered at setup, or never in a group."},
    "uk": {"missions": "Місії: виконано в партіях, де місія була в грі",
           "kind": "Вид", "mission": "Місія", "in_play": "У грі, партій", "done": "Виконано",
           "rate": "Виконано, частка", "turn": "Середній хід",
           "monsters": "Почвари: битви і частка, яку виграла почвара",
           "strength": "Сила", "monster": "Почвара", "fights": "Битв", "won": "Виграла почвара",
           "locations": "Локації: досліджень за партію й узяті нагороди",
           "level": "Рівень", "location": "Локація", "explored": "Досліджень за партію",
           "characters": "Персонажі: залишені, коли їх пропонували на початку, і ті, що вижили "
                         "в групі",
           "character": "Персонаж", "kept": "Залишили", "joined": "У групі, партій",
           "survived": "Вижили",
           "characters_note": "Риска: персонажа не пропонували на початку або він не був у групі."},
}


def report_tables(figures: dict, games: int, name: Callable[[str], str],
                  lang: str) -> list[FigureTable]:
    """The missions, monsters, locations (a column per kind of reward) and characters, in
    ``lang``, cards named as printed."""
    w, lines = _TABLES[lang], _LINES[lang]
    missions = FigureTable(w["missions"], (
        Column(w["kind"]), Column(w["mission"]), Column(w["in_play"], "count"),
        Column(w["done"], "count"), Column(w["rate"], "share"), Column(w["turn"], "decimal")),
        [(lines["kinds"].get(m["kind"], m["kind"]), name(mid), m["in_play"], m["completed"],
          m["rate"] if m["in_play"] else None, m["mean_turn"])
         for mid, m in figures["missions"].items()])
    monsters = FigureTable(w["monsters"], (
        Column(w["strength"], "count"), Column(w["monster"]), Column(w["fights"], "count"),
        Column(w["won"], "share")),
        [(m["strength"], name(mid), m["fights"], m["win_rate"] if m["fights"] else None)
         for mid, m in figures["monsters"].items()])
    kinds = list(dict.fromkeys(k for loc in figures["locations"].values() for k in loc["rewards"]))
    locations = FigureTable(w["locations"], (
        Column(w["level"], "count"), Column(w["location"]), Column(w["explored"], "decimal"),
        *(Column(lines["rewards"].get(k, k).capitalize(), "count") for k in kinds)),
        [(loc["level"], name(lid), loc["explored_per_game"],
          *(loc["rewards"].get(k) for k in kinds)) for lid, loc in figures["locations"].items()])
    characters = FigureTable(w["characters"], (
        Column(w["character"]), Column(w["kept"], "share"), Column(w["joined"], "count"),
        Column(w["survived"], "share")),
        [(name(cid), c["pick_rate"], c["joined"], c["survival"])
         for cid, c in figures["characters"].items()], w["characters_note"])
    return [missions, monsters, locations, characters]
