"""The balance report: a PDF (ReportLab, Roboto embedded) drawn from a simulation summary.

The first page is a summary: which agents played, seat balance, game length, and the cards to
look at (dead: no rule offered them; offered but never played by these agents). Then charts (win
rate per seat with its 95% interval, the score distribution per seat, per card how often it was
played and how often the player who played it won) and the long tables (the engine's own
figures, `Engine.report_tables`; per card the games it was offered, chosen and played in; per
option's action and per kind of decision, named by the engine, what they got). Every label is
in the reader's language (Ukrainian by default), every number as that language writes it.

Names from the game's data (its title, card names) and from the command line (sets, agents) are
XML-escaped before they reach a `Paragraph` (table headers and cells of words are paragraphs
too, so that they wrap), whose markup would otherwise read `<img src=...>` in a card name as an
image to load; charts and cells of numbers draw plain strings and need no escaping.
"""
from __future__ import annotations

import io
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any, Callable

from reportlab.graphics.charts.barcharts import HorizontalBarChart, VerticalBarChart
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from babel.numbers import format_decimal, format_percent
from reportlab.lib.enums import TA_RIGHT
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..files import write_atomic
from ..render.fonts import BOLD, REGULAR, register
from ..text import plural
from ..text.typography import NBSP, collation_key, escape, typeset, typeset_markup
from .agents import agent_name
from .figures import Cell, FigureTable, Kind

TEXT: dict[str, dict[str, Any]] = {
    "uk": {"title": "Звіт про баланс: {game}", "run": "{games}, {players}, зерно {seed}, "
           "набори: {sets}, агенти: {agents}.", "n_games": ("партія", "партії", "партій"),
           "n_players": ("гравець", "гравці", "гравців"), "speed": "Швидкість: {gps} партій/с, {dps} рішень/с.", "wins": "Частка перемог за місцем (95\u00a0% інтервал)",
           "seat": "Місце", "agent": "Агент", "win": "Перемоги", "score": "Середній бал", "dist": "Розподіл балів",
           "points": "бали", "games": "партії", "cards": "Карти: частка партій, де її зіграли, "
           "і частка перемог того, хто її зіграв", "card": "Карта", "play": "Зіграна", "winshare":
           "Перемоги", "none": "немає",
           "viol": "Порушення інваріантів: {n}.", "top": "Найчастіше зіграні карти",
           "who": "Усі цифри тут - з партій, які зіграли такі агенти: {agents}. Інші агенти "
           "можуть обирати інакше.",
           "balance": "Баланс місць", "length": "Тривалість партії",
           "per_game": "У середньому {dpg} гравців за партію.",
           "n_decisions": ("рішення", "рішення", "рішень", "рішення"), "n_cards": ("карта", "карти", "карт"),
           "look": "Карти, на які варто глянути",
           "dead": "Мертві карти (жодне правило не запропонувало їх у жодній партії): {cards}.",
           "bound": "Карта, якої не запропонували в жодній з {games}, трапляється (з імовірністю "
           "95\u00a0%) рідше, ніж у {p}\u00a0% партій.",
           "unplayed": "Запропоновані, але жодного разу не зіграні цими агентами ({agents}): {n}.",
           "unplayed_note": "Їх можна було зіграти (або залишити, скинути…), та агенти їх не "
           "грали: це ще не вада карти.",
           "offered": "Запропонована, партій", "chosen": "Обрана (будь-як), партій",
           "more": "І ще {n} (усі - у таблиці карт).",
           "table": "Карти: у скількох партіях її запропонували, обрали (будь-як) і зіграли",
           "kinds": "Рішення за видом: скільки разів і в скількох партіях питали",
           "verbs": "Варіанти за дією: у скількох партіях їх пропонували й обрали, скільки "
           "разів обрали",
           "kind": "Вид рішення", "asked": "Питали, разів", "asked_games": "Питали, партій",
           "verb": "Дія", "times": "Обрали, разів", "in_games": "Пропонували, партій",
           "chosen_games": "Обрали, партій", "played": "Зіграна, партій",
           "engine": "Цифри гри", "ci": "95\u00a0% інтервал", "nothing": "—", "percent": "#,##0.0\u00a0%"},
    "en": {"title": "Balance report: {game}", "run": "{games}, {players}, seed {seed}, "
           "sets: {sets}, agents: {agents}.", "n_games": ("game", "games"),
           "n_players": ("player", "players"), "speed": "Speed: {gps} games/s, {dps} decisions/s.", "wins": "Win rate per seat (95% interval)",
           "seat": "Seat", "agent": "Agent", "win": "Wins", "score": "Mean score", "dist": "Score distribution",
           "points": "points", "games": "games", "cards": "Cards: share of games in which it was "
           "played, and share of wins of the player who played it", "card": "Card", "play": "Played",
           "winshare": "Won", "none": "none",
           "viol": "Invariant violations: {n}.", "top": "Most played cards",
           "who": "Every figure here comes from games played by these agents: {agents}. Other "
           "agents may choose otherwise.",
           "balance": "Seat balance", "length": "Game length",
           "per_game": "{dpg} by players per game on average.",
           "n_decisions": ("decision", "decisions"), "n_cards": ("card", "cards"),
           "look": "Cards to look at",
           "dead": "Dead cards (no rule offered them in any game): {cards}.",
           "bound": "A card offered in none of {games} is offered (95% confidence) in fewer than "
           "{p}% of games.",
           "unplayed": "Offered but never played by these agents ({agents}): {n}.",
           "unplayed_note": "They could have been played (or kept, discarded ...), and the agents "
           "did not play them: that alone is no fault of the card.",
           "offered": "Offered, games", "chosen": "Chosen (any way), games",
           "more": "And {n} more (all in the table of cards).",
           "table": "Cards: games in which it was offered, chosen (any way) and played",
           "kinds": "Decisions by kind: times and games asked",
           "verbs": "Options by action: games offered and chosen in, times chosen",
           "kind": "Kind", "asked": "Asked, times", "asked_games": "Asked, games",
           "verb": "Action", "times": "Chosen, times", "in_games": "Offered, games",
           "chosen_games": "Chosen, games", "played": "Played, games",
           "engine": "The game's figures", "ci": "95% interval", "nothing": "—", "percent": "#,##0.0%"},
}
#: Rows of the summary page's table of cards offered but never played; the rest are counted.
SUMMARY_ROWS = 20
SEAT_COLOURS = [colors.HexColor(c) for c in ("#d6336c", "#1c7ed6", "#37b24d", "#f59f00",
                                              "#7048e8", "#0ca678", "#e8590c", "#495057")]
