"""`forge preview`: one card face as a PNG, fast enough to run on every save."""
from __future__ import annotations

import difflib
import io
from pathlib import Path
from typing import Any, Optional

import typer

from ..errors import FindingsError, UsageError, display_path
from ..files import write_atomic
from .app import (Format, FormatOption, Output, QuietOption, VerboseOption, app, check_output,
                  complete_games, resolve_games)


def card_png(game: Any, card: Any, lang: str, side: str = "front", compress: int = 1) -> bytes:
    """A card side as PNG bytes: trim plus bleed at 300 dpi, the same pixel size as the png
    product (825 x 1125 px for a poker card, The Game Crafter's size)."""
    from .. import raster
    from ..render import draw_card
    from ..render.layout import PT
    from ..render.presets import bleed_page, png_size
    from ..render.sheets import new_canvas

    size = game.manifest.card_size
    px, py = png_size(size.width, size.height)
    pw, ph, bx, by = bleed_page(size.width, size.height, (px, py))
    buf = io.BytesIO()
    c = new_canvas(buf, (pw * PT, ph * PT), game, f"preview {card.id}", lang)
    draw_card(c, game, card, lang, bx * PT, by * PT, side, bleed=max(bx, by))
    c.showPage()
    c.save()
    return next(raster.png_pages(buf.getvalue(), (px, py), compress=compress))


def _language(game: Any, lang: str | None) -> str:
    locales = game.manifest.locales
    chosen = lang or ("uk" if "uk" in locales else game.manifest.default_locale)
    if chosen not in locales:
        raise UsageError(f"{game.id} has no locale {chosen!r} (it has {', '.join(locales)})")
    return chosen


@app.command()
def preview(
    game_name: str = typer.Argument(..., metavar="GAME", help="Game id or folder.",
                                    autocompletion=complete_games),
    card_id: str = typer.Argument(..., metavar="CARD_ID", help="The card's id."),
    lang: Optional[str] = typer.Option(None, "--lang", help="Language; default: uk, or the game's first locale."),
    out: Optional[Path] = typer.Option(None, "--out", help="PNG file to write; default: "
                                       "output/<game>/<lang>/preview/<card>.png."),
    back: bool = typer.Option(False, "--back", help="Draw the card's back instead of its front."),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Draw one card as a PNG (300 dpi with bleed) and print its path on stdout (with --format
    json, as `forge build` lists files). Only the card data is loaded, not checked: problems of
    other cards are printed as warnings, and a card with problems of its own is refused (exit 1)."""
    from ..model import load_game

    show = Output(format, quiet, verbose)
    if out is not None:
        check_output(out, "--out", folder=False)
    (root,) = resolve_games([game_name])
    game, findings = load_game(root)
    if game is None:
        raise FindingsError(findings)
    card = game.by_id.get(card_id)
    if card is None:
        own = [f for f in findings if f.card == card_id]
        if own or card_id in game.declared_ids:
            raise FindingsError(own or findings)
        near = difflib.get_close_matches(card_id, list(game.by_id), n=3)
        hint = f" (did you mean {', '.join(near)}?)" if near else ""
        raise UsageError(f"{game.id} has no card {card_id!r}{hint}")
    for finding in findings:
        show.summary(f"warning: {finding}")
    language = _language(game, lang)
    side = "back" if back else "front"
    png = card_png(game, card, language, side)
    if out is None:
        out = Path("output") / game.id / language / "preview" / f"{card.id}{'-back' if back else ''}.png"
    write_atomic(out, png)
    if show.json:
        show.data([{"product": "preview", "game": game.id, "lang": language,
                    "path": display_path(out), "bytes": len(png)}])
    else:
        typer.echo(display_path(out))
