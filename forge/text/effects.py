"""Effect texts rendered from effect operations, so printed text and engine behaviour agree.

Each operation of a manifest carries a Jinja template per locale; its parameters are the
template's variables and `plural` picks the CLDR form for the template's language.
"""
from __future__ import annotations

from typing import Any, Iterable

import jinja2
from jinja2 import meta, nodes

from ..errors import ForgeError
from ..templating import BYTECODE, Environment, remembered, source_loader, source_name
from .plural import plural
from .typography import typeset

_SOURCES: dict[str, str] = {}
_ENV = Environment(autoescape=False, undefined=jinja2.StrictUndefined, keep_trailing_newline=False,
                          loader=source_loader(_SOURCES), bytecode_cache=BYTECODE, auto_reload=False)


@jinja2.pass_context
def _plural_filter(context: Any, n: int, *forms: str) -> str:
    return plural(n, forms, context["lang"])


_ENV.filters["plural"] = _plural_filter


class OperationTextError(ForgeError):
    """An operation's text template failed to render in a locale (Jinja's error is the cause):
    reported at the manifest's line of that text (`loc`), not at the layout that showed it."""

    def __init__(self, operation: str, lang: str, cause: Exception):
        super().__init__(f"text template of {operation!r} ({lang}): {type(cause).__name__}: {cause}")
        self.loc = ("operations", operation, "text", lang)
        self.code = "unsafe-template" if isinstance(cause, jinja2.exceptions.SecurityError) else "template"


#: Bumped when what is remembered of the operation texts (`templating.remembered`), or how
#: they are checked, changes.
_FORMAT = 1


#: (manifest, language) -> (the manifest, kept so its id is not reused; the macros module).
_MODULES: dict[tuple[int, str], tuple[Any, Any]] = {}


def _macros(manifest: Any, lang: str) -> Any:
    """Every operation text of a manifest in `lang` as one template of macros named after the
    operations: one compiled template to load per game and language (from the shared disk cache
    after the first run) instead of one per operation."""
    key = (id(manifest), lang)
    hit = _MODULES.get(key)
    if hit is None or hit[0] is not manifest:
        source = _macro_source(manifest, lang)
        name = source_name(source)
        _SOURCES[name] = source
        hit = _MODULES[key] = (manifest, _ENV.get_template(name).make_module({"lang": lang}))
    return hit[1]


def _macro_source(manifest: Any, lang: str) -> str:
    """The macros of `_macros`, each checked to hold its whole text and nothing else: a text
    that closed its macro (`{% endmacro %}...`) would run outside it, and `forge preview` does
    not run `forge check` first. Parsing every text twice costs more than the layouts that
    print them, so texts that passed are remembered (`templating.remembered`); a text that
    fails is checked, and fails, on every run."""
    ops = tuple((name, tuple(spec.params), spec.text[lang]) for name, spec in manifest.operations.items())
    source = "".join(_macro(*op) for op in ops)
    return remembered(_ENV, (_FORMAT, "macros", ops), lambda: _checked_macros(ops, lang, source),
                      lambda v: v == source)


def _macro(name: str, params: tuple[str, ...], text: str) -> str:
    return f"{{% macro op_{name}({', '.join(params)}) %}}{text}{{% endmacro %}}"


def _checked_macros(ops: tuple, lang: str, source: str) -> str:
    for name, params, text in ops:
        try:
            _ENV.parse(text)  # Jinja's own words for a text that does not parse
            made = _ENV.parse(_macro(name, params, text)).body
        except jinja2.TemplateSyntaxError as exc:
            raise OperationTextError(name, lang, exc) from exc
        if not (len(made) == 1 and isinstance(made[0], nodes.Macro) and made[0].name == f"op_{name}"
                and [arg.name for arg in made[0].args] == list(params)):
            raise OperationTextError(name, lang, jinja2.TemplateSyntaxError(
                "the text does not stand alone: it ends the macro that holds it", 1))
    return source


def render_operation(manifest: Any, op: Any, lang: str) -> str:
    """One operation's text in `lang`, typeset for that language."""
    macro = getattr(_macros(manifest, lang), "op_" + op.name)
    try:
        text = macro(**op.args())
    except Exception as exc:  # noqa: BLE001 (the text is the game's code: whatever it raises is its bug)
        raise OperationTextError(op.name, lang, exc) from exc
    return typeset(text.strip(), lang)


def operations_text(manifest: Any, operations: Any, lang: str) -> str:
    """The text of a list of operations (a card's effects, a monster's failure ...)."""
    return " ".join(render_operation(manifest, op, lang) for op in operations)


def effect_text(manifest: Any, card: Any, lang: str) -> str:
    """The printed effect text of a card: its hand-written `text`, else one sentence per operation."""
    if card.text is not None:
        return typeset(card.text[lang], lang)
    return operations_text(manifest, card.effects, lang)


def template_problems(manifest: Any) -> Iterable[tuple[str, str, str, str]]:
    """(operation, locale, finding code, reason) for every operation template that cannot render.

    Static: the template must parse, use only its operation's parameters (and `lang`) and
    known filters, and reach no private attribute nor another template (`unsafe-template`;
    the sandbox would refuse them at render time anyway). Parsing without compiling keeps
    `forge check` fast, and the answer is remembered for the same texts
    (`templating.remembered`)."""
    ops = tuple((name, tuple(spec.params), tuple((lang, spec.text[lang]) for lang in manifest.locales))
                for name, spec in manifest.operations.items())
    return remembered(_ENV, (_FORMAT, "problems", ops), lambda: list(_problems(ops)), _are_problems)


def _are_problems(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(p, tuple) and len(p) == 4 and all(isinstance(s, str) for s in p) for p in value)


def _problems(ops: tuple) -> Iterable[tuple[str, str, str, str]]:
    for name, params, texts in ops:
        allowed = set(params) | {"lang"}
        for lang, text in texts:
            try:
                tree = _ENV.parse(text)
            except jinja2.TemplateSyntaxError as exc:
                yield name, lang, "template", f"line {exc.lineno}: {exc.message}"
                continue
            for node in tree.find_all((nodes.Getattr, nodes.Getitem, nodes.Include, nodes.Import,
                                       nodes.FromImport, nodes.Extends)):
                if isinstance(node, (nodes.Getattr, nodes.Getitem)):
                    attr = node.attr if isinstance(node, nodes.Getattr) else getattr(node.arg, "value", None)
                    if isinstance(attr, str) and attr.startswith("_"):
                        yield name, lang, "unsafe-template", f"reaches the private attribute {attr!r}"
                else:
                    yield name, lang, "unsafe-template", "loads another template; operation texts stand alone"
            unknown = sorted(meta.find_undeclared_variables(tree) - allowed)
            if unknown:
                yield name, lang, "template", f"uses {', '.join(unknown)}, which {name!r} has no parameter for"
            for node in tree.find_all(nodes.Filter):
                if node.name not in _ENV.filters:
                    yield name, lang, "template", f"unknown filter {node.name!r}"