BODY = ParagraphStyle("body", fontName=REGULAR, fontSize=9.5, leading=12.5)
HEAD = ParagraphStyle("head", fontName=BOLD, fontSize=15, leading=19, spaceAfter=6)
SUB = ParagraphStyle("sub", fontName=BOLD, fontSize=11.5, leading=15, spaceBefore=8, spaceAfter=4)
#: An engine's table's heading, and the words under it.
TITLE = ParagraphStyle("title", fontName=BOLD, fontSize=9.5, leading=12.5, spaceBefore=6,
                       spaceAfter=3)
#: The room a heading needs below it to start a table on the same page (its header and three
#: rows); with less, the heading goes to the next page with its table.
TABLE_START = 28 * mm
NOTE = ParagraphStyle("note", fontName=REGULAR, fontSize=8, leading=10.5, spaceBefore=2)
#: Table cells: words, the header row, a header over numbers; every other row tinted.
CELL = ParagraphStyle("cell", fontName=REGULAR, fontSize=8.5, leading=10.5)
HEAD_CELL = ParagraphStyle("head_cell", fontName=BOLD, fontSize=8, leading=9.5)
HEAD_RIGHT = ParagraphStyle("head_right", parent=HEAD_CELL, alignment=TA_RIGHT)
CELL_PAD = 4
#: The fewest rows a table split across pages leaves on either page.
KEPT_ROWS = 3
STRIPE = colors.HexColor("#f1f3f5")
#: The width of the text: A4 less the margins `_build` sets.
WIDTH = A4[0] - 36 * mm


