"""The icons layouts and components name (`el('icon', name='heart', ...)`): a built-in set of
vector shapes, and a game's own SVG files.

Built-in icons are generic shapes, not game pieces: a game's templates decide what a heart or a
bolt means. Each function draws into the unit square (0..1, y up) on a path; `icon_code` turns
one into PDF path operators once per process, which the renderer places, scaled, with its own
paint.

A game adds icons as SVG files in its `icons/` folder (`icons/mana.svg` is the icon `mana`; a
file named like a built-in icon replaces it), so a new icon needs no Python. They are read with
svglib, checked (`IconSet.problems`, which `forge check` reports) and drawn in their own
colours, `currentColor` taking the element's `fill`. A game folder is untrusted input: an icon
is a self-contained vector drawing, so a reference to anything outside the file (another file,
a URL), a picture, text (it would need fonts) and what plain PDF paths cannot draw (gradients,
transparency) are refused; the file is found through `forge.paths.data_path`, parsed without
DTDs, entities or network, and bounded in size and in what it draws.
"""
from __future__ import annotations

import io
import logging
import math
import re
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from ..errors import ForgeError
from ..paths import DataPathError, data_path

if TYPE_CHECKING:  # icons draw on a canvas, but `forge check` lays faces out without one
    from reportlab.pdfgen.canvas import Canvas

IconFn = Callable[["Canvas"], object]


def _poly(c: Canvas, pts: list[tuple[float, float]]):
    p = c.beginPath()
    p.moveTo(*pts[0])
    for pt in pts[1:]:
        p.lineTo(*pt)
    p.close()
    return p


def _star(c: Canvas, points: int = 5, inner: float = 0.42):
    pts = []
    for i in range(points * 2):
        r = 0.5 if i % 2 == 0 else 0.5 * inner
        a = math.pi / 2 + i * math.pi / points
        pts.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    return _poly(c, pts)


def _heart(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.5, 0.08)
    p.curveTo(0.25, 0.3, 0.02, 0.45, 0.05, 0.7)
    p.curveTo(0.08, 0.95, 0.42, 1.0, 0.5, 0.76)
    p.curveTo(0.58, 1.0, 0.92, 0.95, 0.95, 0.7)
    p.curveTo(0.98, 0.45, 0.75, 0.3, 0.5, 0.08)
    p.close()
    return p


def _circle(c: Canvas):
    p = c.beginPath()
    p.circle(0.5, 0.5, 0.46)
    return p


def _diamond(c: Canvas):
    return _poly(c, [(0.5, 0.02), (0.92, 0.5), (0.5, 0.98), (0.08, 0.5)])


def _hexagon(c: Canvas):
    return _poly(c, [(0.5 + 0.48 * math.cos(math.pi / 6 + i * math.pi / 3),
                      0.5 + 0.48 * math.sin(math.pi / 6 + i * math.pi / 3)) for i in range(6)])


def _shield(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.5, 0.02)
    p.curveTo(0.2, 0.15, 0.1, 0.4, 0.1, 0.85)
    p.lineTo(0.5, 0.98)
    p.lineTo(0.9, 0.85)
    p.curveTo(0.9, 0.4, 0.8, 0.15, 0.5, 0.02)
    p.close()
    return p


def _bolt(c: Canvas):
    return _poly(c, [(0.58, 0.98), (0.18, 0.44), (0.46, 0.44), (0.36, 0.02), (0.82, 0.58),
                     (0.53, 0.58)])


def _sword(c: Canvas):
    p = _poly(c, [(0.45, 0.3), (0.45, 0.88), (0.5, 0.98), (0.55, 0.88), (0.55, 0.3)])
    p.rect(0.28, 0.24, 0.44, 0.07)
    p.rect(0.46, 0.04, 0.08, 0.2)
    p.circle(0.5, 0.04, 0.05)
    return p


def _boot(c: Canvas):  # speed: three chevrons
    p = c.beginPath()
    for dx in (0.0, 0.3):
        p.moveTo(0.08 + dx, 0.12)
        p.lineTo(0.36 + dx, 0.5)
        p.lineTo(0.08 + dx, 0.88)
        p.lineTo(0.26 + dx, 0.88)
        p.lineTo(0.54 + dx, 0.5)
        p.lineTo(0.26 + dx, 0.12)
        p.close()
    return p


