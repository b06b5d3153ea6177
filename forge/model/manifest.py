"""The manifest (`game.yaml`): what a game is made of, and the vocabulary its cards may use.

Localised strings must carry exactly the game's own locales, which the manifest itself declares;
so the manifest's models are built per locale tuple by `manifest_model()` (cached).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Annotated, Any, Iterator, Literal

from pydantic import (BaseModel, ConfigDict, Field, ValidationInfo, create_model, field_validator,
                      model_validator)

from .fields import ID_PATTERN, STRICT, CardSpecs, Specs, check_name

LOCALE_PATTERN = r"^[a-z]{2,3}(_[A-Z]{2})?$"
Id = Annotated[str, Field(strict=True, pattern=ID_PATTERN, max_length=64)]
#: The file a manifest's `rules:` may name: beside it, in the game's folder.
RULES_FILE = r"^[a-z0-9][a-z0-9_-]*\.ya?ml$"
#: A key of the manifest's `backs`: `default`, a type, `type/subtype`, a set, or a name a card
#: gives as its own `back`.
BACK_KEY = r"^[a-z0-9][a-z0-9_]*(/[a-z0-9][a-z0-9_]*)?$"
BackKey = Annotated[str, Field(strict=True, pattern=BACK_KEY, max_length=129)]
NonEmpty = Annotated[str, Field(strict=True, min_length=1)]


class LocalText(BaseModel):
    """A string in every locale of the game: `name.uk`, `name["en"]`."""

    model_config = STRICT

    def __getitem__(self, lang: str) -> str:
        return getattr(self, lang)

    def as_dict(self) -> dict[str, str]:
        return self.model_dump()


def local_strings(value: Any, loc: tuple) -> Iterator[tuple[tuple, str, str]]:
    """(path, language, string) of every localised string inside a model (a card, the
    manifest): what typography checks, and where a card's text problem is found."""
    if isinstance(value, LocalText):
        for lang, text in value.as_dict().items():
            if isinstance(text, str):
                yield loc, lang, text
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from local_strings(getattr(value, name), (*loc, name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from local_strings(item, (*loc, key))
    elif isinstance(value, (list, tuple)):
        for n, item in enumerate(value):
            yield from local_strings(item, (*loc, n))


@lru_cache(maxsize=None)
def text_model(locales: tuple[str, ...]) -> type[LocalText]:
    return create_model("Text_" + "_".join(locales), __base__=LocalText,
                        **{lang: (NonEmpty, ...) for lang in locales})


class Players(BaseModel):
    model_config = STRICT
    min: Annotated[int, Field(ge=1, le=20)]
    max: Annotated[int, Field(ge=1, le=20)]

    @model_validator(mode="after")
    def _ordered(self) -> Players:
        if self.min > self.max:
            raise ValueError("players.min is larger than players.max")
        return self


class CardSize(BaseModel):
    """Trim size in millimetres."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    width: Annotated[float, Field(gt=10, lt=400)]
    height: Annotated[float, Field(gt=10, lt=400)]


#: Component kinds that are printed (PnP kit and print-shop files); dice and others are not.
PRINTED_KINDS = ("token", "counter", "board")
Hex = Annotated[str, Field(strict=True, pattern=r"^#[0-9a-fA-F]{6}$")]


class ComponentSize(BaseModel):
    """A printed component's trim size in millimetres (its bounding box for round shapes)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    width: Annotated[float, Field(ge=8, le=250)]
    height: Annotated[float, Field(ge=8, le=250)]


class Constraints(BaseModel):
    model_config = STRICT
    #: Each entry names fields whose values together may belong to one card design only.
    unique: tuple[tuple[str, ...], ...] = ()


@lru_cache(maxsize=None)
def manifest_model(locales: tuple[str, ...]) -> type[BaseModel]:
    """The manifest model whose localised strings carry exactly `locales`."""
    Text = text_model(locales)

    class ComponentSide(BaseModel):
        """One side of a printed component: a colour to the bleed, a centred icon, a label."""

        model_config = STRICT
        color: Hex = "#343a40"
        accent: Hex = "#ffffff"
        icon: Annotated[str, Field(strict=True, pattern=r"^[a-z][a-z0-9_-]*$")] | None = None
        label: Text | None = None

    class ComponentVariant(BaseModel):
        """What changes from copy to copy (e.g. each group counter's colour); unset keys keep
        the side's own value."""

        model_config = STRICT
        color: Hex | None = None
        accent: Hex | None = None
        icon: Annotated[str, Field(strict=True, pattern=r"^[a-z][a-z0-9_-]*$")] | None = None
        label: Text | None = None

    class Component(BaseModel):
        """Something in the box besides cards. Tokens, counters and boards are printed in the
        PnP kit and the print-shop files: they need `shape`, `size` and `front` (`back`
        omitted: the same design on both sides)."""

        model_config = STRICT
        id: Id
        name: Text
        count: Annotated[int, Field(ge=1, le=10_000)]
        kind: Literal["token", "counter", "board", "die", "other"] = "other"
        shape: Literal["circle", "square", "rect", "hexagon"] | None = None
        size: ComponentSize | None = None
        front: ComponentSide | None = None
        back: ComponentSide | None = None
        #: Copy i wears variant i % len(variants), applied to both sides.
        variants: tuple[ComponentVariant, ...] = ()

        @property
        def printed(self) -> bool:
            return self.kind in PRINTED_KINDS

        @model_validator(mode="after")
        def _printable(self) -> Component:
            if self.printed:
                missing = [k for k in ("shape", "size", "front") if getattr(self, k) is None]
                if missing:
                    raise ValueError(f"a {self.kind} is printed: give it {', '.join(missing)}")
                if self.shape in ("circle", "square", "hexagon") and self.size.width != self.size.height:
                    raise ValueError(f"a {self.shape} has equal width and height "
                                     f"(got {self.size.width:g} x {self.size.height:g} mm)")
            elif any(getattr(self, k) is not None for k in ("shape", "size", "front", "back")) or self.variants:
                raise ValueError(f"only tokens, counters and boards are printed: a {self.kind} "
                                 "takes no shape, size, front, back or variants")
            if len(self.variants) > self.count:
                raise ValueError(f"{len(self.variants)} variants for {self.count} copies")
            return self

    class SetSpec(BaseModel):
        model_config = STRICT
        name: Text
        #: Card counts the rulebook states, copies included: keys `type` or `type/subtype`.
        cards: dict[str, Annotated[int, Field(ge=0, le=100_000)]] = {}
        components: tuple[Component, ...] = ()
        setup: Text | None = None

    class TypeSpec(BaseModel):
        model_config = STRICT
        name: Text
        subtypes: dict[str, Text] = {}
        subtype_required: bool = False
        fields: CardSpecs = {}

        @model_validator(mode="after")
        def _subtypes_known(self) -> TypeSpec:
            for name, spec in self.fields.items():
                unknown = set(spec.only_for or ()) - set(self.subtypes)
                if unknown:
                    raise ValueError(f"field {name!r}: only_for names unknown subtypes {sorted(unknown)}")
            return self

    class OperationSpec(BaseModel):
        model_config = STRICT
        params: Specs = {}
        #: A Jinja template per locale; parameters are its variables.
        text: Text

    class BackSpec(BaseModel):
        """The back a deck wears: its colours, a centre icon (forge.render.icons) and a label."""

        model_config = STRICT
        color: Annotated[str, Field(strict=True, pattern=r"^#[0-9a-fA-F]{6}$")] = "#343a40"
        accent: Annotated[str, Field(strict=True, pattern=r"^#[0-9a-fA-F]{6}$")] = "#ffffff"
        icon: Annotated[str, Field(strict=True, pattern=r"^[a-z][a-z0-9_-]*$")] = "star"
        label: Text | None = None

    class SheetSpec(BaseModel):
        """A spreadsheet `forge watch` imports again whenever it is saved, as `forge import
        GAME PATH --type TYPE [--file FILE] [--set SET] [--sheet SHEET]` would."""

        model_config = STRICT
        path: Annotated[str, Field(strict=True, pattern=r"(?i)^[^/\\].*\.(csv|tsv|ods|xlsx|xlsm)$")]
        type: Id
        file: Id | None = None
        set: Id | None = None
        sheet: NonEmpty | None = None

    class Manifest(BaseModel):
        model_config = ConfigDict(frozen=True, extra="forbid")
        id: Id
        title: Text
        players: Players
        locales: tuple[str, ...]
        card_size: CardSize
        engine: Id | None = None
        sets: dict[str, SetSpec] = Field(min_length=1)
        card_types: dict[str, TypeSpec] = Field(min_length=1)
        constraints: Constraints = Constraints()
        operations: dict[str, OperationSpec] = {}
        #: Card backs by `type/subtype`, `type`, set id or `default` (most specific wins), or by a
        #: name that cards wear as their own `back`.
        backs: dict[str, BackSpec] = {}
        #: Rules as data (docs/rules.md): the rules, or the name of the file beside the manifest
        #: that holds them; checked and compiled by the `rules` engine, which such a game plays
        #: with (`engine:` may be left out).
        rules: dict[str, Any] | Annotated[str, Field(strict=True, pattern=RULES_FILE)] | None = None

        @model_validator(mode="before")
        @classmethod
        def _rules_engine(cls, data: Any) -> Any:
            if isinstance(data, dict) and data.get("rules") is not None and "engine" not in data:
                data = {**data, "engine": "rules"}
            return data

        @field_validator("rules")
        @classmethod
        def _rules_alone(cls, value: Any, info: ValidationInfo) -> Any:
            if value is not None and info.data.get("engine") != "rules":
                raise ValueError("a game with `rules:` plays with the rules engine: leave "
                                 "`engine:` out (or write `engine: rules`)")
            return value

        #: Sheets in the game folder that `forge watch` imports again on every save.
        sheets: tuple[SheetSpec, ...] = ()

        @model_validator(mode="after")
        def _sheets_known(self) -> Any:
            for sheet in self.sheets:
                if sheet.type not in self.card_types:
                    raise ValueError(f"sheet {sheet.path!r}: {sheet.type!r} is not a card type of this game")
                if sheet.set is not None and sheet.set not in self.sets:
                    raise ValueError(f"sheet {sheet.path!r}: {sheet.set!r} is not a set of this game")
            return self

        @field_validator("backs")
        @classmethod
        def _back_keys(cls, value: dict) -> dict:
            for key in value:
                if not re.fullmatch(BACK_KEY, key):
                    raise ValueError(f"{key!r} is not a back key (default, a type, type/subtype, a set "
                                     f"or a name cards give as their `back`)")
            return value

        @field_validator("sets", "card_types", "operations")
        @classmethod
        def _ids(cls, value: dict) -> dict:
            for key in value:
                if not re.fullmatch(ID_PATTERN, key):
                    raise ValueError(f"{key!r} is not an id (lower-case ASCII, digits, _)")
            return value

        @field_validator("operations")
        @classmethod
        def _op_names(cls, value: dict) -> dict:
            for key in value:
                check_name(key)
            return value

        @property
        def default_locale(self) -> str:
            return self.locales[0]

    return Manifest


def read_locales(data: Any) -> tuple[str, ...] | str:
    """The manifest's locale list, or the reason it is unusable."""
    locales = data.get("locales") if isinstance(data, dict) else None
    if not isinstance(locales, list) or not locales:
        return "`locales` must be a non-empty list such as [uk, en]"
    for lang in locales:
        problem = locale_problem(lang)
        if problem:
            return problem
    if len(set(locales)) != len(locales):
        return "`locales` lists a locale twice"
    return tuple(locales)


def locale_problem(lang: Any) -> str:
    """Why `lang` cannot be a language of a game, or "". Counts are worded by CLDR's plural
    rules (Babel's data), so a code CLDR does not know (`xx`) would fail in every text."""
    if not isinstance(lang, str) or not re.fullmatch(LOCALE_PATTERN, lang):
        return f"{lang!r} is not a locale code such as uk or en"
    if not _known(lang):
        import difflib

        from babel.localedata import locale_identifiers

        near = difflib.get_close_matches(lang, sorted(locale_identifiers()), n=3)
        return (f"{lang!r} is a locale forge has no data for (the Unicode CLDR, whose plural rules "
                "word every count)" + (f"; did you mean {', '.join(near)}?" if near else ""))
    return ""


@lru_cache(maxsize=None)
def _known(lang: str) -> bool:
    import babel
    from babel.localedata import exists

    if exists(lang):  # a file lookup; parsing loads Babel's global data
        return True
    try:
        babel.Locale.parse(lang)  # what forge.text.plural does: `en_ZZ` is English
    except (babel.UnknownLocaleError, ValueError):
        return False
    return True
