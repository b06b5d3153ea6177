"""Card layouts: Jinja templates that produce a list of elements in millimetres, fitted here.

A layout template lives in `templates/<game>/cards/` (falling back to `templates/_common/cards/`,
then to forge's own `_common`, see `templating.layout_folders`):
`<type>.<subtype>.yaml.j2`, `<type>.yaml.j2`, then `default.yaml.j2`; a deck's back is
`back.yaml.j2`. The template makes a list of elements, one mapping each: with `el(kind, ...)`
calls (the templates shipped here), or written out as a YAML list. Coordinates are millimetres
from the card's top-left trim corner, y downwards. The kinds and their parameters are
`forge.render.elements.KINDS`; docs/layouts.md is the designer's reference (the variables,
filters and globals a layout sees are made here: `_env`, `_game_context`, `_context`).

Every element is checked where it is made; a bad one is left out and noted with the template
line that made it, the rendering goes on, and the face then fails with all of them
(`LayoutError.problems`), so `forge check` reports each one, and nothing draws half a face.

Elements that do not depend on the card (a type's frame, panels, art box, fixed badges) go in
`{% call once(C, IC) %}...{% endcall %}`: made once per process for each set of arguments and
shared by every face that passes them (see `once`).

Fitting happens once per card face; what cannot fit at the minimum size is kept as a problem
(`forge check` reports it through `forge.check.preflight`) and drawn at the minimum size. No
text is ever smaller than `MIN_SIZE` (6 pt), whatever a layout asks for.

While a front is rendered, the card fields its template reads are recorded, with the fields its
top-level `{% set hidden = [...] %}` declares (`field_use`; `forge.check.fields` reports fields a
card carries that its face neither shows nor hides).
"""
from __future__ import annotations

import re
import sys
import types
import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import jinja2
import jinja2.meta

from ..errors import ForgeError, display_path
from ..load import parse_yaml
from ..model.cards import art_file
from ..model.manifest import local_strings
from ..rules.printed import rule_numbers
from ..templating import (BYTECODE, Environment, FolderLoader, calling_template, error_position,
                          Undefined, layout_folders, templates_root)
from ..text.effects import OperationTextError, effect_text, operations_text
from ..text.plural import plural
from ..text.hyphenation import LEFT, MIN_FILL, RIGHT, can_hyphenate, hyphenate
from ..text.typography import SHY, escape, typeset, typeset_markup
from . import fonts, inline, kept, overlap
from .elements import MAX_PARTS, Invalid, icon_problem, numbers, validate
from .icons import BUILT_IN, IconSet, game_icons
from .fonts import unit_width

PT = 72 / 25.4  # points per millimetre
#: The smallest type a face prints (pt): a `size` or `min` below it counts as it, a paragraph
#: `scale` never takes a line below it, and a text that does not fit at it is a `text-overflow`.
MIN_SIZE = 6.0
FACES = {"regular": fonts.REGULAR, "bold": fonts.BOLD, "italic": fonts.ITALIC,
         "bolditalic": fonts.BOLD_ITALIC, "medium": "Roboto-Medium", "light": "Roboto-Light",
         "black": "Roboto-Black"}


class LayoutError(ForgeError):
    """A layout template is broken (syntax, an unknown element, something the sandbox refuses):
    the template's `file` and `line` when known (the manifest's, for an operation text it
    showed). Elements that break the vocabulary are all in `problems`, one `ElementProblem`
    each (the first is the error's own message)."""

    def __init__(self, message: str, file: str = "", line: int = 0,
                 problems: tuple[ElementProblem, ...] = ()):
        super().__init__(message)
        self.file, self.line, self.problems = file, line, problems


@dataclass(frozen=True)
class ElementProblem:
    """An element a layout made that the vocabulary refuses: the template line that made it."""

    file: str
    line: int
    message: str


@dataclass
class Problem:
    """Something a layout could not honour: where in the card data it comes from, and why."""

    loc: tuple
    code: str
    message: str


@dataclass
class Face:
    """A card side with every element resolved and fitted, ready to draw (mm, y down)."""

    width: float
    height: float
    elements: list[dict]
    problems: list[Problem] = field(default_factory=list)
    texts: list[tuple[tuple, str, str]] = field(default_factory=list)  # (loc, face, plain text)
    #: `once` groups among the elements: index of the group's first element -> the group (the
    #: shared element tuple of `GROUPS`); drawing places each as one form per document.
    groups: dict[int, tuple] = field(default_factory=dict)
    #: The icons its `icon` and `art` elements may name (the game's, `icons.game_icons`).
    icons: IconSet = BUILT_IN


# --------------------------------------------------------------------------------------------
# Templates




_DIRECT = {types.BuiltinFunctionType, types.BuiltinMethodType, types.MethodWrapperType, jinja2.runtime.Macro}


class _Context(jinja2.runtime.Context):
    """Jinja's context with a shorter path for calls that take no context: every `el()`, macro
    and method call of a layout goes through `Context.call`, which looks for `pass_context`
    and friends on each call (a third of the time spent rendering a layout)."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        tp = type(__obj)
        if tp in _DIRECT or (tp is types.FunctionType and "jinja_pass_arg" not in __obj.__dict__):
            if kwargs:
                kwargs.pop("_block_vars", None)
                kwargs.pop("_loop_vars", None)
            try:
                return __obj(*args, **kwargs)
            except StopIteration:
                return __self.environment.undefined(
                    "value was undefined because a callable raised a StopIteration exception")
        return jinja2.runtime.Context.call(__self, __obj, *args, **kwargs)

    def resolve_or_missing(self, key: str) -> Any:
        # a variable made from card fields (`effect`, `flavor` ...) counts as showing them
        if key in _DERIVED and _READING.card is not None:
            _READING.shown.update(_DERIVED[key])
        if key in self.vars:
            return self.vars[key]
        if key in self.parent:
            return self.parent[key]
        return jinja2.utils.missing


# --------------------------------------------------------------------------------------------
# Which card fields a layout shows: every field of the card a template reads while it renders
# the card's face (`card.x`, `card['x']`, the variables made from fields below) counts as shown;
# `{% set hidden = [...] %}` at a layout's top level declares the fields it leaves off on
# purpose. `forge.check.fields` reports the fields a card carries that are neither.

#: Layout variables made from card fields, and the fields each one shows.
_DERIVED = {"effect": ("effects", "text"), "flavor": ("flavor",), "art_path": ("art",),
            "set_name": ("set",), "type_name": ("type",), "subtype_name": ("subtype",)}


@dataclass(frozen=True)
class FieldUse:
    """What a card's front layout did with its fields: read them (`shown`), declared them
    `hidden`, or declared hidden names that are no field of the card's type (`unknown`)."""

    shown: frozenset
    hidden: frozenset
    unknown: tuple