def _note(c: Canvas):
    p = c.beginPath()
    p.ellipse(0.1, 0.06, 0.42, 0.3)
    p.rect(0.42, 0.2, 0.09, 0.72)
    p.moveTo(0.42, 0.92)
    p.curveTo(0.62, 0.86, 0.92, 0.74, 0.82, 0.44)
    p.curveTo(0.82, 0.64, 0.66, 0.7, 0.51, 0.72)
    p.close()
    return p


def _clock(c: Canvas):
    p = c.beginPath()
    p.circle(0.5, 0.5, 0.46)
    p.circle(0.5, 0.5, 0.36)
    p.rect(0.46, 0.46, 0.08, 0.36)
    p.rect(0.46, 0.46, 0.28, 0.08)
    return p


def _skull(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.3, 0.08)
    p.lineTo(0.3, 0.3)
    p.curveTo(0.05, 0.38, 0.06, 0.95, 0.5, 0.95)
    p.curveTo(0.94, 0.95, 0.95, 0.38, 0.7, 0.3)
    p.lineTo(0.7, 0.08)
    p.close()
    p.circle(0.35, 0.58, 0.11)
    p.circle(0.65, 0.58, 0.11)
    p.moveTo(0.5, 0.44)
    p.lineTo(0.44, 0.32)
    p.lineTo(0.56, 0.32)
    p.close()
    return p


def _die(c: Canvas):
    p = c.beginPath()
    p.roundRect(0.06, 0.06, 0.88, 0.88, 0.16)
    for x, y in ((0.3, 0.3), (0.5, 0.5), (0.7, 0.7), (0.3, 0.7), (0.7, 0.3)):
        p.circle(x, y, 0.075)
    return p


def _eye(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.02, 0.5)
    p.curveTo(0.3, 0.9, 0.7, 0.9, 0.98, 0.5)
    p.curveTo(0.7, 0.1, 0.3, 0.1, 0.02, 0.5)
    p.close()
    p.circle(0.5, 0.5, 0.16)
    return p


def _crown(c: Canvas):
    return _poly(c, [(0.08, 0.15), (0.92, 0.15), (0.98, 0.8), (0.72, 0.5), (0.5, 0.9),
                     (0.28, 0.5), (0.02, 0.8)])


def _flame(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.5, 0.02)
    p.curveTo(0.15, 0.02, 0.08, 0.35, 0.25, 0.6)
    p.curveTo(0.3, 0.45, 0.38, 0.42, 0.4, 0.45)
    p.curveTo(0.35, 0.7, 0.5, 0.9, 0.62, 0.98)
    p.curveTo(0.6, 0.78, 0.95, 0.6, 0.88, 0.3)
    p.curveTo(0.82, 0.1, 0.68, 0.02, 0.5, 0.02)
    p.close()
    return p


def _moon(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.62, 0.96)
    p.curveTo(0.1, 0.98, -0.05, 0.3, 0.4, 0.06)
    p.curveTo(0.7, -0.06, 0.95, 0.14, 0.98, 0.3)
    p.curveTo(0.6, 0.16, 0.3, 0.45, 0.42, 0.72)
    p.curveTo(0.48, 0.86, 0.56, 0.92, 0.62, 0.96)
    p.close()
    return p


def _fist(c: Canvas):  # ki: a spiral-ish swirl as concentric rings
    p = c.beginPath()
    p.circle(0.5, 0.5, 0.46)
    p.circle(0.5, 0.5, 0.3)
    p.circle(0.5, 0.5, 0.13)
    return p


def _mask(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.02, 0.7)
    p.curveTo(0.3, 0.82, 0.7, 0.82, 0.98, 0.7)
    p.curveTo(0.98, 0.3, 0.7, 0.2, 0.5, 0.4)
    p.curveTo(0.3, 0.2, 0.02, 0.3, 0.02, 0.7)
    p.close()
    p.ellipse(0.18, 0.46, 0.22, 0.16)  # x, y, width, height: the eye holes
    p.ellipse(0.6, 0.46, 0.22, 0.16)
    return p


