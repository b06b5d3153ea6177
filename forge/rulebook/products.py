"""The `rulebook`, `rulebook-booklet`, `cheatsheet` and `summary` products of `forge build`.

Each writes its PDF into `output/<game>/<lang>/`. Any finding stops the product (nothing
half-right is printed): a template that references a missing card or scenario or does not
render (these `forge check` reports too), and the layout's own findings, which only typesetting
can find: a word wider than its column, a glyph the fonts lack, a cheat sheet needing a second
page.
"""
from __future__ import annotations

import weakref

from reportlab.lib.pagesizes import A3, A4, ELEVENSEVENTEEN, LETTER, landscape

from ..products import BuildOptions, product
from ..errors import FindingsError
from ..model import Game
from .booklet import impose_booklet
from .cheatsheet import build_cheatsheet, build_summary
from .context import has_template
from .document import Built, build_rulebook
from .typeset import remember

_CACHE: "weakref.WeakKeyDictionary[Game, dict]" = weakref.WeakKeyDictionary()


def _paper(options: BuildOptions) -> str:
    return options.booklet_paper if options.booklet_paper in ("a4", "a5") else "a5"


def sheet_paper(options: BuildOptions) -> str:
    """The paper the booklet and the cheat sheet are printed on: the first of `--paper`."""
    return options.paper[0] if options.paper else "a4"


#: Booklet sheets (points, landscape) by (sheet paper, rulebook page size).
BOOKLET_SHEETS = {("a4", "a5"): landscape(A4), ("a4", "a4"): landscape(A3),
                  ("letter", "a5"): landscape(LETTER), ("letter", "a4"): landscape(ELEVENSEVENTEEN)}


def rulebook_for(game: Game, lang: str, paper: str) -> Built:
    """The rulebook, built once per loaded game, language and paper (booklet reuses it)."""
    cache = _CACHE.setdefault(game, {})
    if (lang, paper) not in cache:
        cache[(lang, paper)] = _kept(game, "rulebook", lang, paper, build_rulebook(game, lang, paper))
    return cache[(lang, paper)]


def _kept(game: Game, kind: str, lang: str, paper: str, built: Built) -> Built:
    """`built`, its layout's findings kept for `forge check` (`typeset`)."""
    if built.rendered is not None and not built.rendered.findings:
        remember(game, kind, lang, paper, built.rendered, built.findings)
    return built


def _require(built: Built) -> bytes:
    if built.findings or not built.pdf:
        raise FindingsError(built.findings)
    return built.pdf


@product("rulebook")
def rulebook(game: Game, options: BuildOptions) -> dict[str, bytes]:
    return {"rulebook.pdf": _require(rulebook_for(game, options.lang, _paper(options)))}


@product("rulebook-booklet")
def rulebook_booklet(game: Game, options: BuildOptions) -> dict[str, bytes]:
    pdf = _require(rulebook_for(game, options.lang, _paper(options)))
    sheet = BOOKLET_SHEETS[(sheet_paper(options), _paper(options))]
    return {"rulebook-booklet.pdf": impose_booklet(pdf, sheet)}


@product("cheatsheet")
def cheatsheet(game: Game, options: BuildOptions) -> dict[str, bytes]:
    paper = sheet_paper(options)
    return {"cheatsheet.pdf": _require(_kept(game, "cheatsheet", options.lang, paper,
                                             build_cheatsheet(game, options.lang, paper=paper)))}


@product("summary")
def summary(game: Game, options: BuildOptions) -> dict[str, bytes]:
    """The one-page ultra-short rules, for a game that has `summary.<lang>.md.j2` (others: none)."""
    if not has_template(game, "summary"):
        return {}
    paper = sheet_paper(options)
    return {"summary.pdf": _require(_kept(game, "summary", options.lang, paper,
                                          build_summary(game, options.lang, paper=paper)))}
