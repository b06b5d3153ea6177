"""Card markup in rulebooks and cheat sheets: a printed value's `**bold**`, `*italic*` and
`:icon:` print in the book as on the card (the rules of `forge.render.inline`, applied by it).

A value passes three stages as text (Jinja, Markdown, typography and hyphenation), so its
emphasis and icons travel as private-use characters (plane 16, which no font draws and none of
those stages takes for a letter or for markup): `marked` writes a value's runs with them, its
text Markdown-escaped, so everything else prints as itself; after XML escaping, `tags` turns
the emphasis marks into `<b>` and `<i>`, and `icon_frags` cuts each icon mark out of its
paragraph's fragments as an inline box (`ADVANCE` em wide) that ReportLab lays out like an
image and `IconCanvas` draws: the icon's vector path in the text's colour, `SIDE` em square,
`DROP` em below the baseline, as on a card.
"""
from __future__ import annotations

import re
from typing import Callable, Container

from reportlab.lib.abag import ABag
from reportlab.pdfgen.canvas import Canvas

from ..render import fonts, inline
from ..render.draw import icon_ops, is_cmyk
from ..render.icons import IconSet

BOLD_ON, BOLD_OFF, ITALIC_ON, ITALIC_OFF = "\U00100000", "\U00100001", "\U00100002", "\U00100003"
#: The mark of icon n of a rendering's list of icon names (`Rendered.icons`).
_FIRST_ICON = 0x100010
_MARKS = re.compile("[\U00100000-\U0010fffd]")
_ICON_MARK = re.compile("([\U00100010-\U0010fffd])")
_TAGS = {BOLD_ON: "<b>", BOLD_OFF: "</b>", ITALIC_ON: "<i>", ITALIC_OFF: "</i>"}
_BOLD = (fonts.BOLD, fonts.BOLD_ITALIC)
_ITALIC = (fonts.ITALIC, fonts.BOLD_ITALIC)


def marked(text: str, icons: Container[str], names: list[str], escape: Callable[[str], str]) -> str:
    """`text` with its inline markup as marks and the rest passed through `escape`; each icon
    named is added to `names` (once), its mark standing for its place there. A mark the text
    holds itself is dropped: it would be read as markup."""
    out = []
    for face, run in inline.runs({"text": _MARKS.sub("", text)}, fonts.REGULAR, icons):
        if inline.is_icon(face):
            name = face[len(inline.ICON):]
            if name not in names:
                names.append(name)
            out.append(chr(_FIRST_ICON + names.index(name)) * len(run))
            continue
        run = escape(run)
        if face in _ITALIC:
            run = ITALIC_ON + run + ITALIC_OFF
        if face in _BOLD:
            run = BOLD_ON + run + BOLD_OFF
        out.append(run)
    return "".join(out)


def tags(markup: str) -> str:
    """Paragraph markup with the emphasis marks as `<b>` and `<i>` (icon marks stay)."""
    for mark, tag in _TAGS.items():
        markup = markup.replace(mark, tag)
    return markup


def plain(text: str) -> str:
    """`text` without its marks (an outline entry: icons and emphasis are not text)."""
    return _MARKS.sub("", text)


class Icon:
    """An inline icon of a paragraph, as ReportLab's image box holds it: drawn by `IconCanvas`."""

    def __init__(self, icons: IconSet, name: str, colour) -> None:
        self.icons, self.name, self.colour = icons, name, colour

    def draw(self, canvas: Canvas, x: float, y: float, width: float, height: float) -> None:
        colour = "#" + self.colour.hexval()[2:] if hasattr(self.colour, "hexval") else "#000000"
        ops: list[str] = []
        icon_ops(ops, self.icons, self.name, x + (width - height) / 2, y, height, colour, None, 0,
                 is_cmyk(canvas))
        canvas._code.extend(ops)


def icon_frags(frags: list, names: list[str], icons: IconSet) -> list:
    """`frags` with each icon mark cut out as a fragment of its own: an image box of the
    icon's advance, whose bottom is `DROP` em below the baseline."""
    if not names or not any(_ICON_MARK.search(getattr(f, "text", "") or "") for f in frags):
        return frags
    out = []
    for f in frags:
        text = getattr(f, "text", "")
        if not text or not _ICON_MARK.search(text):
            out.append(f)
            continue
        for n, part in enumerate(_ICON_MARK.split(text)):
            if n % 2 == 0:
                if part:
                    out.append(f.clone(text=part))
                continue
            size = f.fontSize
            box = ABag(kind="img", image=Icon(icons, names[ord(part) - _FIRST_ICON], f.textColor),
                       width=inline.ADVANCE * size, height=inline.SIDE * size, valign=-inline.DROP * size)
            out.append(f.clone(text="", cbDefn=box))
    return out


def icon_width(frag) -> float | None:
    """The advance of an inline icon's fragment; None for any other fragment."""
    box = getattr(frag, "cbDefn", None)
    return box.width if box is not None and isinstance(getattr(box, "image", None), Icon) else None


class IconCanvas(Canvas):
    """A canvas that draws a paragraph's inline icons (ReportLab hands them to `drawImage`)."""

    def drawImage(self, image, x, y, width=None, height=None, *args, **kwargs):
        if isinstance(image, Icon):
            image.draw(self, x, y, width, height)
            return width, height
        return super().drawImage(image, x, y, width, height, *args, **kwargs)
