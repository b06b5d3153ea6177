"""A game: its manifest and every card, loaded from `cards/<game>/` with findings for bad input."""
from __future__ import annotations

import difflib
import os
import re
import types
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Iterator, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from ..errors import Finding, PathError, display_path
from ..load import MAX_FILE_BYTES, Document, load_yaml
from ..paths import DataPathError, data_path
from ..resources import BUILTIN
from .cards import COMMON_KEYS, Card, Operation, card_models, place
from .fields import refusal_reason, walk_effects
from .manifest import manifest_model, read_locales

MANIFEST = "game.yaml"
#: Card faces one game may have: its card designs times its languages. `check` lays out every
#: face (about half a millisecond and 20 KB each), so this bounds what a shared game costs
#: whatever its files hold: 25,000 designs in two languages, far above any printed game.
MAX_FACES = 50_000


@dataclass(frozen=True, eq=False)
class Game:
    root: Path
    manifest: Any
    cards: tuple[Card, ...]
    #: Every id written in a card file, valid card or not (so references to a card with a typo
    #: in another field do not report twice).
    declared_ids: frozenset[str] = field(default_factory=frozenset)
    manifest_doc: Document | None = field(default=None, repr=False)
    #: The file the manifest's `rules:` names, read with the cards (None: none, or unreadable).
    rules_doc: Document | None = field(default=None, repr=False)

    @property
    def id(self) -> str:
        return self.manifest.id

    @cached_property
    def by_id(self) -> dict[str, Card]:
        return {card.id: card for card in self.cards}

    def card(self, card_id: str) -> Card:
        return self.by_id[card_id]

    def cards_of(self, type_id: str, set_id: str | None = None) -> list[Card]:
        return [c for c in self.cards if c.type == type_id and (set_id is None or c.set == set_id)]

    def count(self, type_id: str, set_id: str | None = None, subtype: str | None = None) -> int:
        """Physical cards (copies included) of a type, optionally per set and subtype."""
        return self._counts[type_id, set_id, subtype]

    def counted(self) -> Iterator[tuple[str, str]]:
        """Every (type, set) that has cards."""
        return ((t, s) for t, s, sub in self._counts if s is not None and sub is None)

    @cached_property
    def _counts(self) -> Counter:
        """`count` for every (type, set or None, subtype or None), made in one pass: checks
        ask for counts per set and type, and a pass over the cards for each would cost sets x
        types x cards."""
        counts: Counter = Counter()
        for c in self.cards:
            for set_id in (c.set, None):
                counts[c.type, set_id, None] += c.copies
                if c.subtype is not None:
                    counts[c.type, set_id, c.subtype] += c.copies
        return counts

    def effect_lists(self, card: Card) -> Iterator[tuple[tuple, tuple[Operation, ...]]]:
        """(loc, operations) for the card's `effects` and every effects-typed field it has."""
        yield ("effects",), card.effects
        for name, spec in self.manifest.card_types[card.type].fields.items():
            yield from walk_effects(spec, getattr(card, name), (name,))

    def manifest_finding(self, loc: tuple, code: str, message: str, fix: str = "") -> Finding:
        return self.manifest_doc.finding(loc, code, message, fix)


def cards_root() -> Path:
    """The games forge works on when none is named: $FORGE_CARDS, else the current folder's
    `cards/` (a user's project is any folder with `cards/` and `templates/`), else forge's
    built-in games."""
    if os.environ.get("FORGE_CARDS"):
        return Path(os.environ["FORGE_CARDS"])
    here = Path.cwd() / "cards"
    return here if here.is_dir() else BUILTIN / "cards"


def find_game(game_id: str) -> Path | None:
    """The folder of the game `game_id`: under `cards_root()`, else a built-in game (so
    `forge build love_formula` works in any folder, and a project's game of the same id wins)."""
    for root in dict.fromkeys((cards_root(), BUILTIN / "cards")):
        if is_game(root / game_id):
            return root / game_id
    return None


