"""The typer app, and what every command shares: finding games, exit codes, the options
every command takes (--format, -q, -v) and where its words go (`Output`)."""
from __future__ import annotations

import gc
import json
import os
import sys
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass
from enum import Enum
from importlib import import_module
from pathlib import Path
from typing import Annotated, Any, Callable

import typer
from typer.core import CompletionItem, TyperCommand, TyperGroup

from ..errors import Finding, FindingsError, ForgeError, UsageError, display_path
from .progress import progress

#: Words click reads as a boolean value: after a flag they are a mistaken `--home true`.
BOOLEAN_WORDS = {"true", "false", "yes", "no", "on", "off", "1", "0", "t", "f", "y", "n"}


class Commands(MutableMapping):
    """The commands of `forge` by name, in the order of `forge.cli.COMMANDS`; each is built
    when first looked up, importing its module then (its `@app.command()` registers it)."""

    def __init__(self, built: dict[str, TyperCommand]) -> None:
        self.built = dict(built)

    def _names(self) -> dict[str, None]:
        from . import COMMANDS
        return dict.fromkeys([*COMMANDS, *self.built])

    def __getitem__(self, name: str) -> TyperCommand:
        if name not in self.built:
            from . import COMMANDS
            if name not in COMMANDS:
                raise KeyError(name)
            import_module(f".{COMMANDS[name][0]}", __package__)
            # what a command imports lives as long as the process: the cyclic collector need
            # not look at it again (its full passes over every object cost `forge build` a
            # seventh of its time)
            gc.freeze()
            self.built[name] = _command(name)
        return self.built[name]

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def __setitem__(self, name: str, command: TyperCommand) -> None:
        self.built[name] = command

    def __delitem__(self, name: str) -> None:
        del self.built[name]


def _command(name: str) -> TyperCommand:
    """The click command of the registered typer command `name`."""
    for info in app.registered_commands:
        if (info.name or typer.main.get_command_name(info.callback.__name__)) == name:
            return typer.main.get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode)
    raise LookupError(f"forge.cli.COMMANDS names a module that registers no command {name!r}")


class ForgeGroup(TyperGroup):
    """The `forge` command group. Its commands are `Commands`: only the one that runs is
    imported, and `forge --help` and completing a command's name import none (they show the
    help kept in `forge.cli.COMMANDS`). It refuses a flag given a value (`--home true`) with a
    usage error naming the flag, instead of reading the value as a game name."""

    def __init__(self, *, commands: dict[str, TyperCommand] | None = None, **attrs: Any) -> None:
        super().__init__(commands=Commands(commands or {}), **attrs)

    def list_commands(self, ctx: typer.Context) -> list[str]:
        return list(self.commands)

    def _summaries(self) -> dict[str, TyperCommand]:
        """Each command as a stand-in that has its name and help up to the first full stop."""
        from . import COMMANDS
        return {name: TyperCommand(name=name, help=summary) for name, (_, summary) in COMMANDS.items()}

    def format_commands(self, ctx: typer.Context, formatter: Any) -> None:
        summaries = self._summaries()
        limit = formatter.width - 6 - max(map(len, summaries))
        with formatter.section("Commands"):
            formatter.write_dl([(name, cmd.get_short_help_str(limit)) for name, cmd in summaries.items()])

    def shell_complete(self, ctx: typer.Context, incomplete: str) -> list[CompletionItem]:
        names = [CompletionItem(name, help=cmd.get_short_help_str())
                 for name, cmd in self._summaries().items() if name.startswith(incomplete)]
        # the options, as a plain command offers them (TyperGroup's would build every command)
        return names + super(TyperGroup, self).shell_complete(ctx, incomplete)

    def invoke(self, ctx: typer.Context) -> Any:
        """Run the command; a value typer's coercion refused is worded as forge words a data
        file's (`refusal_reason`), not in pydantic's words ("Value error, ...", "Input should")."""
        try:
            return super().invoke(ctx)
        except typer.BadParameter as exc:
            from pydantic import ValidationError
            if isinstance(exc.__cause__, ValidationError):
                from ..model.fields import refusal_reason
                err = exc.__cause__.errors()[0]
                reason = refusal_reason(err)
                exc.message = reason if repr(err["input"]) in reason else f"{reason} (got {err['input']!r})"
            raise

    def resolve_command(self, ctx, args):
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None and not ctx.resilient_parsing:
            flags = {opt: param for param in command.params
                     if getattr(param, "is_flag", False) and not getattr(param, "count", False)
                     for opt in (*param.opts, *param.secondary_opts)}
            for arg, value in zip(rest, rest[1:]):
                if arg == "--":
                    break
                if arg in flags and value.lower() in BOOLEAN_WORDS:
                    raise typer.BadParameter(
                        f"a flag takes no value: write {arg} alone, not {arg} {value}",
                        ctx=typer.Context(command, info_name=name, parent=ctx), param=flags[arg])
        return name, command, rest


