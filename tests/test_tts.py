"""Tabletop Simulator export (forge.render.tts): the saved object read back, and every card's
cell on its sheet compared with the card drawn on its own.

Every design goes into its cell by the same drawing, so a few designs of each deck of a game
show it as well as the hundreds of the whole game: two of each (a sheet of one row, its back in
the last cell), and in Love Formula eleven (a sheet of two rows). How a deck of more designs
splits into sheets is the saved object's (the fake game's)."""
from __future__ import annotations

import io
import json
import math
import operator
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image, ImageChops

from conftest import GAMES, forge_in_process, sampled
from forge import raster
from forge.model import load_game
from forge.products import BuildOptions, build_game
from forge.render.sheets import png_faces, png_pdf
from forge.render.tokens import printed_components
from forge.render.tts import cell_size, decks, saved_object
from forge.scaffold import scaffold

#: Mean difference (0-255, per channel) under which a quarter-size cell shows the card: the
#: cell is JPEG and drawn scaled into its grid, the card on its own page; other designs of
#: the same deck differ by more (the closest pair, a card and its promo reprint that differ
#: only in the set's name, by 0.7 or more).
SAME = 2.0


#: Each bin of an RGB histogram's value: the bins are 256 levels of red, green, then blue.
_LEVELS = [level % 256 for level in range(3 * 256)]


def _diff(a: Image.Image, b: Image.Image) -> float:
    """The mean of the three channels' mean differences (ImageStat's `mean`, summed from the
    histogram at once: the nearest front of each cell is looked for among every design)."""
    return _summed(ImageChops.difference(a, b)) / (3 * a.width * a.height)


def _summed(image: Image.Image) -> int:
    """The sum of every channel's value over every pixel."""
    return sum(map(operator.mul, image.histogram(), _LEVELS))


def _sums(image: Image.Image) -> tuple[int, int, int]:
    """Each channel's sum over every pixel."""
    counts = image.histogram()
    return tuple(sum(map(operator.mul, counts[c * 256:(c + 1) * 256], range(256))) for c in range(3))


def _nearest(shown: Image.Image, fronts: dict[str, Image.Image], sums: dict[str, tuple[int, int, int]]) -> str:
    """The design whose front `_diff`ers least from `shown` (of equals, the first in `fronts`,
    as `min` gives it). How far two images' channel sums lie apart bounds their summed
    difference from below, so fronts are compared in the order of that bound, and only while
    the bound does not exceed the least difference found."""
    own = _sums(shown)
    bound = {card_id: sum(abs(a - b) for a, b in zip(own, sums[card_id])) for card_id in fronts}
    order = {card_id: n for n, card_id in enumerate(fronts)}
    best: tuple[int, int] | None = None
    for card_id in sorted(fronts, key=bound.__getitem__):
        if best is not None and bound[card_id] > best[0]:
            break
        best = min(best or (math.inf, 0), (_summed(ImageChops.difference(shown, fronts[card_id])), order[card_id]))
    return list(fronts)[best[1]]


