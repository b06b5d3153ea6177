"""What a template's operator, method, filter or global would make, measured before it is made.

A template comes with a shared game, and one expression can ask for gigabytes (`'x'|center(2e9)`,
`'%2000000000s' % 'x'`, `(1).to_bytes(2e9)`) or for hours (`round(1, -3e9)` computes 10**3e9).
So every call that can size its result is measured from its arguments first: a template may make
strings, bytes and lists of at most `MAX_ITEMS` items and numbers of at most `MAX_BITS` bits, and
write at most `MAX_TEXT` characters in all; a call over a bound raises `SecurityError` before
anything is allocated, which forge reports at the template's line like every other sandbox
refusal. What writes values out as text (`~`, `join`,
`%`, `format`) counts the text of nested lists too (`text_size`): a list of a million references
to one long string is small until it is written.

`forge.templating.Environment` applies these checks: `call_binop` to its intercepted operators,
`call` to every call a template makes, `FILTERS` and `GLOBALS` in place of Jinja's own,
`joined_text` as its `concat`, and `written` and `concat` in the code it compiles.
"""
from __future__ import annotations

import builtins
import functools
import itertools
import math
import re
import string
from typing import Any, Callable, Iterable, Mapping

from jinja2 import pass_environment, pass_eval_context
from jinja2.defaults import DEFAULT_FILTERS
from jinja2.exceptions import SecurityError
from jinja2.filters import make_attrgetter, sync_do_join, sync_do_slice, sync_do_sum
from jinja2.sandbox import SandboxedEscapeFormatter, SandboxedFormatter
from jinja2.utils import generate_lorem_ipsum

#: The most items (characters, bytes, list items) one value a template makes may have.
MAX_ITEMS = 1_000_000
#: The most bits of a number a template makes (`**`, `*`, `round`).
MAX_BITS = 4096
#: The most characters a template (or a macro, a block) writes in all: its loops may write
#: each value many times. A rulebook of 20,000 cards writes about 2,000,000.
MAX_TEXT = 10 * MAX_ITEMS


def bound(size: int, what: str) -> None:
    """Refuse a call that would make `size` items."""
    if size > MAX_ITEMS:
        raise SecurityError(f"{what} would make {size:,} items or more; templates may make at most {MAX_ITEMS:,}")


def bound_bits(bits: float, what: str) -> None:
    if bits > MAX_BITS:
        raise SecurityError(f"{what} would make a number of over {MAX_BITS} bits; templates may not")


_CONTAINERS = (list, tuple, set, frozenset, dict)


def text_size(value: Any, limit: int = MAX_ITEMS) -> int:
    """About how many characters `str(value)` has, counted up to just past `limit`. Each list
    or mapping is counted once however often it recurs, so counting costs no more than the
    distinct values; one nested too deeply to count is over the limit."""
    if isinstance(value, (str, bytes)):
        return len(value)
    if not isinstance(value, _CONTAINERS):
        return value.bit_length() // 3 + 2 if isinstance(value, int) else 24
    seen: dict[int, int] = {}

    def size(v: Any) -> int:
        if isinstance(v, (str, bytes)):
            return len(v)
        if isinstance(v, int):
            return v.bit_length() // 3 + 2
        if isinstance(v, _CONTAINERS):
            known = seen.get(id(v))
            if known is None:
                known = 2
                for item in (itertools.chain.from_iterable(v.items()) if isinstance(v, dict) else v):
                    known += size(item) + 4  # quotes, comma and space
                    if known > limit:
                        break
                seen[id(v)] = known
            return known
        return 24  # a float, None, a model: a short text

    try:
        return size(value)
    except RecursionError:
        return limit + 1


def _text(value: Any, what: str) -> str:
    """`value` as the text a filter makes of it, refused before it is made when too long."""
    if isinstance(value, str):
        return value
    bound(text_size(value), what)
    return str(value)


def _joined(items: list, gap: int) -> int:
    """About how long `items` joined with a `gap` long separator are: counted up to just past
    the bound, each item's text on its own."""
    total = gap * max(len(items) - 1, 0)
    for item in items:
        total += text_size(item)
        if total > MAX_ITEMS:
            break
    return total


