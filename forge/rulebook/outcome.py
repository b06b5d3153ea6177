"""A scenario's `expect:` in words: the sentences a worked example prints under its story.

A rulebook quotes a scenario (`{{ scenario('stem') }}`) and prints what the rules engine checks
at its end, so every sentence here is generated from the same data the engine asserts, and is
true for that scenario. Nothing in this module names a game:

- the common keys of every engine (`order`, `scores`, `winners`, `over`; forge/rules/scenario.py)
  are phrased here; `asked` (decision kinds, engine words) is not printed;
- an engine's own keys are phrased by its optional hook
  ``describe_expect(expect, lang, words) -> list[str]`` of the `Engine` (docs/engines.md). A key that nobody phrases is not
  printed: no engine key, YAML key or card id ever reaches the page;
- an engine may name its score unit with ``score_unit={lang: (plural forms)}``, the uk forms
  in the accusative after «має» (Love Formula: ПО / VP; the rave game: душу, душі, душ / soul,
  souls); without it a score is counted in «очки» / “points”.

`Words` is what a hook phrases with: card ids to printed names in the language's quotes, seats
as «гравець А» in the grammatical case a sentence needs, counts with CLDR plural forms, lists
joined the language's way. Only `uk` and `en` have sentences; for another language the example
prints no outcome line rather than a line in the wrong language.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable

from ..text.plural import plural
from ..text.typography import NBSP, quoted, typeset

if TYPE_CHECKING:
    from ..rules.core import Engine

LANGS = ("uk", "en")
#: Seat letters as a Ukrainian text writes them (A B C D are Latin letters).
_UK_SEATS = dict(zip("ABCDEFGH", "АБВГДЕЄЖ"))
#: «гравець» by case, singular and plural.
_UK_PLAYER = {
    "nom": ("гравець", "гравці"), "gen": ("гравця", "гравців"), "dat": ("гравцеві", "гравцям"),
    "acc": ("гравця", "гравців"), "ins": ("гравцем", "гравцями"), "loc": ("гравцеві", "гравцях"),
}
#: «карта» by case, singular and plural.
_UK_CARD = {"nom": ("карта", "карти"), "gen": ("карти", "карт"), "acc": ("карту", "карти"),
            "dat": ("карті", "картам"), "ins": ("картою", "картами"), "loc": ("карті", "картах")}
#: A score without the engine's score_unit (uk: the accusative after «має»).
_POINTS = {"uk": ("очко", "очки", "очок"), "en": ("point", "points")}


class Words:
    """The vocabulary a hook phrases with, in one language. Calling it with a card id gives the
    card's printed name in quotes («Пляж», “Beach”)."""

    def __init__(self, lang: str, names: dict[str, Any], game: Any = None):
        self.lang = lang
        self.game = game
        self._names = names

    # --- cards ------------------------------------------------------------------------
    def __call__(self, card_id: str) -> str:
        return quoted(self.plain(card_id), self.lang)

    def quote(self, text: str) -> str:
        """Any text in the language's quotes."""
        return quoted(text, self.lang)

    def plain(self, card_id: str) -> str:
        """The card's printed name without quotes (a name the game lacks: the id in words)."""
        name = self._names.get(card_id)
        text = localised(name, self.lang) if name is not None else card_id.replace("_", " ")
        return typeset(text, self.lang)

    def names(self, ids: Iterable[str]) -> str:
        """Quoted names joined («А», «Б» і «В»); a name listed three times is «А» ×3 (two card
        ids may share a printed name, as a promo card and the base card it replaces)."""
        counts = Counter(self(c) for c in ids)
        return self.join(name + (f"{NBSP}×{k}" if k > 1 else "") for name, k in counts.items())

    def cards(self, ids: Iterable[str], case: str = "nom") -> str:
        """uk: «карта «А»» / «карти «А» і «Б»» with the noun in `case`; en: the names alone."""
        ids = list(ids)
        if self.lang != "uk":
            return self.names(ids)
        noun = _UK_CARD[case][0 if len(ids) == 1 else 1]
        return f"{noun} {self.names(ids)}"

    def kind(self, card_type: str, subtype: str | None = None) -> str:
        """The printed name of a card type or subtype, from the game's manifest."""
        spec = self.game.manifest.card_types[card_type]
        return typeset(localised(spec.subtypes[subtype] if subtype else spec.name, self.lang),
                       self.lang)

    # --- seats ------------------------------------------------------------------------
    def letter(self, seat: str) -> str:
        return _UK_SEATS.get(seat, seat) if self.lang == "uk" else seat

    def letters(self, seats: Iterable[str]) -> str:
        return self.join(self.letter(s) for s in seats)

    def seat(self, seat: str, case: str = "nom") -> str:
        """«гравець А» («гравця А», «гравцеві А» ...), “player A”."""
        if self.lang == "uk":
            return f"{_UK_PLAYER[case][0]}{NBSP}{self.letter(seat)}"
        return f"player{NBSP}{seat}"

    def seats(self, seats: Iterable[str], case: str = "nom") -> str:
        """One seat as `seat`; several: «гравці А і Б», “players A and B”."""
        seats = list(seats)
        if len(seats) == 1:
            return self.seat(seats[0], case)
        noun = _UK_PLAYER[case][1] if self.lang == "uk" else "players"
        return f"{noun}{NBSP}{self.letters(seats)}"

    # --- numbers and lists -----------------------------------------------------------
    def form(self, n: int, forms: tuple[str, ...]) -> str:
        """The plural form of `forms` for `n` (uk: one, few, many; en: one, other)."""
        return plural(n, forms, self.lang)

    def count(self, n: int, forms: tuple[str, ...]) -> str:
        """`n` and its noun, held together: «5 карт», “5 cards”."""
        return f"{n}{NBSP}{self.form(n, forms)}"

    def join(self, items: Iterable[str]) -> str:
        items = list(items)
        if len(items) <= 1:
            return "".join(items)
        last = " і " if self.lang == "uk" else " and "
        return ", ".join(items[:-1]) + last + items[-1]

    def pick(self, uk: str, en: str) -> str:
        """The sentence for this language of two written side by side."""
        return uk if self.lang == "uk" else en

    # --- phrases more than one game needs --------------------------------------------
    def holdings(self, values: dict[str, int], forms: tuple[str, ...],
                 order: Iterable[str] | None = None) -> str:
        """«Гравець А має 11 ПО, гравець Б — 0 ПО»; seats with an equal value of 2 or more (not
        21, 31 ...: «по» wants another case there) grouped: «гравці А і Б мають по 8 ПО». The
        uk `forms` are the accusative after «має» (душу, душі, душ). en: “Player A has 11 VP,
        player B has 0 VP”, “players A and B have 8 VP each”. Seats in letter order, or `order`."""
        groups: dict[tuple, list[str]] = {}
        for seat in (list(order) if order is not None else sorted(values)):
            n = values[seat]
            single = n == 0 or plural(n, ("one", "few", "many"), self.lang) == "one"
            groups.setdefault((n, seat) if single else (n,), []).append(seat)
        parts = []
        for i, (key, seats) in enumerate(groups.items()):
            each = len(seats) > 1
            amount = self.count(key[0], forms)
            if self.lang == "uk":
                amount = f"по {amount}" if each else amount
                verb = ("мають " if each else "має ") if i == 0 else "— "
            else:
                amount = f"{amount} each" if each else amount
                verb = "have " if each else "has "
            parts.append(f"{self.seats(seats)} {verb}{amount}")
        return ", ".join(parts)

    def hand(self, seat: str, ids: list[str]) -> str:
        if not ids:
            return self.pick(f"рука {self.seat(seat, 'gen')} порожня",
                             f"{self.seat(seat)}’s hand is empty")
        return self.pick(f"у {self.seat(seat, 'gen')} на руці {self.cards(ids)}",
                         f"{self.seat(seat)} holds {self.cards(ids)}")

    def hand_size(self, seat: str, n: int) -> str:
        if n == 0:
            return self.hand(seat, [])
        cards = self.count(n, ("карта", "карти", "карт"))
        return self.pick(f"у {self.seat(seat, 'gen')} на руці {cards}",
                         f"{self.seat(seat)} holds {self.count(n, ('card', 'cards'))}")

    def in_discard(self, ids: list[str]) -> str:
        """The cards are in the discard pile (not: only they are)."""
        many = sum(Counter(ids).values()) > 1
        return self.pick(f"у скиді {'лежать' if many else 'лежить'} {self.cards(ids)}",
                         f"{self.cards(ids)} {'are' if many else 'is'} in the discard pile")

    def not_in_discard(self, ids: list[str]) -> str:
        many = len(ids) > 1
        return self.pick(f"{self.cards(ids, 'gen')} у скиді немає",
                         f"{self.cards(ids)} {'are' if many else 'is'} not in the discard pile")


