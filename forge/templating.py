"""Jinja for every template forge renders: sandboxed, compiled once, and kept on disk.

Card layouts, rulebooks, cheat sheets and the manifest's operation texts come with a game, and a
game folder is untrusted input, so every environment is an `Environment` of this module: Jinja's
immutable sandbox, narrowed further to the data forge hands to templates (see
`Environment.is_safe_attribute`). Compiling templates costs more than rendering every card of a
game, so all environments share `BYTECODE`, and `source_loader` lets templates that live in data
(the manifest's operation texts) be cached like files.
"""
from __future__ import annotations

import bisect
import functools
import hashlib
import os
import types
import weakref
from functools import lru_cache
from pathlib import Path, PurePath
from types import FrameType, TracebackType
from typing import Any, Callable, TypeVar

import jinja2
import jinja2.compiler
import pydantic
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from . import bounds, cache
from .paths import DataPathError, data_path, project_folder, real_folder
from .resources import BUILTIN

T = TypeVar("T")

class _SharedBytecode(jinja2.BytecodeCache):
    """Compiled templates shared by every game's environment in this process (the common
    parts are compiled once, not once per game), and kept on disk between runs in the
    `forge.cache` directory: compiling the layouts costs more than rendering every card of a
    game.

    An entry is keyed by what produced it: the environment's compiler settings (a sandboxed
    environment compiles the same source to different, checked code, so code compiled by an
    older, unsandboxed forge is never run), the template's name and the hash of its source;
    Jinja checks it against that hash and its own and Python's versions. Not by the template's
    file: the same source compiles to the same code wherever it lies but for the file name the
    code carries (its tracebacks name the template), which is set to the file asked for when
    the code is read back, so a copy of a project elsewhere compiles nothing again. An entry
    that cannot be read is ignored and compiled again, never an error."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def disk(self) -> jinja2.FileSystemBytecodeCache | None:
        where = cache.directory("jinja")
        return None if where is None else _disk(str(where))

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> jinja2.bccache.Bucket:
        checksum = self.get_source_checksum(source)
        key = hashlib.sha1(f"{_fingerprint(environment)}|{name}|{checksum}".encode()).hexdigest()
        bucket = jinja2.bccache.Bucket(environment, key, checksum)
        self.load_bytecode(bucket)
        if bucket.code is not None:  # Jinja compiles a template of no file as "<template>"
            bucket.code = _filed(bucket.code, filename or "<template>")
        return bucket

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            if bucket.key in self.store:
                bucket.bytecode_from_string(self.store[bucket.key])
            elif (disk := self.disk()) is not None:
                disk.load_bytecode(bucket)
        except Exception:  # noqa: BLE001 (a truncated or foreign file: pickle and marshal raise anything)
            bucket.reset()
        if bucket.code is not None and not isinstance(bucket.code, types.CodeType):
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()
        disk = self.disk()
        if disk is not None:
            try:
                disk.dump_bytecode(bucket)
            except OSError:
                pass


def _filed(code: types.CodeType, filename: str) -> types.CodeType:
    """`code` and the code objects it holds (a template's blocks and macros), as compiled from
    the file `filename`."""
    if code.co_filename == filename:
        return code
    return code.replace(co_filename=filename, co_consts=tuple(
        _filed(c, filename) if isinstance(c, types.CodeType) else c for c in code.co_consts))


#: Bumped when what forge compiles changes in a way Jinja's own checks do not see.
_CACHE_FORMAT = 3


def _fingerprint(env: jinja2.Environment) -> str:
    """The settings that change what an environment compiles a source to."""
    return repr((_CACHE_FORMAT, type(env).__module__, type(env).__qualname__, env.sandboxed,
                 env.block_start_string, env.block_end_string, env.variable_start_string,
                 env.variable_end_string, env.comment_start_string, env.comment_end_string,
                 env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks,
                 env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
                 bool(env.autoescape), getattr(env.finalize, "__qualname__", None), env.optimized,
                 sorted(env.extensions)))


def remembered(env: jinja2.Environment, what: Any, make: Callable[[], T], check: Callable[[Any], bool]) -> T:
    """`cache.remembered` for what is made by parsing the template texts `what` holds (the
    manifest's operation texts) in `env`: keyed by `what` itself (its `repr`), Jinja's version
    and `env`'s settings and filters, so an edited text, or another Jinja, is parsed again."""
    made_from = repr((jinja2.__version__, _fingerprint(env), sorted(env.filters), what))
    return cache.remembered("parsed", made_from.encode("utf-8"), make, check)


@lru_cache(maxsize=None)
def _disk(where: str) -> jinja2.FileSystemBytecodeCache:
    return jinja2.FileSystemBytecodeCache(where)


BYTECODE = _SharedBytecode()

class _CodeGenerator(jinja2.compiler.CodeGenerator):
    """Jinja's compiler, with what `{{ }}` writes and the operands of `~` measured
    (`bounds.written`, `bounds.concat`) before they are turned into text."""

    def _output_child_pre(self, node: jinja2.nodes.Expr, frame: jinja2.compiler.Frame, finalize: Any) -> None:
        super()._output_child_pre(node, frame, finalize)
        self.write("environment.written(")

    def _output_child_post(self, node: jinja2.nodes.Expr, frame: jinja2.compiler.Frame, finalize: Any) -> None:
        self.write(")")
        super()._output_child_post(node, frame, finalize)

    def visit_Concat(self, node: jinja2.nodes.Concat, frame: jinja2.compiler.Frame) -> None:
        if frame.eval_ctx.volatile:
            func_name = "(markup_join if context.eval_ctx.volatile else str_join)"
        else:
            func_name = "markup_join" if frame.eval_ctx.autoescape else "str_join"
        self.write(f"{func_name}(environment.concat_parts((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write(")))")


