"""Card designs: a 6 pt floor for every text on a face, and a visual identity per game."""
from __future__ import annotations

import io
import itertools
import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from forge.model import load_game
from forge.render import draw_card, fonts
from forge.render.layout import MIN_SIZE, PT, Face, _fit, fit_text

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("love_formula", "rules_does_not_exist", "anima_shadow_of_omega")
LONG = "Візьміть три карти з колоди і покладіть одну з них під низ колоди. " * 12


def _faces_pdf(game, cards, lang: str, cols: int = 4) -> bytes:
    """The fronts of `cards` at their real size, edge to edge on one page: nothing on it but
    card faces."""
    fonts.register()
    w, h = game.manifest.card_size.width * PT, game.manifest.card_size.height * PT
    rows = -(-len(cards) // cols)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(cols * w, rows * h), invariant=1, initialFontName=fonts.REGULAR)
    for i, card in enumerate(cards):
        draw_card(c, game, card, lang, (i % cols) * w, (rows - 1 - i // cols) * h)
    c.showPage()
    c.save()
    return buf.getvalue()


def _text_sizes(pdf: bytes) -> list[float]:
    """The size of every `Tf` in every content stream of the PDF, form XObjects included;
    asserts that no text matrix scales (so a `Tf` size is the printed size)."""
    reader = PdfReader(io.BytesIO(pdf))
    sizes: list[float] = []
    for num in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(num)
        except Exception:  # noqa: BLE001 (free or missing object numbers)
            continue
        if obj is None or not hasattr(obj, "get_data"):
            continue
        if obj.get("/Subtype") not in (None, "/Form") or "/Length1" in obj:
            continue  # images, embedded font programs
        data = obj.get_data().decode("latin-1")
        for a, b, cc, d in re.findall(r"(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) -?[\d.]+ -?[\d.]+ Tm", data):
            assert (float(a), float(b), float(cc), float(d)) == (1, 0, 0, 1), "a scaled text matrix"
        sizes += [float(s) for s in re.findall(r"/\S+ (-?[\d.]+) Tf", data)]
    return sizes


# --------------------------------------------------------------------------------------------
# The 6 pt floor


def test_the_fitter_stops_at_6_pt_and_reports_an_overflow():
    el = {"kind": "text", "x": 0, "y": 0, "w": 30, "h": 10, "text": LONG, "size": 9, "min": 4}
    paras, size, fits = fit_text(el, "uk")
    assert size == MIN_SIZE == 6 and not fits
    assert all(p.size >= 6 for p in paras)
    # a paragraph scaled below the floor prints at the floor
    el = {"kind": "text", "x": 0, "y": 0, "w": 50, "h": 40, "size": 7,
          "paras": [{"text": "Правило."}, {"text": "Дрібний шрифт.", "scale": 0.5}]}
    paras, size, fits = fit_text(el, "uk")
    assert fits and [p.size for p in paras] == [7, 6]


def test_a_face_reports_what_does_not_fit_at_6_pt():
    game, _ = load_game(ROOT / "cards" / "love_formula")
    raw = [{"kind": "text", "x": 5, "y": 5, "w": 30, "h": 10, "text": LONG, "size": 8, "min": 5, "field": "name"},
           {"kind": "label", "x": 5, "y": 30, "w": 10, "text": "Дуже довга назва карти", "size": 8, "min": 3},
           {"kind": "label", "x": 5, "y": 40, "text": "1 ПО", "size": 4}]
    face = _fit(game, game.cards[0], "uk", raw)
    assert [p.code for p in face.problems] == ["text-overflow", "text-overflow"]
    assert "6 pt" in face.problems[0].message and "6.0 pt" in face.problems[1].message
    assert [e["_size"] for e in face.elements] == [6, 6, 6]


@pytest.mark.parametrize("game_id", GAMES)
def test_no_text_on_any_face_is_below_6_pt(game_id):
    game, _ = load_game(ROOT / "cards" / game_id)
    for lang in game.manifest.locales:
        sizes = _text_sizes(_faces_pdf(game, list(game.cards), lang))
        assert sizes and min(sizes) >= 6.0, (lang, sorted(set(sizes))[:5])


# --------------------------------------------------------------------------------------------
# Identity: the three games are told apart at a glance


def _mean_colour(game_id: str) -> tuple[float, float, float]:
    """The average colour of eight of the game's faces (every few cards, so each type shows),
    rendered at 40 dpi: the colour a face reads as from across the table."""
    pdfium = pytest.importorskip("pypdfium2")
    game, _ = load_game(ROOT / "cards" / game_id)
    cards = list(game.cards[::max(1, len(game.cards) // 8)])[:8]
    image = pdfium.PdfDocument(_faces_pdf(game, cards, "uk"))[0].render(scale=40 / 72).to_pil().convert("RGB")
    pixels = image.width * image.height
    histogram = image.histogram()
    return tuple(sum(i * n for i, n in enumerate(histogram[k * 256:(k + 1) * 256])) / pixels
                 for k in range(3))


def test_the_three_games_faces_differ_clearly_in_colour():
    colours = {g: _mean_colour(g) for g in GAMES}
    for a, b in itertools.combinations(GAMES, 2):
        distance = sum((x - y) ** 2 for x, y in zip(colours[a], colours[b])) ** 0.5
        assert distance > 60, (a, b, colours[a], colours[b])
    lf, rave, anima = (colours[g] for g in GAMES)
    assert sum(rave) / 3 < 90  # the rave game is a night-time card
    assert lf[0] > lf[2] + 10 and lf[0] > lf[1] + 10  # Love Formula reads pink
    assert anima[0] > anima[1] > anima[2] + 10  # Anima reads as parchment: warm, yellow-brown


def test_each_games_colours_live_in_its_templates():
    """The palettes are data of the games' templates, not Python: no hex colour in the layout
    of a card type outside its game's palette module (and the shared fallbacks)."""
    palettes = {"love_formula": "_lf.j2", "rules_does_not_exist": "_rave.j2",
                "anima_shadow_of_omega": "_anima.j2"}
    for game_id, palette in palettes.items():
        folder = ROOT / "templates" / game_id / "cards"
        assert re.search(r"#[0-9a-fA-F]{6}", (folder / palette).read_text(encoding="utf-8"))
        for path in folder.glob("*.j2"):
            if path.name != palette:
                assert not re.findall(r"#[0-9a-fA-F]{6}", path.read_text(encoding="utf-8")), path


def test_faces_are_the_same_bytes_every_time():
    game, _ = load_game(ROOT / "cards" / "rules_does_not_exist")
    first = _faces_pdf(game, list(game.cards[:6]), "uk")
    game, _ = load_game(ROOT / "cards" / "rules_does_not_exist")
    assert _faces_pdf(game, list(game.cards[:6]), "uk") == first