class _Reading:
    """The card whose face is being rendered and the fields read so far (one at a time)."""

    __slots__ = ("card", "shown")

    def __init__(self) -> None:
        self.card: Any = None
        self.shown: set[str] = set()


_READING = _Reading()
#: FieldUse of each front by game (dropped with the game object), then (card id, lang).
_USES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_sandbox_getattr = Environment.getattr
_sandbox_getitem = Environment.getitem


class _LayoutEnvironment(Environment):
    """The sandbox of `forge.templating`, noting which fields of the card being rendered a
    template reads."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if obj is _READING.card:
            _READING.shown.add(attribute)
        return _sandbox_getattr(self, obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        if obj is _READING.card and isinstance(argument, str):
            _READING.shown.add(argument)
        return _sandbox_getitem(self, obj, argument)


def field_use(game: Any, card: Any, lang: str) -> FieldUse:
    """Which fields of `card` its front layout shows and hides in `lang` (renders the front
    if it has not been rendered yet)."""
    use = _USES.get(game, {}).get((card.id, lang))
    if use is None:
        layout_elements(game, card, lang)
        use = _USES[game][(card.id, lang)]
    return use


def _field_use(card: Any, shown: set[str], declared: Any, template: jinja2.Template) -> FieldUse:
    if declared is None or isinstance(declared, jinja2.Undefined):
        declared = ()
    elif isinstance(declared, str):
        declared = (declared,)
    if not isinstance(declared, (list, tuple)) or not all(isinstance(n, str) for n in declared):
        raise LayoutError(f"layout {template.name}: `hidden` must be a list of field names, "
                          f"such as {{% set hidden = ['flavor'] %}}", template.filename or "")
    fields = type(card).model_fields
    if "game_fields" in shown:  # the layout lists every game field
        shown = shown | set(card.game_fields)
    return FieldUse(frozenset(shown) & frozenset(fields), frozenset(n for n in declared if n in fields),
                    tuple(n for n in declared if n not in fields))


#: The layout folders' files as each environment found them when it was made (`kept.templates`):
#: it reads each template once and never again, so its faces are kept under what it read.
_FOLDERS: dict[tuple[str, str], bytes | None] = {}


@lru_cache(maxsize=None)
def _env(root: str, game_id: str) -> jinja2.Environment:
    base = Path(root)
    _FOLDERS[root, game_id] = kept.templates(layout_folders(base, game_id))
    env = _LayoutEnvironment(
        bytecode_cache=BYTECODE, loader=FolderLoader(layout_folders(base, game_id)),
        undefined=Undefined, autoescape=False, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, auto_reload=False)
    env.filters["plural"] = _plural
    env.filters["typeset"] = _typeset
    env.filters["mix"] = mix_hex
    env.filters["x"] = escape
    env.globals["el"] = element
    env.globals["round"] = round
    env.globals["once"] = once
    env.context_class = _Context
    return env


@lru_cache(maxsize=4096)
def mix_hex(a: str, b: str, t: float) -> str:
    """`'#ff0000' | mix('#ffffff', 0.8)`: colour a moved a fraction t towards b, as #rrggbb."""
    pa = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    pb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(pa, pb))


class _Render:
    """What the template being rendered has made: its elements in order, the problems of the
    elements it could not make, and the icons it may name (the game's)."""

    __slots__ = ("made", "problems", "icons")

    def __init__(self, icons: IconSet = BUILT_IN) -> None:
        self.made: list[dict] = []
        self.problems: list[ElementProblem] = []
        self.icons = icons


#: The renders under way, innermost last; the first collects `el()` calls made outside any.
_RENDERS: list[_Render] = [_Render()]


def element(kind: str, **params: Any) -> str:
    """`el(kind, ...)`: one layout element, checked (`elements.validate`) and appended to the
    face's list (it writes no text). A bad element is left out and noted with the template line
    that made it; the face fails once the template has run (`layout_elements`)."""
    render = _RENDERS[-1]
    if len(render.made) + len(render.problems) >= MAX_PARTS:  # stop the template: each costs memory
        raise jinja2.exceptions.SecurityError(f"a face has at most {MAX_PARTS:,} elements")
    try:
        validate(kind, params, render.icons)
    except Invalid as exc:
        file, line = calling_template(sys._getframe(1))
        render.problems.append(ElementProblem(file, line, str(exc)))
        return ""
    if kind == "art" and _READING.card is not None:
        _READING.shown.add("art")  # the art element draws the card's own `art`
    render.made.append({"kind": kind, **params})
    return ""


#: Whether `once` blocks reuse their elements (tests switch it off to compare).
ONCE = True
_ONCE: dict[tuple, tuple[dict, ...]] = {}
#: ids of the elements kept in `_ONCE` (alive for the process, so an id is never reused):
#: what is derived from them alone (drawing operators) may be kept by id.
STATIC: set[int] = set()
#: Each kept `once` group by the id of its first element.
GROUPS: dict[int, tuple[dict, ...]] = {}
#: ids of the kept `once` groups that hold an `art` element (it shows the card's `art`).
_ART_GROUPS: set[int] = set()