def known_games() -> list[str]:
    """The ids `find_game` finds: the project's games and the built-in ones."""
    return sorted({p.name for root in (cards_root(), BUILTIN / "cards") for p in all_games(root)})


def all_games(root: Path | None = None) -> list[Path]:
    """The game folders under `root` (default: `cards_root()`)."""
    root = cards_root() if root is None else root
    if not root.is_dir():
        return []
    try:
        folders = list(root.iterdir())
    except OSError as exc:
        raise PathError(f"cannot read {display_path(root)}: {exc.strerror}") from None
    return sorted(p for p in folders if is_game(p))


def is_game(folder: Path) -> bool:
    """Whether `folder` holds a manifest. A folder the system will not let us look into is an
    error naming it, not "no such game" (pathlib's `is_file` raises on EACCES)."""
    try:
        return (folder / MANIFEST).is_file()
    except OSError as exc:
        raise PathError(f"cannot read {display_path(folder)}: {exc.strerror}") from None


def card_files(root: Path) -> list[Path]:
    """The game folder's card files; a link among them is listed wherever it leads, for
    `refusal` to judge."""
    return sorted(p for p in root.iterdir()
                  if p.suffix in (".yaml", ".yml") and p.name != MANIFEST and (p.is_file() or p.is_symlink()))


def refusal(root: Path, name: str, what: str) -> Finding | None:
    """Why the file `name` of the game folder may not be read or written, by `data_path`'s
    rule, as a finding at the file (a link leading out is named as itself); None if it may."""
    try:
        data_path(root, name, what)
    except DataPathError as exc:
        return Finding(display_path(root / name), 0, 0, exc.code, exc.message, exc.fix)
    return None


def load_game(root: Path) -> tuple[Game | None, list[Finding]]:
    """Load a game folder; cards that do not validate are left out and reported."""
    if not is_game(root):
        return None, [Finding(display_path(root), 0, 0, "manifest", f"no {MANIFEST} in this folder",
                              "create one; see docs/data-format.md")]
    problem = refusal(root, MANIFEST, "manifest")
    if problem is not None:
        return None, [problem]
    doc, findings = load_yaml(root / MANIFEST)
    if doc is None:
        return None, findings
    locales = read_locales(doc.data)
    if isinstance(locales, str):
        return None, [doc.finding(("locales",), "manifest", locales)]
    try:
        manifest = manifest_model(locales).model_validate(doc.data)
        models = card_models(manifest)
    except ValidationError as exc:
        return None, validation_findings(doc, exc, (), model=manifest_model(locales), locales=locales)
    if manifest.id != root.name:
        findings.append(doc.finding(("id",), "manifest", f"id {manifest.id!r} differs from the "
                                    f"folder name {root.name!r}", "rename one of them"))
    for type_id, spec in manifest.card_types.items():
        for name in set(spec.fields) & set(COMMON_KEYS):
            findings.append(doc.finding(("card_types", type_id, "fields", name), "manifest",
                                        f"field {name!r} is a key every card already has"))
    try:
        files = [f for f in card_files(root) if f.name != manifest.rules]   # rules.yaml: not cards
    except OSError as exc:  # the manifest was readable, the folder cannot be listed
        return None, findings + [Finding(display_path(root), 0, 0, "io",
                                         f"cannot list the folder: {exc.strerror}")]
    docs, designs, salvaged = [], 0, set()
    limit = MAX_FACES // len(locales)
    for file in files:
        problem = refusal(root, file.name, "card file")
        if problem is not None:
            findings.append(problem)
            continue
        cards_doc, problems = load_yaml(file)
        findings += problems
        if cards_doc is None:
            salvaged |= ids_written(file)
            continue
        written = len(cards_doc.data) if isinstance(cards_doc.data, list) else 0
        if designs + written > limit:  # the game is not loaded, as a file past a limit is not
            return None, findings + [cards_doc.finding(
                (limit - designs,), "too-many-cards", f"the game's card files hold more than "
                f"{limit:,} cards: a game may have at most {MAX_FACES:,} card faces (cards "
                f"times its {len(locales)} languages)", "split it into several games")]
        designs += written
        docs.append(cards_doc)
    cards: list[Card] = []
    ids: set[str] = salvaged
    for cards_doc in docs:
        findings += read_cards(cards_doc, models, cards, ids, manifest.locales)
    rules_doc = None
    if isinstance(manifest.rules, str):     # rules as data in a file of their own
        problem = refusal(root, manifest.rules, "rules file")
        if problem is not None:
            findings.append(problem)
        else:
            rules_doc, problems = load_yaml(root / manifest.rules)
            findings += problems
    return Game(root, manifest, tuple(cards), frozenset(ids), doc, rules_doc), findings