def localised(value: Any, lang: str) -> str:
    """A `{uk: ..., en: ...}` text (a mapping or a model with the languages as fields)."""
    if isinstance(value, dict):
        return str(value.get(lang) or next(iter(value.values()), ""))
    if value is not None and not isinstance(value, str):
        text = getattr(value, lang, None)
        if text:
            return str(text)
    return "" if value is None else str(value)


def sentence(text: str) -> str:
    """Capital first letter, a full stop at the end."""
    text = text.strip()
    if not text:
        return ""
    for i, ch in enumerate(text):
        if ch.isalpha():
            text = text[:i] + ch.upper() + text[i + 1:]
            break
        if ch not in "«“„\"'‘":
            break
    return text if text[-1] in ".!?" else text + "."


def common_before(expect: dict, w: Words) -> list[str]:
    """Sentences for the common keys that open an outcome: the order of play."""
    orders = expect.get("order") or []
    if not orders:
        return []
    if len(orders) == 1:
        first, *rest = orders[0]
        if not rest:
            return [w.pick(f"ходить лише {w.seat(first)}", f"only {w.seat(first)} plays")]
        return [w.pick(f"першим ходить {w.seat(first)}, за ним — {w.seats(rest)}",
                       f"{w.seat(first)} goes first, then {w.seats(rest)}")]
    rounds = "; ".join(", ".join(w.letter(s) for s in o) for o in orders)
    return [w.pick(f"черговість ходів: {rounds}", f"order of play, each time: {rounds}")]