@jinja2.pass_context
def once(context: Any, *key: Any, caller: Any) -> str:
    """`{% call once(C, IC) %}...{% endcall %}`: elements that depend only on the arguments
    (besides the template, language and card size), made once per process and shared by every
    card that passes the same arguments. A card type's frame, panels, art box and fixed badges
    are then one dictionary lookup per card instead of a dozen template calls, and the shared
    element mappings let drawing reuse their operators. The block may contain only `el()`
    elements, and everything it uses that can differ between cards must be among the arguments
    (tests render every card with and without `once` and compare). A block with a bad element
    is not kept: every card that runs it reports it."""
    render = _RENDERS[-1]
    made, bad = render.made, len(render.problems)
    start = len(made)
    # the block's own code tells call sites apart; the template being rendered, the language,
    # the card size and the icons it may name are the context every block may use without
    # listing it
    full = (getattr(caller, "_func", caller).__code__, context.environment, context.name,
            context.get("lang"), context.get("W"), context.get("H"), render.icons.names) + key
    try:
        hit = _ONCE.get(full) if ONCE else None
    except TypeError as exc:
        raise LayoutError(f"once() in {context.name}: its arguments must be hashable ({exc})") from exc
    if hit is None:
        if caller().strip():
            raise LayoutError(f"once() in {context.name}: the block may contain only el() elements")
        hit = tuple(made[start:])
        if ONCE and len(render.problems) == bad:
            _ONCE[full] = hit
            STATIC.update(id(e) for e in hit)
            if hit:
                GROUPS[id(hit[0])] = hit
            if any(e["kind"] == "art" for e in hit):
                _ART_GROUPS.add(id(hit))
        return ""
    if len(made) + len(hit) > MAX_PARTS:  # as `element` counts them
        raise jinja2.exceptions.SecurityError(f"a face has at most {MAX_PARTS:,} elements")
    made.extend(hit)
    if id(hit) in _ART_GROUPS and _READING.card is not None:
        _READING.shown.add("art")  # as el('art') does when the block runs
    return ""


@jinja2.pass_context
def _plural(context: Any, n: int, *forms: str, lang: str | None = None) -> str:
    """`n|plural('карта', 'карти', 'карт')`: the template's `lang`; macros of a module imported
    without context have none, and pass `lang=lang`."""
    return plural(n, forms, lang or context["lang"])


@jinja2.pass_context
def _typeset(context: Any, text: str) -> str:
    return typeset(text, context["lang"])


_SELECTED: dict[tuple, jinja2.Template] = {}


def template_for(game: Any, card: Any | None) -> jinja2.Template:
    """The layout template of a card (or of a back), chosen once per game and card type."""
    root = str(templates_root(game))
    key = (root, game.id, None if card is None else card.type, None if card is None else card.subtype)
    found = _SELECTED.get(key)
    if found is not None:
        return found
    env = _env(root, game.id)
    if card is None:
        names = ["back.yaml.j2"]
    else:
        names = ([f"{card.type}.{card.subtype}.yaml.j2"] if card.subtype else []) + [
            f"{card.type}.yaml.j2", "default.yaml.j2"]
    try:
        found = _SELECTED[key] = env.select_template(names)
        return found
    except jinja2.TemplatesNotFound as exc:
        raise LayoutError(f"no card layout for {game.id}: looked for {', '.join(names)} under "
                          f"{templates_root(game)}") from exc
    except jinja2.TemplateSyntaxError as exc:
        where = display_path(Path(exc.filename)) if exc.filename else "<layout>"
        raise LayoutError(f"{where}:{exc.lineno}: {exc.message}", exc.filename or "", exc.lineno) from exc
    except jinja2.TemplateError as exc:  # a layout that is a link leading out of its folder
        raise LayoutError(str(exc)) from exc


def back_key(game: Any, card: Any) -> str:
    """Which back a card wears: the one it names (`back`), else the manifest's `backs` by
    `type/subtype`, `type`, `set`, else `default`."""
    own = getattr(card, "back", None)
    if own is not None:
        return own
    backs = getattr(game.manifest, "backs", None) or {}
    for key in (f"{card.type}/{card.subtype}" if card.subtype else None, card.type, card.set):
        if key and key in backs:
            return key
    return "default"


@lru_cache(maxsize=64)
def _game_context(game: Any, lang: str) -> dict:
    """The variables every layout of a game gets in `lang` (made once per game and language)."""
    manifest = game.manifest

    def t(value: Any) -> str:
        """A localised string in the current language (LocalText or a {lang: str} mapping)."""
        if value is None:
            return ""
        if isinstance(value, dict):
            return value.get(lang) or next(iter(value.values()))
        return value[lang]

    def card_name(card_id: str) -> str:
        other = game.by_id.get(card_id)
        return other.name[lang] if other is not None else card_id

    def ops(operations: Any) -> str:
        return operations_text(manifest, operations or (), lang)

    return dict(game=game, manifest=manifest, lang=lang, t=t, card_name=card_name, ops=ops,
                W=manifest.card_size.width, H=manifest.card_size.height, title=manifest.title[lang],
                rules=rule_numbers(game))


def _context(game: Any, card: Any | None, lang: str, back: str | None = None) -> dict:
    """The variables of one face's layout beyond `_game_context`: the card, or the back."""
    manifest = game.manifest
    if card is not None:
        spec = manifest.card_types[card.type]
        return dict(card=card, f=card, type_name=spec.name[lang],
                    subtype_name=spec.subtypes[card.subtype][lang] if card.subtype else "",
                    set_name=manifest.sets[card.set].name[lang], effect=effect_text(manifest, card, lang),
                    flavor=card.flavor[lang] if card.flavor else "",
                    art_path=str(art_file(card, game.root) or ""))
    backs = getattr(manifest, "backs", None) or {}
    return dict(back=backs.get(back) if back else None, back_id=back or "default")


