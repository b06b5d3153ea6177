"""Jinja stage: a rulebook or cheat-sheet template, rendered with the game's data, becomes Markdown.

The context (names, filters, block helpers) is the template contract of docs/rulebooks.md. While
rendering, every reference the template makes (card ids, scenario files) is resolved; one that
does not resolve is recorded as a `Finding` at the *template* file and line, found from the Jinja
frames on the Python stack (Jinja maps its generated code back to template lines). Block helpers
(card pictures, scenarios) write a placeholder line that the Markdown stage replaces by flowables.

What a template writes as its own text is Markdown; what it prints with `{{ }}` is text. Every
printed value goes through `markdown_text` (the environment's `finalize`), which escapes what
Markdown would read as markup, so a card named `Tom* & [Jerry] | <img src=...>` prints as itself,
in a paragraph, a heading or a table cell. Card markup is the exception, as on the card: a
value's `**bold**`, `*italic*` and `:icon:` (of the game's icons) print as bold, italic and the
icon (`forge.rulebook.inline`). The environment autoescapes so that what is already
Markdown is `Markup` and passes untouched: macro results, `{% set %}` blocks, block placeholders.
(A side effect of autoescaping: a quote in a string literal printed by `{{ '...' }}` stays straight;
write such text in the template itself.) The Markdown stage undoes the escapes when it parses.
"""
from __future__ import annotations

import re
import sys
import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Container

import jinja2
from markupsafe import Markup

from ..errors import Finding, display_path
from ..load import load_yaml
from ..model import Game
from ..paths import DataPathError, data_path, project_folder, real_folder
from ..render.icons import game_icons
from ..resources import BUILTIN
from ..rules.printed import rule_numbers
from ..templating import (BYTECODE, Environment, FolderLoader, calling_template, error_position,
                          Undefined, templates_root)
from ..scenario import ScenarioError, load_scenario
from ..text import OperationTextError, effect_text, operations_text, plural
from ..text.inflect import CASES, CaseError, inflect
from ..text.numbers import spell
from ..text.typography import quoted
from .inline import marked
from .odds import d6_battle, d6_faces, d6_odds
from .played import played_rules
from .words import Words, read_words

NBSP = "\u00a0"
KINDS = ("rulebook", "cheatsheet", "summary")
#: Placeholder for a block; the Markdown stage finds it as a paragraph of its own.
BLOCK_MARK = "@@forge-block-{}@@"


def scenarios_dir(game: Game) -> Path:
    """`tests/scenarios/<game>/` beside the cards folder, else in the built-in project. (It may
    be a link, which `real_folder` refuses where it is read.)"""
    name = f"tests/scenarios/{game.id}"
    return project_folder(game.root, name) or BUILTIN / name


def template_name(game: Game, kind: str, lang: str) -> str:
    return f"{game.id}/{kind}.{lang}.md.j2"


def has_template(game: Game, kind: str) -> bool:
    """Does the game have a `kind` template in any of its languages? (A game without one
    simply has no such document; one missing a language is a `rulebook-template` finding.)"""
    root = templates_root(game)
    return any((root / template_name(game, kind, lang)).is_file() for lang in game.manifest.locales)


@dataclass(frozen=True)
class Block:
    """A drawing the Markdown cannot express: `card_picture`, `card_row` or `scenario`."""

    kind: str
    cards: tuple[Any, ...] = ()
    scenario: dict | None = None
    file: str = ""
    line: int = 0


@dataclass
class Rendered:
    """A template rendered to Markdown, with its blocks and the problems met on the way."""

    template: str  # display path of the template file
    lang: str
    markdown: str = ""
    blocks: dict[str, Block] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    path: Path | None = None
    #: The icons its values name, in order: the Markdown carries their marks (`inline.marked`).
    icons: list[str] = field(default_factory=list)
    #: Each quoted card name printed, in order, with the template file and line that printed it.
    quoted: list[tuple[str, str, int]] = field(default_factory=list)

    def line_of(self, needle: str) -> int:
        """First template line containing `needle` (for problems found after Jinja), or 0."""
        if self.path is None or not needle:
            return 0
        for number, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
            if needle in line:
                return number
        return 0


