"""The rave game's figures for `forge simulate`: the games' `GameStats` counts added up, turned
into the designer's statistics, and the text report's lines in each language."""
from __future__ import annotations

from ..figures import games
from ..tally import spread
from .tables import CardTables


def statistics(prep: CardTables, totals: dict, games: int) -> dict:
    """The designer's figures from ``games`` games' tallies added up: game length in turns, how
    often each monster is invited and satisfied, each Class's share of wins, resets, turn-cap
    hits; with the text report's lines under "lines"."""
    n = games
    if not n:
        return {}
    invited, satisfied = totals.get("invited", {}), totals.get("satisfied", {})
    cls_wins, resets = totals.get("class_wins", {}), totals.get("resets", 0)
    monsters = sorted((c for c in prep.defs if c.type == "monster"), key=lambda c: c.level)
    names = {c.id: dict(c.name) for c in prep.defs}
    classes = [c.id for c in prep.defs if c.type == "class"] + ["(none)"]
    out = {
        "turns": spread(totals["turns"]),
        "turn_cap_hits": totals.get("capped", 0),
        "resets": {"total": resets, "per_game": round(resets / n, 4),
                   "games_with_reset": totals.get("with_reset", 0)},
        "monsters": {c.id: {"level": c.level, "invited": invited.get(c.id, 0),
                            "satisfied": satisfied.get(c.id, 0),
                            "satisfied_rate": round(satisfied.get(c.id, 0) / invited[c.id], 4)
                            if invited.get(c.id) else 0.0}
                     for c in monsters},
        "class_win_share": {c: round(float(cls_wins.get(c, 0) / n), 4) for c in classes},
    }
    out["lines"] = {lang: _lines(out, n, resets, names, lang) for lang in ("uk", "en")}
    return out


_LINES = {
    "en": {"length": "Game length: {mean} turns on average (median {median}, 90% within {p90}, "
                     "longest {max}); turn cap hit in {cap} games",
           "resets": "Resets: {total} in all, {games} games with at least one",
           "monsters": "Monsters (level: invited / satisfied):",
           "monster": "  {level:>2} {name}: {invited} / {satisfied} ({rate:.0f}% satisfied)",
           "never": "Monsters never invited in {games}: {names}",
           "unmet": "Monsters invited but never satisfied in {games}: {names}",
           "classes": "Class held by the winner (share of wins): {shares}",
           "none": "no class"},
    "uk": {"length": "Тривалість гри: у середньому {mean} ходу (медіана {median}, 90 % партій — "
                     "до {p90}, найдовша — {max}); межу ходів досягнуто в {cap} іграх",
           "resets": "Обнулень: {total} загалом, в {games} іграх хоча б одне",
           "monsters": "Монстри (рівень: запрошено / задоволено):",
           "monster": "  {level:>2} {name}: {invited} / {satisfied} (задоволено {rate:.0f} %)",
           "never": "Монстри, яких жодного разу не запросили за {games}: {names}",
           "unmet": "Монстри, яких запрошували, але ні разу не задовольнили за {games}: {names}",
           "classes": "Клас переможця (частка перемог): {shares}",
           "none": "без класу"},
}


def _lines(out: dict, n: int, resets: int, names: dict, lang: str) -> list[str]:
    """The report's lines in ``lang``, cards named as printed."""
    w = _LINES[lang]
    name = lambda cid: names.get(cid, {}).get(lang, w["none"] if cid == "(none)" else cid)  # noqa: E731
    pct = (lambda v: f"{v:.1f}".replace(".", ",") + "\u00a0%") if lang == "uk" else (lambda v: f"{v:.1f}%")  # noqa: E731
    t = out["turns"]
    mean = str(t["mean"]).replace(".", ",") if lang == "uk" else t["mean"]
    lines = [w["length"].format(mean=mean, median=t["median"], p90=t["p90"], max=t["max"],
                                cap=out["turn_cap_hits"]),
             w["resets"].format(total=resets, games=out["resets"]["games_with_reset"]),
             w["monsters"]]
    for cid, m in out["monsters"].items():
        lines.append(w["monster"].format(level=m["level"], name=name(cid), invited=m["invited"],
                                         satisfied=m["satisfied"], rate=100 * m["satisfied_rate"]))
    never = [name(cid) for cid, m in out["monsters"].items() if not m["invited"]]
    if never:
        lines.append(w["never"].format(games=games(n, lang), names=", ".join(never)))
    unmet = [name(cid) for cid, m in out["monsters"].items() if m["invited"] and not m["satisfied"]]
    if unmet:
        lines.append(w["unmet"].format(games=games(n, lang), names=", ".join(unmet)))
    shares = sorted(out["class_win_share"].items(), key=lambda kv: -kv[1])
    lines.append(w["classes"].format(shares=", ".join(f"{name(c)} {pct(100 * v)}" for c, v in shares)))
    return lines