def _width(value: Any) -> int:
    return value if isinstance(value, int) else 0


def _digits(text: str | None) -> int:
    return int(text) if text and len(text) <= 18 else (MAX_ITEMS + 1 if text else 0)


# -- `%` and `str.format`
_PRINTF = re.compile(r"%(?:\((?P<key>[^)]*)\))?[-#0 +]*(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d*))?[hlL]?(?P<conv>.)",
                     re.S)


def printf_size(fmt: str | bytes, args: Any) -> int:
    """About how long `fmt % args` is: the format's text, and for each conversion its width,
    precision and the value's text."""
    text = fmt.decode("latin-1") if isinstance(fmt, bytes) else fmt
    values = iter(args if isinstance(args, tuple) else (args,))
    total = len(text)
    for m in _PRINTF.finditer(text):
        if m["conv"] == "%":
            continue
        for part in (m["width"], m["prec"]):
            total += abs(_width(next(values, 0))) if part == "*" else _digits(part)
        value = args.get(m["key"]) if m["key"] is not None and isinstance(args, Mapping) else next(values, None)
        total += text_size(value)
    return total


def _spec_size(spec: str) -> int:
    """The room a format spec asks for (`>2000000000`, `.300f`): its numbers, added up."""
    return sum(_digits(d) for d in re.findall(r"\d+", spec))