#: Characters Markdown may read as markup anywhere in a line (`#` only opens a heading at the
#: start of a line but closes one at its end).
_SPECIAL = re.compile(r"[\\*_\[\]<>&|#]|`(?!(?<=\w`)\w)")
#: What opens a block at the start of a line: a list item (`-`, `+`, `1.`), a setext underline.
_LEAD = re.compile(r"^\s*(?:([-+=])(?=\s|$|\1)|\d{1,9}[.)])")
_NEWLINE = re.compile(r"\r\n?|\n")


def markdown_text(value: Any, icons: Container[str] = (), names: list[str] | None = None) -> Markup:
    """`value` as Markdown that prints it literally (`Markup` passes as it is), but for its card
    markup: emphasis, and icons of `icons`, whose names go to `names` (`inline.marked`).

    A backslash goes before every character Markdown could take as markup, and a line break
    becomes a space (a value is inline text: a break would end a table row or a heading). A
    backtick inside a word is left alone: typography turns it into an apostrophe first."""
    if hasattr(value, "__html__"):
        return value
    text = marked(_NEWLINE.sub(" ", str(value)), icons, [] if names is None else names, _escaped)
    return Markup(_LEAD.sub(lambda m: m.group(0)[:-1] + "\\" + m.group(0)[-1], text, count=1))


def _escaped(text: str) -> str:
    return _SPECIAL.sub(r"\\\g<0>", text)


@jinja2.pass_context
def _finalize(ctx, value: Any) -> Markup:
    """`markdown_text` with the icons of the game being rendered (none in a macro imported
    without context, which sees no game)."""
    rec = ctx.get("_recorder")
    return markdown_text(value, rec.icons, rec.out.icons) if rec is not None else markdown_text(value)


def _filter(method: str):
    """A filter that calls the current rendering's recorder (filters live on a shared env)."""
    @jinja2.pass_context
    def call(ctx, value, *args, **kwargs):
        return getattr(ctx["_recorder"], method)(value, *args, **kwargs)
    call.__name__ = method
    return call


@lru_cache(maxsize=8)
def environment(root: str) -> jinja2.Environment:
    env = Environment(
        loader=FolderLoader([(Path(root), "")]), undefined=Undefined, autoescape=True,
        finalize=_finalize, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        bytecode_cache=BYTECODE)
    env.filters.update(plural=_filter("plural"), items=_filter("items"), spell=_filter("spell"),
                       card=_filter("card_quoted"), card_name=_filter("card_name"),
                       inflect=_filter("inflect"))
    return env


