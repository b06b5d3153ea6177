"""Inline markup of card text: `:name:` icons, `**bold**` and `*italic*`, and a layout's tags.

What a designer writes in card data (names, effects, flavour, the manifest's operation texts)
and what a layout writes in a `text` element's `text`, `markup` or `paras` or a `label`'s
`text` and a `table` cell follows one set of rules, so a card and its layout cannot disagree
about what prints (a rulebook or cheat sheet prints a value by them too, `forge.rulebook.inline`):

- `:name:` is the game's icon `name` (a built-in one or its own SVG, `forge.render.icons`),
  drawn inline in the text's colour, `ADVANCE` em wide, sitting on the baseline, and measured
  as a glyph by the text fitter (`:coin::coin:` is two); a number before it is glued to it
  (`2 :coin:` never breaks between the two). Only a name standing apart is an
  icon: the colons are not glued to a letter or digit, so `Time: 3`, `10:30` and `a:b:c`
  print as written. A name the game has no icon for is a finding (`unknown_icons`) and prints as written.
- `**text**` is bold and `*text*` italic, in the family's own faces; the marks stand at the
  edges of words (not after a letter or digit, the inside starting and ending with a non-space),
  so `2 * 3`, `5*` or a lone `*` print as written.
- `\\*`, `\\:` and `\\\\` print `*`, `:` and `\\` (in a YAML double-quoted string, write `\\\\*`).
- In `markup`, the tags `<b>`, `<strong>`, `<i>`, `<em>` and `<br/>`; any other tag would be
  dropped by the drawing, so `unsupported_tags` names it and `forge check` reports it at the
  template line (`forge.render.elements`). Card data reaches markup escaped (`|x`), so what a
  card says is never read as a tag.
"""
from __future__ import annotations

import re
from typing import Container, Iterator

from . import fonts

#: A fragment's face for an inline icon is `ICON` + the icon's name (`fonts.ICON`, measured
#: `ADVANCE` em a character); its text holds one `OBJECT` character per icon, so adjacent icons
#: of one name merge like letters of one face.
ICON, ADVANCE = fonts.ICON, fonts.ICON_ADVANCE
OBJECT = "\ufffc"
#: The side of the square an inline icon is drawn in (em, centred in its advance) and how far
#: below the baseline the square starts (em): about as tall as a capital with a descender,
#: centred on the capitals' middle.
SIDE = 0.92
DROP = 0.14
#: The tags a `markup` text may hold, lower case, without `<`, `/` and `>`.
TAGS = ("b", "strong", "i", "em", "br")

_TAG = re.compile(r"(<[^>]+>)")
_TAG_NAME = re.compile(r"</?\s*([A-Za-z][\w:-]*)")
#: An emphasis span: the marks at word edges, the inside starting and ending with a non-space
#: (a closing mark after a backslash is an escaped one).
_EMPHASIS = re.compile(r"(?<![\w*\\])(\*\*|\*)(?=[^\s*])(.*?[^\s*\\])\1(?![\w*])", re.DOTALL)
#: An escape, or an icon name standing apart.
_ICON_OR_ESCAPE = re.compile(r"\\([*:\\])|(?<![\w\\]):([a-z][a-z0-9_-]*):(?!\w)")
_SYNTAX = frozenset("*:\\")
#: A number and a space before an icon: the space becomes a no-break one, as between a number
#: and a word (`forge.text.typography`).
_COUNT = re.compile(r"(?<![\w.,])[+−]?\d+(?:[.,/]\d+)*%? $")
NBSP = "\u00a0"
_BOLD_OF = {fonts.REGULAR: fonts.BOLD, fonts.ITALIC: fonts.BOLD_ITALIC, "Roboto-Light": fonts.REGULAR,
            "Roboto-Medium": fonts.BOLD}
_ITALIC_OF = {fonts.REGULAR: fonts.ITALIC, fonts.BOLD: fonts.BOLD_ITALIC}


def is_icon(face: str) -> bool:
    return face.startswith(ICON)


