"""How long text fitting (`forge.render.layout.fit_text`) takes, for real card text and for
text no card should have: fitting must stay linear in the text's length (issue 10: one
40,000-character word took 36 s when every line re-measured the rest of the word).

Prints the best of `--repeat` runs for:
- every text box of every card face of the built-in games (what check and build fit);
- one flavour text holding a single 40,000-character word, and a 1,000,000-character one
  (Latin, and Ukrainian, which is hyphenated);
- 1,000,000 characters of short words.

    python bench/bench_fit.py [--repeat 3]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from bench_check import best  # (bench/ is the script's folder, first on sys.path)

ROOT = Path(__file__).resolve().parents[1]




def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    repeat = ap.parse_args().repeat
    from forge.model import load_game
    from forge.render import fonts
    from forge.render.layout import fit_text, layout_elements
    fonts.register()
    boxes = []
    for root in sorted(p.parent for p in (ROOT / "cards").glob("*/game.yaml")):
        game = load_game(root)[0]
        for lang in game.manifest.locales:
            boxes += [(el, lang) for card in game.cards
                      for el in layout_elements(game, card, lang) if el["kind"] == "text"]
    t = best(lambda: [fit_text(el, lang) for el, lang in boxes], repeat)
    print(f"{len(boxes)} text boxes of the built-in cards:   {t * 1000:8.1f} ms")

    def flavour(text: str, lang: str) -> float:
        el = {"w": 51, "h": 31, "size": 8, "min": 6,
              "paras": [{"text": "Draw 3 cards."}, {"text": text, "font": "italic", "scale": 0.85}]}
        return best(lambda: fit_text(el, lang), repeat)

    for n in (40_000, 1_000_000):
        for lang, word in (("en", "x" * n), ("uk", "слово" * (n // 5))):
            print(f"one word of {n:>9,} letters ({lang}):      {flavour(word, lang) * 1000:8.1f} ms")
    print(f"1,000,000 characters of short words:  {flavour('ab ' * 333_333, 'en') * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
