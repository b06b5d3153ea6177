"""Total ink of what a print-shop file prints, against a vendor's limit (`Preset.ink_limit`).

Ink is total area coverage: C + M + Y + K of what prints, 100 % a full plate. Forge's CMYK
files keep every colour under 300 % (full grey-component replacement, see `draw.cmyk_of`); a
vendor such as DriveThruCards asks for at most 240 %, which a dark saturated colour or picture
can pass. How each thing is measured:

- a layout colour (fills, lines, text, icons, a component's colours): the CMYK it prints with,
  in the role it has on the face (a fill of 10 mm and more is an area: near-black areas print
  as the rich black, 240 %);
- a game's SVG icon that a face draws (an `icon` element, an art placeholder's icon, an inline
  `:icon:` of a text, label or table cell): every colour its drawing sets (fills and strokes),
  converted as the print-shop file converts it (`draw._cmyk_colour`); its `currentColor` is the
  drawing element's colour, measured as that;
- art, which is RGB: converted by the formula the print-shop file converts it by
  (`draw._cmyk_lut`), then averaged over squares of 1/`ART_GRID` of its longer side (about a
  millimetre of a card's art box); its ink is the darkest square's. A single pixel is never
  printed alone, and a limit is about areas of ink on the sheet.
"""
from __future__ import annotations

from typing import Any, Iterator

from PIL import Image

from ..art import open_art
from . import inline, layout, tokens
from .draw import _cmyk_colour, _cmyk_lut, _role, art_path, cmyk_of
from .icons import game_icons

#: Squares along an art picture's longer side that its ink is averaged over.
ART_GRID = 64
#: Element parameters that hold a colour, and the role each prints in ("fill": by the size).
_COLOURS = {"fill": "fill", "stroke": "ink", "color": "ink", "ink": "ink", "rule": "ink", "stripe": "area"}


def _colours(el: dict) -> Iterator[tuple[str, str]]:
    """(colour, role) of every colour an element prints with."""
    for key, role in _COLOURS.items():
        value = el.get(key)
        if isinstance(value, str) and value != "none":
            yield value, (_role(el) if role == "fill" else role)
    for item in el.get("paras") or ():
        if isinstance(item, dict) and isinstance(item.get("color"), str):
            yield item["color"], "ink"
    for row in el.get("rows") or ():
        for cell in row:
            if isinstance(cell, dict) and isinstance(cell.get("color"), str):
                yield cell["color"], "ink"


def _icon_names(el: dict) -> Iterator[str]:
    """The icons an element draws: its own, its placeholder's, and those inline in its text."""
    for key in ("name", "icon") if el["kind"] in ("icon", "art") else ():
        if isinstance(el.get(key), str):
            yield el[key]
    runs = [el.get("_runs") or ()]
    runs += [cell.get("_runs") or () for row in el.get("rows") or () for cell in row if isinstance(cell, dict)]
    runs += [frags for para in el.get("_paras") or () for _, frags in para.lines]
    for face, _ in (run for each in runs for run in each):
        if inline.is_icon(face):
            yield face[len(inline.ICON):]


def svg_ink(svg: Any) -> tuple[str, float]:
    """The colour of a game's SVG icon that prints with the most ink (`#rrggbb`), and that ink."""
    best = ("#000000", 0.0)
    for col in svg.colours():
        cmyk = _cmyk_colour(col)
        ink = cmyk.cyan + cmyk.magenta + cmyk.yellow + cmyk.black
        if ink > best[1]:
            best = ("#" + col.hexval()[2:], ink)
    return best


def art_ink(path: Any) -> float:
    """The ink of an art picture (1.0 = 100 %), measured as the module says."""
    image = open_art(path).convert("RGB")
    w, h = image.size
    scale = ART_GRID / max(w, h)
    small = image.resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.Resampling.BOX)
    cmyk = small.filter(_cmyk_lut())
    data = cmyk.tobytes()  # C, M, Y, K bytes a pixel
    return max(sum(data[i:i + 4]) for i in range(0, len(data), 4)) / 255


def over_limit(game: Any, lang: str, limit: float) -> list[str]:
    """What the game's print-shop files print with more than `limit` ink, a line each: the first
    card (back, component) that uses each such colour or picture, and how many more do."""
    seen: dict[tuple, tuple[float, dict[str, None]]] = {}  # what -> (ink, the places, in order)

    def note(key: tuple, ink: float, where: str) -> None:
        if ink > limit + 1e-9:
            seen.setdefault(key, (ink, {}))[1].setdefault(where)

    layout.lay_out(game, game.cards, lang)
    faces = [(f"card {card.id!r}", layout.front(game, card, lang), art_path(game, card)) for card in game.cards]
    faces += [(f"back {layout.back_key(game, card)!r}", layout.back(game, card, lang), None)
              for card in {layout.back_key(game, c): c for c in game.cards}.values()]
    icons = game_icons(game)
    for comp in tokens.printed_components(game):
        for design in range(tokens.designs(comp)):
            for which in ("front", "back"):
                faces.append((f"{comp.kind} {comp.id!r}", tokens.face(comp, design, which, lang, icons), None))
    svg_inks: dict[str, tuple[str, float]] = {}  # each icon measured once
    for where, face, art in faces:
        for el in face.elements:
            for value, role in _colours(el):
                c, m, y, k = cmyk_of(value, role)
                note(("colour", value, role), c + m + y + k, where)
            for name in _icon_names(el):
                svg = icons.svg.get(name)
                if svg is not None:
                    colour, ink = svg_inks.get(name) or svg_inks.setdefault(name, svg_ink(svg))
                    note(("icon", name, colour), ink, where)
        if art is not None and art.is_file():
            try:
                ink = art_ink(art)
            except Exception:  # noqa: BLE001 (`forge check` reports art that cannot be read)
                continue
            note(("art", str(art)), ink, where)
    lines = []
    for key, (ink, places) in seen.items():
        if key[0] == "colour":
            what = f"colour {key[1]}" + (" (as an area)" if key[2] == "area" else "")
        else:
            what = f"icon {key[1]}.svg's colour {key[2]}" if key[0] == "icon" else f"art {key[1]}"
        first, *rest = places
        more = f" (and {len(rest)} more)" if rest else ""
        lines.append(f"{first}{more}: {what} prints with {ink * 100:.0f} % ink, above {limit * 100:.0f} %")
    return lines