def _sparkle(c: Canvas):
    return _star(c, 4, 0.3)


def _map(c: Canvas):
    return _poly(c, [(0.04, 0.12), (0.34, 0.04), (0.66, 0.16), (0.96, 0.08), (0.96, 0.88),
                     (0.66, 0.96), (0.34, 0.84), (0.04, 0.92)])


def _scroll(c: Canvas):
    p = c.beginPath()
    p.roundRect(0.14, 0.08, 0.72, 0.84, 0.1)
    p.rect(0.26, 0.66, 0.48, 0.06)
    p.rect(0.26, 0.5, 0.48, 0.06)
    p.rect(0.26, 0.34, 0.34, 0.06)
    return p


def _flag(c: Canvas):
    p = _poly(c, [(0.16, 0.02), (0.16, 0.98), (0.9, 0.78), (0.24, 0.58), (0.24, 0.02)])
    return p


def _coin(c: Canvas):
    p = c.beginPath()
    p.circle(0.5, 0.5, 0.46)
    p.circle(0.5, 0.5, 0.34)
    return p


def _ring(c: Canvas):
    p = c.beginPath()
    p.circle(0.5, 0.42, 0.36)
    p.circle(0.5, 0.42, 0.26)
    p.moveTo(0.36, 0.76)
    p.lineTo(0.5, 0.98)
    p.lineTo(0.64, 0.76)
    p.close()
    return p


def _house(c: Canvas):
    return _poly(c, [(0.12, 0.06), (0.12, 0.56), (0.02, 0.56), (0.5, 0.96), (0.98, 0.56),
                     (0.88, 0.56), (0.88, 0.06), (0.6, 0.06), (0.6, 0.34), (0.4, 0.34),
                     (0.4, 0.06)])


def _gift(c: Canvas):
    p = c.beginPath()
    p.rect(0.1, 0.06, 0.8, 0.56)
    p.rect(0.04, 0.62, 0.92, 0.16)
    p.moveTo(0.5, 0.78)
    p.curveTo(0.3, 1.0, 0.12, 0.9, 0.3, 0.78)
    p.close()
    p.moveTo(0.5, 0.78)
    p.curveTo(0.7, 1.0, 0.88, 0.9, 0.7, 0.78)
    p.close()
    return p


def _calendar(c: Canvas):
    p = c.beginPath()
    p.roundRect(0.06, 0.06, 0.88, 0.8, 0.08)
    p.rect(0.24, 0.8, 0.08, 0.16)
    p.rect(0.68, 0.8, 0.08, 0.16)
    return p


def _pin(c: Canvas):
    p = c.beginPath()
    p.moveTo(0.5, 0.02)
    p.curveTo(0.3, 0.3, 0.14, 0.48, 0.14, 0.64)
    p.curveTo(0.14, 0.86, 0.32, 0.98, 0.5, 0.98)
    p.curveTo(0.68, 0.98, 0.86, 0.86, 0.86, 0.64)
    p.curveTo(0.86, 0.48, 0.7, 0.3, 0.5, 0.02)
    p.close()
    p.circle(0.5, 0.66, 0.14)
    return p


def _arrows(c: Canvas):  # a cycle: reaction / swap
    p = c.beginPath()
    p.moveTo(0.1, 0.6)
    p.lineTo(0.7, 0.6)
    p.lineTo(0.7, 0.8)
    p.lineTo(0.98, 0.5)
    p.lineTo(0.7, 0.2)
    p.lineTo(0.7, 0.4)
    p.lineTo(0.1, 0.4)
    p.close()
    return p


ICONS: dict[str, IconFn] = {
    "heart": _heart, "star": _star, "circle": _circle, "diamond": _diamond, "hexagon": _hexagon,
    "shield": _shield, "bolt": _bolt, "sword": _sword, "speed": _boot, "note": _note,
    "clock": _clock, "skull": _skull, "die": _die, "eye": _eye, "crown": _crown,
    "flame": _flame, "moon": _moon, "rings": _fist, "mask": _mask, "sparkle": _sparkle,
    "map": _map, "scroll": _scroll, "flag": _flag, "coin": _coin, "ring": _ring,
    "house": _house, "gift": _gift, "calendar": _calendar, "pin": _pin, "arrow": _arrows,
}