def _styled(chart: Any, num: Callable[[float, str], str], pattern: str) -> Any:
    """Both axes in Roboto; value labels written as the report's language writes numbers."""
    chart.categoryAxis.labels.fontName = REGULAR
    chart.valueAxis.labels.fontName = REGULAR
    chart.valueAxis.labelTextFormat = lambda v: num(v, pattern)
    chart.valueAxis.valueMin = 0
    return chart


def _legend(d: Drawing, x: float, y: float, label: str, colour: Any) -> None:
    """A colour swatch and its label (a drawn square: the font has no ■)."""
    d.add(Rect(x, y, 2.4 * mm, 2.4 * mm, fillColor=colour, strokeColor=None))
    d.add(String(x + 3.4 * mm, y + 0.3 * mm, label, fontName=REGULAR, fontSize=8, fillColor=colour))


def _fit(label: str, width: float, size: float) -> str:
    """``label`` whole when it fits ``width`` at ``size`` points, else cut at a word with «…»."""
    if stringWidth(label, REGULAR, size) <= width:
        return label
    words = label.split()
    while len(words) > 1 and stringWidth(" ".join(words) + "…", REGULAR, size) > width:
        words.pop()
    return " ".join(words) + "…"


def _win_chart(result: dict, num: Callable, agent: Callable[[str], str]) -> Drawing:
    d = Drawing(170 * mm, 70 * mm, initialFontName=REGULAR)
    rates = result["seat_win_rate"]
    chart = _styled(VerticalBarChart(), num, "0.0#")
    chart.x, chart.y, chart.width, chart.height = 15 * mm, 10 * mm, 145 * mm, 52 * mm
    chart.data = [[r["win_rate"] for r in rates]]
    chart.categoryAxis.categoryNames = [f"{r['seat']} ({agent(r['agent'])})" for r in rates]
    chart.valueAxis.valueMax = min(1.0, max([r["ci95"][1] for r in rates] + [0.1]) + 0.05)
    chart.bars[0].fillColor = SEAT_COLOURS[0]
    d.add(chart)
    vmax = chart.valueAxis.valueMax
    step = chart.width / max(1, len(rates))
    for i, r in enumerate(rates):
        x = chart.x + step * (i + 0.5)
        y0 = chart.y + chart.height * r["ci95"][0] / vmax
        y1 = chart.y + chart.height * r["ci95"][1] / vmax
        for line in (Line(x, y0, x, y1), Line(x - 3, y0, x + 3, y0), Line(x - 3, y1, x + 3, y1)):
            line.strokeColor = colors.black
            d.add(line)
    return d