# Plain help (rich_markup_mode=None): typer's rich help labels every flag `<bool>`, which reads
# as if `--home` wanted a value.
app = typer.Typer(cls=ForgeGroup, no_args_is_help=True, add_completion=True,
                  rich_markup_mode=None, pretty_exceptions_enable=False,
                  help="Card Forge: check card data, play it, print it.")

#: Exit codes: the class of outcome, the same for every command.
CLEAN, FINDINGS, USAGE = 0, 1, 2


def reported(run: Callable[[], object]) -> int:
    """Run `run()` and return its exit code (a `SystemExit` passes through): a user's error
    becomes a message on stderr and its code, never a traceback."""
    try:
        run()
    except FindingsError as exc:
        for finding in exc.findings:
            typer.echo(str(finding), err=True)
        return FINDINGS
    except UsageError as exc:
        typer.echo(f"forge: {exc}", err=True)
        return USAGE
    except ForgeError as exc:
        typer.echo(f"forge: {exc}", err=True)
        return FINDINGS
    except OSError as exc:  # the system refused a path: the user's environment, not our bug
        where = f"{exc.filename}: " if exc.filename else ""
        typer.echo(f"forge: {where}{exc.strerror or exc}", err=True)
        return FINDINGS
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug of ours, not the user's: say so briefly
        if os.environ.get("FORGE_DEBUG"):
            raise
        typer.echo(f"forge: internal error: {type(exc).__name__}: {exc} "
                   "(run with FORGE_DEBUG=1 for details)", err=True)
        return 3
    return CLEAN