def layout_elements(game: Any, card: Any | None, lang: str, back: str | None = None) -> list[dict]:
    """Run the card's layout template: the elements its `el()` calls made, or its YAML. Bad
    elements fail it once it has run, with every one of them (`LayoutError.problems`)."""
    template = template_for(game, card)
    _RENDERS.append(_Render(game_icons(game)))
    outer = _READING.card, _READING.shown
    _READING.card, _READING.shown = card, set()
    try:
        # `Template.render`, keeping the context: its top-level variables hold `hidden`
        ctx = template.new_context(dict(_game_context(game, lang), **_context(game, card, lang, back)))
        try:
            source = template.environment.concat(template.root_render_func(ctx))
        except Exception:
            template.environment.handle_exception()
    except LayoutError as exc:
        if not exc.file:
            exc.file, exc.line = error_position(exc.__traceback__)
        raise
    except OperationTextError as exc:  # the manifest's text is what to fix, not the layout
        at = game.manifest_finding(exc.loc, exc.code, str(exc))
        raise LayoutError(f"{at.file}:{at.line}: {exc}", at.file, at.line) from exc.__cause__
    except Exception as exc:  # noqa: BLE001 (a template is the game's code: whatever it raises is its bug)
        file, line = ((exc.filename or "", exc.lineno) if isinstance(exc, jinja2.TemplateSyntaxError)
                      else error_position(exc.__traceback__))
        raise LayoutError(f"layout {template.name} for {card.id if card else 'back'} ({lang}): "
                          f"{type(exc).__name__}: {exc}", file or template.filename or "", line) from exc
    finally:
        render = _RENDERS.pop()
        shown = _READING.shown
        _READING.card, _READING.shown = outer
    made = render.made
    if render.problems:
        raise _failed(render.problems)
    use = _field_use(card, shown, ctx.vars.get("hidden"), template) if card is not None else None
    if made:  # shared by faces when made in `once`: never mutated
        if source.strip():
            raise LayoutError(f"layout {template.name} writes elements both with el() and as YAML "
                              f"text; use one of the two")
        if use is not None:  # kept only for a face that renders (a failing one is reported as such)
            _USES.setdefault(game, {})[(card.id, lang)] = use
        return made
    # the loader of card data, with its limits: YAML text a template wrote is data from the game
    doc, problems = parse_yaml(source, Path(template.filename or template.name))
    if problems:
        raise LayoutError(f"layout {template.name} for {card.id if card else 'back'} ({lang}) does "
                          f"not write valid YAML (line {problems[0].line} of what it writes): "
                          f"{problems[0].message}", template.filename or "")
    data = doc.data
    if isinstance(data, dict):
        data = data.get("elements")
    if not isinstance(data, list) or not all(isinstance(e, dict) and "kind" in e for e in data):
        raise LayoutError(f"layout {template.name} must produce a list of elements with a `kind`",
                          template.filename or "")
    bad = []
    for n, el in enumerate(data):
        try:
            el.update(numbers(el["kind"], el))
            validate(el["kind"], {k: v for k, v in el.items() if k != "kind"}, render.icons)
        except Invalid as exc:
            at = doc.where(("elements", n) if isinstance(doc.data, dict) else (n,))[0]
            file, line = _written_at(template, source, at)
            bad.append(ElementProblem(file or template.filename or "", line,
                                      f"layout {template.name}, element {n + 1}: {exc}"))
    if bad:
        raise _failed(bad)
    if use is not None:
        if any(el["kind"] == "art" for el in data):
            use = FieldUse(use.shown | {"art"}, use.hidden, use.unknown)
        _USES.setdefault(game, {})[(card.id, lang)] = use
    return data


def _failed(problems: list[ElementProblem]) -> LayoutError:
    first = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return LayoutError(first.message + more, first.file, first.line, tuple(problems))


_JINJA_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")


def _written_at(template: jinja2.Template, source: str, out_line: int) -> tuple[str, int]:
    """The template file and line that wrote line `out_line` of a YAML layout's text: the first
    line of the template (then of those it extends, includes or imports) that reads like it,
    each `{{ ... }}` standing for any text; ("", 0) when none does."""
    lines = source.splitlines()
    written = lines[out_line - 1].strip() if 0 < out_line <= len(lines) else ""
    env, names, seen = template.environment, [template.name], set()
    while written and names:
        name = names.pop(0)
        if name in seen or name is None:
            continue
        seen.add(name)
        try:
            text, file, _ = env.loader.get_source(env, name)
            names.extend(jinja2.meta.find_referenced_templates(env.parse(text)))
        except jinja2.TemplateError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            parts = _JINJA_TAG.split(line.strip())
            if "".join(parts).strip() and re.fullmatch(".*?".join(map(re.escape, parts)), written):
                return file, n
    return "", 0


# --------------------------------------------------------------------------------------------
# Text


def _typeset_item(item: Any, lang: str) -> dict:
    """A paragraph item with `lang`'s typography (forge.text.typography): the one place where
    every text of a card face (name, effect, flavour, any label) gets it."""
    if not isinstance(item, dict):
        return {"text": typeset(str(item), lang)}
    if "markup" in item:
        return dict(item, markup=typeset_markup(str(item["markup"]), lang))
    if "text" in item:
        return dict(item, text=typeset(str(item["text"]), lang))
    return item


def _typeset_element(el: dict, lang: str) -> dict:
    """A copy of a `text`, `label` or `table` element with its texts typeset."""
    kind = el["kind"]
    if kind == "text":
        if el.get("paras") is not None:
            return dict(el, paras=[_typeset_item(i, lang) for i in el["paras"]])
        return _typeset_item(el, lang)
    if kind == "label":
        return dict(el, text=typeset(str(el.get("text", "")), lang))
    if kind == "table":
        return dict(el, rows=[[_typeset_item(c, lang) if isinstance(c, dict) else typeset(str(c), lang)
                               for c in row] for row in el.get("rows", [])])
    return el


