"""Tabletop Simulator export (`forge build --what tts`): deck sheets and a saved object.

A deck is every card that wears the same back (`layout.back_key`), so one back image serves it.
Its designs go on face sheets of at most `MAX_COLS` x `MAX_ROWS` cells and `MAX_PX` pixels each
way, row by row from the top left; a deck of more designs gets more sheets. The last cell of
every sheet holds the deck's back: the "hidden card" TTS shows for a card in another player's
hand when a sheet's last cell is read that way (with `BackIsHidden` it shows the back image
itself), so a sheet holds at most 69 designs. Copies are not drawn again: they repeat the id of
their design's cell. The cells show the card as cut (trim, no bleed), all of one size, chosen so
that a full 10 x 7 sheet fits in 4096 px: 409 x 571 px for a 63 x 88 mm card.

The saved object (`tts/<game>.json`) is what TTS loads from its "Saved Objects" folder: one
`DeckCustom` per deck (a `Card` for a deck of one card) whose `CustomDeck` entries name each
sheet's `FaceURL`, the deck's `BackURL`, `NumWidth` and `NumHeight`; `DeckIDs` and each
contained card's `CardID` are sheet id x 100 + cell index, and `Nickname` is the card's name in
the build language. The printed components (tokens, counters, boards) follow the decks: each a
`Custom_Tile` of its shape with its front and back images (`<kind>-<id>-<n>-front.jpg`, one
per design), `count` of them in a `Bag` named after it.

TTS loads images from URLs. With `BuildOptions.base_url` (`--base-url`, where the images will
be uploaded) every image is named by that URL and its file name, and the saved object loads as
it is; without it, by its file name, relative to the JSON, to be replaced (docs/tts.md).
"""
from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from typing import Any, Sequence

from .. import raster
from ..products import BuildOptions, product
from . import layout
from .layout import PT
from .sheets import Faces, new_canvas
from .tokens import designs, printed_components

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # the last cell is the hidden card
JPEG_QUALITY = 90  # sheets of 4096 px: JPEG keeps them a few MB, as TTS loads them from the web
#: How decks lie on the table: side by side, face down; the components in a row before them.
SPACING = 3.0  # TTS units between decks
#: Pixels per millimetre of a component's images (300 dpi).
COMPONENT_PX = 300 / 25.4
#: `CustomTile.Type` of each component shape (TTS: 0 box, 1 hex, 2 circle, 3 rounded box).
TILE_TYPES = {"square": 0, "rect": 0, "hexagon": 1, "circle": 2}


@dataclass(frozen=True)
class Sheet:
    """One face sheet: `designs` in its first cells, the deck's back in its last."""
    id: int  # the CustomDeck key, unique in the saved object
    file: str
    designs: list[Any]
    cols: int
    rows: int

    @property
    def hidden(self) -> int:
        return self.cols * self.rows - 1


@dataclass(frozen=True)
class Deck:
    key: str  # the back key
    name: str  # file-name form of the key
    back_file: str
    sheets: list[Sheet]
    cards: list[Any]  # designs in data order