def _score_chart(result: dict, t: dict, num: Callable) -> Drawing:
    d = Drawing(170 * mm, 75 * mm, initialFontName=REGULAR)
    dist = result["score_distribution"]
    values = sorted({int(k) for h in dist for k in h})
    if not values:
        return d
    lo, hi = values[0], values[-1]
    xs = list(range(lo, hi + 1))
    chart = _styled(VerticalBarChart(), num, "#,##0")
    chart.x, chart.y, chart.width, chart.height = 15 * mm, 12 * mm, 145 * mm, 52 * mm
    chart.data = [[h.get(str(x), 0) for x in xs] for h in dist]
    chart.categoryAxis.categoryNames = [str(x) if (x - lo) % max(1, len(xs) // 15) == 0 else ""
                                        for x in xs]
    chart.groupSpacing = 1
    for i in range(len(dist)):
        chart.bars[i].fillColor = SEAT_COLOURS[i % len(SEAT_COLOURS)]
    d.add(chart)
    d.add(String(chart.x + chart.width / 2, 2 * mm, t["points"], fontName=REGULAR, fontSize=8,
                 textAnchor="middle"))
    for i, r in enumerate(result["seat_win_rate"]):
        _legend(d, chart.x + i * 25 * mm, chart.y + chart.height + 4 * mm, r["seat"],
                SEAT_COLOURS[i % len(SEAT_COLOURS)])
    return d


def _card_chart(rows: list[tuple[str, float, float]], t: dict, num: Callable) -> Drawing:
    height = max(40, 6 * len(rows) + 20) * mm / 1.6
    d = Drawing(170 * mm, height, initialFontName=REGULAR)
    chart = _styled(HorizontalBarChart(), num, "0.0#")
    chart.x, chart.y = 55 * mm, 8 * mm
    chart.width, chart.height = 105 * mm, height - 14 * mm
    chart.data = [[r[1] for r in reversed(rows)], [r[2] for r in reversed(rows)]]
    chart.categoryAxis.categoryNames = [_fit(r[0], chart.x - 4 * mm, 6) for r in reversed(rows)]
    chart.categoryAxis.labels.fontSize = 6
    chart.valueAxis.valueMax = 1
    chart.bars[0].fillColor = SEAT_COLOURS[1]
    chart.bars[1].fillColor = SEAT_COLOURS[0]
    d.add(chart)
    _legend(d, chart.x, height - 4 * mm, t["play"], SEAT_COLOURS[1])
    _legend(d, chart.x + 30 * mm, height - 4 * mm, t["winshare"], SEAT_COLOURS[0])
    return d


def write_report(result: dict, path: Path, lang: str = "uk", game: Any = None) -> Path:
    """Write the report to ``path`` (via a temporary file, renamed when complete): a first page
    a designer reads in a minute (who played, seat balance, game length, cards to look at),
    then the charts and the long tables."""
    register()
    t = TEXT.get(lang, TEXT["en"])
    names = {}
    title = result["game"]
    sets = {s: s for s in result["sets"]}
    engine = None
    if game is not None:
        from . import ENGINES
        engine = ENGINES.get(game.manifest.engine or "")
        title = game.manifest.title[lang]
        sets = {s: spec.name[lang] for s, spec in game.manifest.sets.items()}
        names = _card_names(game, lang, sets)
    lang = lang if lang in TEXT else "en"
    num = partial(_number, lang=lang)
    para = partial(_para, lang=lang)
    table = partial(_table, lang=lang)
    agent = lambda a: result.get("agent_names", {}).get(a, {}).get(lang) or agent_name(engine, a, lang)  # noqa: E731
    who = escape(", ".join(dict.fromkeys(map(agent, result["agents"]))))
    card = lambda c: names.get(c) or c   # noqa: E731
    n = result["games"]
    story = [para(t["title"].format(game=escape(title)), HEAD),
             para(t["run"].format(games=_counted(n, t["n_games"], lang),
                                  players=_counted(result["players"], t["n_players"], lang),
                                  seed=result["seed"], sets=escape(", ".join(sets.get(s, s) for s in result["sets"])),
                                  agents=escape(", ".join(map(agent, result["agents"])))), BODY),
             para(t["who"].format(agents=who), BODY),
             para(t["balance"], SUB)]
    rows = []
    for s, r in enumerate(result["seat_win_rate"]):
        rows.append([r["seat"], agent(r["agent"]), num(r["win_rate"], "0.000"),
                     f"{num(r['ci95'][0], '0.000')}–{num(r['ci95'][1], '0.000')}",
                     num(result["mean_score"][s], "0.00")])
    lines = engine_lines(result, lang)
    dpg = result["mean_decisions_per_game"]
    story += [table([t["seat"], t["agent"], t["win"], t["ci"], t["score"]], rows, numbers=2),
              para(t["length"], SUB),
              para(t["per_game"].format(dpg=f"{num(dpg, '#,##0.#')}{NBSP}"
                                            f"{plural(dpg, t['n_decisions'], lang)}"), BODY),
              *[para(escape(line), BODY) for line in lines[:1]],
              para(t["look"], SUB)]
    dead = escape(", ".join(card(c) for c in result["dead_cards"]) or t["none"])
    story += [para(t["dead"].format(cards=dead), BODY),
              para(t["bound"].format(games=_counted(n, t["n_games"], lang),
                                     p=num(100 * result["never_seen_bound95"], "0.0#")), BODY)]
    unplayed = sorted(result["unplayed_cards"], key=lambda c: (-result["cards"][c]["games_offered"], c))
    story += [Spacer(1, 2 * mm), para(t["unplayed"].format(
        agents=who, n=_counted(len(unplayed), t["n_cards"], lang) if unplayed else t["none"]), BODY)]
    if unplayed:
        story += [para(t["unplayed_note"], BODY), Spacer(1, 2 * mm)]
        rows = [[card(c), num(result["cards"][c]["games_offered"], "#,##0"),
                 num(result["cards"][c]["games_chosen"], "#,##0")] for c in unplayed[:SUMMARY_ROWS]]
        story.append(table([t["card"], t["offered"], t["chosen"]], rows, numbers=1))
        if len(unplayed) > SUMMARY_ROWS:
            story.append(para(t["more"].format(n=len(unplayed) - SUMMARY_ROWS), BODY))
    story += [Spacer(1, 3 * mm), para(t["viol"].format(n=result["violation_count"]), BODY),
              PageBreak(), para(t["wins"], SUB), _win_chart(result, num, agent),
              para(t["dist"], SUB), _score_chart(result, t, num),
              para(t["speed"].format(gps=num(result["games_per_s"], "#,##0.#"),
                                     dps=num(result["decisions_per_s"], "#,##0")), BODY)]
    figures = result.get("engine")
    if engine is not None and engine.report_tables is not None and figures:
        story += [CondPageBreak(TABLE_START), para(t["engine"], SUB)]
        for ft in engine.report_tables(figures, n, card, lang):
            story += _figures(ft, t, lang)
    elif lines:
        story += [para(t["engine"], SUB), *[para(escape(line), BODY) for line in lines]]
    cards = sorted(result["cards"].items(), key=lambda kv: (-kv[1]["play_share"], kv[0]))
    story += [PageBreak(), para(t["cards"], SUB), Spacer(1, 4 * mm)]
    chart_rows = [(card(c), v["play_share"], v["win_share"]) for c, v in cards]
    for k in range(0, len(chart_rows), 40):
        story.append(_card_chart(chart_rows[k:k + 40], t, num))
    rows = [[card(c), *(num(v[k], "#,##0") for k in ("games_offered", "games_chosen", "games_played"))]
            for c, v in sorted(result["cards"].items(), key=lambda kv: (collation_key(card(kv[0]), lang), kv[0]))]
    story += [CondPageBreak(TABLE_START), para(t["table"], SUB),
              table([t["card"], t["offered"], t["chosen"], t["played"]], rows, numbers=1)]
    kinds, verbs = (engine.kind_names, engine.verb_names) if engine is not None else ({}, {})
    label = lambda names, key: names.get(key, {}).get(lang, key)   # noqa: E731
    rows = [[label(verbs, verb), *(num(v[k], "#,##0") for k in ("games_offered", "games_chosen", "chosen"))]
            for verb, v in result["option_verbs"].items()]
    rows.sort(key=lambda row: collation_key(row[0], lang))
    story += [CondPageBreak(TABLE_START), para(t["verbs"], SUB),
              table([t["verb"], t["in_games"], t["chosen_games"], t["times"]], rows, numbers=1)]
    rows = [[label(kinds, kind), num(k["decisions"], "#,##0"), num(k["games"], "#,##0")]
            for kind, k in result["decision_kinds"].items()]
    rows.sort(key=lambda row: collation_key(row[0], lang))
    story += [CondPageBreak(TABLE_START), para(t["kinds"], SUB),
              table([t["kind"], t["asked"], t["asked_games"]], rows, numbers=1)]
    return _build(story, path, t["title"].format(game=title))


def _card_names(game: Any, lang: str, sets: dict[str, str]) -> dict[str, str]:
    """Each card's name as printed in ``lang`` (typeset: the charts draw it as it is); two cards
    of one name (a promo card and the card it replaces) told apart by their sets: «Парк
    (Промокарти)»."""
    counts = Counter(c.name[lang] for c in game.cards)
    return {c.id: typeset(c.name[lang] if counts[c.name[lang]] == 1 else
                          f"{c.name[lang]} ({sets.get(c.set, c.set)})", lang) for c in game.cards}


def _figures(ft: FigureTable, t: dict, lang: str) -> list:
    """An engine's table (`forge.rules.figures`): its heading, the table with every number
    written as ``lang`` writes it, and its note."""
    kinds = [c.kind for c in ft.columns]
    rows = [[_cell(v, kind, t, lang) for v, kind in zip(row, kinds)] for row in ft.rows]
    out = [CondPageBreak(TABLE_START), _para(escape(ft.title), TITLE, lang),
           _table([c.title for c in ft.columns], rows, numeric=[k != "text" for k in kinds], lang=lang)]
    if ft.note:
        out.append(_para(escape(ft.note), NOTE, lang))
    return out


def _cell(value: Cell, kind: Kind, t: dict, lang: str) -> str:
    if value is None:
        return t["nothing"]
    if isinstance(value, str) or kind == "text":
        return str(value)
    if kind == "share":
        return format_percent(value, format=t["percent"], locale=lang)
    return _number(value, "#,##0" if kind == "count" else "#,##0.00", lang)


def _table(header: list[str], rows: list[list[str]], lang: str, numbers: int | None = None,
           numeric: list[bool] | None = None) -> Table:
    """A table typeset from its content: the header row bold, ruled and repeated on every page;
    words left-aligned, numbers (the columns from ``numbers`` on, or those ``numeric`` marks)
    right-aligned; each column as wide as its widest cell, a header wider than its column wrapped
    at its spaces, and when the table is wider than the page, its widest column of words wrapped."""
    right = numeric or [j >= (numbers if numbers is not None else len(header)) for j in range(len(header))]
    pad = 2 * CELL_PAD
    body = [max([stringWidth(row[j], REGULAR, CELL.fontSize) for row in rows] + [0]) + pad + 1
            for j in range(len(header))]
    heads = [typeset(h, lang) for h in header]
    whole = [stringWidth(h, BOLD, HEAD_CELL.fontSize) + pad for h in heads]
    word = [max(stringWidth(w, BOLD, HEAD_CELL.fontSize) for w in h.split()) + pad for h in heads]
    widths = [max(b, w) for b, w in zip(body, whole)]
    if sum(widths) > WIDTH:
        widths = [max(b, w) for b, w in zip(body, word)]
    over = sum(widths) - WIDTH
    if over > 0:
        j = max((j for j in range(len(header)) if not right[j]), key=lambda j: widths[j], default=None)
        if j is not None:
            widths[j] = max(widths[j] - over, word[j], 25 * mm)
    cells = [[Paragraph(escape(h), HEAD_RIGHT if right[j] else HEAD_CELL) for j, h in enumerate(heads)]]
    cells += [[row[j] if right[j] else Paragraph(escape(typeset(row[j], lang)), CELL)
               for j in range(len(header))] for row in rows]
    table = _Table(cells, colWidths=widths, hAlign="LEFT", repeatRows=1)
    table.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), REGULAR, CELL.fontSize),
                               ("LEADING", (0, 1), (-1, -1), CELL.leading),
                               ("ALIGN", (0, 1), (-1, -1), "LEFT"),
                               *[("ALIGN", (j, 1), (j, -1), "RIGHT") for j in range(len(header)) if right[j]],
                               ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
                               ("VALIGN", (0, 1), (-1, -1), "TOP"),
                               ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
                               ("ROWBACKGROUNDS", (0, 1), (-1, -1), [None, STRIPE]),
                               ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
                               ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
                               ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]))
    return table