class _PathMaker:
    """Stands in for a canvas when an icon's path is built once, outside any document."""

    @staticmethod
    def beginPath():
        from reportlab.pdfgen.pathobject import PDFPathObject
        return PDFPathObject()


_CODES: dict[str, str] = {}


def icon_code(name: str) -> str:
    """The PDF path operators of icon `name` in the unit square (built once per process)."""
    code = _CODES.get(name)
    if code is None:
        code = _CODES[name] = ICONS[name](_PathMaker()).getCode()  # type: ignore[arg-type]
    return code


# --------------------------------------------------------------------------------------------
# A game's own icons

#: The folder of a game's own icons, in its game folder.
FOLDER = "icons"
#: What an icon's name (its file name without `.svg`) may be.
NAME = re.compile(r"[a-z][a-z0-9_-]*")
#: The largest SVG file read, and the most elements one may draw, each `<use>` counted as what
#: it repeats: far above an icon (most are a few paths), and small enough that the largest is
#: read and drawn in about a second.
MAX_BYTES = 256 * 1024
MAX_ELEMENTS = 2_000
#: SVG elements an icon may not hold, and why.
_REFUSED = {"text": "text, which would need fonts (convert it to paths)",
            "image": "a picture (an icon is a vector drawing)",
            "foreignObject": "foreign content", "script": "a script"}
#: A CSS `url(...)` that does not point inside the file (`url(#id)`), or an `@import`.
_OUTSIDE_URL = re.compile(r"url\(\s*['\"]?\s*(?!#)|@import", re.IGNORECASE)
#: What svglib's PDF renderer writes to set up a font state it never uses (the icon holds no
#: text): left out, so no font is referenced.
_FONT_STATE = re.compile(r"BT /F\d+ [\d.]+ Tf [\d.]+ TL ET")
#: Operators that use PDF resources (shadings, transparency, images, fonts, forms): an icon is
#: placed as plain paths, so these mean a gradient or transparency it cannot keep.
_RESOURCES = re.compile(r"(?:^|\s)(?:/\S+ (?:sh|gs|Do|Tf)|BI|BT)(?=\s|$)")


class IconError(ForgeError):
    """An SVG icon that cannot be drawn: the file's `line` when known, and how to fix it."""

    def __init__(self, message: str, line: int = 0, fix: str = "") -> None:
        super().__init__(message)
        self.line, self.fix = line, fix


@dataclass(frozen=True)
class BrokenIcon:
    """An SVG file of a game's `icons/` folder that is not drawn: where, why and the fix."""

    path: Path
    line: int
    code: str
    message: str
    fix: str


class SvgIcon:
    """A checked SVG icon: PDF operators in the unit square (y up) for each colour that its
    `currentColor` takes and each colour conversion (made once, then kept)."""

    def __init__(self, name: str, path: Path, data: bytes) -> None:
        self.name, self.path, self.data = name, path, data
        self._codes: dict[tuple, str] = {}

    def code(self, current: str = "#000000", convert: Callable[[Any], Any] | None = None) -> str:
        """The icon drawn in the unit square, `currentColor` as `current`, each colour passed
        through `convert` (the renderer's CMYK conversion, or None): painting operators, in
        their own `q ... Q`."""
        key = (current, convert)
        code = self._codes.get(key)
        if code is None:
            code = self._codes[key] = _svg_code(self.path, self.data, current, convert)
        return code

    def colours(self) -> list:
        """Every colour its drawing sets, as ReportLab colours before any conversion, in order
        (`currentColor` as black: it is the colour of the element that draws the icon)."""
        seen: list = []
        _svg_code(self.path, self.data, "#000000", lambda col: seen.append(col) or col)
        return seen


@dataclass(frozen=True, eq=False)
class IconSet:
    """The icons one game can name: the built-in ones and the SVG files of its `icons/` folder.
    A broken file's name is still known (the name is right; `problems` says what is wrong with
    the file), so it is reported once, as the file, and drawn as nothing."""

    svg: Mapping[str, SvgIcon]
    broken: frozenset[str] = frozenset()
    problems: tuple[BrokenIcon, ...] = ()
    #: Every name it knows.
    names: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", frozenset(ICONS).union(self.svg, self.broken))

    def __contains__(self, name: object) -> bool:
        return name in self.names

    @property
    def known(self) -> list[str]:
        """Every name, built-in ones first (for messages)."""
        return list(dict.fromkeys([*ICONS, *sorted(self.svg), *sorted(self.broken)]))


