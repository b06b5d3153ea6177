"""`forge new`: a working game to start from, made from the template files in `files/`.

`scaffold(project, game_id, langs, types)` writes, under the project folder:

- `cards/<game>/game.yaml`: the manifest (players, card size, the base set with its counts,
  a component, a default back, one card type per `types` with a `cost` field, two operations);
- `cards/<game>/<type>.yaml`: two example cards per type;
- `cards/<game>/rules.yaml`: the rules as data (docs/rules.md), which forge's `rules` engine plays:
  a coin each turn, draw a card, play one whose cost you can pay; ten points win;
- `tests/scenarios/<game>/play_a_card.yaml`: a scenario of those rules;
- `templates/<game>/cards/<type>.yaml.j2`: a layout per type, built from the shared pieces of
  `templates/_common/cards/parts.j2` (forge's own, which every game's layouts fall back to);
- `templates/<game>/rulebook.<lang>.md.j2` and `cheatsheet.<lang>.md.j2` per language, whose
  setup, turn and end are printed from the rules (`played`), and `words.<lang>.yaml`, the names
  they print with.

The result passes `forge check`, `forge simulate`, `forge scenario` and `forge build` as it is. `uk` and `en` get text written in
their language; any other language gets the English text, to translate (the words are in
`files/words.yaml`).

The files are rendered with forge's sandboxed Jinja `Environment` using `[[ ]]`, `[% %]` and
`[# #]` as delimiters, so that the `{{ }}` of the templates they produce pass through as written.
Every file is written or none (`forge.files.write_files`), and an existing game is never
touched: `GameExists` is raised before anything is written.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import yaml

from ..errors import ForgeError, UsageError, display_path
from ..files import write_files
from ..model.fields import ID_PATTERN
from ..model.manifest import LOCALE_PATTERN, locale_problem
from ..templating import Environment

__all__ = ["GameExists", "scaffold", "DEFAULT_LANGS", "DEFAULT_TYPES"]

DEFAULT_LANGS = ("uk", "en")
DEFAULT_TYPES = ("action", "character")
#: Edge colours of the card types, in order (cycled), and their art placeholders' icons.
COLORS = ("#1d4e89", "#b23a48", "#2a9d8f", "#c8553d", "#6a4c93", "#7a5c00")
ICONS = {"action": "bolt", "character": "mask", "event": "sparkle", "item": "gift",
         "location": "map", "monster": "skull", "quest": "scroll", "resource": "coin",
         "spell": "flame", "unit": "shield"}


class GameExists(ForgeError):
    """The game's card or template folder is already there: `forge new` never overwrites."""


def _loc(value: dict[str, str]) -> str:
    """A localised string as the flow mapping card files use: {uk: "...", en: "..."}."""
    return "{" + ", ".join(f"{lang}: {_quote(text)}" for lang, text in value.items()) + "}"