class _Table(Table):
    """A table that splits across pages leaving at least `KEPT_ROWS` rows on either side (below
    the repeated header): a single row at a page's top or foot reads as a stray line."""

    def split(self, availWidth: float, availHeight: float) -> list:
        parts = super().split(availWidth, availHeight)
        if len(parts) != 2:
            return parts
        rows = len(self._cellvalues) - 1
        first = len(parts[0]._cellvalues) - 1
        if first < KEPT_ROWS or rows < 2 * KEPT_ROWS:
            return []
        if rows - first >= KEPT_ROWS:
            return parts
        return super().split(availWidth, sum(self._rowHeights[:rows + 1 - KEPT_ROWS]) + 0.01)


def _para(markup: str, style: Any, lang: str) -> Paragraph:
    """A paragraph in the language's typography."""
    return Paragraph(typeset_markup(markup, lang), style)


def _build(story: list, path: Path, title: str) -> Path:
    """The A4 PDF of ``story``, byte for byte the same for the same input, written atomically."""
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, invariant=1, title=title,
                            leftMargin=18 * mm, rightMargin=18 * mm, topMargin=16 * mm,
                            bottomMargin=16 * mm, initialFontName=REGULAR)
    doc.build(story, canvasmaker=partial(Canvas, initialFontName=REGULAR, invariant=1))
    write_atomic(Path(path), buffer.getvalue())
    return Path(path)


