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