#: The built-in icons alone (a face that belongs to no game folder).
BUILT_IN = IconSet({})
#: Each game's icons, loaded once per game object (dropped with it).
_SETS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def game_icons(game: Any) -> IconSet:
    """The icons `game` can name (its `icons/` folder read and checked once)."""
    found = _SETS.get(game)
    if found is None:
        found = _SETS[game] = load_icons(Path(game.root))
    return found


def load_icons(root: Path) -> IconSet:
    """Read and check every `*.svg` of the folder `root/icons/` (other files are ignored)."""
    folder = root / FOLDER
    if not folder.is_dir():
        return BUILT_IN
    if not folder.resolve().is_relative_to(root.resolve()):  # not even its file names are read
        return IconSet({}, problems=(BrokenIcon(folder, 0, "path-outside", f"the {FOLDER}/ folder leads outside "
                                                "the game folder through a symbolic link",
                                                "copy the icons into the game folder instead of linking to them"),))
    svg: dict[str, SvgIcon] = {}
    broken: set[str] = set()
    problems: list[BrokenIcon] = []
    for entry in sorted(folder.iterdir()):
        if entry.suffix.lower() != ".svg":
            continue
        name = entry.name[:-4]
        if not NAME.fullmatch(name):
            problems.append(BrokenIcon(entry, 0, "icon", f"icon file name {entry.name!r}: an icon's "
                                       "name is lower-case letters, digits, '-' and '_', starting "
                                       "with a letter", "rename the file"))
            continue
        try:
            path = data_path(root, f"{FOLDER}/{entry.name}", "icon", "the game folder")
            icon = SvgIcon(name, path, _read(path))
            icon.code()  # every problem shows in the first drawing (the others only recolour)
        except DataPathError as exc:
            problems.append(BrokenIcon(entry, 0, exc.code, exc.message, exc.fix))
        except IconError as exc:
            problems.append(BrokenIcon(entry, exc.line, "icon", f"icon {name!r}: {exc}", exc.fix))
        else:
            svg[name] = icon
            continue
        broken.add(name)
    return IconSet(svg, frozenset(broken), tuple(problems))


def _read(path: Path) -> bytes:
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise IconError(f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_BYTES:
        raise IconError(f"the file is larger than {MAX_BYTES // 1024} KiB; an icon is far smaller",
                        fix="simplify the drawing or save it as plain (not Inkscape) SVG")
    return data


def _parse(data: bytes) -> Any:
    """The SVG's root element, parsed strictly: no DTD loaded, no entity expanded, no network,
    no processing instruction kept (an `xml-stylesheet` would name another file)."""
    from lxml import etree  # svglib's own parser

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True, remove_pis=True)
    try:
        return etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise IconError(f"is not well-formed XML: {exc.msg}", exc.lineno or 0,
                        "save it again from a vector editor") from None


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _refuse_outside(root: Any) -> None:
    """Raise `IconError` at the first element of `root` that is not a self-contained vector
    drawing, or when its `<use>` elements would repeat more than `MAX_ELEMENTS` elements."""
    if _local(root.tag) != "svg":
        raise IconError(f"is not an SVG drawing (its root element is <{_local(root.tag)}>)", root.sourceline or 0)
    ids = {}
    for el in root.iter():
        if not isinstance(el.tag, str):  # an entity reference left unexpanded
            raise IconError("uses an XML entity; icons may not", el.sourceline or 0)
        name = _local(el.tag)
        if name in _REFUSED:
            raise IconError(f"holds {_REFUSED[name]}", el.sourceline or 0, "remove it from the icon")
        for attr, value in el.attrib.items():
            if _local(attr) == "href" and not value.startswith("#"):
                raise IconError(f"<{name}> refers to {value[:80]!r}, outside the icon; an icon is one "
                                "self-contained file", el.sourceline or 0, "copy what it refers to into the file")
            if _OUTSIDE_URL.search(value):
                raise IconError(f"<{name}> {_local(attr)} refers to something outside the icon: "
                                f"{value[:80]!r}", el.sourceline or 0, "use only url(#id) references")
        if name == "style" and el.text and _OUTSIDE_URL.search(el.text):
            raise IconError("its style sheet refers to something outside the icon", el.sourceline or 0,
                            "use only url(#id) references")
        if el.get("id"):
            ids.setdefault(el.get("id"), el)
    try:
        drawn = _drawn(root, ids, {}, set())
    except RecursionError:  # <use> chains nested past Python's stack: far too many anyway
        drawn = MAX_ELEMENTS + 1
    if drawn > MAX_ELEMENTS:
        raise IconError(f"draws more than {MAX_ELEMENTS} elements (counting what <use> repeats)",
                        fix="simplify the drawing")


