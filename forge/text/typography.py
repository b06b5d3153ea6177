"""Typography per locale: quotes, apostrophes, dashes, minus signs and no-break spaces.

`typeset(text, lang)` is the one place where printed text gets its typography; every text that
reaches a page goes through it (card names, effects, flavour, labels and table cells on card
faces via `forge.render.layout`; rulebooks and cheat sheets via `forge.rulebook.markdown`).
It is idempotent and cached per string, so calling it again on typeset text costs a lookup.

The rules, as a Ukrainian book editor expects them (and the English ones for `en`):

- Quotes: straight double quotes become « » outside and „ “ inside for `uk`, “ ” and ‘ ’ for
  `en`, by nesting depth. A straight single quote opening a word is ‘ in `en`.
- Apostrophe: inside a word, ' ’ ` ʼ become U+02BC (a letter, so words are not split at it)
  for `uk`, ’ for `en`.
- Dashes: a spaced hyphen or dash becomes a dash with a no-break space before it and a plain
  space after (`uk`: the em dash — ; `en`: the en dash –), so no line starts with a dash.
  A hyphen between two numbers is a range: an en dash (1–3).
- Minus: a hyphen or en dash standing before a number, not after a letter or digit, is a real
  minus U+2212 (−2).
- Ellipsis: three dots become …
- A typewriter's dash, `--`, is the language's dash (and spaced, spaced as above).
- No-break spaces (U+00A0, never U+202F: ReportLab breaks lines at U+202F, see PITFALLS.md):
  - after every one-letter word (в, у, з, і, й, а, о, я, and letters that name seats: А, Б);
  - `uk` only: after the short words in `GLUED["uk"]`: one-syllable prepositions, conjunctions
    and the particles не/ні, which an editor does not leave at the end of a line (Мільчин,
    «Довідник видавця та автора»: «односкладові прийменники й сполучники не відривають від
    наступного слова»);
  - between a number and the word it counts («5 карт», «+2 ПО», «1/4 ПО», "3 cards"), and
    after № and §.

`typeset_markup` does the same for ReportLab paragraph markup: tags are kept as they are and
quotes pair across them. Card data meets that markup through `escape`.
"""
from __future__ import annotations

import html
import re
from functools import lru_cache

NBSP = "\u00a0"
APOSTROPHE = "\u02bc"
SHY = "\u00ad"
MINUS = "\u2212"

_QUOTES = {"uk": ("«", "»", "„", "“"), "en": ("“", "”", "‘", "’")}
#: The dash a spaced hyphen becomes.
_DASHES = {"uk": "—", "en": "–"}
#: Words (besides one-letter words) that are glued to the word after them, per language.
GLUED = {
    "uk": ("із", "зі", "зо", "об", "до", "на", "за", "по", "від", "під", "над", "без", "для", "про",
           "при", "між", "та", "чи", "бо", "не", "ні"),
    "en": (),
}
#: A stand-in for a markup tag while its text is typeset (a private-use character).
_TAG_MARK = "\ue000"
_TAG = re.compile(r"<[^>]*>")

_DASH = re.compile(r"[ \t\u00a0]+([-–—])[ \t\u00a0]+")
_APOS = re.compile(r"(?<=\w)['’`ʼ](?=\w)")
_EN_OPEN_SINGLE = re.compile(r"(?<![\w\ue000])'(?=\w)")
_MINUS = re.compile(r"(?<![\w.,)\]\u00ad])[-–](?=\d)")
_RANGE = re.compile(r"(?<=\d)-(?=\d)")
_NUMBER = re.compile(r"(?<![\w.,])([+−]?\d+(?:[.,/]\d+)*(?:–\d+)?%?) (?=[^\W\d_]|[«„“‘(\ue000])"
                     r"|([№§]) (?=\d)")


@lru_cache(maxsize=None)
def _glue(lang: str) -> re.Pattern:
    """One-letter words and the language's glued words, followed by a plain space."""
    words = "|".join(sorted(GLUED.get(lang, ()), key=len, reverse=True))
    alternatives = (words + "|" if words else "") + r"[^\W\d_]"
    return re.compile(rf"(?<![\w{SHY}'ʼ’\-])({alternatives}) (?=\S)", re.IGNORECASE)