COMPARE_TEXT: dict[str, dict[str, Any]] = {
    "uk": {"title": "Порівняння: {game}", "sides": "A: {a}. B: {b}.",
           "ablated": "{a}: з картою і без неї (агенти не можуть її обрати): {cards}.",
           "run": "{games} з однаковими зернами з обох боків, {players}, зерно {seed}, агенти: {agents}.",
           "n_games": ("парна партія", "парні партії", "парних партій"),
           "verdict": "Висновок", "seats": "Зміна частки перемог за місцем, B − A, в. п. (95 % інтервал)",
           "cards": "Карти з найбільшою зміною частки перемог тих, хто їх зіграв, B − A, в. п.",
           "holders": "Що карта варта тим, хто її грає: зміна їхньої частки перемог без неї, в. п.",
           "need": "Щоб зміна за кожним місцем мала інтервал ± {p} в. п., потрібно {n}.",
           "need_none": "Обидва боки зіграли однакові партії: будь-якої кількості партій досить."},
    "en": {"title": "Comparison: {game}", "sides": "A: {a}. B: {b}.",
           "ablated": "{a} with and without a card (the agents may not choose it): {cards}.",
           "run": "{games} with the same seeds on both sides, {players}, seed {seed}, agents: {agents}.",
           "n_games": ("paired game", "paired games"),
           "verdict": "Verdict", "seats": "Change of win rate per seat, B − A, pp (95% interval)",
           "cards": "Cards whose players' win share changed most, B − A, pp",
           "holders": "What a card is worth to whoever plays it: their win rate without it, change in pp",
           "need": "For a ± {p} pp interval on every seat's change: {n}.",
           "need_none": "Both sides played the same games: any number of games will do."},
}


