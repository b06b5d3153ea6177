"""What a program does with a game, in two calls: `build` writes its products,
`render_card` draws one card.

They do what `forge build` and `forge preview` do, without the commands' messages, progress
bars and exit codes (`card_png` is the preview's own drawing); a script, a notebook or another
tool calls them directly:

    import forge
    files = forge.build("cards/mygame", what=["pnp", "tts"], lang="en", base_url="https://...")
    png = forge.render_card("mygame", "spell_1", lang="en")   # PNG bytes, 825 x 1125 px

A game is named as on the command line: a game folder (`cards/<game>`), or the id of a game in
the current project's `cards/` or a built-in one. Bad input raises `forge.ForgeError`'s kinds:
`FindingsError` (its `findings`) for a game that does not check, `UsageError` for a name or
an option forge does not know.
"""
from __future__ import annotations

import difflib
import io
import os
from pathlib import Path
from typing import Any, Iterable, Literal

from .errors import FindingsError, UsageError


def _folder(game: str | os.PathLike) -> Path:
    from .model.game import find_game, is_game, known_games

    path = Path(game)
    found = path if is_game(path) else find_game(str(game))
    if found is None:
        raise UsageError(f"{str(game)!r} is neither a game folder nor the id of a game here or built in "
                         f"(known: {', '.join(known_games()) or 'none'})")
    return found


def build(game: str | os.PathLike, what: Iterable[str] | None = None, out: str | os.PathLike = "output",
          **options: Any) -> list[Path]:
    """Check `game`, then write the products `what` (default: those `forge build` makes with no
    `--what`) into `out/<game>/<lang>/`; the paths written. `options` are `BuildOptions`'
    fields (`lang`, `paper`, `preset`, `base_url`, `proof` ...); the language defaults to the
    game's first. A game with findings raises `FindingsError` and writes nothing."""
    from dataclasses import fields

    from .products import DEFAULT_PRODUCTS, BuildOptions, build_game
    from .check import check_game

    known = {f.name for f in fields(BuildOptions)} - {"progress"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise UsageError(f"build() has no option {', '.join(map(repr, unknown))} (it takes {', '.join(sorted(known))})")
    loaded, findings = check_game(_folder(game), typeset=False)  # building lays them out
    if findings or loaded is None:
        raise FindingsError(findings)
    options.setdefault("lang", loaded.manifest.locales[0])
    return build_game(loaded, list(what) if what is not None else list(DEFAULT_PRODUCTS),
                      BuildOptions(**options), Path(out))


def render_card(game: Any, card_id: str, lang: str | None = None,
                side: Literal["front", "back"] = "front") -> bytes:
    """One side of a card as PNG bytes, trim plus bleed at 300 dpi (825 x 1125 px for a poker
    card), as `forge preview` draws it. `game` is a game folder, an id, or a `Game` already
    loaded (`forge.load_game`); the language defaults to the game's first. The game is loaded
    without checking the whole of it: a card that cannot load raises `FindingsError`."""
    from .model import Game, load_game

    if isinstance(game, Game):
        loaded, findings = game, []
    else:
        loaded, findings = load_game(_folder(game))
        if loaded is None:
            raise FindingsError(findings)
    card = loaded.by_id.get(card_id)
    if card is None:
        own = [f for f in findings if f.card == card_id]
        if own:
            raise FindingsError(own)
        near = difflib.get_close_matches(card_id, list(loaded.by_id), n=3)
        raise UsageError(f"{loaded.id} has no card {card_id!r}" + (f" (did you mean {', '.join(near)}?)" if near else ""))
    lang = lang or loaded.manifest.locales[0]
    if lang not in loaded.manifest.locales:
        raise UsageError(f"{loaded.id} has no locale {lang!r} (it has {', '.join(loaded.manifest.locales)})")
    if side not in ("front", "back"):
        raise UsageError(f"side {side!r}: front or back")
    return card_png(loaded, card, lang, side)


def card_png(game: Any, card: Any, lang: str, side: str = "front", compress: int = 1) -> bytes:
    """A card side as PNG bytes: trim plus bleed at 300 dpi, the same pixel size as the png
    product (825 x 1125 px for a poker card, The Game Crafter's size)."""
    from . import raster
    from .render import draw_card
    from .render.layout import PT
    from .render.presets import bleed_page, png_size
    from .render.sheets import new_canvas

    size = game.manifest.card_size
    px, py = png_size(size.width, size.height)
    pw, ph, bx, by = bleed_page(size.width, size.height, (px, py))
    buf = io.BytesIO()
    c = new_canvas(buf, (pw * PT, ph * PT), game, f"preview {card.id}", lang)
    draw_card(c, game, card, lang, bx * PT, by * PT, side, bleed=max(bx, by))
    c.showPage()
    c.save()
    return next(raster.png_pages(buf.getvalue(), (px, py), compress=compress))