@lru_cache(maxsize=65536)
def typeset(text: str, lang: str) -> str:
    """Apply `lang`'s typography to plain text (idempotent; see the module doc)."""
    if not text:
        return text
    if lang == "uk":
        text = _APOS.sub(APOSTROPHE, text)
    elif lang == "en":
        text = _APOS.sub("’", text)
        if "'" in text:
            text = _EN_OPEN_SINGLE.sub("‘", text).replace("'", "’")
    text = _quotes(text, lang)
    if "..." in text:
        text = text.replace("...", "…")
    if "-" in text or "–" in text or "—" in text:
        dash = _DASHES.get(lang, "–")
        if "--" in text:  # a typewriter's dash
            text = text.replace("--", dash)
        text = _DASH.sub(lambda m: NBSP + (dash if m.group(1) == "-" else m.group(1)) + " ", text)
        text = _RANGE.sub("–", text)
        text = _MINUS.sub(MINUS, text)
    if " " in text:
        text = _NUMBER.sub(lambda m: (m.group(1) or m.group(2)) + NBSP, text)
        text = _glue(lang).sub(lambda m: m.group(1) + NBSP, text)
    return text


def escape(text: str) -> str:
    """`text` as literal text inside ReportLab or layout markup: `&`, `<` and `>` escaped,
    quotes left as they are (what `xml.sax.saxutils.escape` does, without that module's imports
    of urllib, http and ssl: some 20 ms of every command's start-up)."""
    return html.escape(text, quote=False)


@lru_cache(maxsize=16384)
def typeset_markup(markup: str, lang: str) -> str:
    """`typeset` for paragraph markup (<b>, <i>, <br/>, entities): the text between the tags is
    typeset as one string, so quotes pair across bold and italic runs; tags stay as written."""
    if "<" not in markup:
        return typeset(markup, lang)
    return typeset_between(markup, _TAG, lang)


def typeset_between(text: str, kept: re.Pattern, lang: str) -> str:
    """`typeset` for the text between the matches of `kept` (markup tags, a template's
    expressions), typeset as one string so quotes pair across them; the matches stay as written."""
    parts = typeset(kept.sub(_TAG_MARK, text), lang).split(_TAG_MARK)
    matches = kept.findall(text)
    return "".join(part + (matches[n] if n < len(matches) else "") for n, part in enumerate(parts))


def quoted(text: str, lang: str) -> str:
    """`text` in the language's outer quotation marks: «…» for uk, “…” for en."""
    opening, closing = _QUOTES.get(lang, _QUOTES["en"])[:2]
    return f"{opening}{text}{closing}"


def _quotes(text: str, lang: str) -> str:
    """Straight double quotes become the locale's outer/inner pairs by nesting depth."""
    if '"' not in text:
        return text
    outer_open, outer_close, inner_open, inner_close = _QUOTES.get(lang, _QUOTES["en"])
    out, depth = [], 0
    for i, ch in enumerate(text):
        if ch != '"':
            out.append(ch)
            continue
        j = i - 1
        while j >= 0 and text[j] == _TAG_MARK:  # a tag is transparent to pairing
            j -= 1
        opening = j < 0 or text[j].isspace() or text[j] in "([«„“‘—–-/" + NBSP
        if opening:
            out.append(outer_open if depth == 0 else inner_open)
            depth += 1
        else:
            depth = max(depth - 1, 0)
            out.append(outer_close if depth == 0 else inner_close)
    return "".join(out)


#: The Ukrainian alphabet's order, which code points do not follow (є, і, ї, ґ sort after я).
_UK_ORDER = {ch: n for n, ch in enumerate("абвгґдеєжзиіїйклмнопрстуфхцчшщьюя")}


def collation_key(text: str, lang: str) -> tuple:
    """A sort key that puts ``text`` in ``lang``'s alphabetical order (uk: «Підкріплення» before
    «Провідник»), case, apostrophes and typesetting (no-break spaces) aside; other languages by
    lower-cased code point."""
    folded = text.casefold().replace(APOSTROPHE, "").replace("'", "").replace("’", "").replace(NBSP, " ")
    if lang != "uk":
        return (folded,)
    last = len(_UK_ORDER)     # spaces, digits and signs first, then Cyrillic, then other letters
    return tuple((_UK_ORDER[ch], "") if ch in _UK_ORDER else (last if ch.isalpha() else -1, ch)
                 for ch in folded)