_ID_LINE = re.compile(r"^[ -]*id:[ \t]*[\"']?([A-Za-z0-9_.-]+)", re.MULTILINE)


def ids_written(file: Path) -> set[str]:
    """The ids a card file that does not load seems to declare (its `id:` lines), so that the
    cards of the other files that name them are not reported as broken references too."""
    try:
        with open(file, "rb") as f:
            text = f.read(MAX_FILE_BYTES).decode("utf-8", "replace")
    except OSError:
        return set()
    return set(_ID_LINE.findall(text))


def read_cards(doc: Document, models: dict[str, type[Card]], out: list[Card],
                ids: set[str], locales: tuple[str, ...]) -> list[Finding]:
    data = doc.data
    if data is None or data == []:
        return [doc.finding((), "empty", "the file holds no cards",
                            "add cards as a YAML list, or delete the file")]
    if not isinstance(data, list):
        return [doc.finding((), "shape", "a card file is a YAML list of cards (`- id: ...`)")]
    findings = []
    for i, raw in enumerate(data):
        if not isinstance(raw, dict):
            findings.append(doc.finding((i,), "shape", "a card is a mapping of keys to values"))
            continue
        card_id = raw.get("id") if isinstance(raw.get("id"), str) else ""
        if card_id:
            ids.add(card_id)
        type_id = raw.get("type")
        model = models.get(type_id) if isinstance(type_id, str) else None
        if model is None:
            if "type" not in raw:
                near = _near("type", [k for k in raw if isinstance(k, str)])
                findings.append(doc.finding((i,), "missing", "the card has no `type` key",
                                            f"did you mean 'type' where it says {near!r}?" if near
                                            else "add type: one of " + ", ".join(models), card=card_id))
            else:
                near = _near(str(type_id), list(models))
                said = (f"type {_short(type_id)} is not a card type of this game" if _short(type_id)
                        else "`type` is empty: it names the card's type" if type_id in (None, "")
                        else "`type` is a list or mapping, not the name of a card type")
                findings.append(doc.finding((i, "type"), "unknown-type", said,
                                            f"did you mean {near!r}?" if near else "use one of: " + ", ".join(models),
                                            card=card_id))
            continue
        try:
            card = model.model_validate(raw)
        except ValidationError as exc:
            findings += validation_findings(doc, exc, (i,), card_id, model, locales)
            continue
        out.append(place(card, doc, i))
    return findings


