"""How a game of Love Formula is set up: the engine's options (`forge simulate love_formula
--option name=value`, a scenario's `options:`) and the `Config` they make."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core import EngineError, Option, resolve_options

GOAL_VARIANTS = ("standard", "same", "open", "hidden", "planned")


@dataclass(frozen=True)
class Config:
    """How a game is set up: which sets, and each choice the expansions' rulebooks offer."""

    sets: tuple[str, ...] = ("base",)
    #: #RelationshipGoals variant: standard, same (one VP value for every goal), open (VP cards
    #: face up), hidden (won VP cards stay face down until the end), planned (a chosen mix).
    goals_variant: str = "standard"
    #: For `same`: the VP every goal is worth; 0 draws a random VP card to set it.
    goals_same_value: int = 0
    #: For `planned`: how many "first" goals (the rest of X+1 are "end" goals); None: (X+2)//2.
    goals_planned_first: int | None = None
    #: For `planned`: the goals the players chose (card ids); empty: drawn by `goals_planned_first`.
    goals_planned: tuple[str, ...] = ()
    #: Promo jobs: "mix" (4 base + 4 promo shuffled) or "replace" (promo jobs only).
    promo_jobs: str = "mix"
    #: Promo replacements: (promo card id, copies) pairs; each copy takes the place of one copy
    #: of the base card it `replaces`. Promo cards not named here are simply added.
    promo_replace: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        if "base" not in self.sets:
            object.__setattr__(self, "sets", ("base", *self.sets))
        if self.goals_variant not in GOAL_VARIANTS:
            raise EngineError(f"unknown goals variant {self.goals_variant!r} "
                              f"(known: {', '.join(GOAL_VARIANTS)})")
        if self.goals_planned and "goals" not in self.sets:
            raise EngineError("goals_planned needs the #RelationshipGoals set: --sets base,goals")
        if self.goals_planned and self.goals_variant != "planned":
            raise EngineError("goals_planned names the goals of goals_variant=planned; "
                              "add --option goals_variant=planned")
        if self.promo_jobs not in ("mix", "replace"):
            raise EngineError("promo_jobs is 'mix' or 'replace'")

    def options(self) -> dict[str, Any]:
        """This configuration as the engine's option values (see `OPTIONS`)."""
        return {"goals_variant": self.goals_variant, "goals_same_value": self.goals_same_value,
                "goals_planned_first": self.goals_planned_first,
                "goals_planned": ",".join(self.goals_planned), "promo_jobs": self.promo_jobs,
                "promo_cards": "add",
                "promo_replace": ",".join(f"{c}:{n}" for c, n in self.promo_replace)}


#: The engine's options (`forge simulate love_formula --option name=value`, scenario `options:`).
OPTIONS = (
    Option("goals_variant", str, "standard", GOAL_VARIANTS,
           "#RelationshipGoals: standard, same (one VP value for every goal), open (VP cards face "
           "up), hidden (won VP cards stay face down until the end), planned (a chosen mix)."),
    Option("goals_same_value", int, 0, (),
           "VP of every goal for goals_variant=same (0: a random VP card sets it).", min=0),
    Option("goals_planned_first", int, None, (),
           "For goals_variant=planned: how many \"first\" goals (default (players+2)//2).",
           min=0),
    Option("goals_planned", str, "", (),
           "For goals_variant=planned: the goals the players choose, `goal,goal,...` "
           "(default: drawn at random by goals_planned_first)."),
    Option("promo_jobs", str, "mix", ("mix", "replace"),
           "Promo jobs: mix (4 base + 4 promo shuffled) or replace (promo jobs only)."),
    Option("promo_cards", str, "add", ("add", "replace"),
           "Promo cards: add them, or replace every copy of the base cards they name."),
    Option("promo_replace", str, "", (),
           "Promo cards that replace base copies one by one: `card:copies,card:copies`."),
)


def full_replacement(game: Any) -> tuple[tuple[str, int], ...]:
    """Every promo card that `replaces` a base card takes the place of all its copies."""
    return tuple((c.id, c.copies) for c in game.cards if c.set == "promo" and c.replaces)


def config_from(game: Any, options: Mapping[str, Any] | None = None,
                sets: Sequence[str] | None = None) -> Config:
    """The `Config` of option values (as `OPTIONS` declares them) and sets."""
    o = resolve_options(OPTIONS, dict(options or {}))
    replace: tuple[tuple[str, int], ...] = ()
    if o["promo_cards"] == "replace":
        replace = full_replacement(game)
    if o["promo_replace"]:
        pairs = []
        for item in o["promo_replace"].split(","):
            cid, _, n = item.strip().partition(":")
            if not cid or not n.strip().isdigit():
                raise EngineError(f"option promo_replace: {item!r} is not `card:copies`")
            pairs.append((cid, int(n)))
        replace = tuple(dict(replace, **dict(pairs)).items())
    return Config(sets=tuple(sets) if sets else ("base",), goals_variant=o["goals_variant"],
                  goals_same_value=o["goals_same_value"],
                  goals_planned_first=o["goals_planned_first"],
                  goals_planned=_planned_goals(game, o["goals_planned"]), promo_jobs=o["promo_jobs"],
                  promo_replace=replace)


def _planned_goals(game: Any, text: str) -> tuple[str, ...]:
    """The goal ids of the option `goals_planned`, each a goal card of the game, none twice."""
    ids = tuple(g.strip() for g in text.split(",") if g.strip())
    goals = {c.id for c in game.cards if c.type == "goal"}
    unknown = [g for g in ids if g not in goals]
    if unknown:
        raise EngineError(f"option goals_planned: {', '.join(unknown)} "
                          f"{'is not a goal' if len(unknown) == 1 else 'are not goals'} "
                          f"(goals: {', '.join(sorted(goals))})")
    twice = sorted({g for g in ids if ids.count(g) > 1})
    if twice:
        raise EngineError(f"option goals_planned: {', '.join(twice)} named twice")
    return ids
