"""Templates are bounded by what each call would make, measured before it is made (forge.bounds)."""
from __future__ import annotations

import tracemalloc

import pytest
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from forge.templating import Environment

#: Each asks for gigabytes (or, for round, hours) in one expression.
HOSTILE = [
    "{{ 'x'|center(2000000000) }}", "{{ '%2000000000s' % 'x' }}", "{{ '%.*f' % (2000000000, 1.5) }}",
    "{{ '{:>2000000000}'.format(1) }}", "{{ '{0:{1}}'.format('x', 2000000000) }}",
    "{{ '{a}{a}{a}{a}'.format_map({'a': 'x' * 500000}) }}", "{{ 'x'.zfill(2000000000) }}",
    "{{ 'x'.rjust(2000000000) }}", "{{ 'x'.encode() * 2000000000 }}", "{{ (1).to_bytes(2000000000) }}",
    "{{ ('x' * 1000000).replace('x', 'yy') }}", "{{ ('\t' * 1000).expandtabs(2000000) }}",
    "{{ ('x' * 1000).translate(['y' * 1000000] * 200) }}", "{{ ('x' * 1000000).encode('unicode_escape') }}",
    "{{ ('-' * 1000).join(['x'] * 2000) }}", "{{ ('x' * 1000)|indent(2000000000, true) }}",
    "{{ ('x ' * 100000)|wordwrap(1, wrapstring='y' * 100) }}", "{{ '%2000000000s'|format('x') }}",
    "{{ ('x' * 1000)|replace('x', 'y' * 10000) }}", "{{ (['x' * 1000] * 10000)|join }}",
    "{{ ([[1] * 1000] * 10000)|sum(start=[]) }}", "{{ [1]|batch(2000000000, 0)|list }}",
    "{{ [1]|slice(2000000000)|list }}", "{{ [['x' * 1000] * 10000]|tojson }}", "{{ [1]|tojson(2000000000) }}",
    "{{ ('x' * 100)|urlize(target='y' * 1000000) }}", "{{ (['x' * 1000] * 10000)|string }}",
    "{{ (['x' * 1000] * 10000)|upper }}", "{{ lipsum(n=3000000) }}", "{{ lipsum(1, max=100000000) }}",
    "{{ 1|round(-3000000000, 'floor') }}", "{{ 2 ** 10000000 }}", "{{ (2 ** 4000) * (2 ** 4000) }}",
    "{{ ['x'] * 2000000000 }}", "{{ ('x' * 600000) + ('x' * 600000) }}",
    "{{ 'x'.encode() * 600000 + 'x'.encode() * 600000 }}",
    "{% set a = ['x' * 100000] %}{% set b = [a, a, a, a, a, a, a, a, a, a] %}{{ [b, b] }}",
    "{% set a = ['x' * 100000] %}{% set b = [a, a, a, a, a, a, a, a, a, a] %}{{ 'x' ~ [b, b] }}",
    "{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
    "{% set ns = namespace(l=[1]) %}{% for i in range(40) %}{% set ns.l = ns.l + ns.l %}{% endfor %}",
    "{% filter center(2000000000) %}x{% endfilter %}", "{{ ['x']|map('center', 2000000000)|list }}",
    "{% set s = 'x' * 100000 %}{% for i in range(200) %}{{ s }}{% endfor %}",
    "{% macro m(s) %}{% for i in range(200) %}{{ s }}{% endfor %}{% endmacro %}{% set t = m('x' * 100000) %}",
]


@pytest.mark.parametrize("source", HOSTILE)
def test_a_call_that_would_make_too_much_is_refused_before_it_is_made(source):
    env = Environment()
    env.globals["round"] = round  # as the layouts have it
    tracemalloc.start()
    try:
        with pytest.raises(SecurityError, match="templates may"):
            env.from_string(source).render()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20, f"{peak >> 20} MiB allocated before refusing"


def test_round_to_minus_three_billion_digits_is_refused_not_computed():
    env = Environment()
    env.globals["round"] = round
    with pytest.raises(SecurityError, match="4096 bits"):
        env.from_string("{{ round(1, -3000000000) }}").render()


#: Everyday uses of the same operators, methods, filters and globals.
EVERYDAY = [
    "{{ 'x'|center(9) }}|{{ '%5s|%-3d|%.2f' % ('x', 7, 1.5) }}|{{ '%(a)s-%(a)s' % {'a': 'b'} }}",
    "{{ '{:>5}|{:08.3f}'.format(1, 2.5) }}|{{ '{a}'.format_map({'a': 1}) }}|{{ '{0:{1}}'.format('x', 4) }}",
    "{{ 'ab'.zfill(5) }}{{ 'a'.ljust(3, '.') }}{{ 'a\tb'.expandtabs(4) }}{{ 'aXa'.replace('a', 'bb') }}",
    "{{ 'abc'.translate({97: 'AA'}) }}{{ ', '.join(['a', 'b']) }}{{ '-'.join('abc') }}{{ 'é'.encode() }}",
    "{{ (258).to_bytes(2) }}{{ 'line\nline'|indent(2, true) }}{{ 'a b c d'|wordwrap(3) }}{{ '%s=%d'|format('n', 3) }}",
    "{{ 'a-b'|replace('-', '+') }}{{ [1, 2]|join(',') }}{{ [[1], [2]]|sum(start=[]) }}{{ [1, 2, 3]|sum }}",
    "{{ [1, 2, 3]|batch(2, 0)|list }}{{ [1, 2, 3]|slice(2)|list }}{{ {'a': [1]}|tojson(2) }}{{ 2.567|round(1) }}",
    "{{ 2.567|round(1, 'floor') }}{{ [1, 'a']|string }}{{ 'ab'|upper }}{{ 'a' ~ 1 ~ [2] }}{{ [1] + [2] }}{{ 'a' * 3 }}",
    "{{ 3 * 4 }}{{ 2 ** 10 }}{{ 7 % 3 }}{{ 1 + 2 }}{{ [1, (2, 3)] }}{{ {'a': 1} }}{{ 'x'.encode() * 2 }}",
    "{% filter upper %}x{% endfilter %}{{ ['a']|map('center', 3)|join }}{{ lipsum(2, html=false)|length > 0 }}",
]


@pytest.mark.parametrize("source", EVERYDAY)
def test_everyday_calls_give_what_jinja_gives(source):
    plain = ImmutableSandboxedEnvironment()
    assert Environment().from_string(source).render() == plain.from_string(source).render()


def test_a_markup_format_still_escapes_its_values():
    env = Environment(autoescape=True)
    assert env.from_string("{{ '<b>{}</b>'|safe }}").render() == "<b>{}</b>"
    assert env.from_string("{{ ('<b>{}</b>'|safe).format('<i>') }}").render() == "<b>&lt;i&gt;</b>"


def test_an_operation_text_must_stand_alone_in_its_macro():
    from types import SimpleNamespace as N

    from forge.text.effects import OperationTextError, _macro_source

    def manifest(text: str) -> N:
        return N(operations={"draw": N(params={"count": 1}, text={"en": text})})

    assert _macro_source(manifest("Draw {{ count }}.\n"), "en").count("{% endmacro %}") == 1
    for text in ("{% endmacro %}{% macro op_draw(count) %}x{% endmacro %}{% macro y() %}", "{% if count %}x"):
        with pytest.raises(OperationTextError, match=r"text template of 'draw' \(en\): TemplateSyntaxError"):
            _macro_source(manifest(text), "en")
