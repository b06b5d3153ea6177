"""Typewriter marks in the text data: typeset when printed, and mended by `forge check --fix`.

Every printed text goes through `forge.text.typography.typeset`, which prints « » „ “ ʼ (uk) and
“ ” ’ (en) for straight quotes and apostrophes, a dash for `--` and … for `...`; so these marks,
which every spreadsheet writes, are not errors. Where a designer wants the source clean too (it is
what translators and other tools read), `fix_typography` writes the same typography into the data:
each localised string (a mapping of the game's locale codes to strings, in a card file or the
manifest) that holds one of the marks is replaced by its typeset text, by ruamel's round trip, so
comments, order and quoting stay. `typography_notes` says where such strings are: the notes of
`forge check`, which never stop a build.

Operation texts in the manifest are Jinja templates: only their literal text is typeset, never
the quotes of their expressions.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from ..errors import Finding
from ..files import write_files
from ..model import Game
from ..model.cards import card_document
from ..model.game import MANIFEST, card_files, refusal
from ..text.typography import NBSP, typeset, typeset_between
from ..yamledit import round_trip

#: What a typewriter writes for a mark the language prints otherwise.
MARKS = ('"', "'", "`", "--", "...")
_SPACES = re.compile(r"[ \u00a0]+")
#: A Jinja expression, statement or comment of an operation template, kept as it is.
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)


def typography_notes(game: Game) -> list[Finding]:
    """A note at each localised string of the data that holds a typewriter mark."""
    docs = {card.source.file: card_document(card) for card in game.cards}
    notes = []
    for doc in (game.manifest_doc, *docs.values()):
        for loc, _, lang, text, template in _slots(doc.data, game.manifest.locales, (), doc is game.manifest_doc):
            fixed = mended(text, lang, template)
            if fixed != text:
                notes.append(doc.finding((*loc, lang), "typography", f"typewriter marks in the {lang} "
                                         f"text {text[:60]!r} print as {fixed[:60]!r}",
                                         "forge check --fix writes them so in the data"))
    return notes


def fix_typography(game_root: Path, locales: tuple[str, ...]) -> list[Path]:
    """Typeset the typewriter marks of every localised string in the game's manifest and card
    files, in place, all files or none; the files changed. A file that does not parse, or a
    link that leads out of the game folder, is left alone (`forge check` reports it)."""
    mended_files: dict[Path, bytes] = {}
    for path in [game_root / MANIFEST, *card_files(game_root)]:
        if refusal(game_root, path.name, "card file") is not None:
            continue  # a link leading out of the game is neither read nor written through
        edits = 0

        def edit(doc: Any) -> None:
            nonlocal edits
            for _, mapping, lang, text, template in _slots(doc, locales, (), path.name == MANIFEST):
                fixed = mended(text, lang, template)
                if fixed != text:
                    mapping[lang] = fixed if type(text) is str else type(text)(fixed)  # its quotes kept
                    edits += 1
        try:
            text = round_trip(path, edit)
        except Exception:  # noqa: BLE001 (ruamel refusing a file: forge check says why)
            continue
        if edits:
            mended_files[path] = text.encode("utf-8")
    write_files({path.resolve(): data for path, data in mended_files.items()})
    return list(mended_files)


def mended(text: str, lang: str, template: bool = False) -> str:
    """`text` with its typewriter marks typeset for `lang` (a template: its literal text only);
    `text` itself when it holds no such mark."""
    literal = _JINJA.sub("", text) if template else text
    if not any(mark in literal for mark in MARKS):
        return text
    return _spaced_as(typeset_between(text, _JINJA, lang) if template else typeset(text, lang), text)


def _spaced_as(fixed: str, original: str) -> str:
    """`fixed` with the spaces `original` has between its words: printing glues words with
    no-break spaces, the data keeps what its writer typed."""
    words, gaps = _SPACES.split(fixed), _SPACES.findall(original)
    if len(words) != len(gaps) + 1:
        return fixed.replace(NBSP, " ")
    return "".join(word + (gaps[n] if n < len(gaps) else "") for n, word in enumerate(words))


def _slots(data: Any, locales: tuple[str, ...], loc: tuple, manifest: bool) -> Iterator[tuple]:
    """(path, mapping, language, string, is a template) of every localised string in YAML data
    (plain, or ruamel's tree): a mapping whose keys are all locale codes of the game and whose
    values are strings. In the manifest, an operation's text is a template."""
    if isinstance(data, dict):
        if data and all(k in locales for k in data) and all(isinstance(v, str) for v in data.values()):
            template = manifest and len(loc) >= 3 and loc[0] == "operations" and loc[2] == "text"
            for lang, text in data.items():
                yield loc, data, lang, text, template
            return
        for key, value in data.items():
            yield from _slots(value, locales, (*loc, key), manifest)
    elif isinstance(data, list):
        for n, value in enumerate(data):
            yield from _slots(value, locales, (*loc, n), manifest)