# Text is measured with the fonts' advance widths (`stringWidth` at 1 pt, which scales
# linearly) and broken greedily at spaces, soft hyphens and hard hyphens: one measuring pass per
# paragraph, then every candidate size is pure arithmetic. No Paragraph objects are built; the
# drawn lines are exactly the lines measured here (`forge check` and `forge build` share them).

_SPACES = re.compile(r"[ \t\r]+")
#: a soft hyphen, or after a hard one with LEFT letters before it and RIGHT after
_BREAKS = re.compile(f"(\u00ad|(?<=[^\\W\\d_]{{{LEFT}}}-)(?=(?:[^\\W\\d_]\u00ad?){{{RIGHT}}}))")
#: Longest run of text handed to pyphen: no real word is this long, and pyphen inserts hyphens
#: in time quadratic in a word's length (a 1 MB 'word' would take hours). Longer runs still
#: break after their hard hyphens, and are cut where nothing else fits.
_HYPHENATE_MAX = 256


@dataclass(slots=True)
class _Piece:
    """An unbreakable piece of a word; a line may break after it (with `hyphen` drawn)."""

    frags: list  # [(face, text)]
    width: float  # at 1 pt
    hyphen: float  # width of the '-' drawn when breaking after it (0: no hyphen / no break)
    face: str  # the face of its last fragment
    hyphen_w: float = 0.0  # the width of a hyphen in that face


@dataclass
class _Prepared:
    lines: list  # hard lines: [[word, ...], ...]; a word is a list of _Piece
    align: str
    color: str
    scale: float
    space: float  # width of a space at 1 pt in the base face
    lang: str
    hyph: bool  # may words be hyphenated (done lazily, only for words that must break)
    done: set  # ids of words already hyphenated
    face: str = fonts.REGULAR  # the base face: a space after an inline icon is drawn in it

    def after(self, face: str) -> str:
        """The face of a space after a fragment of `face` (its own, but for an inline icon)."""
        return self.face if inline.is_icon(face) else face

    @property
    def widest(self) -> float:
        """The widest unbreakable piece (with its hyphen) at 1 pt."""
        return max((pc.width + pc.hyphen_w for words in self.lines for word in words for pc in word),
                   default=0.0)

    def hyphenate(self, word: list) -> list:
        """Soft hyphens into a word's pieces, in place, once; pyphen runs only for words that
        do not fit where they fall."""
        if not self.hyph or id(word) in self.done:
            return word
        self.done.add(id(word))
        frags = [(f, hyphenate(t, self.lang) if len(t) <= _HYPHENATE_MAX and not inline.is_icon(f) else t)
                 for pc in word for f, t in pc.frags]
        word[:] = _pieces(frags, True)
        return word

    def hyphenate_wider(self, limit: float) -> None:
        for words in self.lines:
            for word in words:
                if any(pc.width + pc.hyphen_w > limit for pc in word):
                    self.hyphenate(word)


def _pieces(fragments: list, hyph: bool) -> list:
    """A word's fragments [(face, text)] cut at soft hyphens (and, when hyphenating, after hard
    hyphens) into _Pieces."""
    if not hyph and len(fragments) == 1 and fragments[0][1] and SHY not in fragments[0][1]:
        f, text = fragments[0]  # most words: one run, no break inside
        return [_Piece([fragments[0]], unit_width(text, f), -1.0, f, _hyphen(f))]
    pieces, frags = [], []
    for f, text in fragments:
        for part in (_BREAKS.split(text) if hyph or SHY in text else (text,)):
            if part == SHY or part == "":
                if part == SHY and frags:
                    pieces.append(frags)
                    frags = []
                continue
            frags.append((f, part))
            if hyph and part.endswith("-") and len(part) > 1 and part[-2].isalpha():
                pieces.append(frags)
                frags = []
    if frags:
        pieces.append(frags)
    word = []
    for n, frags in enumerate(pieces):
        width = sum(unit_width(t, f) for f, t in frags)
        last_face, last_text = frags[-1]
        hw = _hyphen(last_face)
        soft = n < len(pieces) - 1 and not last_text.endswith("-") and hw > 0
        word.append(_Piece(frags, width, hw if soft else (0.0 if n < len(pieces) - 1 else -1.0),
                           last_face, hw))
    return word


def _hyphen(face: str) -> float:
    """The width of a hyphen drawn in `face` at 1 pt; none after an inline icon."""
    return 0.0 if inline.is_icon(face) else unit_width("-", face)


def _prepare(item: dict, base_face: str, el: dict, lang: str, hyph: bool, icons: IconSet) -> _Prepared:
    face = FACES.get(item.get("font", el.get("font", "regular")), base_face)
    hyph = hyph and bool(item.get("hyphenate", True)) and can_hyphenate(lang)
    hard: list[list] = [[]]
    pending: list[tuple[str, str]] = []  # fragments of the word being collected

    def flush_word() -> None:
        if pending:
            hard[-1].append(_pieces(pending, False))
            pending.clear()

    for f, text in inline.runs(item, face, icons):
        for n, line in enumerate(text.split("\n")):
            if n:
                flush_word()
                hard.append([])
            for k, chunk in enumerate(_SPACES.split(line)):
                if k:
                    flush_word()
                if chunk:
                    pending.append((f, chunk))
    flush_word()
    return _Prepared(hard, item.get("align", el.get("align", "left")),
                     item.get("color", el.get("color", "#000000")), float(item.get("scale", 1.0)),
                     unit_width(" ", face), lang, hyph, set(), face)


def _merge(frags: list) -> list:
    """Adjacent fragments of one face as one; each run is joined once, so a long run (a cut
    word's line) costs its length, not its length squared."""
    out: list = []
    face, texts = None, []
    for f, t in frags:
        if texts and f != face:
            out.append((face, "".join(texts)))
            texts = []
        face = f
        texts.append(t)
    if texts:
        out.append((face, "".join(texts)))
    return out