def _change_chart(rows: list[tuple[str, float, float, float]], num: Callable) -> Drawing:
    """Horizontal bars of changes (label, change, low, high, in percentage points), first row
    on top, each with its 95 % interval and the zero line drawn."""
    height = (8 * len(rows) + 14) * mm * 0.75
    d = Drawing(170 * mm, height, initialFontName=REGULAR)
    chart = _styled(HorizontalBarChart(), num, "0.#")
    chart.x, chart.y = 55 * mm, 8 * mm
    chart.width, chart.height = 105 * mm, height - 12 * mm
    ordered = list(reversed(rows))
    chart.data = [[r[1] for r in ordered]]
    chart.categoryAxis.categoryNames = [_fit(r[0], chart.x - 4 * mm, 7) for r in ordered]
    chart.categoryAxis.labels.fontSize = 7
    chart.categoryAxis.joinAxisMode = "left"        # names at the left edge, not at zero
    lo = min([0.0] + [r[2] for r in rows])
    hi = max([0.0] + [r[3] for r in rows])
    pad = max(1.0, (hi - lo) * 0.08)
    chart.valueAxis.valueMin, chart.valueAxis.valueMax = lo - pad, hi + pad
    chart.bars[0].fillColor = SEAT_COLOURS[1]
    d.add(chart)
    span = chart.valueAxis.valueMax - chart.valueAxis.valueMin
    x_of = lambda v: chart.x + chart.width * (v - chart.valueAxis.valueMin) / span   # noqa: E731
    step = chart.height / max(1, len(rows))
    zero = Line(x_of(0), chart.y, x_of(0), chart.y + chart.height, strokeWidth=0.6)
    d.add(zero)
    for i, r in enumerate(ordered):
        y = chart.y + step * (i + 0.5)
        for line in (Line(x_of(r[2]), y, x_of(r[3]), y), Line(x_of(r[2]), y - 2, x_of(r[2]), y + 2),
                     Line(x_of(r[3]), y - 2, x_of(r[3]), y + 2)):
            line.strokeColor = colors.black
            d.add(line)
    return d


