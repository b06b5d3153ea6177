"""Benchmark: `forge build` of the A4 print-and-play sheets of every game vs. plain ReportLab.

Both sides are fresh processes of the same interpreter, timed by their CPU time (user + sys,
from `getrusage`), start-up and imports included: what a designer waits for.

- forge: `forge build --what pnp --paper a4 GAME...` of the three built-in games, which loads
  and checks every game (every face laid out in every language, the rulebook templates
  rendered), then draws one PDF per game. Measured with the forge cache (compiled layouts,
  parsed fonts and hyphenation patterns, every game's fitted card faces) as every build but
  the first finds it (an edited game has its faces laid out again); the first build after
  installing, with an empty cache, is printed for reference. Python's bytecode is written for both (`PYTHONDONTWRITEBYTECODE` is dropped for
  the children), as every run but the very first finds it.
- plain ReportLab: a script that imports only ReportLab, registers the TrueType faces forge's
  PDFs embed (parsing them, as ReportLab does), and draws the same physical cards into one PDF
  per game with as many pages as forge's, with the same stream settings (compressed, binary).
  Each card front is a rounded frame, a coloured band, a title (bold), a type line (medium), a
  cost in a circle (black), a rule and the card's effect text as a Paragraph (regular, italic
  for flavour); each back a filled rounded rect, a ring and the game's title; each page a
  footer; the pages after the cards (forge's tokens) a grid of labelled circles. Its texts come
  from a JSON file the benchmark writes before timing.

Each figure is the best of `--repeat` runs; the ratio is forge's over the baseline's.

    python bench/bench_build.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["love_formula", "rules_does_not_exist", "anima_shadow_of_omega"]

BASELINE = r'''
import json, sys
from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph
import font_roboto

spec = json.load(open(sys.argv[1], encoding="utf-8"))
rl_config.useA85 = 0
folder = font_roboto.__file__.rsplit("/", 1)[0] + "/files/"
for face in spec["faces"]:
    pdfmetrics.registerFont(TTFont(face, folder + face + ".ttf"))
pdfmetrics.registerFontFamily("Roboto-Regular", normal="Roboto-Regular", bold="Roboto-Bold",
                              italic="Roboto-Italic", boldItalic="Roboto-Italic")
MM = 72 / 25.4
W, H = 63 * MM, 88 * MM
style = ParagraphStyle("text", fontName="Roboto-Regular", fontSize=7.5, leading=9)
band, ink, paper = HexColor("#7a2e4f"), HexColor("#222222"), HexColor("#fbf5ee")


def slot(i):
    return (12 + (i % 3) * 63) * MM, (20 + (2 - i // 3) * 88) * MM


def front(c, x, y, card):
    c.setFillColor(paper)
    c.setStrokeColor(ink)
    c.roundRect(x, y, W, H, 3 * MM, stroke=1, fill=1)
    c.setFillColor(band)
    c.rect(x + 3 * MM, y + H - 14 * MM, W - 6 * MM, 10 * MM, stroke=0, fill=1)
    c.setFillColor(HexColor("#ffffff"))
    c.setFont("Roboto-Bold", 10)
    c.drawCentredString(x + W / 2, y + H - 10.5 * MM, card["title"])
    c.setFillColor(ink)
    c.setFont("Roboto-Medium", 7)
    c.drawString(x + 5 * MM, y + H - 19 * MM, card["kind"])
    c.circle(x + W - 8 * MM, y + H - 18 * MM, 3.5 * MM, stroke=1, fill=0)
    c.setFont("Roboto-Black", 9)
    c.drawCentredString(x + W - 8 * MM, y + H - 19.2 * MM, card["cost"])
    c.line(x + 5 * MM, y + H - 23 * MM, x + W - 5 * MM, y + H - 23 * MM)
    p = Paragraph(card["text"], style)
    _, h = p.wrap(W - 10 * MM, H / 2)
    p.drawOn(c, x + 5 * MM, y + H - 26 * MM - h)


def back(c, x, y, title):
    c.setFillColor(band)
    c.roundRect(x, y, W, H, 3 * MM, stroke=0, fill=1)
    c.setStrokeColor(HexColor("#ffffff"))
    c.circle(x + W / 2, y + H / 2, 20 * MM, stroke=1, fill=0)
    c.setFillColor(HexColor("#ffffff"))
    c.setFont("Roboto-Black", 12)
    c.drawCentredString(x + W / 2, y + H / 2 - 2 * MM, title)


def footer(c, text):
    c.setFillColor(ink)
    c.setFont("Roboto-Regular", 7)
    c.drawString(12 * MM, 10 * MM, text)


for game in spec["games"]:
    c = Canvas(game["out"], pagesize=A4, pageCompression=1)
    cards, pages, title = game["cards"], game["pages"], game["title"]
    page = 0
    for s in range(0, len(cards), 9):
        for i, card in enumerate(cards[s:s + 9]):
            front(c, *slot(i), card)
        page += 1
        footer(c, f"{title} {page}/{pages}")
        c.showPage()
        for i in range(len(cards[s:s + 9])):
            back(c, *slot(i), title)
        page += 1
        footer(c, f"{title} {page}/{pages}")
        c.showPage()
    while page < pages:
        for i in range(30):
            x, y = (15 + (i % 5) * 38) * MM, (30 + (i // 5) * 40) * MM
            c.circle(x + 15 * MM, y + 15 * MM, 15 * MM, stroke=1, fill=0)
            c.setFont("Roboto-Bold", 9)
            c.drawCentredString(x + 15 * MM, y + 14 * MM, title[:12])
        page += 1
        footer(c, f"{title} {page}/{pages}")
        c.showPage()
    c.save()
'''


def cpu(args: list[str], env: dict[str, str], cwd: Path = ROOT) -> float:
    """CPU seconds (user + sys) of one fresh process running `args`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def forge_build(out: Path, env: dict[str, str]) -> float:
    return cpu([sys.executable, "-m", "forge", "build", "--what", "pnp", "--paper", "a4", "-q",
                "--out", str(out), *GAMES], env)