def _break(p: _Prepared, limit: float) -> list[tuple[float, list]]:
    """Greedy lines of a prepared paragraph for a line `limit` in 1-pt units: [(width, frags)].

    Linear in the text: a word that does not fit is consumed from an index, and every sum over
    its rest stops at the first piece past the line (sums of widths only grow), so one long
    word costs what it prints, not a pass over its remainder per line. The sums are the ones
    a full pass would make, added in the same order, so every width is the same float.

    A word that does not fit where it falls is broken (at a soft or hard hyphen) only when the
    line it would leave is filled less than `MIN_FILL`; a fuller line ends before it."""
    out: list[tuple[float, list]] = []
    room = limit + 1e-9
    fill = MIN_FILL * limit  # a line this full is not hyphenated (forge.text.hyphenation)
    for words in p.lines:
        frags: list = []
        width = 0.0
        for word in words:
            if not word:  # only soft hyphens: nothing to print, not even its space
                continue
            lead = p.space if frags else 0.0
            total = word[0].width if len(word) == 1 else sum(pc.width for pc in word)
            if width + lead + total <= room:  # most words fit where they fall, as they are
                if lead:
                    frags.append((p.after(frags[-1][0]), " "))
                for pc in word:
                    frags.extend(pc.frags)
                width += lead + total
                continue
            if frags and width >= fill:  # full enough: the word starts the next line whole
                out.append((width, _merge(frags)))
                frags, width, lead = [], 0.0, 0.0
                if total <= room:
                    for pc in word:
                        frags.extend(pc.frags)
                    width = total
                    continue
            pieces = list(p.hyphenate(word))  # hyphenate it (once), then break it
            i = 0
            while i < len(pieces):
                used = width + lead
                total = _rest((pieces[k].width for k in range(i, len(pieces))), used, room)
                if total is not None:
                    if lead:
                        frags.append((p.after(frags[-1][0]), " "))
                    for pc in pieces[i:]:
                        frags.extend(pc.frags)
                    width += lead + total
                    break
                # the longest prefix that fits with its hyphen (none further: widths only grow)
                acc, best = 0.0, -1
                for k in range(i, len(pieces) - 1):
                    pc = pieces[k]
                    acc += pc.width
                    if used + acc > room:
                        break
                    if pc.hyphen >= 0 and used + acc + pc.hyphen <= room:
                        best = k
                if best >= 0:
                    if lead:
                        frags.append((p.after(frags[-1][0]), " "))
                    taken = pieces[i:best + 1]
                    for pc in taken:
                        frags.extend(pc.frags)
                    if taken[-1].hyphen > 0:
                        frags.append((taken[-1].face, "-"))
                    out.append((used + sum(pc.width for pc in taken) + taken[-1].hyphen,
                                _merge(frags)))
                    i = best + 1
                elif frags:
                    out.append((width, _merge(frags)))
                else:  # a piece wider than the line: cut it (reported by `widest`)
                    i = _cut(pieces, i, limit, room, out)
                frags, width, lead = [], 0.0, 0.0
        if frags or not words:
            out.append((width, _merge(frags)))
    return out


def _rest(widths: Iterable[float], used: float, room: float) -> float | None:
    """The sum of `widths` if it fits after `used`, else None, known at the first width that
    goes past `room`."""
    acc = 0.0
    for w in widths:
        acc += w
        if used + acc > room:
            return None
    return acc


def _cut(pieces: list, i: int, limit: float, room: float, out: list) -> int:
    """Lines of as many characters of pieces[i] as fit, while its rest is still wider than a
    line; the rest (if any) replaces it. Returns the index the line breaking goes on from."""
    head = pieces[i]
    chars = [(f, ch) for f, t in head.frags for ch in t]
    widths = [unit_width(ch, f) for f, ch in chars]
    start, end = 0, len(chars)
    while start < end:
        acc, n = 0.0, start
        while n < end and (n == start or acc + widths[n] <= limit):
            acc += widths[n]
            n += 1
        out.append((acc, _merge(chars[start:n])))
        start = n
        rest = _rest(map(widths.__getitem__, range(start, end)), 0.0, room)
        if start < end and rest is not None:  # the rest fits a line: back to the line breaker
            pieces[i] = _Piece(_merge(chars[start:]), rest, head.hyphen, head.face, head.hyphen_w)
            return i
    return i + 1


@dataclass
class TextPara:
    """A fitted paragraph: lines of (face, text) runs at `size`, `leading` points apart."""

    lines: list  # [(width pt, [(face, text), ...]), ...]
    size: float
    leading: float
    align: str
    color: str

    @property
    def height(self) -> float:
        return len(self.lines) * self.leading


def _layout(prepared: list[_Prepared], current: float, w: float, h: float, leading: float,
            gap: float) -> tuple[list[TextPara], bool]:
    paras, total, fits = [], 0.0, True
    for n, p in enumerate(prepared):
        s = max(current * p.scale, MIN_SIZE)
        if p.hyph:
            p.hyphenate_wider(w / s)
        lines = [(lw * s, frags) for lw, frags in _break(p, w / s)]
        para = TextPara(lines, s, s * leading, p.align, p.color)
        if p.widest * s > w + 0.01:
            fits = False
        total += para.height + (gap * s if n else 0)
        paras.append(para)
    return paras, fits and total <= h + 0.01


