"""A card name in the nominative where the Ukrainian sentence needs another case: «розігрує
«Аптечка»», «крім «Крижана цитадель Вельмар»» (`rulebook-case`).

The rendered rulebook is read for a quoted name right after a word that governs a case: a
preposition with one case only, or a verb of the rules' vocabulary that takes its object in the
accusative. A name whose form in that case is its nominative («через «Іспити»») is right as it is;
a name after a noun («карту «Аптечка»») is never flagged. A finding points at the template line
that printed the name (`Rendered.quoted`).
"""
from __future__ import annotations

import re
from typing import Iterator

from ..errors import Finding
from ..model import Game
from ..rulebook.context import Rendered
from ..text.inflect import inflect

_GEN = ("від", "до", "без", "для", "крім", "окрім", "після", "замість", "біля", "серед", "навколо",
        "проти", "немає", "позбутися", "позбудеться", "позбавляє", "уникає")
_ACC = ("через", "про", "крізь",
        # what the rules do with a card
        "грає", "грати", "зіграти", "зіграє", "зіграйте", "зіграв", "зіграла", "зіграли", "граєте",
        "розігрує", "розігрують", "розігруєте", "розіграти", "розіграйте", "розіграв", "розіграла",
        "скидає", "скидають", "скидаєте", "скинути", "скиньте", "скинув", "скинула",
        "обертає", "обертаєте", "обернути", "оберніть", "бере", "беріть", "взяти", "візьміть",
        "тягне", "тягніть", "витягнути", "витягніть", "кладе", "покладіть", "покласти",
        "викладає", "викладають", "викладіть", "докладає", "докидає", "підкидає",
        "прикріплює", "прикріпіть", "прикріпити", "відкриває", "відкрийте", "відкрити",
        "отримує", "отримуєте", "отримати", "наймає", "найміть", "найняти", "вбиває", "знищує",
        "обирає", "оберіть", "обрати", "вибирає", "виберіть", "вибрати", "показує", "покажіть",
        "замініть", "замінити", "перемагає", "перемогти", "присипляє", "приспати", "краде",
        "вкрасти")
_INS = ("між", "перед", "над")
_DAT = ("завдяки", "всупереч")
#: The case each governing word asks for.
GOVERNS = {**{w: "gen" for w in _GEN}, **{w: "acc" for w in _ACC}, **{w: "ins" for w in _INS},
           **{w: "dat" for w in _DAT}}
_CASE_NAMES = {"gen": "genitive", "acc": "accusative", "ins": "instrumental", "dat": "dative"}
_GOVERNED = re.compile(r"(?<![\w\-ʼ])(\w+)[ \u00a0]«([^«»]+)»")


def case_findings(game: Game, rendered: Rendered,
                  forms: dict[str, dict[str, str]]) -> Iterator[Finding]:
    """`rendered`, a Ukrainian template's Markdown, read for card names in the wrong case;
    `forms` are the names' forms that the words file gives, by card id."""
    cards = {}
    for card in game.cards:
        cards.setdefault(card.name["uk"], card.id)
    text = rendered.markdown
    for m in _GOVERNED.finditer(text):
        word, name = m.group(1), m.group(2)
        case = GOVERNS.get(word.lower())
        card_id = cards.get(name)
        if case is None or card_id is None:
            continue
        right = inflect(name, case, "uk", forms.get(card_id))
        if right == name:
            continue
        quoted = f"«{name}»"
        nth = text.count(quoted, 0, m.start(2))
        printed = [(f, line) for q, f, line in rendered.quoted if q == quoted]
        file, line = printed[nth] if nth < len(printed) else (rendered.template,
                                                              rendered.line_of(f"{word} {quoted}"))
        yield Finding(file, line, 1 if line else 0, "rulebook-case",
                      f"«{word} {quoted}»: after «{word}» the name takes the {_CASE_NAMES[case]}, "
                      f"«{right}»",
                      f"write {{{{ '{card_id}' | card('{case}') }}}}, or name it after a noun "
                      f"(«карту {quoted}»)", card_id)
