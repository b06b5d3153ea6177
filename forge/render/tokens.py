"""Printed components (the manifest's tokens, counters and boards): their sides as faces.

A component's side is data, not a layout template: a colour to the bleed, a centred icon in the
accent colour and an optional label under it (`ComponentSide` in `forge.model.manifest`). Both
sides are drawn without any inset ring or frame, so a back printed 2 mm off its front still looks
centred once the token is cut. Sizes are millimetres of the trim (the bounding box of a round or
hexagonal token); `outline` gives the cut line of the shape for PnP sheets.
"""
from __future__ import annotations

import math
from typing import Any, Iterator

from ..errors import ForgeError
from . import fonts
from .fonts import unit_width
from .icons import BUILT_IN, IconSet
from .layout import PT, Face

#: Largest and smallest label size (pt); a label that does not fit at the smallest stops the build.
LABEL_SIZE, LABEL_MIN = 9.0, 5.0


def printed_components(game: Any) -> list[Any]:
    """The manifest's components that are printed, in set order then listing order."""
    return [comp for spec in game.manifest.sets.values() for comp in spec.components if comp.printed]


def side_of(comp: Any, copy: int, which: str) -> Any:
    """The side (`front` or `back`) copy number `copy` wears: the side (a missing back is the
    front), with the copy's variant applied."""
    side = comp.front if which == "front" or comp.back is None else comp.back
    if comp.variants:
        variant = comp.variants[copy % len(comp.variants)]
        changes = {k: v for k, v in variant.model_dump().items() if v is not None}
        if changes:
            side = side.model_copy(update={k: getattr(variant, k) for k in changes})
    return side


def designs(comp: Any) -> int:
    """How many different copies the component has (one per variant, at least one)."""
    return max(1, len(comp.variants))


def copies(comp: Any) -> Iterator[int]:
    """The design index of every physical copy, in order."""
    n = designs(comp)
    for i in range(comp.count):
        yield i % n


def face(comp: Any, design: int, which: str, lang: str, icons: IconSet = BUILT_IN) -> Face:
    """The side as a drawable `Face` of the component's trim size (mm, y down); its icon is one
    of `icons` (the game's, `icons.game_icons`)."""
    side = side_of(comp, design, which)
    if side.icon and side.icon not in icons:
        raise ForgeError(f"component {comp.id!r}: unknown icon {side.icon!r} (known: {', '.join(icons.known)})")
    w, h = comp.size.width, comp.size.height
    inner = min(w, h) * (0.78 if comp.shape in ("circle", "hexagon") else 0.86)  # room inside the shape
    els: list[dict] = [{"kind": "rect", "x": 0, "y": 0, "w": w, "h": h, "fill": side.color, "bleed": True}]
    label = side.label[lang] if side.label is not None else ""
    icon_size = inner * (0.62 if not label else 0.5)
    cx, cy = w / 2, h / 2
    if label:
        cy -= inner * 0.1
    if side.icon:
        els.append({"kind": "icon", "name": side.icon, "x": cx - icon_size / 2, "y": cy - icon_size / 2,
                    "size": icon_size, "fill": side.accent})
    if label:
        face_name = fonts.BOLD
        width = inner * 0.9
        size = LABEL_SIZE
        natural = unit_width(label, face_name) * size
        if natural > width * PT:
            size = size * width * PT / natural
            if size < LABEL_MIN:
                raise ForgeError(f"component {comp.id!r}: the label «{label}» ({lang}) is wider than "
                                 f"the {comp.shape} even at {LABEL_MIN:g} pt; shorten it")
        cap = size * 0.72 / PT  # the label's capital height, mm
        base = (cy + icon_size / 2 + 0.8 + cap) if side.icon else h / 2 + cap / 2
        els.append({"kind": "label", "x": (w - width) / 2, "y": base, "w": width, "text": label,
                    "align": "center", "color": side.accent, "_size": size, "_face": face_name})
    return Face(w, h, els, icons=icons)


def outline(comp: Any, x: float, y: float) -> str:
    """The cut line of the component's shape, trim's lower-left corner at (x, y) mm, as PDF
    path operators in points (not stroked)."""
    w, h = comp.size.width * PT, comp.size.height * PT
    X, Y = x * PT, y * PT
    if comp.shape == "circle":
        r, k = w / 2, 0.5522847498 * w / 2
        cx, cy = X + r, Y + r
        return (f"{cx + r:.2f} {cy:.2f} m {cx + r:.2f} {cy + k:.2f} {cx + k:.2f} {cy + r:.2f} {cx:.2f} {cy + r:.2f} c "
                f"{cx - k:.2f} {cy + r:.2f} {cx - r:.2f} {cy + k:.2f} {cx - r:.2f} {cy:.2f} c "
                f"{cx - r:.2f} {cy - k:.2f} {cx - k:.2f} {cy - r:.2f} {cx:.2f} {cy - r:.2f} c "
                f"{cx + k:.2f} {cy - r:.2f} {cx + r:.2f} {cy - k:.2f} {cx + r:.2f} {cy:.2f} c h")
    if comp.shape == "hexagon":  # corners on the circle of the trim's width, flat top and bottom
        r = w / 2
        cx, cy = X + r, Y + h / 2
        pts = [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in range(0, 360, 60)]
        return (f"{pts[0][0]:.2f} {pts[0][1]:.2f} m "
                + " ".join(f"{px:.2f} {py:.2f} l" for px, py in pts[1:]) + " h")
    return f"{X:.2f} {Y:.2f} {w:.2f} {h:.2f} re"


#: A component's shape and count in the subject line, per language.
_DESCRIBED = {
    "uk": ({"circle": "коло", "square": "квадрат", "rect": "прямокутник", "hexagon": "шестикутник"},
           "{w:g} × {h:g} мм, {n} шт."),
    "en": ({}, "{w:g} x {h:g} mm, {n} pcs"),
}


def describe(comp: Any, lang: str) -> str:
    """«heart token: circle 16 x 16 mm, 12 pcs» for a PDF's subject line (print shops read it),
    in the file's language."""
    shapes, size = _DESCRIBED.get(lang, _DESCRIBED["en"])
    return (f"{comp.name[lang]}: {shapes.get(comp.shape, comp.shape)} "
            + size.format(w=comp.size.width, h=comp.size.height, n=comp.count))