def _drawn(el: Any, ids: dict, memo: dict, stack: set) -> int:
    """How many elements `el` draws, each `<use>` counted as the element it repeats (a cycle
    counts as too many). Keyed by the element itself: lxml's element proxies come and go, and
    an id() could be reused."""
    key = el
    if key in memo:
        return memo[key]
    if key in stack:
        return MAX_ELEMENTS + 1
    stack.add(key)
    total = 1
    for child in el:
        total += _drawn(child, ids, memo, stack)
        if total > MAX_ELEMENTS:
            break
    if _local(el.tag) == "use":
        ref = next((v for a, v in el.attrib.items() if _local(a) == "href"), "")
        target = ids.get(ref[1:])
        if target is not None:
            total += _drawn(target, ids, memo, stack)
    stack.discard(key)
    memo[key] = total
    return total


class _Messages(logging.Handler):
    """svglib's warnings and errors while it reads one icon: each is something it cannot draw."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.said: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.said.append(record.getMessage())


@contextmanager
def _svglib_messages() -> Iterator[list[str]]:
    log = logging.getLogger("svglib")
    handler, propagate = _Messages(), log.propagate
    log.addHandler(handler)
    log.propagate = False  # kept here, not printed on the user's terminal
    try:
        yield handler.said
    finally:
        log.removeHandler(handler)
        log.propagate = propagate


def _svg_code(path: Path, data: bytes, current: str, convert: Callable[[Any], Any] | None) -> str:
    """The icon in the unit square, scaled to fit and centred, clipped to its own box."""
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas
    from svglib.svglib import SvgRenderer

    root = _parse(data)
    _refuse_outside(root)
    root.set("color", current)  # what `currentColor` means in the file
    canvas = Canvas(io.BytesIO(), enforceColorSpace=convert)  # every colour set goes through it
    start = len(canvas._code)
    with _svglib_messages() as said:
        try:
            drawing = SvgRenderer(str(path), external_reference_root=str(path.parent)).render(root)
            w, h = float(drawing.width), float(drawing.height)
            if not (math.isfinite(w) and math.isfinite(h) and 0 < w < 1e6 and 0 < h < 1e6):
                raise IconError(f"has no usable size ({w:g} x {h:g})",
                                fix="give the <svg> a viewBox, such as viewBox=\"0 0 24 24\"")
            renderPDF.draw(drawing, canvas, 0, 0)
        except IconError:
            raise
        except Exception as exc:  # noqa: BLE001 (svglib and ReportLab raise anything on odd input)
            raise IconError(f"svglib cannot draw it: {type(exc).__name__}: {exc}") from None
    if said:
        raise IconError(f"svglib cannot draw all of it: {said[0]}", fix="simplify that part of the drawing")
    ops = _FONT_STATE.sub("", " ".join(canvas._code[start:]))
    if _RESOURCES.search(ops):
        raise IconError("uses a gradient, transparency or a pattern, which an icon cannot keep",
                        fix="use flat, opaque colours")
    if re.search(r"\b(?:nan|inf)\b", ops):
        raise IconError("has coordinates that are not numbers")
    k = 1 / max(w, h)
    return (f"q {k:.6g} 0 0 {k:.6g} {(1 - w * k) / 2:.6g} {(1 - h * k) / 2:.6g} cm "
            f"0 0 {w:.6g} {h:.6g} re W n {ops} Q")
