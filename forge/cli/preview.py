"""`forge preview`: one card face as a PNG, fast enough to run on every save."""
from __future__ import annotations

import difflib
import os
import time
from pathlib import Path
from typing import Any, Callable, Optional

import typer

from ..errors import FindingsError, UsageError, display_path
from ..files import write_atomic
from .app import (USAGE, Format, FormatOption, Output, QuietOption, VerboseOption, app,
                  check_output, complete_games, resolve_games, split_names)


def png_path(out: str, card_id: str, back: bool, lang: str = "") -> Path:
    """The PNG --out names: `out` itself, or `<card>[-back].png` in it where it is a folder (it
    exists as one, or ends in a slash as a folder's name does: `cp x dir/` means the same).
    `lang`: one of several languages drawn, each named in the file (`<card>[-back].<lang>.png`),
    which only a folder can hold."""
    path = Path(out)
    if out.endswith(("/", os.sep)) or path.is_dir():
        return path / f"{card_id}{'-back' if back else ''}{'.' + lang if lang else ''}.png"
    if lang:
        raise UsageError(f"--out {display_path(path)} names one file: for several languages give "
                         "a folder (a path ending in /), which gets <card>.<lang>.png of each")
    return path


def _languages(game: Any, asked: list[str] | None) -> list[str]:
    locales = game.manifest.locales
    chosen = asked or ["uk" if "uk" in locales else game.manifest.default_locale]
    for each in chosen:
        if each not in locales:
            raise UsageError(f"{game.id} has no locale {each!r} (it has {', '.join(locales)})")
    return chosen


@app.command()
def preview(
    game_name: str = typer.Argument(..., metavar="GAME", help="Game id or folder.",
                                    autocompletion=complete_games),
    card_id: str = typer.Argument(..., metavar="CARD_ID", help="The card's id."),
    lang: Optional[str] = typer.Option(None, "--lang", help="Languages, comma-separated (uk,en: a PNG "
                                       "of each); default: uk, or the game's first locale."),
    out: Optional[str] = typer.Option(None, "--out", metavar="PATH",
                                      help="PNG file to write, or a folder to write <card>.png "
                                      "into: one that exists, or any path ending in / (made if "
                                      "missing); default: output/<game>/<lang>/preview/<card>.png."),
    back: bool = typer.Option(False, "--back", help="Draw the card's back instead of its front."),
    watch: bool = typer.Option(False, "--watch", help="Keep running: draw the card again each "
                               "time the game's card data, art or layouts are saved (Ctrl-C stops)."),
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Draw one card as a PNG (300 dpi with bleed) and print its path on stdout (with --format
    json, as `forge build` lists files). Only the card data is loaded, not checked: problems of
    other cards are printed as warnings, and a card with problems of its own (its art among them)
    is refused (exit 1). With several languages, a PNG of each (in one --out folder, named
    <card>.<lang>.png).
    With --watch, each save draws it again, a path (or a JSON line) per drawing; a refused
    drawing keeps the last good PNG."""
    show = Output(format, quiet, verbose, stream=watch)
    asked = split_names(lang, "--lang") if lang is not None else None
    several = asked is not None and len(asked) > 1

    def target(language: str) -> Path | None:
        """Where --out puts the PNG of `language`; None: the default path."""
        return None if out is None else png_path(out, card_id, back, language if several else "")

    own = target((asked or [""])[0])  # one of several languages: the others go beside it
    if own is not None:
        check_output(own, "--out", folder=False)
    (root,) = resolve_games([game_name])

    def draw() -> None:
        _draw(root, card_id, asked, target, back, show)

    if watch:
        try:
            _watch(root, draw, own.parent if several and own is not None else own, show)
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
    else:
        draw()


def _draw(root: Path, card_id: str, asked: list[str] | None, target: Callable[[str], Path | None],
          back: bool, show: Output) -> None:
    """Load the game at `root`, draw the card in each language, write the PNGs (`target`: the
    --out path of a language, None for the default) and say where."""
    from ..api import card_png
    from ..art import art_finding
    from ..model import load_game

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
        unread = [f for f in findings if not f.card]
        if unread:  # it may be in a file that did not load: that file's problems come first
            show.error(f"forge: {game.id} has no card {card_id!r} in the files that loaded{hint}")
            raise FindingsError(unread)
        raise UsageError(f"{game.id} has no card {card_id!r}{hint}")
    for finding in findings:
        show.summary(f"warning: {finding}")
    languages = _languages(game, asked)
    side = "back" if back else "front"
    art = art_finding(game, card) if side == "front" else None
    if art is not None:  # decoded as `check` decodes it, not drawn as a placeholder without a word
        raise FindingsError([art])
    drawn = []
    for language in languages:
        png = card_png(game, card, language, side)
        path = target(language) or png_path(str(Path("output") / game.id / language / "preview") + os.sep,
                                            card.id, back)
        write_atomic(path, png)
        drawn.append({"product": "preview", "game": game.id, "lang": language,
                      "path": display_path(path), "bytes": len(png)})
    if show.json:
        show.data(drawn)
    else:
        for each in drawn:
            typer.echo(each["path"])


def _watch(root: Path, draw: Callable[[], None], out: Path | None, show: Output) -> None:
    """Draw, then draw again after each batch of saves to the game's sources, each time in a
    fresh fork of this process (`warm.forked`), with the libraries, forge and the fonts loaded
    once, up front: a drawing costs the game's loading and the card's drawing, not Python's
    start-up. What the game's files hold is read by each drawing anew, never kept here."""
    from ..files import writing
    from . import warm
    from .watch import Watched, file_list, products_for, saves, stamp

    warm.preload()
    game = Watched.of(root)
    own = out.resolve() if out is not None else None

    def feeds(path: Path) -> bool:  # a save to draw again for, not the PNG this command writes
        return (not (own is not None and writing(path, own))
                and bool(products_for(game, path, ["preview"], None)))

    def again(first: bool = False) -> None:
        started = time.perf_counter()
        code = warm.forked(draw)
        seconds = time.perf_counter() - started
        if code == 0:
            show.summary(stamp(f"drawn in {seconds:.2f} s"))
        elif code == USAGE and first:  # no such card, or language: a save will not make one
            raise UsageError("nothing to draw (see above)")
        elif code != 130:
            show.error(stamp(f"not drawn (exit {code}); the last good PNG stays"))

    show.summary(stamp("watching " + ", ".join(display_path(f) for f in game.folders())
                       + " (Ctrl-C to stop)"))
    for changed in saves(game.folders(), debounce=200):
        if not changed:  # the watcher is listening: the first drawing
            again(first=True)
        elif why := [p for p in changed if feeds(p)]:
            show.summary(stamp(f"{file_list(why)} changed"))
            again()
