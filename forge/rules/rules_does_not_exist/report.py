"""The rave game in the balance report, in the rulebook's words (Хост, Рятівник, Загарбник,
лайнап, інвентар, Найомничок): what each decision and option is called, and the figures of
`statistics` as tables."""
from __future__ import annotations

from typing import Callable

from ..figures import Column, FigureTable

#: Each kind of decision (`ask`'s ``kind``): what the seat is choosing.
KIND_NAMES = {
    "gentle": {"uk": "«Ніжний раунд»: карта в лайнап", "en": "gentle round: a card for the lineup"},
    "drop": {"uk": "карта, яку скинути до ліміту", "en": "card to discard down to the limit"},
    "reroll": {"uk": "перекинути очікування", "en": "rerolling the expectation"},
    "open": {"uk": "очікування: рейв, пас, запрошення, обмін, покупка",
             "en": "expectation: rave, pass, invite, trade, buy"},
    "monster": {"uk": "монстр, якого запросити", "en": "monster to invite"},
    "pay": {"uk": "карта в оплату запрошення", "en": "card paid for an invitation"},
    "hire": {"uk": "карта в оплату Найомничка", "en": "card paid for a Mercenary"},
    "deal": {"uk": "обмін перед рейвом", "en": "trade before the rave"},
    "terms": {"uk": "умови обміну", "en": "terms of a trade"},
    "answer": {"uk": "відповідь на обмін", "en": "answer to a trade"},
    "give": {"uk": "карта, яку віддати за обміном", "en": "card to give in a trade"},
    "rave": {"uk": "хід рейву", "en": "move in the rave"},
    "toss": {"uk": "карта Найомничка в лайнап", "en": "Mercenary's card for the lineup"},
    "rescue": {"uk": "чи стати Рятівником", "en": "whether to be the Rescuer"},
    "share": {"uk": "обіцяна карта Рятівникові", "en": "promised card for the Rescuer"},
    "keep": {"uk": "карта з лайнапу в інвентар", "en": "card from the lineup to the inventory"},
    "shop": {"uk": "покупка після рейву", "en": "buying after the rave"},
    "limit": {"uk": "карта понад ліміт", "en": "card over the limit"},
    "discard": {"uk": "карта, яку скинути", "en": "card to discard"},
    "dismiss": {"uk": "Найомничок, якого відпустити", "en": "Mercenary to dismiss"},
    "reset": {"uk": "Обнулення: заплатити чи піти", "en": "Reset: pay or leave"},
}
#: Each option's verb: what choosing it does.
VERB_NAMES = {
    "rave": {"uk": "почати рейв", "en": "start the rave"},
    "pass": {"uk": "пас", "en": "pass"},
    "invite": {"uk": "запросити монстра", "en": "invite a monster"},
    "trade": {"uk": "запропонувати обмін", "en": "offer a trade"},
    "buy": {"uk": "купити Клас", "en": "buy a Class"},
    "hire": {"uk": "найняти Найомничка", "en": "hire a Mercenary"},
    "keep": {"uk": "залишити", "en": "keep"},
    "reroll": {"uk": "перекинути", "en": "reroll"},
    "lay": {"uk": "викласти з руки", "en": "lay from the hand"},
    "lay_inv": {"uk": "викласти з інвентаря", "en": "lay from the inventory"},
    "add": {"uk": "докласти в чужий лайнап", "en": "add to another lineup"},
    "add_inv": {"uk": "докласти з інвентаря в чужий лайнап",
                "en": "add to another lineup from the inventory"},
    "merc": {"uk": "покликати Найомничка", "en": "call a Mercenary"},
    "call": {"uk": "покликати Рятівника", "en": "call a Rescuer"},
    "invade": {"uk": "стати Загарбником", "en": "invade"},
    "stand": {"uk": "досить", "en": "stand"},
    "toss": {"uk": "вибрати карту Найомничка", "en": "choose a Mercenary's card"},
    "pay": {"uk": "заплатити", "en": "pay"},
    "pay_inv": {"uk": "заплатити з інвентаря", "en": "pay from the inventory"},
    "put": {"uk": "запропонувати карту з руки", "en": "offer a card from the hand"},
    "put_inv": {"uk": "запропонувати карту з інвентаря", "en": "offer a card from the inventory"},
    "want": {"uk": "попросити карти", "en": "ask for cards"},
    "give": {"uk": "віддати з руки", "en": "give from the hand"},
    "give_inv": {"uk": "віддати з інвентаря", "en": "give from the inventory"},
    "accept": {"uk": "погодитися", "en": "accept"},
    "decline": {"uk": "відмовитися", "en": "decline"},
    "done": {"uk": "готово", "en": "done"},
    "end": {"uk": "більше не купувати", "en": "stop buying"},
    "stash": {"uk": "покласти в інвентар", "en": "stash in the inventory"},
    "drop": {"uk": "скинути з руки", "en": "discard from the hand"},
    "drop_inv": {"uk": "скинути з інвентаря", "en": "discard from the inventory"},
    "dismiss": {"uk": "відпустити", "en": "dismiss"},
    "leave": {"uk": "піти з гри", "en": "leave the game"},
}

_WORDS = {
    "uk": {"resets": "Обнулення", "total": "Усього", "per_game": "За партію",
           "with": "Партій, де було хоча б одне",
           "monsters": "Монстри: скільки разів запросили й задовольнили",
           "level": "Рівень", "monster": "Монстр", "invited": "Запросили", "satisfied": "Задовольнили",
           "rate": "Задоволено, частка",
           "classes": "Клас переможця", "class": "Клас", "share": "Частка перемог",
           "none": "без класу"},
    "en": {"resets": "Resets", "total": "In all", "per_game": "A game",
           "with": "Games with at least one",
           "monsters": "Monsters: times invited and satisfied",
           "level": "Level", "monster": "Monster", "invited": "Invited", "satisfied": "Satisfied",
           "rate": "Satisfied, share",
           "classes": "The winner's Class", "class": "Class", "share": "Share of wins",
           "none": "no class"},
}


def report_tables(figures: dict, games: int, name: Callable[[str], str],
                  lang: str) -> list[FigureTable]:
    """The resets, the monsters (invited, satisfied) and the winners' Classes, in ``lang``."""
    w = _WORDS[lang]
    r = figures["resets"]
    resets = FigureTable(w["resets"], (Column(w["total"], "count"), Column(w["per_game"], "decimal"),
                                       Column(w["with"], "count")),
                         [(r["total"], r["per_game"], r["games_with_reset"])])
    monsters = FigureTable(w["monsters"], (
        Column(w["level"], "count"), Column(w["monster"]), Column(w["invited"], "count"),
        Column(w["satisfied"], "count"), Column(w["rate"], "share")),
        [(m["level"], name(cid), m["invited"], m["satisfied"],
          m["satisfied_rate"] if m["invited"] else None) for cid, m in figures["monsters"].items()])
    shares = sorted(figures["class_win_share"].items(), key=lambda kv: (-kv[1], kv[0]))
    classes = FigureTable(w["classes"], (Column(w["class"]), Column(w["share"], "share")),
                          [(w["none"] if c == "(none)" else name(c), v) for c, v in shares])
    return [resets, monsters, classes]
