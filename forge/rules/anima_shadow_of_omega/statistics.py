"""The designer's figures from simulated games: `statistics` makes the report's figures from
the games' `GameStats` counts added up (the text lines come from `report`).
"""
from __future__ import annotations

from ..tally import spread
from .report import report_lines
from .tables import Tables


def statistics(prep: Tables, totals: dict, games: int) -> dict:
    """The designer's figures from ``games`` games' tallies added up: game length in turns,
    completion rate and mean turn of each mission, each monster's win rate, how often each
    location is explored and which reward it gives, character pick and survival rates, turn-cap
    hits; with the text report's lines under "lines"."""
    n = games
    if not n:
        return {}
    acc = {k: totals[k] for k in ("fights", "monster_wins", "explored", "rewards", "offered",
                                          "kept", "joined", "died", "dealt", "completed",
                                          "turn_sum", "finals")}
    defs = prep.defs
    missions = {}
    for c in defs:
        if c.type != "mission":
            continue
        done, turns = acc["completed"].get(c.id, 0), acc["turn_sum"].get(c.id, 0)
        # the rate is per game the mission was in play: dealt (basic) or revealed (final)
        inplay = acc["finals"].get(c.id, 0) if c.subtype == "final" else acc["dealt"].get(c.id, 0)
        missions[c.id] = {"kind": c.subtype, "in_play": inplay, "completed": done,
                          "rate": round(done / inplay, 4) if inplay else 0.0,
                          "mean_turn": round(turns / done, 2) if done else None}
    monsters = {c.id: {"level": c.level, "strength": c.strength,
                       "fights": acc["fights"].get(c.id, 0), "wins": acc["monster_wins"].get(c.id, 0),
                       "win_rate": round(acc["monster_wins"].get(c.id, 0) / acc["fights"][c.id], 4)
                       if acc["fights"].get(c.id) else 0.0}
                for c in defs if c.type == "event" and c.subtype == "monster"}
    locations = {}
    for c in defs:
        if c.type != "location":
            continue
        rw = {r.kind: acc["rewards"].get(f"{c.id}:{r.kind}", 0) for r in c.rewards}
        locations[c.id] = {"level": c.level, "explored_per_game": round(acc["explored"].get(c.id, 0) / n, 3),
                           "rewards": rw}
    characters = {}
    for c in defs:
        if c.type != "character":
            continue
        off, kept = acc["offered"].get(c.id, 0), acc["kept"].get(c.id, 0)
        joined, died = acc["joined"].get(c.id, 0), acc["died"].get(c.id, 0)
        characters[c.id] = {"pick_rate": round(kept / off, 4) if off else None, "joined": joined,
                            "survival": round(1 - died / joined, 4) if joined else None}
    out = {
        "turns": spread(totals["turns"]), "turn_cap": prep.cap,
        "turn_cap_hits": totals["capped"],
        "false_alarms_per_game": round(totals["alarms"] / n, 3),
        "missions": missions, "monsters": monsters, "locations": locations, "characters": characters,
    }
    names = {c.id: dict(c.name) for c in prep.defs}
    out["lines"] = {lang: report_lines(out, n, names, lang) for lang in ("uk", "en")}
    return out