def _pp_row(label: str, e: dict) -> tuple[str, float, float, float]:
    return label, 100 * e["diff"], 100 * e["ci95"][0], 100 * e["ci95"][1]


def write_comparison(result: dict, path: Path, lang: str = "uk", game: Any = None) -> Path:
    """Write a `forge compare` result as one PDF page of charts (atomically): the verdict, the
    change of each seat's win rate and of the cards that moved most, or with ``--ablate`` what
    each card is worth to its holders, all with 95 % intervals."""
    from .compare import verdict
    register()
    lang = lang if lang in COMPARE_TEXT else "en"
    t = COMPARE_TEXT[lang]
    num = partial(_number, lang=lang)
    para = partial(_para, lang=lang)
    names: dict[str, str] = {c.id: c.name[lang] for c in game.cards} if game is not None else {}
    title = game.manifest.title[lang] if game is not None else result["game"]
    engine = None
    if game is not None:
        from . import ENGINES
        engine = ENGINES.get(game.manifest.engine or "")
    def name(cid: str) -> str:
        return names.get(cid, cid)
    quoted = (lambda cid: f"«{name(cid)}»") if lang == "uk" else (lambda cid: f"“{name(cid)}”")  # noqa: E731
    a, b = result["a"], result["b"]
    side = lambda s: s["source"] + "".join(f", {k}={v}" for k, v in s["options"].items())  # noqa: E731
    story = [para(t["title"].format(game=escape(title)), HEAD)]
    if b is None:
        story.append(para(escape(t["ablated"].format(a=side(a), cards=", ".join(
            quoted(c) for c in result["ablation"]))), BODY))
    else:
        story.append(para(escape(t["sides"].format(a=side(a), b=side(b))), BODY))
    story += [para(t["run"].format(games=_counted(result["games"], t["n_games"], lang),
                                   players=_counted(result["players"], TEXT[lang]["n_players"], lang),
                                   seed=result["seed"], agents=escape(", ".join(
                                       agent_name(engine, x, lang) for x in result["agents"]))), BODY),
              para(t["verdict"], SUB),
              *[para("• " + escape(line), BODY) for line in verdict(result["changes"], lang, quoted)]]
    if b is None:
        rows = [_pp_row(name(c), e) for c, e in result["ablation"].items() if e["diff"] is not None]
        story += [para(t["holders"], SUB), _change_chart(rows, num)]
        return _build(story, path, t["title"].format(game=title))
    seats = [_pp_row(f"{e['seat']} ({agent_name(engine, e['agent'], lang)})", e)
             for e in result["seat_win_rate"]]
    moved = sorted(((c, v["win_share"]) for c, v in result["cards"].items()
                    if v["win_share"]["diff"] is not None), key=lambda cv: (-abs(cv[1]["diff"]), cv[0]))
    need = result["games_needed"]
    story += [para(t["seats"], SUB), _change_chart(seats, num),
              para(t["need"].format(p=num(100 * result["precision"], "0.0#"),
                                    n=_counted(need, t["n_games"], lang)) if need else t["need_none"], BODY),
              para(t["cards"], SUB), _change_chart([_pp_row(name(c), e) for c, e in moved[:15]], num)]
    return _build(story, path, t["title"].format(game=title))


def engine_lines(result: dict, lang: str) -> list[str]:
    """The lines an engine's ``statistics`` hook added (``{"lines": [...]}`` or
    ``{"lines": {lang: [...]}}``), in ``lang`` when it gave several languages."""
    extra = result.get("engine")
    lines = extra.get("lines") if isinstance(extra, dict) else None
    if isinstance(lines, dict):
        lines = lines.get(lang) or lines.get("en") or next(iter(lines.values()), [])
    return [str(x) for x in lines or ()]


def _number(value: float, pattern: str, lang: str) -> str:
    """A number as the language writes it (uk: decimal comma, no-break group separator)."""
    return format_decimal(value, format=pattern, locale=lang)


def _counted(n: int, forms: tuple[str, ...], lang: str) -> str:
    return f"{_number(n, '#,##0', lang)}{NBSP}{plural(n, forms, lang)}"
