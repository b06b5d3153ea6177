"""Preflight: what printing would get wrong, found before anything is printed.

Every card face is laid out exactly as `forge build` lays it out (`forge.render`), in every
locale of the game, and two things are reported with the card's id:

- `missing-glyph`: a character the embedded fonts cannot draw (it would print as an empty box);
- `text-overflow`: a text that does not fit its layout box even at the box's minimum font size
  (or a word wider than its box);
- `text-over-art`: a text whose ink lies over an `art` box or past the card's edge
  (`forge.render.overlap`);
- `unknown-icon`: a `:name:` in a text that names none of the game's icons (`forge.render.inline`),
  at the card's string that says it when the card's data does;
- `unclosed-emphasis`: a `*` or `**` that opens or closes no emphasis (it would print as an asterisk).

Card backs are checked the same way and reported at the manifest's `backs` entry. A face whose
layout fails is reported through `forge.check.layouts.layout_findings`: every bad element at the
template line that made it.
"""
from __future__ import annotations

from typing import Iterator

from ..errors import Finding, ForgeError
from ..model import Game
from ..render import LayoutError, back, front
from ..render.fonts import BOLD, missing_glyphs
from ..render.icons import game_icons
from ..render.layout import back_key, lay_out
from ..render.tokens import designs, face as component_face, side_of
from .layouts import layout_findings


def _names(chars: list[str]) -> str:
    return ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in chars)


def check_glyphs_and_fit(game: Game) -> Iterator[Finding]:
    """Findings for glyphs the fonts lack and texts that overflow their box, per card."""
    manifest = game.manifest
    backs_seen: set[tuple[str, str]] = set()
    for lang in manifest.locales:
        try:
            lay_out(game, game.cards, lang)  # all faces stage by stage; the loop reads them back
        except LayoutError:
            pass  # reported below with the card whose layout fails
    for card in game.cards:
        for lang in manifest.locales:
            try:
                face = front(game, card, lang)
            except LayoutError as exc:
                yield from layout_findings(exc, card.finding((), "layout", f"the card's layout fails ({lang}): {exc}",
                                                             "fix the layout template under templates/"))
                continue
            yield from _face_findings(card.finding, face, lang)
            key = back_key(game, card)
            if (key, lang) not in backs_seen:
                backs_seen.add((key, lang))
                try:
                    face = back(game, card, lang)
                except LayoutError as exc:
                    yield from layout_findings(exc, game.manifest_finding(("backs", key), "layout",
                                                                          f"the back fails ({lang}): {exc}"))
                    continue
                yield from _face_findings(
                    lambda loc, code, msg, fix="": game.manifest_finding(("backs", key) + loc[:0], code, msg, fix),
                    face, lang, what=f"back {key!r}")


def _face_findings(make, face, lang: str, what: str = "") -> Iterator[Finding]:
    prefix = f"{what}: " if what else ""
    reported: set[tuple] = set()
    for loc, font, text in face.texts:
        missing = missing_glyphs(text, font)
        if missing and (loc, tuple(missing)) not in reported:
            reported.add((loc, tuple(missing)))
            yield make(loc, "missing-glyph", f"{prefix}the fonts have no glyph for {_names(missing)} "
                       f"({lang}); it would print as an empty box",
                       "use another character, or a font that has it")
    for problem in face.problems:
        yield make(problem.loc, problem.code, prefix + problem.message, _FIXES.get(problem.code, ""))


_FIXES = {"text-overflow": "shorten the text",
          "text-over-art": "move the text or shrink the art in the layout template",
          "unknown-icon": "name one of the game's icons, or write \\: to print the colons as they are",
          "unclosed-emphasis": "close it (**bold**, *italic*), or write \\* to print an asterisk"}


def check_components(game: Game) -> Iterator[Finding]:
    """The printed components (tokens, counters, boards) draw as the build will draw them: an
    unknown icon, a label wider than its shape even at the smallest size, or a character the
    font lacks is a finding at the component's side in the manifest, before any build."""
    seen: set[str] = set()
    icons = game_icons(game)
    for set_id, spec in game.manifest.sets.items():
        for i, comp in enumerate(spec.components):
            if not comp.printed:
                continue
            for which in ("front", "back") if comp.back is not None else ("front",):
                at = ("sets", set_id, "components", i, which)
                for lang in game.manifest.locales:
                    for design in range(designs(comp)):
                        try:
                            component_face(comp, design, which, lang, icons)
                        except ForgeError as exc:
                            problem = str(exc)
                            code = "component"
                        else:
                            side = side_of(comp, design, which)
                            label = side.label[lang] if side.label is not None else ""
                            missing = missing_glyphs(label, BOLD) if label else []
                            if not missing:
                                continue
                            problem = (f"component {comp.id!r}: the fonts have no glyph for "
                                       f"{_names(missing)} in «{label}» ({lang})")
                            code = "missing-glyph"
                        if problem not in seen:
                            seen.add(problem)
                            yield game.manifest_finding(at, code, problem)
