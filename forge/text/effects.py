"""Effect texts rendered from effect operations, so printed text and engine behaviour agree.

Each operation of a manifest carries a Jinja template per locale; its parameters are the
template's variables and `plural` picks the CLDR form for the template's language.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

import jinja2
from jinja2 import meta, nodes

from ..templating import BYTECODE, Environment, source_loader, source_name
from .plural import plural
from .typography import typeset

_SOURCES: dict[str, str] = {}
_ENV = Environment(autoescape=False, undefined=jinja2.StrictUndefined, keep_trailing_newline=False,
                          loader=source_loader(_SOURCES), bytecode_cache=BYTECODE, auto_reload=False)


@jinja2.pass_context
def _plural_filter(context: Any, n: int, *forms: str) -> str:
    return plural(n, forms, context["lang"])


_ENV.filters["plural"] = _plural_filter


@lru_cache(maxsize=4096)
def _compiled(source: str) -> jinja2.Template:
    """Compiled once per process, and from the shared disk cache after the first run."""
    name = source_name(source)
    _SOURCES[name] = source
    return _ENV.get_template(name)


def render_operation(spec: Any, op: Any, lang: str) -> str:
    """One operation's text in `lang`, typeset for that language."""
    return typeset(_compiled(spec.text[lang]).render(lang=lang, **op.args()).strip(), lang)


def operations_text(manifest: Any, operations: Any, lang: str) -> str:
    """The text of a list of operations (a card's effects, a monster's failure ...)."""
    return " ".join(render_operation(manifest.operations[op.name], op, lang) for op in operations)


def effect_text(manifest: Any, card: Any, lang: str) -> str:
    """The printed effect text of a card: its hand-written `text`, else one sentence per operation."""
    if card.text is not None:
        return typeset(card.text[lang], lang)
    return operations_text(manifest, card.effects, lang)


def template_problems(manifest: Any) -> Iterable[tuple[str, str, str]]:
    """(operation, locale, reason) for every operation template that cannot render.

    Static: the template must parse, use only its operation's parameters (and `lang`) and
    known filters. Parsing without compiling keeps `forge check` fast."""
    for name, spec in manifest.operations.items():
        allowed = set(spec.params) | {"lang"}
        for lang in manifest.locales:
            try:
                tree = _ENV.parse(spec.text[lang])
            except jinja2.TemplateSyntaxError as exc:
                yield name, lang, f"line {exc.lineno}: {exc.message}"
                continue
            unknown = sorted(meta.find_undeclared_variables(tree) - allowed)
            if unknown:
                yield name, lang, f"uses {', '.join(unknown)}, which {name!r} has no parameter for"
            for node in tree.find_all(nodes.Filter):
                if node.name not in _ENV.filters:
                    yield name, lang, f"unknown filter {node.name!r}"
