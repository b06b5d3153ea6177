"""The statistics' text lines, in Ukrainian and English: cards named as printed, numbers
written as the language writes them."""
from __future__ import annotations

from typing import Any

_LINES: dict[str, dict[str, Any]] = {
    "en": {"length": "Game length: {mean} turns on average (median {median}, 90% within {p90}, "
                     "longest {max}); the turn cap of {cap} was hit in {capped} of {n} games",
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
           "never": "Monsters never fought in {n} games: {names}"},
    "uk": {"length": "Тривалість гри: у середньому {mean} ходу (медіана {median}, 90 % ігор — "
                     "до {p90}, найдовша — {max}); межу в {cap} ходів досягнуто в {capped} з {n} ігор",
           "missions": "Місії (частка виконаних серед ігор, де місія була в грі; середній хід):",
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
           "never": "Почвари, з якими не билися за {n} ігор: {names}"},
}


def report_lines(out: dict, n: int, names: dict, lang: str) -> list[str]:
    """The report's lines in ``lang``, cards named as printed, numbers as the language writes."""
    w = _LINES[lang]
    name = lambda cid: names.get(cid, {}).get(lang, cid)  # noqa: E731
    dec = (lambda v: str(v).replace(".", ",")) if lang == "uk" else str  # noqa: E731
    pct = (lambda v: dec(f"{v:.1f}") + "\u00a0%") if lang == "uk" else (lambda v: f"{v:.1f}%")  # noqa: E731
    t = out["turns"]
    lines = [w["length"].format(mean=dec(t["mean"]), median=t["median"], p90=t["p90"], max=t["max"],
                                cap=out["turn_cap"], capped=out["turn_cap_hits"], n=n), w["missions"]]
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
        lines.append(w["never"].format(n=n, names=", ".join(never)))
    return lines
