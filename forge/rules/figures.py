"""An engine's own figures as tables for the balance report (`Engine.report_tables`).

An engine knows what its figures mean and names them in each language; the report knows how to
typeset them. So the engine hands over raw values, each column saying what kind of number it
holds, and the report writes every number as the reader's language does (babel) and sets the
columns from their content. Nothing here imports ReportLab: engines stay light to import.
"""
from __future__ import annotations

from typing import Literal, NamedTuple, Union

#: text: left-aligned words (a card's name); count: a whole number; decimal: two decimals;
#: share: a fraction of 1 printed as a percentage.
Kind = Literal["text", "count", "decimal", "share"]
#: A cell: words, a number the column's kind formats, or None (nothing to say: a dash).
Cell = Union[str, int, float, None]


class Column(NamedTuple):
    title: str
    kind: Kind = "text"


class FigureTable(NamedTuple):
    """One table of figures: its heading, columns, rows, and words printed under it (no
    numbers: the report writes those)."""

    title: str
    columns: tuple[Column, ...]
    rows: list[tuple[Cell, ...]]
    note: str = ""


#: «партія» (one play of a game), as a count takes it: after «за» (accusative) and after «з»
#: (genitive); English has one form for both.
_GAMES = {("uk", "acc"): ("партію", "партії", "партій"), ("uk", "gen"): ("партії", "партій", "партій"),
          ("en", "acc"): ("game", "games"), ("en", "gen"): ("game", "games")}


def games(n: int, lang: str, case: str = "acc") -> str:
    """``n`` games in ``lang``, in the case the sentence needs: «за 1 партію», «з 21 партії»."""
    from ..text.plural import plural
    space = "\u00a0" if lang == "uk" else " "   # Ukrainian keeps a number with its noun
    return f"{n}{space}{plural(n, _GAMES[lang, case], lang)}"