def fit_text(el: dict, lang: str, icons: IconSet = BUILT_IN) -> tuple[list[TextPara], float, bool]:
    """Paragraphs of a `text` element at the largest size that fits: ([TextPara], size, fits).

    Sizes step down by 0.5 pt from `size` to `min`; the maximum is tried first (most texts fit
    it), then a binary search over the steps finds the largest that fits."""
    fonts.register()
    w, h = float(el["w"]) * PT, float(el["h"]) * PT
    size = max(float(el.get("size", 8)), MIN_SIZE)
    smallest = min(max(float(el.get("min", MIN_SIZE)), MIN_SIZE), size)
    leading = float(el.get("leading", 1.18))
    gap = float(el.get("gap", 0.4))
    hyph = bool(el.get("hyphenate", True))
    items = el.get("paras")
    if items is None:
        items = [{k: el[k] for k in ("text", "markup") if k in el}]
    items = [i if isinstance(i, dict) else {"text": i} for i in items]
    items = [i for i in items if str(i.get("text", i.get("markup", ""))).strip()]
    base_face = FACES.get(el.get("font", "regular"), fonts.REGULAR)
    prepared = [_prepare(item, base_face, el, lang, hyph, icons) for item in items]
    paras, ok = _layout(prepared, size, w, h, leading, gap)
    if ok:
        return paras, size, True
    sizes = []
    s = size - 0.5
    while s > smallest + 1e-9:
        sizes.append(s)
        s -= 0.5
    sizes.append(smallest)
    lo, hi, best = 0, len(sizes) - 1, None  # sizes descend; find the first that fits
    while lo <= hi:
        mid = (lo + hi) // 2
        got = _layout(prepared, sizes[mid], w, h, leading, gap)
        if got[1]:
            best, hi = (mid, got[0]), mid - 1
        else:
            lo = mid + 1
    if best is not None:
        return best[1], sizes[best[0]], True
    paras, _ = _layout(prepared, smallest, w, h, leading, gap)
    return paras, smallest, False


# --------------------------------------------------------------------------------------------
# Faces


def _loc(el: dict, lang: str) -> tuple:
    """Where in the card's data an element's text comes from (`field`, plus the language)."""
    where = el.get("field")
    if not where:
        return ()
    return _steps(str(where), lang if el.get("localised", True) else None)


@lru_cache(maxsize=1024)
def _steps(where: str, lang: str | None) -> tuple:
    steps = tuple(int(s) if s.isdigit() else s for s in where.split("."))
    return steps + ((lang,) if lang else ())


def _fit(game: Any, card: Any | None, lang: str, raw: list[dict]) -> Face:
    """A card side from its layout's elements: every text fitted, problems collected."""
    fonts.register()
    size = game.manifest.card_size
    face = Face(size.width, size.height, [], icons=game_icons(game))
    for n, el in enumerate(raw):
        group = GROUPS.get(id(el))
        if group is not None and len(raw) >= n + len(group) and all(
                a is b for a, b in zip(group, raw[n:n + len(group)])):
            face.groups[n] = group
    for el in raw:
        kind = el["kind"]
        if kind in ("text", "label", "table"):
            el = _typeset_element(el, lang)
        if kind == "text":
            paras, fitted, ok = fit_text(el, lang, face.icons)
            el = dict(el, _paras=paras, _size=fitted)
            for item in (el.get("paras") or [el]):
                item = item if isinstance(item, dict) else {"text": item}
                face.texts.append((_loc(el, lang), FACES.get(item.get("font", el.get("font", "regular")),
                                                            fonts.REGULAR), inline.plain(item, face.icons)))
                _inline_problems(face, card, el, lang, item)
            if not ok:
                what = el.get("what", "text")
                face.problems.append(Problem(_loc(el, lang), "text-overflow",
                                             f"{what} ({lang}) does not fit its {el['w']}x{el['h']} mm "
                                             f"box even at the minimum size {max(float(el.get('min', MIN_SIZE)), MIN_SIZE):g} pt"))
        elif kind == "label":
            face_name = FACES.get(el.get("font", "regular"), fonts.REGULAR)
            text = str(el.get("text", ""))
            s = max(float(el.get("size", 8)), MIN_SIZE)
            smallest = min(max(float(el.get("min", s)), MIN_SIZE), s)
            limit = float(el["w"]) * PT if el.get("w") else None
            runs = inline.runs({"text": text}, face_name, face.icons)
            plain = runs == [(face_name, text)]  # most labels: no icon, no emphasis
            unit = unit_width(text, face_name) if plain else sum(unit_width(t, f) for f, t in runs)
            width = unit * s
            if limit and width > limit:
                s = max(smallest, s * limit / width)
                width = unit * s
                if width > limit + 0.01:
                    face.problems.append(Problem(_loc(el, lang), "text-overflow",
                                                 f"{el.get('what', 'label')} ({lang}) «{text[:40]}» is "
                                                 f"wider than {el['w']} mm even at {smallest} pt"))
            el = dict(el, _size=s, _face=face_name) if plain else dict(el, _size=s, _face=face_name, _runs=runs)
            face.texts.append((_loc(el, lang), face_name, text if plain else inline.plain({"text": text}, face.icons)))
            _inline_problems(face, card, el, lang, {"text": text})
        elif kind == "table":
            el = _table_floor(el, face, card, lang)
        face.elements.append(el)
    overflowing = {p.loc for p in face.problems if p.code == "text-overflow"}
    for el, why in overlap.misplaced(face.elements, face.width, face.height):
        if _loc(el, lang) not in overflowing:   # a text that does not fit spills: one finding says so
            face.problems.append(Problem(_loc(el, lang), "text-over-art",
                                         f"{el.get('what', el['kind'])} ({lang}) {why}"))
    return face


def _inline_problems(face: Face, card: Any | None, el: dict, lang: str, item: dict) -> None:
    """An `unknown-icon` problem for each `:name:` of `item` that names none of the face's
    icons, and an `unclosed-emphasis` one for each `*`/`**` that opens or closes nothing (both
    would print as typed), where the card's data says it (else where the element's `field` is)."""
    for name in inline.unknown_icons(item, face.icons):
        face.problems.append(Problem(_written(card, lang, f":{name}:") or _loc(el, lang), "unknown-icon",
                                     f"{el.get('what', el['kind'])} ({lang}): :{name}: "
                                     f"{icon_problem(name, face.icons)}"))
    for said in inline.unclosed_marks(item):
        face.problems.append(Problem(_written(card, lang, said) or _loc(el, lang), "unclosed-emphasis",
                                     f"{el.get('what', el['kind'])} ({lang}): the * of «{said}» opens or "
                                     "closes no emphasis, so it would print as an asterisk"))