def _quote(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is one), keeping non-ASCII letters."""
    return json.dumps(text, ensure_ascii=False)


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = Environment(loader=jinja2.PackageLoader("forge.scaffold", "files"),
                      variable_start_string="[[", variable_end_string="]]",
                      block_start_string="[%", block_end_string="%]",
                      comment_start_string="[#", comment_end_string="#]",
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                      undefined=jinja2.StrictUndefined, autoescape=False)
    env.filters["loc"] = _loc
    env.filters["q"] = _quote
    return env


@lru_cache(maxsize=1)
def _words() -> dict[str, Any]:
    source, _, _ = _env().loader.get_source(_env(), "words.yaml")  # type: ignore[union-attr]
    return yaml.safe_load(source)


def _word(lang: str, key: str) -> Any:
    words = _words()
    return words.get(lang, words["en"])[key]


def check_names(game_id: str, langs: list[str], types: list[str]) -> None:
    """Refuse ids that the manifest would refuse, before anything is written (`UsageError`)."""
    if not re.fullmatch(ID_PATTERN, game_id) or len(game_id) > 64:
        raise UsageError(f"{game_id!r} is not a game id: use lower-case ASCII letters, digits and _ "
                         "(starting with a letter or digit), at most 64 characters")
    if not langs:
        raise UsageError("--lang names no language")
    for lang in langs:
        if not re.fullmatch(LOCALE_PATTERN, lang):
            raise UsageError(f"{lang!r} is not a language code (use uk, en, de, pt_BR ...)")
        problem = locale_problem(lang)  # the manifest would refuse it, and `check` with it
        if problem:
            raise UsageError(f"--lang: {problem}")
    if not types:
        raise UsageError("--types names no card type")
    for type_id in types:
        if not re.fullmatch(ID_PATTERN, type_id) or len(type_id) > 64:
            raise UsageError(f"{type_id!r} is not a card type id: use lower-case ASCII letters, "
                             "digits and _")
    for what, names in (("--lang", langs), ("--types", types)):
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise UsageError(f"{what} names {', '.join(twice)} more than once")


def _title(game_id: str) -> str:
    return " ".join(part.capitalize() for part in game_id.split("_") if part) or game_id


def _type_name(type_id: str, lang: str) -> str:
    return _word(lang, "types").get(type_id) or _title(type_id)


def plan(game_id: str, langs: list[str], types: list[str]) -> dict[str, str]:
    """Every file of the new game: {path relative to the project: text}."""
    check_names(game_id, langs, types)
    env = _env()

    def per_lang(key: str) -> dict[str, Any]:
        return {lang: _word(lang, key) for lang in langs}

    kinds = []
    for n, type_id in enumerate(types):
        name = {lang: _type_name(type_id, lang) for lang in langs}
        cards = []
        for i, (cost, copies, effect) in enumerate(((1, 1, "draw: 1"), (2, 2, "gain: 2")), 1):
            cards.append({
                "id": f"{type_id}_{i}",
                "name": {lang: _word(lang, "example").format(type=name[lang], n=i) for lang in langs},
                "cost": cost, "copies": copies, "effect": effect,
                "flavor": per_lang("flavor") if i == 1 else None,
            })
        kinds.append({"id": type_id, "name": name, "cards": cards, "color": COLORS[n % len(COLORS)],
                      "icon": ICONS.get(type_id, "star"), "count": sum(c["copies"] for c in cards)})
    title = {lang: _title(game_id) for lang in langs}
    common = dict(game=game_id, langs=langs, title=title, types=kinds)
    files = {f"cards/{game_id}/game.yaml": env.get_template("game.yaml.j2").render(
        common, base_set=per_lang("base_set"), token=per_lang("token"),
        ops={"draw": per_lang("draw"), "gain": per_lang("gain")})}
    for kind in kinds:
        files[f"cards/{game_id}/{kind['id']}.yaml"] = env.get_template("cards.yaml.j2").render(common, type=kind)
        files[f"templates/{game_id}/cards/{kind['id']}.yaml.j2"] = env.get_template(
            "layout.yaml.j2").render(common, type=kind)
    files[f"cards/{game_id}/rules.yaml"] = env.get_template("rules.yaml.j2").render(common)
    card = kinds[0]["cards"][1]
    quoted = {lang: ("«{}»" if lang == "uk" else '"{}"').format(card["name"][lang]) for lang in langs}
    files[f"tests/scenarios/{game_id}/play_a_card.yaml"] = env.get_template("scenario.yaml.j2").render(
        common, card=card, scenario_title=per_lang("scenario_title"),
        scenario_story={lang: _word(lang, "scenario_story").format(card=quoted[lang]) for lang in langs})
    for lang in langs:
        own = lang if lang in _words() else "en"
        for doc in ("rulebook", "cheatsheet"):
            files[f"templates/{game_id}/{doc}.{lang}.md.j2"] = env.get_template(
                f"{doc}.{own}.md.j2").render(common, lang=lang)
        files[f"templates/{game_id}/words.{lang}.yaml"] = env.get_template(f"words.{own}.yaml").render()
    return files


def scaffold(project: Path, game_id: str, langs: list[str] | tuple[str, ...] = DEFAULT_LANGS,
             types: list[str] | tuple[str, ...] = DEFAULT_TYPES) -> list[Path]:
    """Write a new game into `project` (see the module docstring); the paths written, in order.
    Raises `UsageError` for a bad id, language or type, `GameExists` if the game is there."""
    langs, types = list(langs), list(types)
    files = plan(game_id, langs, types)
    for folder in (project / "cards" / game_id, project / "templates" / game_id,
                   project / "tests" / "scenarios" / game_id):
        if folder.exists():
            raise GameExists(f"{display_path(folder)} already exists: forge new never overwrites a "
                             f"game (pick another id, or delete the folder to start again)")
    out = {project / name: text.encode("utf-8") for name, text in files.items()}
    write_files(out)
    return list(out)