def baseline_spec(out: Path, work: Path) -> dict:
    """What the baseline draws: each game's physical cards (title, type, cost, text), the page
    count and the TrueType faces of the PDF forge made."""
    from pypdf import PdfReader

    sys.path.insert(0, str(ROOT))
    from forge.model import load_game
    from forge.text import effect_text

    games = []
    faces: set[str] = set()
    for name in GAMES:
        game = load_game(ROOT / "cards" / name)[0]
        pdf = PdfReader(out / name / "uk" / "pnp-a4.pdf")
        for page in pdf.pages:
            for form in page["/Resources"]["/XObject"].values():
                fonts = form.get_object().get("/Resources", {}).get("/Font", {})
                faces.update(f.get_object()["/BaseFont"].split("+")[-1] for f in fonts.values())
        cards = []
        for card in game.cards:
            text = escape(effect_text(game.manifest, card, "uk") or "")
            if card.flavor is not None:
                text += f"<br/><i>{escape(card.flavor['uk'])}</i>"
            cost = next((str(v) for v in card.game_fields.values() if isinstance(v, int)), "")
            cards += [{"title": card.name["uk"], "kind": card.type, "cost": cost, "text": text}] * card.copies
        games.append({"title": game.manifest.title["uk"], "cards": cards, "pages": len(pdf.pages),
                      "out": str(work / f"{name}.pdf")})
    return {"faces": sorted(faces), "games": games}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    repeat = ap.parse_args().repeat
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        work = Path(tmp)
        env = dict(os.environ, PYTHONPATH=str(ROOT), FORGE_CACHE=str(work / "cache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        first = forge_build(work / "out", env)  # an empty cache: the one first build
        spec = baseline_spec(work / "out", work)
        (work / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
        (work / "baseline.py").write_text(BASELINE, encoding="utf-8")
        base, forge = [], []
        for _ in range(repeat):  # alternated, so both sides see the same machine
            base.append(cpu([sys.executable, str(work / "baseline.py"), str(work / "spec.json")], env))
            forge.append(forge_build(work / "out", env))
    b, f = min(base), min(forge)
    cards = sum(len(g["cards"]) for g in spec["games"])
    pages = sum(g["pages"] for g in spec["games"])
    print(f"{cards} cards, {pages} A4 pages, 3 PDFs; fresh processes, CPU seconds (user + sys), best of {repeat}")
    print(f"plain ReportLab ({len(spec['faces'])} TrueType faces: {', '.join(spec['faces'])}): {b:.3f} s")
    print(f"forge build --what pnp --paper a4 (load, check, draw; cache on disk): {f:.3f} s")
    print(f"  first build, empty cache (faces laid out, layouts compiled, fonts parsed): {first:.3f} s "
          f"({first / b:.2f}x)")
    print(f"ratio: {f / b:.2f}x (budget 2x)")


if __name__ == "__main__":
    main()
