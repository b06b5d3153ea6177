"""Love Formula's figures for `forge simulate`: the games' `GameStats` counts added up, turned
into the designer's statistics, and the text report's lines in each language."""
from __future__ import annotations

from ..figures import games
from .tables import Tables

_LINES = {
    "en": {"events": "Per game: the deck reshuffled {reshuffles} times, {ended} pairs ended by "
                     "an obstacle",
           "goals": "Goals (games in play / won, share won):",
           "goal": "  {name}: {in_play} / {won} ({rate})",
           "never": "Goals in play but never won in {games}: {names}"},
    "uk": {"events": "За гру: колоду перетасовано {reshuffles} раза, перешкоди розірвали "
                     "{ended} пари",
           "goals": "Цілі (партій у грі / здобута, частка здобутих):",
           "goal": "  {name}: {in_play} / {won} ({rate})",
           "never": "Цілі, які були в грі, але ні разу не здобуті за {games}: {names}"},
}


def statistics(prep: Tables, totals: dict, games: int) -> dict:
    """The designer's figures from ``games`` games' counts added up: how often a game runs
    through the deck and ends a pair by an obstacle; per goal of #RelationshipGoals, the games
    it was in play in and those someone won it in; with the text report's lines under
    "lines"."""
    n = games
    if not n:
        return {}
    in_play, won = totals.get("goals_in_play", {}), totals.get("goals_won", {})
    out = {
        "reshuffles_per_game": round(totals.get("reshuffles", 0) / n, 3),
        "pairs_ended_per_game": round(totals.get("pairs_ended", 0) / n, 3),
        "goals": {c.id: {"in_play": in_play.get(c.id, 0), "won": won.get(c.id, 0),
                         "won_rate": round(won.get(c.id, 0) / in_play[c.id], 4)
                         if in_play.get(c.id) else 0.0}
                  for c in prep.defs if c.type == "goal"},
    }
    names = {c.id: dict(c.name) for c in prep.defs}
    out["lines"] = {lang: _lines(out, n, names, lang) for lang in ("uk", "en")}
    return out


def _lines(out: dict, n: int, names: dict, lang: str) -> list[str]:
    """The report's lines in ``lang``, goals named as printed."""
    w = _LINES[lang]
    num = (lambda v: f"{v:.2f}".replace(".", ",")) if lang == "uk" else (lambda v: f"{v:.2f}")  # noqa: E731
    pct = (lambda v: f"{100 * v:.0f}\u00a0%") if lang == "uk" else (lambda v: f"{100 * v:.0f}%")  # noqa: E731
    name = lambda cid: names.get(cid, {}).get(lang, cid)  # noqa: E731
    lines = [w["events"].format(reshuffles=num(out["reshuffles_per_game"]),
                                ended=num(out["pairs_ended_per_game"]))]
    played = {cid: g for cid, g in out["goals"].items() if g["in_play"]}
    if played:
        lines.append(w["goals"])
        lines += [w["goal"].format(name=name(cid), in_play=g["in_play"], won=g["won"],
                                   rate=pct(g["won_rate"])) for cid, g in played.items()]
        never = [name(cid) for cid, g in played.items() if not g["won"]]
        if never:
            lines.append(w["never"].format(games=games(n, lang), names=", ".join(never)))
    return lines