def _small(image: Image.Image, cell: tuple[int, int]) -> Image.Image:
    return image.convert("RGB").resize((cell[0] // 4, cell[1] // 4), Image.Resampling.BOX)


def _own_faces(game, lang: str, cell: tuple[int, int]) -> tuple[dict, dict]:
    """Each design's front and each deck's back drawn alone at the cell's size (trim only),
    through the png product's pages: {card id: image}, {deck: image}."""
    size = game.manifest.card_size
    names = list(png_faces(game, per_deck=True))
    pdf = png_pdf(game, lang, cell, names, dpi=cell[0] * 25.4 / size.width)
    fronts, backs = {}, {}
    for (name, side, card), image in zip(names, raster.images(pdf, cell)):
        if side == "front":
            fronts[card.id] = _small(image, cell)
        else:
            backs[name.split("/")[0]] = _small(image, cell)
    return fronts, backs


@pytest.mark.parametrize("game_id", GAMES)
def test_every_card_is_in_its_cell_and_the_json_matches_the_sheets(products, tmp_path, game_id):
    game = sampled(products.game(game_id), 11 if game_id == "love_formula" else 2)
    folder = tmp_path / game_id / "en"
    files = {str(p.relative_to(folder)): p.read_bytes()
             for p in build_game(game, ["tts"], BuildOptions(lang="en"), tmp_path)}
    saved = json.loads(files[f"tts/{game_id}.json"].decode("utf-8"))
    size = game.manifest.card_size
    cell = cell_size(size.width, size.height)
    assert cell == (409, 571) and 10 * cell[0] <= 4096 and 7 * cell[1] <= 4096
    fronts, backs = _own_faces(game, "en", cell)
    sums = {card_id: _sums(front) for card_id, front in fronts.items()}
    by_id = {card.id: card for card in game.cards}
    matched: list[str] = []
    sheet_ids: list[str] = []
    card_states = saved["ObjectStates"][:len(decks(game))]
    for deck in card_states:
        assert deck["Name"] == "DeckCustom"
        assert deck["DeckIDs"] == [card["CardID"] for card in deck["ContainedObjects"]]
        sheets = {}
        for key, spec in deck["CustomDeck"].items():
            sheet_ids.append(key)
            assert 1 <= spec["NumWidth"] <= 10 and 1 <= spec["NumHeight"] <= 7
            assert spec["BackIsHidden"] is True and spec["UniqueBack"] is False
            sheet = Image.open(io.BytesIO(files[f"tts/{spec['FaceURL']}"]))
            back = Image.open(io.BytesIO(files[f"tts/{spec['BackURL']}"]))
            assert sheet.size == (spec["NumWidth"] * cell[0], spec["NumHeight"] * cell[1])
            assert max(sheet.size) <= 4096 and back.size == cell
            sheets[int(key)] = (spec, sheet.convert("RGB"))
            # the last cell is the hidden card: the deck's back, as its own image shows it
            hidden = spec["NumWidth"] * spec["NumHeight"] - 1
            deck_name = spec["BackURL"].removesuffix("-back.jpg")
            assert _diff(_small(_cell(sheet, hidden, spec["NumWidth"], cell), cell), backs[deck_name]) < SAME
            assert _diff(_small(back, cell), backs[deck_name]) < SAME
        copies = Counter(deck["DeckIDs"])
        for cid in dict.fromkeys(deck["DeckIDs"]):
            spec, sheet = sheets[cid // 100]
            index = cid % 100
            assert index < spec["NumWidth"] * spec["NumHeight"] - 1, "a design never takes the hidden cell"
            shown = _small(_cell(sheet, index, spec["NumWidth"], cell), cell)
            nearest = _nearest(shown, fronts, sums)
            assert _diff(shown, fronts[nearest]) < SAME
            card = by_id[nearest]
            contained = [c for c in deck["ContainedObjects"] if c["CardID"] == cid]
            assert {c["Nickname"] for c in contained} == {card.name["en"]}
            assert all(c["CustomDeck"] == {str(cid // 100): spec} for c in contained)
            assert copies[cid] == card.copies, "each copy repeats its design's id"
            matched.append(nearest)
    assert sorted(matched) == sorted(card.id for card in game.cards), "every design exactly once"
    assert len(sheet_ids) == len(set(sheet_ids))
    assert sum(len(d["DeckIDs"]) for d in card_states) == sum(c.copies for c in game.cards)
    # then every printed component: a tile per copy, its images written beside the JSON
    tiles = [t for state in saved["ObjectStates"][len(card_states):] for t in state.get("ContainedObjects", [state])]
    assert len(tiles) == sum(comp.count for comp in printed_components(game))
    assert all(f"tts/{t['CustomImage'][key]}" in files for t in tiles for key in ("ImageURL", "ImageSecondaryURL"))


def _cell(sheet: Image.Image, index: int, cols: int, cell: tuple[int, int]) -> Image.Image:
    row, col = divmod(index, cols)
    return sheet.crop((col * cell[0], row * cell[1], (col + 1) * cell[0], (row + 1) * cell[1]))


def _fake_game(cards: list[tuple[str, str, int]]):
    """A game of (id, type, copies) cards, every type its own back, for the saved object alone."""
    made = [SimpleNamespace(id=i, type=t, subtype=None, set="base", copies=n, name={"en": i.title()})
            for i, t, n in cards]
    backs = {c.type: SimpleNamespace(label=None) for c in made}
    manifest = SimpleNamespace(title={"en": "Fake"}, backs=backs)
    return SimpleNamespace(manifest=manifest, cards=made)


def test_big_decks_split_into_sheets_of_69_and_a_lone_card_is_a_card():
    game = _fake_game([(f"c{i}", "big", 1 + i % 2) for i in range(150)]
                      + [("solo", "lone", 1), ("triple", "three", 3)])
    all_decks = decks(game)
    big = all_decks[0]
    assert [len(s.designs) for s in big.sheets] == [69, 69, 12]
    assert [(s.cols, s.rows) for s in big.sheets] == [(10, 7), (10, 7), (10, 2)]
    assert [s.id for d in all_decks for s in d.sheets] == [1, 2, 3, 4, 5]
    states = saved_object(game, "en", all_decks)["ObjectStates"]
    assert [s["Name"] for s in states] == ["DeckCustom", "Card", "DeckCustom"]
    ids = states[0]["DeckIDs"]
    assert ids[:3] == [100, 101, 101] and ids[-2:] == [311, 311] and max(i % 100 for i in ids) == 68
    assert set(states[0]["CustomDeck"]) == {"1", "2", "3"}
    assert states[1]["CardID"] == 400 and states[1]["Nickname"] == "Solo"
    assert states[1]["CustomDeck"]["4"]["NumWidth"] * states[1]["CustomDeck"]["4"]["NumHeight"] == 2
    assert states[2]["DeckIDs"] == [500, 500, 500]


def _strings(value) -> list[tuple[str, str]]:
    """(key, string) of every string value inside a JSON document."""
    if isinstance(value, dict):
        return [pair for k, v in value.items() for pair in ([(k, v)] if isinstance(v, str) else _strings(v))]
    if isinstance(value, list):
        return [pair for v in value for pair in _strings(v)]
    return []


def _tiny_with_tokens(project: Path):
    """A new game (`forge new`) whose 20 tokens are printed: round tiles of 16 mm."""
    scaffold(project, "tiny", ["uk", "en"], ["action", "character"])
    manifest = project / "cards" / "tiny" / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    token = "count: 20}"
    assert token in text
    manifest.write_text(text.replace(token, 'count: 20, kind: token, shape: circle, size: {width: 16, height: 16}, '
                                            'front: {color: "#3b2a80", accent: "#e5dbff", icon: star}}'), encoding="utf-8")
    game, findings = load_game(manifest.parent)
    assert game is not None and not findings, findings
    return game


def test_build_what_tts_writes_the_saved_object_and_its_images(tmp_path):
    game = _tiny_with_tokens(tmp_path)
    base = "https://example.org/tiny/"
    result = forge_in_process("build", "tiny", "--what", "tts", "--lang", "uk",
                              "--base-url", base, "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "out" / "tiny" / "uk" / "tts"
    saved = json.loads((folder / "tiny.json").read_text(encoding="utf-8"))
    *card_decks, tokens = saved["ObjectStates"]
    names = {c["Nickname"] for d in card_decks for c in d["ContainedObjects"]}
    assert names == {card.name["uk"] for card in game.cards}, "names in the build language"
    # the tokens follow the decks: a bag of 20 round tiles, front and back
    (comp,) = printed_components(game)
    assert tokens["Name"] == "Bag" and len(tokens["ContainedObjects"]) == comp.count == 20
    tile = tokens["ContainedObjects"][0]
    assert tile["Name"] == "Custom_Tile" and tile["CustomImage"]["CustomTile"]["Type"] == 2
    # only URLs, each the base and an image written beside the JSON, and every image is used
    urls = {v for k, v in _strings(saved) if k.endswith("URL")}
    assert urls and all(u.startswith(base) for u in urls)
    assert {u.removeprefix(base) for u in urls} == {p.name for p in folder.glob("*.jpg")}
    bad = forge_in_process("build", "tiny", "--what", "tts", "--base-url", "example.org",
                           "--out", str(tmp_path / "no"), cwd=tmp_path)
    assert bad.returncode == 2 and "--base-url 'example.org'" in bad.stderr
    unused = forge_in_process("build", "tiny", "--what", "pnp", "--base-url", base,
                              "--out", str(tmp_path / "no"), cwd=tmp_path)
    assert unused.returncode == 2 and "it needs --what tts" in unused.stderr
