"""A game's words file, `templates/<game>/words.<lang>.yaml`: the one reader of it.

The file holds two kinds of names. `cards:` (by card id) and `terms:` (by nominative) give the
forms of names the dictionary declines wrongly, each a mapping of case to form, which the
templates' `card` and `inflect` filters read (docs/rulebooks.md, "Names in a sentence"). The
other sections (zones, counters, fields, words, defs, actions) name what a rules game's rules
print with (`played`, docs/rules.md). `forge check` reports the file's findings once; the
renderers take the `Words` and leave the findings to it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Finding, display_path
from ..load import load_yaml
from ..paths import DataPathError, data_path, real_folder
from ..templating import templates_root
from ..text.inflect import CASES

#: The forms each kind of name of the played rules may give (a zone's also with _next, _prev,
#: _target or _all).
FORMS = {"zones": ("name", "it", "in", "from", "to", "of"), "counters": ("name", "forms", "value"),
         "fields": ("name", "of"), "defs": ("name", "which"), "actions": ("name",), "words": ("name",)}
#: The sections of forms of names, each {name: {case: form}}.
NAME_FORMS = ("cards", "terms")


@dataclass(frozen=True)
class Words:
    """What a words file says; empty when there is none. ``rules``: the played rules' sections
    as written ({kind: {name: form or {form: text}}}); ``cards`` and ``terms``: the forms of
    names that are well formed, {name: {case: form}}."""

    rules: dict[str, Any] = field(default_factory=dict)
    cards: dict[str, dict[str, str]] = field(default_factory=dict)
    terms: dict[str, dict[str, str]] = field(default_factory=dict)


def read_words(game: Any, lang: str, root: Path | None = None) -> tuple[Words, list[Finding]]:
    """The words file of `game` in `lang` under the templates folder `root` (the game's own by
    default), and its findings at their lines: a file that does not load, a section, name or
    form the rules do not have (`rules-words`), a card id no card has or forms that are not a
    mapping of case to form (`words-forms`)."""
    root = root or templates_root(game)
    name = f"{game.id}/words.{lang}.yaml"
    try:
        path = data_path(real_folder(root, "templates folder"), name, "words file", "the templates folder")
    except DataPathError as exc:
        if exc.code == "path-missing":
            return Words(), []
        return Words(), [Finding(display_path(exc.at or root / name), 0, 0, exc.code, exc.message, exc.fix)]
    doc, findings = load_yaml(path)
    if doc is None:
        return Words(), findings
    if not isinstance(doc.data, dict):
        return Words(), [doc.finding((), "rules-words", "a words file is a mapping: "
                                     + ", ".join((*FORMS, *NAME_FORMS)))]
    rules, forms = {}, {}
    for kind, names in doc.data.items():
        if kind in NAME_FORMS:
            forms[kind] = _forms(game, doc, kind, names, findings)
        elif kind in FORMS:
            rules[kind] = names
        else:
            findings.append(doc.finding((kind,), "rules-words", f"unknown section {kind!r} (known: "
                                        f"{', '.join((*FORMS, *NAME_FORMS))})"))
    _check_rules(game, doc, rules, findings)
    return Words(rules, forms.get("cards", {}), forms.get("terms", {})), findings


def _forms(game: Any, doc: Any, section: str, entries: Any,
           findings: list[Finding]) -> dict[str, dict[str, str]]:
    """The well-formed entries of a `cards:` or `terms:` section; a finding for each other."""
    entries = entries or {}
    if not isinstance(entries, dict):
        findings.append(doc.finding((section,), "words-forms", f"{section}: give a mapping"))
        return {}
    out = {}
    for key, cases in entries.items():
        if section == "cards" and key not in game.by_id:
            findings.append(doc.finding((section, key), "words-forms", f"no card with id {key!r}",
                                        f"use an id from `forge cards {game.id}`"))
        elif not isinstance(cases, dict) or not all(
                c in CASES and isinstance(f, str) and f for c, f in cases.items()):
            findings.append(doc.finding((section, key), "words-forms",
                                        f"{key}: give a mapping of case to form",
                                        f"cases: {', '.join(CASES)}"))
        else:
            out[key] = cases
    return out


def _check_rules(game: Any, doc: Any, sections: dict[str, Any], findings: list[Finding]) -> None:
    """A finding for each name the rules do not have and each form no sentence uses."""
    if not sections:
        return
    from ..rules.data import rules_source
    rules = rules_source(game)[2]
    known = {kind: set(rules.get(kind) or ()) for kind in ("zones", "counters", "defs", "actions")} \
        if isinstance(rules, dict) else {}      # rules not read: names are not compared
    known["fields"] = {"id", "type", "subtype"} | {f for spec in game.manifest.card_types.values()
                                                   for f in spec.fields}      # as `field_kind` reads
    for kind, names in sections.items():
        for n, entry in (names if isinstance(names, dict) else {}).items():
            if kind in known and n not in known[kind]:
                findings.append(doc.finding((kind, n), "rules-words", f"{n!r} is not one of the "
                                            f"rules' {kind} ({', '.join(sorted(known[kind])) or 'none'})"))
            for form in entry if isinstance(entry, dict) else ():
                base = form.rsplit("_", 1)[0] if kind == "zones" and form.endswith(
                    ("_next", "_prev", "_target", "_all")) else form
                if base not in FORMS[kind]:
                    findings.append(doc.finding((kind, n, form), "rules-words", f"unknown form "
                                                f"{form!r} (known: {', '.join(FORMS[kind])})"))
