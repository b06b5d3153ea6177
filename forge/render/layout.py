"""Card layouts: Jinja templates that produce a list of elements in millimetres, fitted here.

A layout template lives in `templates/<game>/cards/` (falling back to `templates/_common/cards/`):
`<type>.<subtype>.yaml.j2`, `<type>.yaml.j2`, then `default.yaml.j2`; a deck's back is
`back.yaml.j2`. The template renders to YAML: a list of elements, one mapping each (the common
macro `el()` writes them as one JSON object a line). Coordinates are millimetres from the card's
top-left trim corner, y downwards; an element with `bleed: true` grows by the bleed on every
edge it touches. Element kinds:

- `rect` x y w h, `fill`, `stroke`, `width` (line, pt), `radius`; `circle` cx cy r;
  `line` x1 y1 x2 y2; `poly` points [[x, y], ...]; `stripes` x y w h (diagonal hatching).
- `icon` name x y size: a vector icon of `forge.render.icons`.
- `label` x y w text: one line, shrunk down to `min` to fit `w`; `align` left/center/right.
- `text` x y w h text|markup|paras: paragraphs wrapped (hyphenated) in the box at `size`,
  shrunk down to `min` when they do not fit; `valign` top/middle/bottom.
- `art` x y w h: the card's art (its `art` file) or a designed placeholder.
- `table` x y w rows [[cell, ...], ...] cols [widths]: small grid of labels with rules.

Fitting happens once per card face; what cannot fit at the minimum size is kept as a problem
(`forge check` reports it through `forge.check.preflight`) and drawn at the minimum size.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import jinja2
import pyphen
import yaml
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from ..errors import ForgeError
from ..text.effects import operations_text, effect_text
from ..text.plural import plural
from ..text.typography import SHY, typeset
from . import fonts

PT = 72 / 25.4  # points per millimetre
FACES = {"regular": fonts.REGULAR, "bold": fonts.BOLD, "italic": fonts.ITALIC,
         "bolditalic": fonts.BOLD_ITALIC, "medium": "Roboto-Medium", "light": "Roboto-Light",
         "black": "Roboto-Black"}
_ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
_HYPHEN_LANG = {"uk": "uk_UA", "en": "en_US"}
_TAG = re.compile(r"(<[^>]+>)")
_WORD = re.compile(r"[^\W\d_][\w\u02bc'\u2019-]*", re.UNICODE)


class LayoutError(ForgeError):
    """A layout template is broken (syntax, unknown element): a bug in templates, not data."""


def templates_root(game: Any) -> Path:
    """Where layouts live: $FORGE_TEMPLATES, `templates/` beside the cards folder, or the checkout."""
    if os.environ.get("FORGE_TEMPLATES"):
        return Path(os.environ["FORGE_TEMPLATES"])
    beside = Path(game.root).resolve().parent.parent / "templates"
    if (beside / "_common").is_dir():
        return beside
    return Path(__file__).resolve().parents[2] / "templates"


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


# --------------------------------------------------------------------------------------------
# Templates


class _MemoryBytecode(jinja2.BytecodeCache):
    """Compiled templates shared by every game's environment in this process (the common
    parts are compiled once, not once per game)."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.store:
            bucket.bytecode_from_string(self.store[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


_BYTECODE = _MemoryBytecode()


@lru_cache(maxsize=None)
def _env(root: str, game_id: str) -> jinja2.Environment:
    base = Path(root)
    env = jinja2.Environment(
        bytecode_cache=_BYTECODE, loader=jinja2.FileSystemLoader([str(base / game_id / "cards"), str(base / "_common" / "cards")]),
        undefined=jinja2.StrictUndefined, autoescape=False, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True)
    env.filters["plural"] = _plural
    env.filters["typeset"] = _typeset
    env.filters["mix"] = mix_hex
    env.filters["x"] = escape
    env.globals["el"] = element
    env.globals["round"] = round
    return env


def mix_hex(a: str, b: str, t: float) -> str:
    """`'#ff0000' | mix('#ffffff', 0.8)`: colour a moved a fraction t towards b, as #rrggbb."""
    pa = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    pb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(pa, pb))


def element(kind: str, **params: Any) -> str:
    """One layout element as a YAML list item (a JSON flow mapping on one line)."""
    return "- " + json.dumps({"kind": kind, **params}, ensure_ascii=False) + "\n"


@jinja2.pass_context
def _plural(context: Any, n: int, *forms: str) -> str:
    return plural(n, forms, context["lang"])


@jinja2.pass_context
def _typeset(context: Any, text: str) -> str:
    return typeset(text, context["lang"])


def template_for(game: Any, card: Any | None) -> jinja2.Template:
    env = _env(str(templates_root(game)), game.id)
    if card is None:
        names = ["back.yaml.j2"]
    else:
        names = ([f"{card.type}.{card.subtype}.yaml.j2"] if card.subtype else []) + [
            f"{card.type}.yaml.j2", "default.yaml.j2"]
    try:
        return env.select_template(names)
    except jinja2.TemplatesNotFound as exc:
        raise LayoutError(f"no card layout for {game.id}: looked for {', '.join(names)} under "
                          f"{templates_root(game)}") from exc
    except jinja2.TemplateSyntaxError as exc:
        raise LayoutError(f"{exc.filename}:{exc.lineno}: {exc.message}") from exc


def back_key(game: Any, card: Any) -> str:
    """Which back a card wears: the manifest's `backs` by `type/subtype`, `type`, `set`, else `default`."""
    backs = getattr(game.manifest, "backs", None) or {}
    for key in (f"{card.type}/{card.subtype}" if card.subtype else None, card.type, card.set):
        if key and key in backs:
            return key
    return "default"


def _context(game: Any, card: Any | None, lang: str, back: str | None = None) -> dict:
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

    ctx = dict(game=game, manifest=manifest, lang=lang, t=t, card_name=card_name, ops=ops,
               W=manifest.card_size.width, H=manifest.card_size.height,
               title=manifest.title[lang])
    if card is not None:
        spec = manifest.card_types[card.type]
        ctx.update(card=card, f=card, type_name=spec.name[lang],
                   subtype_name=spec.subtypes[card.subtype][lang] if card.subtype else "",
                   set_name=manifest.sets[card.set].name[lang], effect=effect_text(manifest, card, lang),
                   flavor=card.flavor[lang] if card.flavor else "",
                   art_path=str(Path(game.root) / card.art) if card.art else "")
    else:
        backs = getattr(manifest, "backs", None) or {}
        spec = backs.get(back) if back else None
        ctx.update(back=spec, back_id=back or "default")
    return ctx


def layout_elements(game: Any, card: Any | None, lang: str, back: str | None = None) -> list[dict]:
    """Run the card's layout template and parse its YAML into element mappings."""
    template = template_for(game, card)
    try:
        source = template.render(**_context(game, card, lang, back))
    except jinja2.TemplateError as exc:
        raise LayoutError(f"layout {template.name} for {card.id if card else 'back'} ({lang}): {exc}") from exc
    try:
        data = _parse(source)
    except (yaml.YAMLError, ValueError) as exc:
        raise LayoutError(f"layout {template.name} for {card.id if card else 'back'} ({lang}) is not "
                          f"valid YAML: {exc}") from exc
    if isinstance(data, dict):
        data = data.get("elements")
    if not isinstance(data, list) or not all(isinstance(e, dict) and "kind" in e for e in data):
        raise LayoutError(f"layout {template.name} must produce a list of elements with a `kind`")
    return data


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _parse(source: str) -> Any:
    """The layout's YAML. Lines written by `el()` (`- {json}`) take a fast path: JSON is YAML,
    and the pure-Python YAML parser would cost more than the rest of the layout."""
    lines = [ln for ln in source.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if all(ln.startswith("- {") for ln in lines):
        return [json.loads(ln[2:]) for ln in lines]
    return yaml.load(source, Loader=_LOADER)  # noqa: S506 (a safe loader)


# --------------------------------------------------------------------------------------------
# Text


@lru_cache(maxsize=None)
def _hyphenator(lang: str) -> pyphen.Pyphen | None:
    code = _HYPHEN_LANG.get(lang, lang)
    try:
        return pyphen.Pyphen(lang=code, left=2, right=2)
    except KeyError:
        return None


@lru_cache(maxsize=65536)
def _hyphenate_word(word: str, lang: str) -> str:
    h = _hyphenator(lang)
    if h is None or len(word) < 6:
        return word
    # pyphen does not know U+02BC; hyphenate the parts around apostrophes and hyphens.
    parts = re.split(r"([\u02bc'\u2019-])", word)
    return "".join(h.inserted(p, hyphen=SHY) if len(p) >= 5 else p for p in parts)


def hyphenate(text: str, lang: str) -> str:
    """Insert soft hyphens (U+00AD) into long words; ReportLab breaks lines there."""
    return _WORD.sub(lambda m: _hyphenate_word(m.group(0), lang), text)


def _markup(item: dict, lang: str, hyph: bool) -> tuple[str, str]:
    """(ReportLab markup, plain text) of a paragraph item."""
    if "markup" in item:
        raw = str(item["markup"])
        plain = re.sub(r"<[^>]+>", "", raw)
        plain = plain.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
        if hyph:
            raw = "".join(p if p.startswith("<") else hyphenate(p, lang) for p in _TAG.split(raw))
        return raw, plain
    plain = str(item.get("text", ""))
    body = hyphenate(plain, lang) if hyph else plain
    return escape(body).replace("\n", "<br/>"), plain


_STYLE_CACHE: dict[tuple, ParagraphStyle] = {}


def _style(face: str, size: float, leading: float, align: str, color: str) -> ParagraphStyle:
    key = (face, size, leading, align, color)
    style = _STYLE_CACHE.get(key)
    if style is None:
        style = ParagraphStyle(
            f"s{len(_STYLE_CACHE)}", fontName=face, fontSize=size, leading=size * leading,
            alignment=_ALIGN.get(align, TA_LEFT), textColor=color, splitLongWords=1,
            allowWidows=1, allowOrphans=1, hyphenationLang="", embeddedHyphenation=0,
            uriWasteReduce=0, spaceBefore=0, spaceAfter=0, firstLineIndent=0, leftIndent=0,
            rightIndent=0, bulletFontName=face, wordWrap=None)
        _STYLE_CACHE[key] = style
    return style


def _widest_piece(plain_hyph: str, face: str, size: float) -> float:
    """The width of the longest unbreakable piece (between spaces and soft hyphens)."""
    widest = 0.0
    for word in re.split(r"[ \n\t/]+", plain_hyph):
        for piece in word.split(SHY):
            if piece:
                widest = max(widest, stringWidth(piece + "-", face, size))
    return widest


def fit_text(el: dict, lang: str) -> tuple[list[tuple[Paragraph, float, float]], float, bool]:
    """Paragraphs of a `text` element at the largest size that fits: ([(para, w, h)], size, fits)."""
    fonts.register()
    w, h = float(el["w"]) * PT, float(el["h"]) * PT
    size = float(el.get("size", 8))
    smallest = float(el.get("min", min(size, 6)))
    leading = float(el.get("leading", 1.18))
    gap = float(el.get("gap", 0.4))
    hyph = bool(el.get("hyphenate", True))
    items = el.get("paras")
    if items is None:
        items = [{k: el[k] for k in ("text", "markup") if k in el}]
    items = [i if isinstance(i, dict) else {"text": i} for i in items]
    items = [i for i in items if str(i.get("text", i.get("markup", ""))).strip()]
    base_face = FACES.get(el.get("font", "regular"), fonts.REGULAR)
    prepared = []
    for item in items:
        markup, plain = _markup(item, lang, hyph and bool(item.get("hyphenate", True)))
        face = FACES.get(item.get("font", el.get("font", "regular")), base_face)
        prepared.append((item, markup, plain, face, hyphenate(plain, lang) if hyph else plain))
    sizes = []
    s = size
    while s > smallest + 1e-9:
        sizes.append(s)
        s -= 0.5
    sizes.append(smallest)
    for current in sizes:
        paras, total, fits = [], 0.0, True
        for n, (item, markup, plain, face, plain_h) in enumerate(prepared):
            s = current * float(item.get("scale", 1.0))
            style = _style(face, s, leading, item.get("align", el.get("align", "left")),
                           item.get("color", el.get("color", "#000000")))
            para = Paragraph(markup, style)
            pw, ph = para.wrap(w, 10_000)
            if _widest_piece(plain_h, face, s) > w + 0.01:
                fits = False
            total += ph + (gap * s if n else 0)
            paras.append((para, pw, ph))
        if total <= h + 0.01 and fits:
            return paras, current, True
    return paras, current, False


# --------------------------------------------------------------------------------------------
# Faces


def _loc(el: dict, lang: str) -> tuple:
    where = el.get("field")
    if not where:
        return ()
    steps = tuple(int(s) if s.isdigit() else s for s in str(where).split("."))
    return steps + ((lang,) if el.get("localised", True) else ())


def resolve(game: Any, card: Any | None, lang: str, back: str | None = None) -> Face:
    """Lay out one card side: run the template, fit every text, collect problems."""
    fonts.register()
    size = game.manifest.card_size
    face = Face(size.width, size.height, [])
    for el in layout_elements(game, card, lang, back):
        kind = el["kind"]
        if kind == "text":
            paras, fitted, ok = fit_text(el, lang)
            el = dict(el, _paras=paras, _size=fitted)
            for item in (el.get("paras") or [el]):
                item = item if isinstance(item, dict) else {"text": item}
                plain = _markup(item, lang, False)[1]
                face.texts.append((_loc(el, lang), FACES.get(item.get("font", el.get("font", "regular")),
                                                            fonts.REGULAR), plain))
            if not ok:
                what = el.get("what", "text")
                face.problems.append(Problem(_loc(el, lang), "text-overflow",
                                             f"{what} ({lang}) does not fit its {el['w']}x{el['h']} mm "
                                             f"box even at the minimum size {el.get('min', 6)} pt"))
        elif kind == "label":
            face_name = FACES.get(el.get("font", "regular"), fonts.REGULAR)
            text = str(el.get("text", ""))
            s = float(el.get("size", 8))
            smallest = float(el.get("min", s))
            limit = float(el["w"]) * PT if el.get("w") else None
            width = stringWidth(text, face_name, s)
            if limit and width > limit:
                s = max(smallest, s * limit / width)
                width = stringWidth(text, face_name, s)
                if width > limit + 0.01:
                    face.problems.append(Problem(_loc(el, lang), "text-overflow",
                                                 f"{el.get('what', 'label')} ({lang}) «{text[:40]}» is "
                                                 f"wider than {el['w']} mm even at {smallest} pt"))
            el = dict(el, _size=s, _face=face_name)
            face.texts.append((_loc(el, lang), face_name, text))
        elif kind == "table":
            for row in el.get("rows", []):
                for cell in row:
                    face.texts.append((_loc(el, lang), FACES.get(el.get("font", "regular"), fonts.REGULAR),
                                       str(cell.get("text", "") if isinstance(cell, dict) else cell)))
        elif kind == "art" and card is not None and card.art:
            path = Path(game.root) / card.art
            if not path.is_file():
                face.problems.append(Problem(("art",), "art-missing", f"art file {card.art} not found"))
        face.elements.append(el)
    return face


@lru_cache(maxsize=4096)
def _face_cached(game: Any, card_id: str | None, lang: str, back: str | None) -> Face:
    card = game.by_id[card_id] if card_id is not None else None
    return resolve(game, card, lang, back)


def front(game: Any, card: Any, lang: str) -> Face:
    """The fitted front of a card (cached per game object, card and language)."""
    return _face_cached(game, card.id, lang, None)


def back(game: Any, card: Any, lang: str) -> Face:
    """The fitted back a card wears (one per deck, cached)."""
    return _face_cached(game, None, lang, back_key(game, card))
