"""What only typesetting finds in a rulebook or one-page sheet, found at `check` and kept.

A word wider than its column, a table wider than the page, a glyph the fonts lack, a sheet that
needs a second page: these come out of laying the document out, which costs about a second per
document, far more than the rest of `check`. So what a layout finds is kept in the forge cache
(part "typeset") under all that the layout is made from: the rendered Markdown and its blocks,
what is printed from the game, forge's code, its libraries and fonts (`kept.game_source`), the
kind, the language and the paper, and the template's path, which its findings name (not where
the game's own files are, or under which names: a copy of a game elsewhere is not laid out
again). `forge build` keeps what its own layouts find, and `check` lays out only
what no build or check has laid out since the last change, with card pictures drawn as
placeholders of the same size: a rulebook's text set at its column's width (one width
throughout, so its pages need not be made), a sheet laid out as it is printed (its column and
size are what fits one page).
"""
from __future__ import annotations

from pathlib import Path

from ..cache import keep, recall
from ..errors import Finding, display_path
from ..model import Game
from ..render import kept
from .context import Rendered

PART = "typeset"
#: The finding codes of the layout itself (the template's own are reported when it renders).
CODES = ("rulebook-overfull", "rulebook-block", "rulebook-glyph", "cheatsheet-overflow")
#: The paper each kind is checked on: the one `forge build` sets it on by default.
PAPER = {"rulebook": "a5", "cheatsheet": "a4", "summary": "a4"}


def _source(game: Game, kind: str, lang: str, paper: str, rendered: Rendered) -> bytes | None:
    made_of = kept.game_source(game)
    if made_of is None:
        return None
    blocks = [(key, b.kind, [c.id for c in b.cards], repr(_shown(b.scenario)), _shown(b.file), b.line)
              for key, b in sorted(rendered.blocks.items())]
    return b"\0".join([made_of, repr((PART, kind, lang, paper, rendered.template, blocks)).encode(),
                       rendered.markdown.encode("utf-8", "surrogatepass")])


def _shown(value):
    """A block's file, or its scenario's, as its findings name it: the path from the working
    directory, so that a copy of the game elsewhere under it is not laid out again."""
    if isinstance(value, dict) and "_path" in value:
        return {**value, "_path": display_path(Path(value["_path"]))}
    return display_path(Path(value)) if isinstance(value, str) and value else value


def _sound(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, tuple) and len(v) == 7 for v in value)


def remember(game: Game, kind: str, lang: str, paper: str, rendered: Rendered, findings: list[Finding]) -> None:
    """Keep what a layout of `kind` found (its layout findings only)."""
    source = _source(game, kind, lang, paper, rendered)
    if source is not None:
        keep(PART, source, [(f.file, f.line, f.col, f.code, f.message, f.fix, f.card)
                            for f in findings if f.code in CODES])


def typeset_findings(game: Game, kind: str, lang: str, rendered: Rendered) -> list[Finding]:
    """The layout findings of `kind` in `lang` on its default paper: kept ones, else laid out
    now (and kept)."""
    paper = PAPER[kind]
    source = _source(game, kind, lang, paper, rendered)
    found = recall(PART, source, _sound) if source is not None else None
    if found is not None:
        return [Finding(*f) for f in found]
    from .cheatsheet import build_cheatsheet, build_summary
    from .document import overfull_in
    if kind == "rulebook":  # one column width throughout: set its text, no need to paginate
        findings = overfull_in(game, rendered, lang, paper)
    else:  # a sheet's column and size are what fits one page: lay it out
        findings = {"cheatsheet": build_cheatsheet, "summary": build_summary}[kind](
            game, lang, pictures=False, paper=paper).findings
    remember(game, kind, lang, paper, rendered, findings)
    return [f for f in findings if f.code in CODES]
