"""Every field a card carries has a place on its face, or its layout declares it hidden.

A layout shows a field when it reads it while rendering the card's front (`card.flavor`,
`card['flavor']`, or a variable made from it: `effect` shows `effects` and `text`, `flavor`
shows `flavor`, `art_path` shows `art`, `set_name`, `type_name` and `subtype_name` show `set`,
`type` and `subtype`; `card.game_fields` shows every game field). A field that only the rules
engine needs, or that the face says another way (a goal's `condition` that its printed `text`
states), is declared at the layout's top level:

    {% set hidden = ['condition', 'threshold'] %}

Reported, at the card's field line:

- `hidden-field`: a field with a value on a card that its layout neither shows nor declares
  hidden; it would be dropped from the printed card without a word;

and at the layout's `hidden` line:

- `unknown-hidden`: a name in `hidden` that is no field of the card's type (a typo, or a
  field since renamed).

`id`, `type`, `copies` and `back` are exempt: the id names the card in the data (faces print it
only with `--proof`), the type chooses the layout, copies is how many are printed, and the
back is printed on the card's other side. Fields are
checked by their top-level name; what a layout does inside a list or an object is its own.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from ..errors import Finding, display_path
from ..model import Game
from ..render import LayoutError
from ..render.layout import field_use, template_for

#: Fields a face never has to show (see the module's docstring).
EXEMPT = frozenset({"id", "type", "copies", "back"})
_SET_HIDDEN = re.compile(r"\{%-?\s*set\s+hidden\s*=")
_EXTENDS = re.compile(r"\{%-?\s*extends\s+['\"]([^'\"]+)['\"]")


def carried(card) -> list[str]:
    """The fields written in the card's data with a value to print (not null, an empty list
    or false), in the model's order."""
    written = card.model_fields_set
    return [name for name in type(card).model_fields
            if name in written and name not in EXEMPT and getattr(card, name) not in (None, (), False, "")]


def check_shown_fields(game: Game) -> Iterator[Finding]:
    locales = game.manifest.locales
    unknown_seen: set[tuple[str, str]] = set()
    for card in game.cards:
        missing: dict[str, list[str]] = {}
        try:
            uses = [(lang, field_use(game, card, lang)) for lang in locales]
        except LayoutError:
            continue  # reported by the preflight with the card and the template line
        template = template_for(game, card)
        fields = carried(card)
        for lang, use in uses:
            for name in fields:
                if name not in use.shown and name not in use.hidden:
                    missing.setdefault(name, []).append(lang)
            for name in use.unknown:
                if (template.name, name) not in unknown_seen:
                    unknown_seen.add((template.name, name))
                    file, line = _hidden_line(template)
                    yield Finding(file, line, 1 if line else 0, "unknown-hidden",
                                  f"layout {template.name} declares {name!r} hidden, but cards of type "
                                  f"{card.type!r} have no such field", "correct or remove the name",
                                  card.id)
        if not missing:
            continue
        layout = display_path(Path(template.filename)) if template.filename else template.name
        for name, langs in missing.items():
            where = "" if len(langs) == len(locales) else f" ({', '.join(langs)})"
            yield card.finding((name,), "hidden-field",
                               f"{name!r} has a value, but the layout {layout} has no place for it"
                               f"{where}: it would not be printed",
                               f"show it in the layout, or declare it there: {{% set hidden = "
                               f"[{name!r}] %}}")


def _hidden_line(template) -> tuple[str, int]:
    """The file and line of the `{% set hidden = ... %}` the layout (or a layout it extends)
    holds; the layout's own file otherwise."""
    env, current = template.environment, template
    for _ in range(10):  # an extends chain; Jinja refuses cycles itself
        try:
            source = Path(current.filename).read_text(encoding="utf-8")
        except (OSError, TypeError, ValueError):
            break
        found = _SET_HIDDEN.search(source)
        if found:
            return display_path(Path(current.filename)), source.count("\n", 0, found.start()) + 1
        parent = _EXTENDS.search(source)
        if not parent:
            break
        try:
            current = env.get_template(parent.group(1))
        except Exception:  # noqa: BLE001 (the preflight reports a broken layout)
            break
    return (display_path(Path(template.filename)) if template.filename else template.name), 0