def package_version() -> str:
    """This installation's version, from the package metadata of the distribution that ships
    `forge` with our console script (another distribution may install a module named `forge`).
    Found by its entry point: reading every distribution's file list costs 5x more."""
    from importlib import metadata
    for script in metadata.entry_points(group="console_scripts", name="forge"):
        if script.value == "forge.cli:main" and script.dist is not None:
            return script.dist.version
    return "unknown (not installed; run pip install -e .)"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"forge {package_version()}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """Card Forge: check card data, play it, print it."""


class Format(str, Enum):
    text = "text"
    json = "json"


FormatOption = Annotated[Format, typer.Option(
    "--format", help="text for people; json for programs: stdout holds one JSON document and "
    "nothing else.")]
QuietOption = Annotated[bool, typer.Option(
    "--quiet", "-q", help="Print only errors (and the data asked for): no summaries, no progress.")]
VerboseOption = Annotated[bool, typer.Option("--verbose", "-v", help="Also print a line per file.")]


@dataclass(frozen=True)
class Output:
    """Where a command's words go. Its data (JSON results, listings, schemas) goes to stdout;
    findings, summaries, per-file lines and progress bars go to stderr. --quiet keeps only
    errors; --verbose adds a line per file; --format json puts one JSON document on stdout
    and draws no progress bar; a command that goes on (`--watch`) is a `stream`: a JSON
    document a line, each written as it is made."""

    format: Format = Format.text
    quiet: bool = False
    verbose: bool = False
    stream: bool = False

    def __post_init__(self) -> None:
        if self.quiet and self.verbose:
            raise UsageError("--quiet and --verbose contradict each other: give one")

    @property
    def json(self) -> bool:
        return self.format is Format.json

    def data(self, value: Any) -> None:
        """The command's result as one JSON document on stdout (on one line in a stream)."""
        json.dump(value, sys.stdout, ensure_ascii=False, indent=None if self.stream else 2)
        sys.stdout.write("\n")
        if self.stream:
            sys.stdout.flush()

    def error(self, text: str) -> None:
        """A problem: always shown."""
        typer.echo(text, err=True)

    def summary(self, text: str) -> None:
        """What was done, or a warning, in a line: not with --quiet."""
        if not self.quiet:
            typer.echo(text, err=True)

    def detail(self, text: str) -> None:
        """A line per file: only with --verbose."""
        if self.verbose:
            typer.echo(text, err=True)

    def findings(self, findings: list[Finding], notes: list[Finding] = ()) -> int:
        """Findings as a JSON list on stdout, or one a line on stderr; the exit code they
        call for. `notes` call for none: in JSON they join the list (severity "note"), sorted
        with the findings by file and line; in text the command lists them with -v."""
        if self.json:
            marked = [(f, "error") for f in findings] + [(n, "note") for n in notes]
            self.data([f.as_dict(severity) for f, severity in sorted(marked, key=lambda m: m[0])])
        else:
            for finding in findings:
                self.error(str(finding))
        return FINDINGS if findings else CLEAN

    def progress(self, total: int | None, label: str):
        """A progress bar on stderr (see `forge.cli.progress`); none with --quiet or json."""
        return progress(total, label, enabled=not (self.quiet or self.json))


def counted(n: int, one: str, many: str = "") -> str:
    """`n` and an English noun in the form that goes with it: "1 finding", "3 findings"."""
    from ..text.plural import plural
    return f"{n} {plural(n, (one, many or one + 's'), 'en')}"


def resolve_games(names: list[str] | None) -> list[Path]:
    """Game folders from paths or ids (the project's games, then the built-in ones, see
    `find_game`); no names means every game under the cards folder."""
    from ..model.game import all_games, cards_root, find_game, is_game, known_games

    if not names:
        games = all_games()
        if not games:
            raise UsageError(f"no games found under {cards_root()}")
        return games
    out = []
    for name in names:
        path = Path(name) if is_game(Path(name)) else find_game(name)
        if path is None:
            known = ", ".join(known_games()) or "none"
            raise UsageError(f"{name!r} is neither a game folder nor the id of a game here or "
                             f"built in (known: {known})")
        out.append(path)
    return out


def split_names(value: str, option: str) -> list[str]:
    """A comma-separated option's values; one that names nothing (`,`) is a usage error."""
    names = [v.strip() for v in value.split(",") if v.strip()]
    if not names:
        raise UsageError(f"{option} names nothing (got {value!r})")
    return names


def check_output(path: Path, option: str, folder: bool) -> None:
    """An output option naming a file where a folder goes (or the reverse), itself or in its
    parents, is a usage error found before any work is done. Permissions and free space show
    only when writing, as a `PathError` naming the file."""
    want, other = ("folder", "file") if folder else ("file", "folder")
    if path.exists() and path.is_dir() != folder:
        raise UsageError(f"{option} {display_path(path)}: is a {other}, not a {want}")
    parent = next((p for p in path.parents if p.exists()), None)
    if parent is not None and not parent.is_dir():
        raise UsageError(f"{option} {display_path(path)}: {display_path(parent)} is a file, not a folder")


def complete_games(incomplete: str) -> list[str]:
    """Shell completion of a game argument: the ids of the games in the cards folder."""
    from ..model.game import all_games

    return [p.name for p in all_games() if p.name.startswith(incomplete)]


def complete_list(choices: list[str], incomplete: str) -> list[str]:
    """Shell completion of a comma-separated option: the last item, after those typed."""
    done, _, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    typed = set(done.split(","))
    return [prefix + c for c in choices if c.startswith(last) and c not in typed]