class Undefined(jinja2.StrictUndefined):
    """Jinja's strict undefined, naming a card by its id and type when a template asks it for a
    field it does not have, rather than by the class forge made for its type
    ("'forge.model.fields.demo_hero object' has no attribute 'cost'")."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        obj = self._undefined_obj
        if self._undefined_hint is None and isinstance(obj, pydantic.BaseModel) and isinstance(
                getattr(obj, "id", None), str) and isinstance(getattr(obj, "type", None), str):
            fields = ", ".join(type(obj).model_fields)
            return (f"card {obj.id!r} (type {obj.type!r}) has no field {self._undefined_name!r} "
                    f"(its fields: {fields})")
        return super()._undefined_message


class Environment(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox, narrowed to the data forge gives templates, with each
    template's globals as a plain dict.

    The sandbox refuses private and internal attributes (`__class__`, `__globals__` ...) and
    the methods that change Python's lists and dicts. It still lets a template call any public
    method of what it can reach, so attributes are served only from plain values (strings,
    numbers, lists, dicts), forge's card and manifest models (their fields, not pydantic's
    methods: `parse_file` reads files) and Jinja's own loop and macro objects; a path is never
    a template value (`game.root.read_text()` would read a file). Every operator, method, filter
    and global that can size its result is measured before it runs (`forge.bounds`: `*`, `+`,
    `%`, `**`, `~`, `str.center`, `format`, `|indent`, `lipsum()` ...), so that a template
    cannot ask for gigabytes, or for hours, in one expression. Everything refused raises
    `jinja2.exceptions.SecurityError` where the template touches it.

    Jinja chains a template's globals to the environment's (`collections.ChainMap`), and every
    render and every `{% import %}` walks that chain key by key in Python: with hundreds of
    card faces a build, that costs about a tenth of drawing them. Our environments set all
    their globals before loading a template, so a snapshot is the same mapping."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})
    code_generator_class = _CodeGenerator

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.filters.update(bounds.FILTERS)
        self.globals.update(bounds.GLOBALS)

    def make_globals(self, d: dict | None) -> dict:  # type: ignore[override]
        return {**self.globals, **(d or {})}

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        # Jinja's own rules depend on the type and the name alone (isinstance and name
        # checks), like ours: one dictionary lookup per attribute read after the first
        key = (type(obj), attr)
        safe = _SAFE.get(key)
        if safe is None:
            safe = _SAFE[key] = _served(*key) and super().is_safe_attribute(obj, attr, value)
        return safe and not isinstance(value, PurePath)

    call_binop = bounds.call_binop
    concat = staticmethod(bounds.joined_text)
    concat_parts = staticmethod(bounds.concat)
    written = staticmethod(bounds.written)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        if type(__obj) in _MEASURED:
            args = bounds.call(__obj, args, kwargs)
        if not __self.is_safe_callable(__obj):  # Jinja's `call`, inlined: it runs on every call
            raise jinja2.exceptions.SecurityError(f"{__obj!r} is not safely callable")
        return __context.call(__obj, *args, **kwargs)

    def wrap_str_format(self, value: Any) -> Any:
        """Jinja's sandboxed `str.format` and `format_map`, with each field measured
        (`bounds.CountingFormatter`) before it is formatted."""
        if type(value) not in _MEASURED or value.__name__ not in ("format", "format_map") \
                or not isinstance(value.__self__, str):
            return None  # (this runs on every attribute a template reads)
        text = value.__self__
        formatter = (bounds.CountingEscapeFormatter(self, escape=text.escape) if isinstance(text, Markup)
                     else bounds.CountingFormatter(self))

        def bounded(*args: Any, **kwargs: Any) -> str:
            if value.__name__ == "format_map":
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument")
                args, kwargs = (), args[0]
            return type(text)(formatter.vformat(text, args, kwargs))
        return functools.update_wrapper(bounded, value)


#: The callables whose results `bounds.call` measures: methods of plain values, `round`.
_MEASURED = frozenset({types.BuiltinMethodType, types.MethodType})


_PLAIN = (str, int, float, tuple, list, dict, set, frozenset, range)
#: forge's own types whose attributes templates read: the game's data, the odds tables and
#: the played rules in words.
_MODULES = ("forge.model.", "forge.rulebook.odds", "forge.rulebook.played")
_JINJA = (jinja2.runtime.Macro, jinja2.runtime.LoopContext, jinja2.runtime.Undefined,
          jinja2.environment.TemplateModule, jinja2.utils.Namespace, jinja2.utils.Cycler,
          jinja2.utils.Joiner)


_SAFE: dict[tuple[type, str], bool] = {}


def _served(tp: type, attr: str) -> bool:
    """Whether templates may read `attr` of values of type `tp` (see `Environment`)."""
    if issubclass(tp, pydantic.BaseModel):
        return tp.__module__.startswith(_MODULES) and (
            attr in tp.model_fields or not hasattr(pydantic.BaseModel, attr))
    if issubclass(tp, _PLAIN + _JINJA) or tp is type(None):
        return True
    return tp.__module__.startswith(_MODULES)


#: The largest template file forge reads (the built-in ones are at most 50 KB): a bigger one is
#: refused before it is read or compiled.
MAX_TEMPLATE_BYTES = 2**20


class FolderLoader(jinja2.BaseLoader):
    """Templates by name from folders of templates folders, first match wins: `folders` are
    (templates folder, folder inside it) pairs.

    A shared templates folder must not bring the user's own files into a PDF, so a template
    is found through `forge.paths.data_path`: it must resolve, links followed, to a regular
    file inside its templates folder (a link within it is fine), which must itself be a real
    folder (`real_folder`); its size is bounded before it is read. What is refused raises a
    `SecurityError` (a link out) or a `TemplateError` (an unreadable folder, a file too large)
    naming the template, never a quiet look in the next folder. (`..` in a template name is
    refused by Jinja.)"""

    def __init__(self, folders: list[tuple[Path, str]]) -> None:
        self.folders = list(dict.fromkeys(folders))

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Any]:
        pieces = jinja2.loaders.split_template_path(template)
        for root, sub in self.folders:
            name = "/".join([sub, *pieces] if sub else pieces)
            try:
                path = data_path(real_folder(root, "templates folder"), name, "template",
                                 "the templates folder")
            except DataPathError as exc:
                if exc.code == "path-missing":
                    continue
                if exc.code == "path-outside":
                    raise jinja2.exceptions.SecurityError(exc.message) from None
                raise jinja2.TemplateError(exc.message) from None
            return _read_template(path, name), os.path.normpath(root / name), _unchanged(path)
        raise jinja2.TemplateNotFound(template)


def _read_template(path: Path, name: str) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_TEMPLATE_BYTES + 1)  # never more: the size is an error, not a read
    except OSError as exc:
        raise jinja2.TemplateError(f"template {name!r} cannot be read: {exc.strerror}") from None
    if len(data) > MAX_TEMPLATE_BYTES:
        raise jinja2.TemplateError(f"template {name!r} is larger than {MAX_TEMPLATE_BYTES // 2**20} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise jinja2.TemplateError(f"template {name!r}: byte 0x{data[exc.start]:02x} is not UTF-8") from None


def _unchanged(path: Path) -> Any:
    try:
        mtime = os.path.getmtime(path)
    except OSError:
        mtime = None

    def uptodate() -> bool:
        try:
            return os.path.getmtime(path) == mtime
        except OSError:
            return False
    return uptodate


def error_position(tb: TracebackType | None) -> tuple[str, int]:
    """(template file, line) where a template raised: the innermost frame of a game's own
    template, or inside a shared `_common` macro the game line that called it; ("", 0) when
    no template frame is on the traceback."""
    frames = []
    while tb is not None:
        scope = tb.tb_frame.f_globals
        tmpl = scope.get("__jinja_template__")
        if tmpl is not None and tmpl.filename:
            frames.append((tmpl.filename, template_line(tmpl, tb.tb_lineno)))
        elif "__jinja_exception__" in scope:  # a frame Jinja rewrote to the template's own line
            frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    return pick_frame(list(reversed(frames)))


def calling_template(frame: FrameType | None) -> tuple[str, int]:
    """(template file, line) of the template code running at `frame` or outwards: the line of
    a game's own template that called the Python function (a global such as `el()`), chosen
    as `pick_frame` does."""
    frames = []
    while frame is not None:
        tmpl = frame.f_globals.get("__jinja_template__")
        if tmpl is not None and tmpl.filename:
            frames.append((tmpl.filename, template_line(tmpl, frame.f_lineno)))
        frame = frame.f_back
    return pick_frame(frames)


#: Each template's (code lines, template lines), parsed once from its `debug_info` string
#: (Jinja's `get_corresponding_lineno` parses it again on every call).
_LINES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def template_line(tmpl: jinja2.Template, code_line: int) -> int:
    """The line of `tmpl` that its compiled code's line `code_line` runs, as Jinja's
    `get_corresponding_lineno` finds it."""
    lines = _LINES.get(tmpl)
    if lines is None:
        pairs = tmpl.debug_info
        lines = _LINES[tmpl] = ([code for _, code in pairs], [line for line, _ in pairs])
    at = bisect.bisect_right(lines[0], code_line)
    return lines[1][at - 1] if at else 1


def pick_frame(frames: list[tuple[str, int]]) -> tuple[str, int]:
    """The innermost (file, line) of a game template among `frames`, innermost first."""
    for file, line in frames:
        if f"{os.sep}_common{os.sep}" not in file:
            return file, line
    return frames[0] if frames else ("", 0)


#: forge's own shared templates, where every game's layouts look last (after its project's
#: `templates/_common/`): a project needs no copy of them.
COMMON = BUILTIN / "templates" / "_common"


def templates_root(game: object) -> Path:
    """Where a game's templates live: $FORGE_TEMPLATES, else `templates/` beside its cards
    folder (a designer's own project laid out like the built-in one), else the built-in
    project's. The answer's parent is a real path; the folder itself may be a link, which
    `FolderLoader` and `check` refuse."""
    if os.environ.get("FORGE_TEMPLATES"):
        return _resolved(os.path.abspath(os.environ["FORGE_TEMPLATES"]))
    # kept by absolute path: a relative one names another folder once the working one changes
    return _beside(os.path.abspath(game.root), game.id)  # type: ignore[attr-defined]


@lru_cache(maxsize=8)
def _resolved(folder: str) -> Path:
    """$FORGE_TEMPLATES resolved once, not once a card face."""
    return Path(folder).resolve()


@lru_cache(maxsize=256)
def _beside(game_root: str, game_id: str) -> Path:
    sibling = project_folder(Path(game_root), "templates")
    if sibling is not None and (sibling.is_symlink() or any(
            os.path.lexists(sibling / name) for name in (game_id, "_common"))):
        return sibling
    return BUILTIN / "templates"


def layout_folders(root: Path, game_id: str) -> list[tuple[Path, str]]:
    """The folders a game's card layouts are loaded from, first match wins, as `FolderLoader`
    takes them: its own and its project's `_common` in the templates folder `root`, then
    forge's (`COMMON`)."""
    return list(dict.fromkeys([(root, f"{game_id}/cards"), (root, "_common/cards"),
                               (COMMON.parent, "_common/cards")]))


def source_loader(sources: dict[str, str]) -> jinja2.FunctionLoader:
    """A loader for templates held in data: the name is the source's hash, so equal sources
    share one compiled template and an edited one is a new name."""
    return jinja2.FunctionLoader(lambda name: (sources[name], None, lambda: True) if name in sources else None)


def source_name(source: str) -> str:
    return hashlib.sha1(source.encode("utf-8")).hexdigest()
