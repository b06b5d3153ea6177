"""Findings about the card data that are certain without playing, for `forge check`."""
from __future__ import annotations

from typing import Any, Iterator

from .tables import GROUP_LIMIT, faces


def check_data(game: Any) -> Iterator:
    """Findings certain from the data alone, for `forge check`:

    - a mission goal at a location that is not in the game (or names none), or that needs a
      location's mission reward where the location offers none;
    - a goal, skill card or skill-bound rule whose skill no character has;
    - a monster (or a mission's or location's foe) whose Strength no group of the 4 strongest
      characters beats even rolling a 6 against the monster's 1; a Speed check no group of the
      4 fastest characters passes with a 6;
    - an exploration table that does not cover the faces 1-6 exactly once;
    - an event above every location's level (it never happens).
    """
    chars = [c for c in game.cards if c.type == "character"]
    locs = {c.id: c for c in game.cards if c.type == "location"}
    skills = {s for c in chars for s in (c.skills or ())}
    strengths = sorted((c.strength for c in chars for _ in range(c.copies)), reverse=True)
    speeds = sorted((c.speed for c in chars for _ in range(c.copies)), reverse=True)
    best_str = sum(strengths[:GROUP_LIMIT]) + 6
    best_spd = sum(speeds[:GROUP_LIMIT]) + 6
    top_level = max((c.level for c in locs.values()), default=0)

    def beatable(strength: int) -> bool:
        return best_str >= strength + 1          # a tie with a monster goes to the group

    for card in game.cards:
        if card.type == "mission":
            for i, g in enumerate(card.goals or ()):
                if g.goal in ("visit", "hold", "battle"):
                    if not g.location:
                        yield card.finding(("goals", i), "mission-unreachable",
                                           f"goal {i + 1} ({g.goal}) names no location, so "
                                           f"{card.id} can never be completed", "add `location:`")
                    elif g.location not in locs:
                        yield card.finding(("goals", i, "location"), "mission-unreachable",
                                           f"goal {i + 1} is at {g.location!r}, which is not a "
                                           f"location of the game, so {card.id} can never be completed")
                    elif g.goal != "hold" and not any(r.kind == "mission" for r in locs[g.location].rewards):
                        yield card.finding(("goals", i, "location"), "mission-unreachable",
                                           f"goal {i + 1} needs the mission reward of {g.location}, "
                                           "which offers none", "add a `mission` reward to the location")
                if g.goal == "speed_check" and (not g.difficulty or g.difficulty > best_spd):
                    yield card.finding(("goals", i), "mission-unreachable",
                                       f"goal {i + 1}: a Speed check of {g.difficulty} that no group "
                                       f"of 4 reaches even with a 6 (at most {best_spd})")
                if g.goal == "battle" and (not g.strength or not beatable(g.strength)):
                    yield card.finding(("goals", i), "monster-unbeatable",
                                       f"goal {i + 1}: a foe of Strength {g.strength} that no group of 4 "
                                       f"beats even with a 6 (at most {best_str})")
                if g.goal == "hold" and not g.turns:
                    yield card.finding(("goals", i), "mission-unreachable",
                                       f"goal {i + 1}: a hold goal needs `turns:`")
                if g.skill and g.skill not in skills:
                    yield card.finding(("goals", i, "skill"), "skill-unusable",
                                       f"goal {i + 1} needs a character with {g.skill}, and none has it")
        elif card.type == "bonus" and card.subtype == "skill" and card.skill and card.skill not in skills:
            yield card.finding(("skill",), "skill-unusable",
                               f"no character has the skill {card.skill!r}, so {card.id} can never be played")
        elif card.type == "event":
            if card.subtype == "monster" and card.strength and not beatable(card.strength):
                yield card.finding(("strength",), "monster-unbeatable",
                                   f"Strength {card.strength}: no group of the 4 strongest characters "
                                   f"(at most {best_str} with a 6) beats it, even against its 1")
            if top_level and card.level > top_level:
                yield card.finding(("level",), "event-never-happens",
                                   f"level {card.level} is above every location's level ({top_level})")
        elif card.type == "location":
            covered: list[int] = []
            for row in card.exploration or ():
                covered += list(faces(row.roll))
                for j, op in enumerate(row.ops or ()):
                    if op.name == "fight" and not beatable(op.args()["strength"]):
                        yield card.finding(("exploration",), "monster-unbeatable",
                                           f"a foe of Strength {op.args()['strength']} no group beats")
            if sorted(covered) != [1, 2, 3, 4, 5, 6]:
                yield card.finding(("exploration",), "exploration-table",
                                   f"the exploration rows cover the faces {sorted(covered)}, not 1-6 "
                                   "exactly once")
