"""How the balance report names Love Formula's decisions and options, in the rulebook's words:
«фаза відбору» / “selection phase”, «прикріпити» / “attach”, «скид» / “discard pile”."""
from __future__ import annotations

from typing import Callable

from ..figures import Cell, Column, FigureTable

#: Each kind of decision (`ask`'s ``kind``): what the seat is choosing.
KIND_NAMES = {
    "pick": {"uk": "карта у фазі відбору", "en": "card in the selection phase"},
    "play": {"uk": "карта, яку зіграти", "en": "card to play"},
    "react": {"uk": "реакція", "en": "reaction"},
    "place": {"uk": "куди покласти приготування", "en": "where a preparation goes"},
    "move": {"uk": "перестановка приготувань у свій хід", "en": "rearranging preparations in one's turn"},
    "target": {"uk": "пара, на яку зіграти карту", "en": "pair to play a card on"},
    "redirect": {"uk": "своя пара для перешкоди", "en": "own pair for an obstacle"},
    "opponent": {"uk": "суперник", "en": "opponent"},
    "dig": {"uk": "карта, яку залишити з колоди", "en": "card to keep from the deck"},
    "take": {"uk": "карта, яку забрати зі скиду", "en": "card to take from the discard pile"},
    "steal": {"uk": "приготування, яке забрати в суперника", "en": "preparation to steal"},
    "obstacle": {"uk": "перешкода, яку скинути", "en": "obstacle to discard"},
    "protect": {"uk": "пара, яку захистити", "en": "pair to protect"},
    "discard": {"uk": "прикріплена карта, яку скинути", "en": "attached card to discard"},
    "swap": {"uk": "які пари обміняти", "en": "pairs to swap"},
    "void": {"uk": "пара, яку розірвати", "en": "pair to break up"},
}
#: Each option's verb: what choosing it does.
VERB_NAMES = {
    "pick": {"uk": "відібрати", "en": "pick"},
    "play": {"uk": "зіграти", "en": "play"},
    "react": {"uk": "зіграти реакцію", "en": "react"},
    "pass": {"uk": "пропустити", "en": "pass"},
    "attach": {"uk": "прикріпити", "en": "attach"},
    "keep": {"uk": "залишити", "en": "keep"},
    "drop": {"uk": "скинути нову", "en": "discard the new one"},
    "move": {"uk": "перемістити", "en": "move"},
    "unattach": {"uk": "відкріпити", "en": "unattach"},
    "scrap": {"uk": "скинути неприкріплене", "en": "discard an unattached one"},
    "target": {"uk": "вибрати пару", "en": "choose a pair"},
    "opponent": {"uk": "вибрати суперника", "en": "choose an opponent"},
    "take": {"uk": "забрати", "en": "take"},
    "steal": {"uk": "забрати в суперника", "en": "steal"},
    "remove": {"uk": "скинути перешкоду", "en": "discard an obstacle"},
    "stop": {"uk": "досить скидати", "en": "stop discarding"},
    "protect": {"uk": "захистити", "en": "protect"},
    "discard": {"uk": "скинути", "en": "discard"},
    "swap": {"uk": "обміняти пари", "en": "swap pairs"},
    "void": {"uk": "розірвати пару", "en": "break up a pair"},
}

_WORDS = {
    "uk": {"deck": "Колода й пари за партію", "reshuffles": "Колоду перетасовано, разів",
           "ended": "Пар, розірваних перешкодою",
           "goals": "Цілі: у скількох партіях були в грі й здобуті",
           "goal": "Ціль", "in_play": "У грі, партій", "won": "Здобута, партій",
           "rate": "Здобута, частка"},
    "en": {"deck": "The deck and pairs, per game", "reshuffles": "Deck reshuffled, times",
           "ended": "Pairs ended by an obstacle",
           "goals": "Goals: games in play and won",
           "goal": "Goal", "in_play": "In play, games", "won": "Won, games",
           "rate": "Won, share"},
}


def report_tables(figures: dict, games: int, name: Callable[[str], str],
                  lang: str) -> list[FigureTable]:
    """Reshuffles and ended pairs per game, and each goal in play (games in play, won), in
    ``lang``; no goal table when no game played with the goals."""
    w = _WORDS[lang]
    tables = [FigureTable(w["deck"], (Column(w["reshuffles"], "decimal"), Column(w["ended"], "decimal")),
                          [(figures["reshuffles_per_game"], figures["pairs_ended_per_game"])])]
    goals: list[tuple[Cell, ...]] = [(name(cid), g["in_play"], g["won"], g["won_rate"])
             for cid, g in figures["goals"].items() if g["in_play"]]
    if goals:
        tables.append(FigureTable(w["goals"], (Column(w["goal"]), Column(w["in_play"], "count"),
                                               Column(w["won"], "count"), Column(w["rate"], "share")),
                                  goals))
    return tables
