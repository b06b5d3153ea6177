"""ReportLab's soft-hyphen line breaking, held to the rule of `forge.text.hyphenation`.

ReportLab breaks a word at a soft hyphen whenever it does not fit, however full the line
already is. Inside `held()` (which `forge.rulebook.markdown.Para` uses while it breaks its
lines) a word that does not fit is left whole for the next line when the line it would leave
is filled to at least `MIN_FILL` of its width; a shorter line, or a word that starts a line,
is hyphenated as before. Outside `held()` ReportLab behaves as it always does.

The hook wraps the two places where ReportLab 5 splits at soft hyphens (`_SHYStr.__shysplit__`
for one-font paragraphs, `_SHYWord.shyphenate` for mixed runs). A hook that finds neither
leaves ReportLab alone: text is then hyphenated where it does not fit, as before.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from reportlab.platypus import paragraph as _rl

from .hyphenation import MIN_FILL

#: How many `held()` blocks are open (line breaking is not re-entrant across threads here:
#: documents are built one at a time in a process).
_DEPTH = 0


def _installed() -> bool:
    shy_str = getattr(_rl, "_SHYStr", None)
    shy_word = getattr(_rl, "_SHYWord", None)
    if shy_str is None or shy_word is None or not hasattr(shy_str, "__shysplit__") \
            or not hasattr(shy_word, "shyphenate"):
        return False
    if getattr(shy_str.__shysplit__, "_forge", False):
        return True
    split_str, split_word = shy_str.__shysplit__, shy_word.shyphenate
    hyphen_width = _rl.stringWidth

    def shysplit(self, fontName, fontSize, baseWidth, limWidth, encoding="utf8"):
        # baseWidth = the line so far + a space + a hyphen (ReportLab's own arithmetic)
        if _DEPTH:
            used = baseWidth - hyphen_width("- ", fontName, fontSize)
            if used >= MIN_FILL * limWidth:
                split_str(self, fontName, fontSize, baseWidth, -1.0, encoding)  # sets _fsww
                return None
        return split_str(self, fontName, fontSize, baseWidth, limWidth, encoding)

    def shyphenate(self, newWidth, maxWidth):
        # newWidth = the line so far + a space + this word
        if _DEPTH and self and newWidth - self[0] >= MIN_FILL * maxWidth:
            split_word(self, newWidth, -1.0)  # sets _fsww
            return []
        return split_word(self, newWidth, maxWidth)

    shysplit._forge = shyphenate._forge = True
    shy_str.__shysplit__ = shysplit
    shy_word.shyphenate = shyphenate
    return True


INSTALLED = _installed()


@contextmanager
def held() -> Iterator[None]:
    """Break lines with the fill rule (see the module doc)."""
    global _DEPTH
    _DEPTH += 1
    try:
        yield
    finally:
        _DEPTH -= 1


__all__ = ["INSTALLED", "held"]