def _entities(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")


def _parts(item: dict) -> Iterator[tuple[str, bool]]:
    """(text, is it a tag) of a paragraph item: its plain `text`, or its `markup` cut at tags."""
    if "markup" not in item:
        yield str(item.get("text", "")), False
        return
    for part in _TAG.split(str(item["markup"])):
        if part:
            yield (part, True) if part.startswith("<") else (_entities(part), False)


def _emphasis(text: str, bold: bool, italic: bool) -> Iterator[tuple[bool, bool, str]]:
    pos = 0
    for m in _EMPHASIS.finditer(text):
        if m.start() > pos:
            yield bold, italic, text[pos:m.start()]
        if m.group(1) == "**":
            yield from _emphasis(m.group(2), True, italic)
        else:
            yield from _emphasis(m.group(2), bold, True)
        pos = m.end()
    if pos < len(text):
        yield bold, italic, text[pos:]


def _icons(text: str, face: str, icons: Container[str]) -> Iterator[tuple[str, str]]:
    """(face, text) runs of `text`: known icons as icon runs, escapes resolved."""
    pos, plain = 0, []
    for m in _ICON_OR_ESCAPE.finditer(text):
        plain.append(text[pos:m.start()])
        pos = m.end()
        if m.group(1) is not None:
            plain.append(m.group(1))
        elif m.group(2) in icons:
            before = "".join(plain)
            if _COUNT.search(before):  # "2 :coin:": the number and what it counts stay on a line
                before = before[:-1] + NBSP
            if before:
                yield face, before
            plain = []
            yield ICON + m.group(2), OBJECT
        else:
            plain.append(m.group(0))
    plain.append(text[pos:])
    if any(plain):
        yield face, "".join(plain)


def runs(item: dict, face: str, icons: Container[str]) -> list[tuple[str, str]]:
    """(face, text) runs of a paragraph item as drawn: its emphasis in the family's faces, a
    `<br/>` as a line break, each known icon as a run of face `ICON + name`."""
    out: list[tuple[str, str]] = []
    bold = italic = 0
    for part, tag in _parts(item):
        if tag:
            name = part.strip("<>/ ").lower()
            closing = part.startswith("</")
            if name in ("b", "strong"):
                bold += -1 if closing else 1
            elif name in ("i", "em"):
                italic += -1 if closing else 1
            elif name.startswith("br"):
                out.append((face, "\n"))
            continue
        f = face
        if bold > 0:
            f = _BOLD_OF.get(f, fonts.BOLD)
        if italic > 0:
            f = _ITALIC_OF.get(f, f)
        if _SYNTAX.isdisjoint(part):  # most texts: no inline markup at all
            out.append((f, part))
            continue
        for b, i, text in _emphasis(part, False, False):
            g = _BOLD_OF.get(f, f) if b else f  # a face bolder than regular stays as it is
            g = _ITALIC_OF.get(g, g) if i else g
            out.extend(_icons(text, g, icons))
    return out


def plain(item: dict, icons: Container[str]) -> str:
    """The text of a paragraph item as printed, without its markup and icons."""
    return "".join(text for face, text in runs(item, fonts.REGULAR, icons) if not is_icon(face))


def unknown_icons(item: dict, icons: Container[str]) -> list[str]:
    """The `:name:` of a paragraph item that name no icon of `icons`, in order, each once."""
    found: dict[str, None] = {}
    for part, tag in _parts(item):
        if not tag and ":" in part:
            for m in _ICON_OR_ESCAPE.finditer(part):
                if m.group(2) is not None and m.group(2) not in icons:
                    found.setdefault(m.group(2))
    return list(found)


#: A mark left over once emphasis is matched: one opening a word (`**Draw 1`), or `**` closing
#: one (`Draw**`); a lone `*` after a word (`5*`, a footnote) or before a comma is left to print.
_UNMATCHED = re.compile(r"(?<![\w*\\])\*\*?(?=[\w(«\"“‘':])\S{0,12}|\S{0,12}(?<=[^\s*\\])\*\*(?![\w*])")


def unclosed_marks(item: dict) -> list[str]:
    """The emphasis marks of a paragraph item that open or close nothing (they would print as
    asterisks), each with the word it stands by, in order, each once."""
    found: dict[str, None] = {}
    for part, tag in _parts(item):
        if not tag and "*" in part:
            for _, _, text in _emphasis(part, False, False):
                for m in _UNMATCHED.finditer(text):
                    found.setdefault(m.group(0))
    return list(found)


def unsupported_tags(markup: str) -> list[str]:
    """The tags of `markup` that drawing does not know (it would drop them), each once."""
    found: dict[str, None] = {}
    for tag in _TAG.findall(markup):
        m = _TAG_NAME.match(tag)
        name = m.group(1).lower() if m else tag
        if name not in TAGS:
            found.setdefault(f"<{name}>" if m else tag)
    return list(found)