def cell_size(width: float, height: float) -> tuple[int, int]:
    """Pixels of one cell for a trim of `width` x `height` mm: the largest cell of the card's
    proportions of which `MAX_COLS` x `MAX_ROWS` fit in `MAX_PX` x `MAX_PX`."""
    cw = min(MAX_PX // MAX_COLS, int(MAX_PX // MAX_ROWS * width / height))
    return cw, min(MAX_PX // MAX_ROWS, round(cw * height / width))


def grid(cells: int) -> tuple[int, int]:
    """Columns and rows for `cells` cells: full rows of up to `MAX_COLS`, as few as hold them."""
    cols = min(MAX_COLS, cells)
    return cols, math.ceil(cells / cols)


def decks(game: Any) -> list[Deck]:
    """The game's decks in data order, their designs split into sheets, sheet ids from 1."""
    by_key: dict[str, list[Any]] = {}
    for card in game.cards:
        by_key.setdefault(layout.back_key(game, card), []).append(card)
    out, next_id = [], 1
    for key, cards in by_key.items():
        name = key.replace("/", "-")
        sheets = []
        for n, start in enumerate(range(0, len(cards), PER_SHEET), 1):
            designs = cards[start:start + PER_SHEET]
            sheets.append(Sheet(next_id, f"{name}-{n}.jpg", designs, *grid(len(designs) + 1)))
            next_id += 1
        out.append(Deck(key, name, f"{name}-back.jpg", sheets, cards))
    return out


def _pdf(game: Any, lang: str, deck: Deck, cell: tuple[int, int]) -> bytes:
    """The deck's sheets, one page each, then its back alone: 1 pt is 1 px, so every cell
    lies on whole pixels and PDFium renders each page at exactly its size."""
    size = game.manifest.card_size
    cw, ch = cell
    buf = io.BytesIO()
    c = new_canvas(buf, (cw, ch), game, f"Tabletop Simulator: {deck.key}", lang)
    faces = Faces(c, game, lang, 0.0, 0.0, deck.cards)
    back = faces.back(deck.cards[0])
    sx, sy = cw / (size.width * PT), ch / (size.height * PT)  # trim (pt) to cell (px)

    def put(form: str, index: int, cols: int, rows: int) -> None:
        row, col = divmod(index, cols)
        c.addLiteral(f"q {sx:.6f} 0 0 {sy:.6f} {col * cw} {(rows - 1 - row) * ch} cm")
        c.doForm(form)
        c.addLiteral("Q")

    for sheet in deck.sheets:
        c.setPageSize((sheet.cols * cw, sheet.rows * ch))
        for index, card in enumerate(sheet.designs):
            put(faces.front(card), index, sheet.cols, sheet.rows)
        put(back, sheet.hidden, sheet.cols, sheet.rows)
        c.showPage()
    c.setPageSize((cw, ch))
    put(back, 0, 1, 1)
    c.showPage()
    c.save()
    return buf.getvalue()


def component_images(comp: Any) -> list[tuple[str, str]]:
    """(front, back) image file names of each design of a printed component."""
    return [(f"{comp.kind}-{comp.id}-{n}-front.jpg", f"{comp.kind}-{comp.id}-{n}-back.jpg")
            for n in range(1, designs(comp) + 1)]


def _component_px(comp: Any) -> tuple[int, int]:
    return round(comp.size.width * COMPONENT_PX), round(comp.size.height * COMPONENT_PX)


def _components_pdf(game: Any, lang: str, comps: list[Any]) -> bytes:
    """Each design's front and back of `comps`, a page each at 1 pt a pixel (trim, no bleed)."""
    buf = io.BytesIO()
    c = new_canvas(buf, (1, 1), game, "Tabletop Simulator: components", lang)
    faces = Faces(c, game, lang, 0.0, 0.0, [])
    for comp in comps:
        w, h = _component_px(comp)
        for design in range(designs(comp)):
            for which in ("front", "back"):
                c.setPageSize((w, h))
                c.addLiteral(f"q {w / (comp.size.width * PT):.6f} 0 0 {h / (comp.size.height * PT):.6f} 0 0 cm")
                c.doForm(faces.token(comp, design, which, 0.0))
                c.addLiteral("Q")
                c.showPage()
    c.save()
    return buf.getvalue()


def _jpeg(image: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=JPEG_QUALITY, subsampling=0)
    return out.getvalue()


def _transform(x: float, z: float = 0.0, face_down: bool = True, scale: float = 1.0) -> dict[str, float]:
    """On the table at (`x`, `z`), face down (a card) or up (a tile)."""
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0 if face_down else 0.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _components(comps: Sequence[Any], lang: str, url: Any) -> list[dict]:
    """A `Bag` of `count` tiles per component (a lone tile for a count of 1), in a row."""
    states = []
    for n, comp in enumerate(comps):
        images = component_images(comp)
        scale = comp.size.width / 25.4  # TTS units are about an inch
        tiles = []
        for copy in range(comp.count):
            front, back = images[copy % len(images)]
            tiles.append({"Name": "Custom_Tile", "Transform": _transform(n * SPACING, -SPACING * 2, False, scale),
                          "Nickname": comp.name[lang], "Description": "",
                          "CustomImage": {"ImageURL": url(front), "ImageSecondaryURL": url(back),
                                          "ImageScalar": 1.0, "WidthScale": 0.0,
                                          "CustomTile": {"Type": TILE_TYPES[comp.shape], "Thickness": 0.2,
                                                         "Stackable": True, "Stretch": True}}})
        if len(tiles) == 1:
            states.append(tiles[0])
        else:
            states.append({"Name": "Bag", "Transform": _transform(n * SPACING, -SPACING * 2, False),
                           "Nickname": f"{comp.name[lang]} × {comp.count}", "Description": "",
                           "ContainedObjects": tiles})
    return states


def saved_object(game: Any, lang: str, all_decks: list[Deck], comps: Sequence[Any] = (),
                 base_url: str = "") -> dict:
    """The TTS saved object: one deck object per deck, then the components (see the module's
    docstring); every image named by `base_url` and its file name, or by the name alone."""
    base = base_url.rstrip("/") + "/" if base_url else ""

    def url(name: str) -> str:
        return base + name

    states = []
    for n, deck in enumerate(all_decks):
        custom = {str(s.id): {"FaceURL": url(s.file), "BackURL": url(deck.back_file), "NumWidth": s.cols,
                              "NumHeight": s.rows, "BackIsHidden": True, "UniqueBack": False,
                              "Type": 0}
                  for s in deck.sheets}
        cards = []
        for sheet in deck.sheets:
            for index, card in enumerate(sheet.designs):
                cid = sheet.id * 100 + index
                for _ in range(card.copies):
                    cards.append({"Name": "Card", "Transform": _transform(n * SPACING),
                                  "Nickname": card.name[lang], "Description": "", "CardID": cid,
                                  "SidewaysCard": False,
                                  "CustomDeck": {str(sheet.id): custom[str(sheet.id)]}})
        if len(cards) == 1:
            states.append(cards[0])
            continue
        title = game.manifest.title[lang]
        spec = game.manifest.backs.get(deck.key)
        label = spec.label[lang] if spec is not None and spec.label is not None else None
        states.append({"Name": "DeckCustom", "Transform": _transform(n * SPACING),
                       "Nickname": f"{title}: {label}" if label else title, "Description": "",
                       "SidewaysCard": False, "DeckIDs": [card["CardID"] for card in cards],
                       "CustomDeck": custom, "ContainedObjects": cards})
    states += _components(comps, lang, url)
    return {"SaveName": game.manifest.title[lang], "GameMode": "", "Date": "", "Table": "",
            "Sky": "", "Note": "", "Rules": "", "PlayerTurn": "", "LuaScript": "",
            "ObjectStates": states}


@product("tts", steps=lambda game, opts: sum(len(d.sheets) + 1 for d in decks(game)) + len(printed_components(game)))
def tts(game: Any, opts: BuildOptions) -> dict[str, bytes]:
    """`tts/<game>.json` (a TTS saved object), `tts/<deck>-<n>.jpg` face sheets and
    `tts/<deck>-back.jpg` per deck, each printed component's images; a step of progress per
    image, and per component."""
    size = game.manifest.card_size
    cell = cell_size(size.width, size.height)
    all_decks = decks(game)
    files: dict[str, bytes] = {}
    for deck in all_decks:
        pdf = _pdf(game, opts.lang, deck, cell)
        pages = [(s.file, (s.cols * cell[0], s.rows * cell[1])) for s in deck.sheets]
        pages.append((deck.back_file, cell))
        for index, (name, px) in enumerate(pages):
            (image,) = raster.images(pdf, px, pages=[index])
            files[f"tts/{name}"] = _jpeg(image)
            opts.advance()
    comps = printed_components(game)
    if comps:
        pdf = _components_pdf(game, opts.lang, comps)
        index = 0
        for comp in comps:
            names = [name for pair in component_images(comp) for name in pair]
            for name, image in zip(names, raster.images(pdf, _component_px(comp), pages=list(range(index, index + len(names))))):
                files[f"tts/{name}"] = _jpeg(image)
            index += len(names)
            opts.advance()
    text = json.dumps(saved_object(game, opts.lang, all_decks, comps, opts.base_url), ensure_ascii=False, indent=2)
    files[f"tts/{game.id}.json"] = text.encode("utf-8")
    return files