def validation_findings(doc: Document, exc: ValidationError, prefix: tuple, card: str = "",
                        model: type[BaseModel] | None = None,
                        locales: tuple[str, ...] = ()) -> list[Finding]:
    """Pydantic's errors, as findings that point at the YAML and read like a person wrote them."""
    findings = []
    for err in exc.errors(include_url=False):
        loc = _clean_loc(err["loc"])
        kind, here = err["type"], _dotted(loc)
        value = _short(err.get("input"))
        fix = ""
        if kind == "extra_forbidden":
            keys = _keys_at(model, loc[:-1]) if model is not None else []
            allowed = f"; allowed: {', '.join(keys)}" if keys and len(loc) == 1 else ""
            code, message = "unknown-key", f"unknown key {loc[-1]!r}{allowed}"
            near = _near(str(loc[-1]), keys)
            fix = f"did you mean {near!r}?" if near else ""
        elif kind == "missing":
            code = "missing-locale" if len(loc) > 1 and loc[-1] in locales else "missing"
            message = (f"no {loc[-1]!r} string for {_dotted(loc[:-1])}" if code == "missing-locale"
                       else f"missing required key {here!r}")
        elif kind == "unknown_operation":
            given = err.get("input")
            name = next(iter(given)) if isinstance(given, dict) and given else given
            code, message = "unknown-operation", f"{here}: {name!r} is {err['msg']}"
            near = _near(str(name), str((err.get("ctx") or {}).get("known", "")).split(", "))
            fix = f"did you mean {near!r}?" if near else ""
        elif kind in ("less_than_equal", "greater_than_equal", "less_than", "greater_than"):
            code, message = "out-of-range", f"{here}: {value}: {refusal_reason(err)}"
        elif kind in ("literal_error", "enum"):
            code, message = "bad-value", f"{here}: {value}: {refusal_reason(err)}"
        else:
            code, message = "invalid", f"{here}: {refusal_reason(err)}" + (f" (got {value})" if value else "")
        findings.append(doc.finding(prefix + loc, code, message, fix, card=card))
    return findings


def _near(word: str, choices: list[str]) -> str:
    """The choice `word` is most likely a misspelling of, or ""."""
    close = difflib.get_close_matches(word, choices, n=1)
    return close[0] if close else ""


def _keys_at(model: Any, path: tuple) -> list[str]:
    """The keys a mapping at `path` inside `model` may have (its model's fields), or [] where
    the path leads to no model."""
    tp = model
    for step in path:
        operations = _operation_models(tp)
        tp = _unwrapped(tp)
        if operations is not None:  # an effect step: `draw: {count: 1}`
            if step not in operations:
                return []
            tp = operations[step]
        elif isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(step) if isinstance(step, str) else None
            if field is None:
                return []
            tp = field.annotation
        elif get_origin(tp) is dict:
            tp = get_args(tp)[1]
        elif get_origin(tp) in (tuple, list) and get_args(tp):
            tp = get_args(tp)[0]
        else:
            return []
    tp = _unwrapped(tp)
    return list(tp.model_fields) if isinstance(tp, type) and issubclass(tp, BaseModel) else []


def _operation_models(tp: Any) -> dict[str, type[BaseModel]] | None:
    """The parameter model of each operation, if `tp` is an effect step (`forge.model.cards`
    validates one with its `_OperationValidator`, which holds them as `params`)."""
    if get_origin(tp) is Annotated:
        for meta in get_args(tp)[1:]:
            params = getattr(getattr(meta, "func", None), "params", None)
            if isinstance(params, dict):
                return params
    return None


def _unwrapped(tp: Any) -> Any:
    """`tp` without `Annotated` and an optional's `None`."""
    while True:
        if get_origin(tp) is Annotated:
            tp = get_args(tp)[0]
        elif get_origin(tp) in (Union, types.UnionType):
            inner = [a for a in get_args(tp) if a is not type(None)]
            if len(inner) != 1:
                return tp
            tp = inner[0]
        else:
            return tp


def _clean_loc(loc: tuple) -> tuple:
    """Drop pydantic's own path steps (union tags repeat the operation name; validators)."""
    out: list = []
    for step in loc:
        if isinstance(step, str) and ("[" in step or (out and out[-1] == step)):
            continue
        out.append(step)
    return tuple(out)


def _dotted(loc: tuple) -> str:
    text = ""
    for step in loc:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text or "(top)"


def _short(value: Any) -> str:
    if isinstance(value, (dict, list)) or value is None:
        return ""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