class _Recorder:
    """The context of one rendering: resolves references and records what fails."""

    def __init__(self, game: Game, lang: str, out: Rendered, root: Path):
        self.game, self.lang, self.out, self.root = game, lang, out, root
        self.icons = game_icons(game)
        self._words: Words | None = None

    def _here(self) -> tuple[str, int]:
        """The template file and line being rendered (innermost game-template frame)."""
        return calling_template(sys._getframe())

    # --- names ---------------------------------------------------------------------------
    def t(self, text: Any) -> str:
        if text is None:
            return ""
        if isinstance(text, str):
            return text
        if isinstance(text, dict):
            return text.get(self.lang) or next(iter(text.values()), "")
        return text[self.lang]

    def count(self, type: str | None = None, set: str | None = None, subtype: str | None = None) -> int:
        return sum(c.copies for c in self.game.cards
                   if (type is None or c.type == type) and (set is None or c.set == set)
                   and (subtype is None or c.subtype == subtype))

    def cards_of(self, type: str, set: str | None = None) -> list:
        return self.game.cards_of(type, set)

    def _card(self, card_id: Any):
        card = self.game.by_id.get(card_id) if isinstance(card_id, str) else None
        if card is None:
            known = sorted(self.game.by_id)
            close = [k for k in known if isinstance(card_id, str) and (card_id in k or k in card_id)][:3]
            self.finding_at_caller("rulebook-card", f"no card with id {card_id!r}",
                               f"use an id from `forge cards {self.game.id}`"
                               + (f" (close: {', '.join(close)})" if close else ""), str(card_id))
        return card

    def finding_at_caller(self, code: str, message: str, fix: str = "", card: str = "") -> None:
        file, line = self._here()
        where = display_path(Path(file)) if file else self.out.template
        self.out.findings.append(Finding(where, line, 1 if line else 0, code, message, fix, card))

    def effect(self, card: Any) -> str:
        """A card's printed effect text, rendered from its operations (as on the card)."""
        return effect_text(self.game.manifest, card, self.lang)

    def ops(self, operations: Any) -> str:
        """The text of a list of operations (a monster's `failure`, ...)."""
        return operations_text(self.game.manifest, operations, self.lang)

    def card_by_id(self, card_id: str):
        return self._card(card_id)

    def card_name(self, card_id: str, case: str = "nom") -> str:
        """A card's name in `case` («розігрує «Аптечку»»: `'first_aid_kit' | card('acc')`)."""
        card = self._card(card_id)
        if card is None:
            return f"[{card_id}]"
        return self._inflect(card.name[self.lang], case, self.words.cards.get(card_id))

    def card_quoted(self, card_id: str, case: str = "nom") -> str:
        text = quoted(self.card_name(card_id, case), self.lang)
        file, line = self._here()
        self.out.quoted.append((text, display_path(Path(file)) if file else self.out.template, line))
        return text

    def inflect(self, text: Any, case: str) -> str:
        """A card type's or a game term's name in `case` (`t(ct.name) | inflect('gen')`)."""
        text = str(text)
        return self._inflect(text, case, self.words.terms.get(text))

    def _inflect(self, text: str, case: str, forms: dict[str, str] | None) -> str:
        try:
            return inflect(text, case, self.lang, forms)
        except CaseError as exc:
            self.finding_at_caller("rulebook-case", str(exc), f"use one of {', '.join(CASES)}")
            return text

    @property
    def words(self) -> Words:
        """The game's words file: the forms the dictionary gets wrong (`read_words`; `forge
        check` reports the file's problems once, not at every template that reads it)."""
        if self._words is None:
            self._words = read_words(self.game, self.lang, self.root)[0]
        return self._words

    def plural(self, n: int, *forms: str) -> str:
        return plural(n, forms, self.lang)

    def items(self, n: int, *forms: str) -> str:
        return f"{n}{NBSP}{plural(n, forms, self.lang)}"

    def spell(self, n: int, ordinal: bool = False, case: str = "nom", gender: str = "m") -> str:
        return spell(n, self.lang, ordinal, case, gender)

    # --- blocks --------------------------------------------------------------------------
    def _block(self, block: Block) -> str:
        key = BLOCK_MARK.format(len(self.out.blocks) + 1)
        self.out.blocks[key] = block
        return Markup(key)

    def card_picture(self, card_id: str) -> str:
        file, line = self._here()
        card = self._card(card_id)
        return self._block(Block("cards", (card,) if card else (), None, file, line))

    def card_row(self, card_ids: list[str]) -> str:
        file, line = self._here()
        cards = tuple(c for c in (self._card(i) for i in card_ids) if c is not None)
        return self._block(Block("cards", cards, None, file, line))

    def scenario_data(self, stem: str) -> dict | None:
        """The scenario `<stem>.yaml` of the scenarios folder, which a template may not leave."""
        folder = scenarios_dir(self.game)
        try:
            path = data_path(real_folder(folder, "scenarios folder"), f"{stem}.yaml", "scenario",
                             "the scenarios folder")
        except DataPathError as exc:
            if exc.code == "path-missing":
                self.finding_at_caller("rulebook-scenario", f"no scenario file "
                                       f"{display_path(folder / f'{stem}.yaml')}",
                                       "write the scenario or fix the name")
            else:
                self.finding_at_caller("rulebook-scenario", exc.message, exc.fix)
            return None
        data = _scenario(self.game, path)
        if isinstance(data, ScenarioError):
            self.finding_at_caller("rulebook-scenario", str(data))
            return None
        return {**data, "_path": str(path)}

    def scenario(self, stem: str) -> str:
        file, line = self._here()
        data = self.scenario_data(stem)
        return self._block(Block("scenario", (), data, file, line)) if data else ""