class _Counting(string.Formatter):
    """A formatter that refuses a field that would take the result over `MAX_ITEMS`, counting
    each field's width, precision and value before formatting it."""

    made = 0

    def vformat(self, format_string: str, args: Any, kwargs: Any) -> str:
        self.made = len(format_string)
        return super().vformat(format_string, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> Any:
        self.made += _spec_size(format_spec) + text_size(value)
        bound(self.made, "format()")
        return super().format_field(value, format_spec)


class CountingFormatter(_Counting, SandboxedFormatter):
    """`str.format` in the sandbox, bounded."""


class CountingEscapeFormatter(_Counting, SandboxedEscapeFormatter):
    """`Markup.format` in the sandbox, bounded."""


# -- operators
_SEQUENCES = (str, bytes, list, tuple)


def call_binop(env: Any, context: Any, op: str, left: Any, right: Any) -> Any:
    """`left op right` for an operator the environment intercepts (its `call_binop`), refused
    if it would make too much: `*` repeating a sequence or multiplying numbers, `**`, `+`
    joining sequences, `%` formatting."""
    if op == "+":
        if isinstance(left, _SEQUENCES) and isinstance(right, _SEQUENCES):
            bound(len(left) + len(right), "`+`")
    elif op == "*":
        for seq, n in ((left, right), (right, left)):
            if isinstance(seq, _SEQUENCES) and isinstance(n, int):
                bound(len(seq) * n, "`*`")
        if isinstance(left, int) and isinstance(right, int):
            bound_bits(left.bit_length() + right.bit_length(), "`*`")
    elif op == "**":
        if isinstance(left, int) and isinstance(right, int) and right > 0:
            bound_bits(abs(left).bit_length() * right, "`**`")
    elif op == "%" and isinstance(left, (str, bytes)):
        bound(printf_size(left, right), "`%`")
    return env.binop_table[op](left, right)


def written(value: Any) -> Any:
    """A value `{{ }}` writes, refused before it is written if its text would be too long
    (only a list or mapping can be: its text is made now)."""
    if isinstance(value, _CONTAINERS):
        bound(text_size(value), "`{{ }}`")
    return value


def joined_text(pieces: Iterable[str]) -> str:
    """What a template, a macro or a block writes, joined (the environment's `concat`), refused
    as soon as it would pass `MAX_TEXT` characters."""
    kept = []
    total = 0
    for piece in pieces:
        total += len(piece)
        if total > MAX_TEXT:
            error = SecurityError(f"the template would write over {MAX_TEXT:,} characters; "
                                  f"templates may write at most {MAX_TEXT:,}")
            if hasattr(pieces, "throw"):  # a render's generator: raised at the line that wrote it
                pieces.throw(error)
            raise error
        kept.append(piece)
    return "".join(kept)


def concat(parts: tuple) -> tuple:
    """The operands of `~`, refused before they are joined if the text would be too long."""
    bound(_joined(parts, 0), "`~`")
    return parts


# -- methods and functions a template calls
def _pad(s: Any, width: Any, fillchar: Any = " ") -> int:
    return max(len(s), _width(width))


def _expandtabs(s: Any, tabsize: Any = 8) -> int:
    return len(s) + s.count("\t") * max(_width(tabsize), 0)


def _replace(s: Any, old: Any, new: Any, count: Any = -1) -> int:
    n = s.count(old) if len(old) else len(s) + 1
    if _width(count) >= 0:
        n = min(n, _width(count))
    return len(s) + n * max(len(new) - len(old), 0)


def _translate(s: Any, table: Any) -> int:
    values = table.values() if isinstance(table, Mapping) else table if isinstance(table, (list, tuple)) else ()
    return len(s) * max((len(v) for v in values if isinstance(v, str)), default=1)


def _join(s: Any, items: Any) -> int:
    return _joined(items, len(s))


def _encode(s: Any, encoding: Any = "utf-8", errors: Any = "strict") -> int:
    escapes = errors != "strict" or "escape" in str(encoding)
    return len(s) * (10 if escapes else 4) + 4  # `\U0010ffff`, `&#1114111;`; a BOM


def _to_bytes(n: Any, length: Any = 1, byteorder: Any = "big", *, signed: Any = False) -> int:
    return _width(length)


_STR = {"center": _pad, "ljust": _pad, "rjust": _pad, "zfill": _pad, "expandtabs": _expandtabs,
        "replace": _replace, "translate": _translate, "join": _join, "encode": _encode}
_METHODS: dict[type, dict[str, Callable[..., int]]] = {str: _STR, int: {"to_bytes": _to_bytes}}
_OWNERS = (str, int)  # bytes (`'x'.encode()`) have no attributes in templates


def _round_bits(ndigits: Any) -> None:
    """`round(x, -n)` of an integer and `|round(n, 'floor')` compute 10**n."""
    if isinstance(ndigits, int):
        bound_bits(abs(ndigits) * math.log2(10), "round()")


def call(obj: Any, args: tuple, kwargs: dict) -> tuple:
    """Refuse calling `obj(*args, **kwargs)` if it would make too much; the arguments to call it
    with (an iterator given to `join` is read into a list, to be measured)."""
    if obj is round:  # the layouts' global
        _round_bits(args[1] if len(args) > 1 else kwargs.get("ndigits"))
        return args
    owner = getattr(obj, "__self__", None)
    if not isinstance(owner, _OWNERS):
        return args
    kind = next(t for t in _OWNERS if isinstance(owner, t))
    size = _METHODS[kind].get(obj.__name__)
    if size is None:
        return args
    if obj.__name__ == "join" and len(args) == 1 and not isinstance(args[0], (list, tuple)):
        args = (list(args[0]),)
    try:  # Jinja adds its own keywords to calls in loops and blocks
        made = size(owner, *args, **{k: v for k, v in kwargs.items() if k not in ("_loop_vars", "_block_vars")})
    except (TypeError, AttributeError):
        return args  # not how the method is called: the call itself says so
    bound(made, f"{obj.__name__}()")
    return args


# -- filters and globals in place of Jinja's
def _filter(name: str, size: Callable[..., int]) -> Callable[..., Any]:
    """Jinja's filter `name`, refusing a call whose `size(*arguments)` is over the bound."""
    original = DEFAULT_FILTERS[name]
    passes = hasattr(original, "jinja_pass_arg")

    @functools.wraps(original)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        bound(size(*args[passes:], **kwargs), f"|{name}")
        return original(*args, **kwargs)
    return bounded


def _indent(s: Any, width: Any = 4, first: Any = False, blank: Any = False) -> int:
    lines = s.count("\n") + 1 if isinstance(s, str) else text_size(s)
    return text_size(s) + lines * (len(width) if isinstance(width, str) else _width(width))


def _wordwrap(s: Any, width: Any = 79, break_long_words: Any = True, wrapstring: Any = None,
              break_on_hyphens: Any = True) -> int:
    n = text_size(s)
    return n + (n + 1) * (len(wrapstring) if isinstance(wrapstring, str) else 2)


def _format(value: Any, *args: Any, **kwargs: Any) -> int:
    return printf_size(_text(value, "|format"), kwargs or args)


def _replace_filter(s: Any, old: Any, new: Any, count: Any = None) -> int:
    return _replace(_text(s, "|replace"), str(old), str(new), -1 if count is None else count)


def _urlize(value: Any, trim_url_limit: Any = None, nofollow: Any = False, target: Any = None,
            rel: Any = None, extra_schemes: Any = None) -> int:
    n = text_size(value)
    return n + (n // 2 + 1) * (text_size(target) + text_size(rel) + 64)


def _tojson(value: Any, indent: Any = None) -> int:
    return text_size(value) * (1 + (len(indent) if isinstance(indent, str) else _width(indent)))


def _round_filter(value: Any, precision: Any = 0, method: Any = "common") -> int:
    _round_bits(precision)
    return 0


@pass_eval_context
def _join_filter(eval_ctx: Any, value: Any, d: Any = "", attribute: Any = None) -> Any:
    items = list(value)
    bound(_joined(items, len(str(d))), "|join")
    return sync_do_join(eval_ctx, items, d, attribute)



@pass_environment
def _sum_filter(environment: Any, iterable: Any, attribute: Any = None, start: Any = 0) -> Any:
    """Jinja's `sum`; lists and tuples are joined in one pass (adding them one by one costs
    the square of their length) and bounded like `+`."""
    if not isinstance(start, (list, tuple)):
        return sync_do_sum(environment, iterable, attribute, start)
    items = list(iterable if attribute is None else map(make_attrgetter(environment, attribute), iterable))
    if not all(type(item) is type(start) for item in items):
        return sum(items, start)  # the error Python gives
    bound(len(start) + sum(len(item) for item in items), "|sum")
    return type(start)(itertools.chain(start, *items))


def _slice_filter(value: Any, slices: Any, fill_with: Any = None) -> Any:
    bound(_width(slices), "|slice")
    return sync_do_slice(value, slices, fill_with)


def _batch(value: Any, linecount: Any, fill_with: Any = None) -> int:
    return _width(linecount)


#: The filters that make a text of any value they are given (a list's text can be long).
_TEXT_FILTERS = ("capitalize", "lower", "upper", "title", "trim", "striptags", "truncate", "wordcount",
                 "escape", "e", "forceescape", "urlencode", "safe", "string", "pprint")
FILTERS: dict[str, Callable[..., Any]] = {
    "center": _filter("center", lambda value, width=80: max(text_size(value), _width(width))),
    "indent": _filter("indent", _indent),
    "wordwrap": _filter("wordwrap", _wordwrap),
    "format": _filter("format", _format),
    "replace": _filter("replace", _replace_filter),
    "urlize": _filter("urlize", _urlize),
    "tojson": _filter("tojson", _tojson),
    "batch": _filter("batch", _batch),
    "round": _filter("round", _round_filter),
    **{name: _filter(name, lambda value, *args, **kwargs: 0 if isinstance(value, str) else text_size(value))
       for name in _TEXT_FILTERS},
    "join": _join_filter,
    "sum": _sum_filter,
    "slice": _slice_filter,
}


def lipsum(n: Any = 5, html: Any = True, min: Any = 20, max: Any = 100) -> Any:  # noqa: A002 (Jinja's names)
    """Jinja's `lipsum()`, refused when its words would be too many (about 12 characters each)."""
    bound(_width(n) * builtins.max(_width(min), _width(max)) * 12, "lipsum()")
    return generate_lorem_ipsum(n, html, min, max)


GLOBALS: dict[str, Callable[..., Any]] = {"lipsum": lipsum}