def common_after(expect: dict, w: Words, unit: tuple[str, ...]) -> list[str]:
    """Sentences for the common keys that close an outcome: scores, winners, game over."""
    out = []
    if expect.get("scores"):
        out.append(w.holdings(expect["scores"], unit))
    if "winners" in expect:
        win = list(expect["winners"] or [])
        if not win:
            out.append(w.pick("переможця немає", "nobody wins"))
        elif len(win) == 1:
            out.append(w.pick(f"перемагає {w.seat(win[0])}", f"{w.seat(win[0])} wins"))
        else:
            out.append(w.pick(f"{w.seats(win)} ділять перемогу",
                              f"{w.seats(win)} share the victory"))
    if "over" in expect and not ("winners" in expect and expect["over"]):
        out.append(w.pick("гра закінчується", "the game is over") if expect["over"]
                   else w.pick("гра триває", "the game goes on"))
    return out


def describe(expect: dict, lang: str, names: dict[str, Any], engine: Engine | None = None,
             game: Any = None) -> list[str]:
    """The sentences, typeset for `lang`, that say what `expect` asserts: common keys here,
    the engine's own through its `describe_expect` hook; keys nobody phrases are left out."""
    if lang not in LANGS or not isinstance(expect, dict):
        return []
    w = Words(lang, names, game)
    unit = (engine.score_unit if engine else {}).get(lang) or _POINTS[lang]
    hook = engine.describe_expect if engine else None
    own = list(hook(expect, lang, w)) if hook is not None else []
    texts = common_before(expect, w) + own + common_after(expect, w, tuple(unit))
    return [typeset(s, lang) for s in map(sentence, texts) if s]