#: What `load_scenario` made of each scenario file, by loaded game, then by path with the file's
#: stat: the rulebook and the cheat sheet of every language quote the same scenarios, and
#: `forge build` renders each template once more after checking it.
_SCENARIOS: "weakref.WeakKeyDictionary[Game, dict[Path, tuple[tuple, Any]]]" = weakref.WeakKeyDictionary()


def _scenario(game: Game, path: Path) -> dict | ScenarioError:
    """The data of the scenario file `path` for `game`, or the error that says why it has none."""
    try:
        st = path.stat()
        stamp: tuple = (st.st_ino, st.st_size, st.st_mtime_ns)
    except OSError:
        stamp = ()  # never kept: load_scenario says what is wrong
    known = _SCENARIOS.setdefault(game, {})
    hit = known.get(path)
    if not stamp or hit is None or hit[0] != stamp:
        try:
            made: Any = load_scenario(path, game).data
        except ScenarioError as exc:
            made = exc.with_traceback(None)  # its frames would keep the game alive
        hit = known[path] = (stamp, made)
    return hit[1]


def render_template(game: Game, kind: str, lang: str, root: Path | None = None) -> Rendered:
    """Render `templates/<game>/<kind>.<lang>.md.j2`; problems are findings, never exceptions."""
    root = root or templates_root(game)
    name = template_name(game, kind, lang)
    path = root / name
    out = Rendered(display_path(path), lang, path=path)
    if not path.is_file():
        out.findings.append(Finding(out.template, 0, 0, "rulebook-template",
                                    f"no {kind} template for {game.id} in {lang!r}",
                                    "write it; see docs/rulebooks.md"))
        return out
    env = environment(str(root))
    rec = _Recorder(game, lang, out, root)
    context = {
        "game": game, "manifest": game.manifest, "lang": lang, "t": rec.t, "count": rec.count,
        "cards_of": rec.cards_of, "card_by_id": rec.card_by_id,
        "sets": list(game.manifest.sets.items()), "players": game.manifest.players,
        "card_picture": rec.card_picture, "card_row": rec.card_row, "scenario": rec.scenario,
        "scenario_data": rec.scenario_data, "d6_odds": d6_odds, "d6_battle": d6_battle,
        "d6_faces": d6_faces, "rules": rule_numbers(game), "played": played_rules(game, lang),
        "effect": rec.effect, "ops": rec.ops,
    }
    context["_recorder"] = rec
    try:
        out.markdown = env.get_template(name).render(context)
    except jinja2.TemplateSyntaxError as exc:
        where = display_path(Path(exc.filename)) if exc.filename else out.template
        out.findings.append(Finding(where, exc.lineno or 0, 1, "rulebook-template", exc.message or str(exc)))
    except OperationTextError as exc:  # an operation text the template showed: point at the text
        out.findings.append(game.manifest_finding(exc.loc, exc.code, str(exc)))
    except Exception as exc:  # a runtime error in the template: point at its line
        file, line = error_position(exc.__traceback__)
        where = display_path(Path(file)) if file else out.template
        code = "unsafe-template" if isinstance(exc, jinja2.exceptions.SecurityError) else "rulebook-template"
        out.findings.append(Finding(where, line, 1 if line else 0, code, f"{type(exc).__name__}: {exc}"))
    return out