def _written(card: Any | None, lang: str, text: str) -> tuple:
    """Where the card's data says `text` in `lang` (its first localised string that holds it),
    or () when it comes from elsewhere (an operation's text, the layout)."""
    if card is not None:
        for loc, at_lang, said in local_strings(card, ()):
            if at_lang == lang and text in said:
                return (*loc, lang)
    return ()


def _table_floor(el: dict, face: Face, card: Any | None, lang: str) -> dict:
    """A table with no cell size below MIN_SIZE; a cell that is wider than its column even at
    MIN_SIZE (drawing would shrink it further) is a `text-overflow`. A cell is card text on one
    line, as a label is: its inline icons and emphasis are measured and kept as `_runs`."""
    size = max(float(el.get("size", 7)), MIN_SIZE)
    rows, w = [], float(el["w"])
    cols = [float(v) for v in el.get("cols", [])] or None
    for row in el.get("rows", []):
        cells = []
        for cell, cw in zip(row, cols or [w / max(len(row), 1)] * len(row)):
            spec = dict(cell) if isinstance(cell, dict) else {"text": str(cell)}
            s = spec["size"] = max(float(spec.get("size", size)), MIN_SIZE)
            fname = FACES.get(spec.get("font", el.get("font", "regular")), fonts.REGULAR)
            text = str(spec.get("text", ""))
            runs = inline.runs({"text": text}, fname, face.icons)
            plain = runs == [(fname, text)]  # most cells: no icon, no emphasis
            unit = unit_width(text, fname) if plain else sum(unit_width(t, f) for f, t in runs)
            if unit * s > (cw - 1.6) * PT > 0:
                face.problems.append(Problem(_loc(el, lang), "text-overflow",
                                             f"{el.get('what', 'table cell')} ({lang}) «{text[:40]}» is "
                                             f"wider than its {cw:g} mm column even at {s:g} pt"))
            if not plain:
                spec["_runs"] = runs
            face.texts.append((_loc(el, lang), fname, text if plain else inline.plain({"text": text}, face.icons)))
            _inline_problems(face, card, el, lang, {"text": text})
            cells.append(spec)
        rows.append(cells)
    return dict(el, size=size, rows=rows)


#: Fitted faces by game (dropped with the game object), then (card id or None, lang, back key).
_FACES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


#: Per game, per language whose kept faces were looked for: the key to keep them under once
#: all are laid out (`kept`), or None (read back, kept, or not to be kept).
_KEPT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def lay_out(game: Any, cards: Iterable[Any], lang: str) -> None:
    """Lay out the fronts of `cards` and the backs they wear, one stage at a time: every layout
    template is run before the first text is fitted. Running a stage over all cards keeps its
    code and data in the CPU's caches; going card by card (template, fitting, drawing) costs
    a sixth more. The faces are cached for `front` and `back`.

    The first time a game's faces in `lang` are asked for, they are read from the forge cache
    when it keeps them (`kept`); once every face of the game in `lang` is laid out, they are
    kept there."""
    cache = _FACES.setdefault(game, {})
    looked = _KEPT.setdefault(game, {})
    if lang not in looked:
        looked[lang] = _recall(game, lang, cache)
    todo: dict[tuple, Any] = {}
    for card in cards:
        for key in ((card.id, lang, None), (None, lang, back_key(game, card))):
            if key not in cache and key not in todo:
                todo[key] = card if key[0] is not None else None
    made = [(key, card, layout_elements(game, card, lang, key[2])) for key, card in todo.items()]
    for key, card, raw in made:
        cache[key] = _fit(game, card, lang, raw)
    if looked[lang] is not None:
        _keep(game, lang, cache, looked)


def _recall(game: Any, lang: str, cache: dict) -> bytes | None:
    """Put the kept faces of `game` in `lang` in `cache` (the fronts' field uses in `_USES`);
    the key to keep them under when none are kept, else None. A game with faces laid out
    already in `lang` reads none back: read-back faces share no `once` group with them."""
    if any(key[1] == lang for key in cache):
        return None
    root = str(templates_root(game))
    _env(root, game.id)  # made now if not yet: it reads the layout folders first
    key = kept.source(game, lang, _FOLDERS.get((root, game.id)))
    if key is None:
        return None
    found = kept.recall(game, lang, key)
    if found is None:
        return key
    cache.update(found[0])
    _USES.setdefault(game, {}).update(found[1])
    return None


def _keep(game: Any, lang: str, cache: dict, looked: dict) -> None:
    """Keep the faces of `game` in `lang` once every one is laid out, under the key they were
    looked for with if the layout folders still hold what the environment read."""
    fronts = [(card.id, lang, None) for card in game.cards]
    backs = {(None, lang, back_key(game, card)) for card in game.cards}
    uses = _USES.get(game, {})
    if not all(k in cache for k in fronts) or not all(k in cache for k in backs) or not all(
            k[:2] in uses for k in fronts):
        return
    key, looked[lang] = looked[lang], None
    root = str(templates_root(game))
    if kept.source(game, lang, kept.templates(layout_folders(Path(root), game.id))) != key:
        return  # a template or art changed while the faces were laid out
    kept.keep(game, lang, key, {k: cache[k] for k in [*fronts, *sorted(backs, key=str)]},
              {k[:2]: uses[k[:2]] for k in fronts})


def _face(game: Any, card: Any | None, lang: str, back: str | None) -> Face:
    cache = _FACES.setdefault(game, {})
    key = (card.id if card is not None else None, lang, back)
    face = cache.get(key)
    if face is None:
        face = cache[key] = _fit(game, card, lang, layout_elements(game, card, lang, back))
    return face


def front(game: Any, card: Any, lang: str) -> Face:
    """The fitted front of a card (cached per game object, card and language)."""
    return _face(game, card, lang, None)


def back(game: Any, card: Any, lang: str) -> Face:
    """The fitted back a card wears (one per deck, cached)."""
    return _face(game, None, lang, back_key(game, card))
