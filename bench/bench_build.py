"""Benchmark: the A4 PnP build of every game vs. plain ReportLab drawing as many cards.

The baseline draws, for each physical card, a frame, a title (drawString) and one Paragraph, 9
cards per A4 page, with an embedded TrueType font, on an invariant canvas. Like the build, it
writes one PDF per game with the same stream settings (compressed, binary: no ASCII85); the
issue's budget is at most 3x that. For reference the benchmark also prints the same cards drawn
into a single PDF with ReportLab's defaults (ASCII85 streams): the two cost about the same.

Every figure comes from a fresh Python process, so "cold" is what one `forge build` pays: in
that process the games are loaded, the fonts registered and Babel's locale data loaded before
the clock starts (for both sides alike: that is `forge check`'s, the font package's and the
locale data's cost, not drawing; the baseline needs the locale for its texts too), then the same
cards are drawn once (cold) and again (warm, caches filled). forge is measured twice cold:
with an empty cache (the first build after installing or editing a template compiles the Jinja
layouts and parses the hyphenation patterns) and with the cache that run left on disk (every
later build; see forge/cache.py). Each figure is the best of `--repeat` processes.

    python bench/bench_build.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["love_formula", "rules_does_not_exist", "anima_shadow_of_omega"]
MM = 72 / 25.4


def baseline(cards: list[tuple[str, str]], binary: bool = True) -> bytes:
    """One PDF of `cards` (title, text): a frame, a title and a paragraph each."""
    from reportlab import rl_config
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph

    from forge.render import fonts
    rl_config.useA85 = 0 if binary else 1
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1, initialFontName=fonts.REGULAR, pageCompression=1)
    style = ParagraphStyle("p", fontName=fonts.REGULAR, fontSize=8, leading=9.5)
    w, h = 63 * MM, 88 * MM
    for i, (title, text) in enumerate(cards):
        slot = i % 9
        if i and slot == 0:
            c.showPage()
        x = (12 + (slot % 3) * 63) * MM
        y = (20 + (2 - slot // 3) * 88) * MM
        c.rect(x, y, w, h)
        c.setFont(fonts.BOLD, 10)
        c.drawCentredString(x + w / 2, y + h - 10 * MM, title)
        p = Paragraph(text, style)
        p.wrap(w - 10 * MM, h)
        p.drawOn(c, x + 5 * MM, y + h / 2)
    c.showPage()
    c.save()
    return buf.getvalue()


def child(which: str) -> None:
    """One fresh process: load, register fonts, then time a cold and a warm run."""
    sys.path.insert(0, str(ROOT))
    from forge.build import BuildOptions
    from forge.model import load_game
    from forge.render import fonts
    from forge.render.sheets import pnp_pdf
    from forge.text import effect_text
    from forge.text import plural
    games = [load_game(ROOT / "cards" / g)[0] for g in GAMES]
    fonts.register()
    plural(1, ("",), "uk")  # locale data loaded, like the fonts: the baseline's texts need it too
    if which.startswith("baseline"):
        per_game = [[(card.name["uk"], effect_text(g.manifest, card, "uk") or card.name["uk"])
                     for card in g.cards for _ in range(card.copies)] for g in games]
        cards = [card for game in per_game for card in game]
        if which == "baseline":
            run = lambda: [baseline(game) for game in per_game]  # noqa: E731
        else:
            run = lambda: baseline(cards, binary=False)  # noqa: E731
    else:
        cards = [c for g in games for c in g.cards for _ in range(c.copies)]
        run = lambda: [pnp_pdf(g, BuildOptions(lang="uk"), "a4") for g in games]  # noqa: E731
    times = []
    for _ in range(2):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    print(json.dumps({"cards": len(cards), "cold": times[0], "warm": times[1]}))


def measure(which: str, env: dict[str, str]) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", which], capture_output=True,
                         text=True, env=env, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--child")
    args = ap.parse_args()
    if args.child:
        child(args.child)
        return
    base: list[dict] = []
    single: list[dict] = []
    first: list[dict] = []
    later: list[dict] = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, FORGE_CACHE=cache)
            base.append(measure("baseline", env))
            single.append(measure("baseline-single", env))
            first.append(measure("forge", env))  # empty cache: compiles the templates
            later.append(measure("forge", env))  # the cache the previous run left
    b = min(r["cold"] for r in base)
    bw = min(r["warm"] for r in base)
    b1 = min(r["cold"] for r in single)
    f0 = min(r["cold"] for r in first)
    f1 = min(r["cold"] for r in later)
    fw = min(r["warm"] for r in later + first)
    assert base[0]["cards"] == single[0]["cards"] == first[0]["cards"]
    print(f"cards: {base[0]['cards']} (3 games), A4, best of {args.repeat} fresh processes")
    print(f"plain ReportLab (frame + title + paragraph per card), a PDF per game like the build: "
          f"{b:.3f} s cold, {bw:.3f} s warm")
    print(f"  for reference, one PDF of all cards with ReportLab's default ASCII85 streams: {b1:.3f} s")
    print(f"forge A4 PnP build, cold, empty cache (templates compiled): {f0:.3f} s  ({f0 / b:.2f}x)")
    print(f"forge A4 PnP build, cold, cache on disk (every later build): {f1:.3f} s  ({f1 / b:.2f}x)")
    print(f"forge A4 PnP build, warm (layouts fitted, drawing only): {fw:.3f} s  ({fw / bw:.2f}x warm)")
    print(f"ratio: {f1 / b:.2f}x cold ({f0 / b:.2f}x on a first build), {fw / bw:.2f}x warm (budget 3x)")


if __name__ == "__main__":
    main()
