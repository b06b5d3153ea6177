"""`forge simulate`: play many seeded games with the game's rules engine and summarise them.

The argument checks here (a game the engine can play, its options, agents, seats, sets, where
the games run) are shared with `forge compare`."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..errors import EngineError, FindingsError, UsageError
from .app import (Format, FormatOption, Output, QuietOption, VerboseOption, app, check_output,
                  counted, resolve_games, split_names)

if TYPE_CHECKING:
    from ..rules.core import Engine

#: The most --jobs may name: more is a typing mistake, not a machine.
MAX_JOBS = 1024
#: The transports a dask scheduler listens on that a client on another process can reach.
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
EXECUTOR_HELP = ("Where games run: loky (worker processes on this machine) or dask (a cluster; "
                 "the [dask] extra; see docs/simulate.md).")
ADDRESS_HELP = ("With --executor dask: the scheduler, [tcp|tls|ws|wss|ucx://]HOST:PORT (default: a "
                "local cluster of --jobs workers). A dask cluster can run code in forge: connect "
                "only to a cluster you run (docs/simulate.md).")
JOBS_HELP = (f"Worker processes; 0 = one per core; 1 = this process (loky); more than the cores "
             f"runs one per core (at most {MAX_JOBS}).")


def _address(value: str | None) -> str | None:
    """--address checked as it is parsed: [SCHEME://]HOST:PORT, SCHEME one dask listens on."""
    if value is None:
        return None
    from urllib.parse import urlsplit
    parts = urlsplit(value if "://" in value else f"tcp://{value}")
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme not in SCHEMES or not parts.hostname or not port or parts.username \
            or parts.password or parts.path or parts.query or parts.fragment:
        raise typer.BadParameter(f"{value!r}: write [tcp|tls|ws|wss|ucx://]HOST:PORT with a port "
                                 f"of 1-65535, as `dask scheduler` prints it (e.g. "
                                 f"tcp://192.168.1.5:8786)")
    return value


class Executor(str, Enum):
    loky = "loky"
    dask = "dask"


class Check(str, Enum):
    step = "step"
    round = "round"
    off = "off"


JobsOption = Annotated[int, typer.Option("--jobs", min=0, max=MAX_JOBS, help=JOBS_HELP)]
ExecutorOption = Annotated[Executor, typer.Option("--executor", help=EXECUTOR_HELP)]
AddressOption = Annotated[Optional[str], typer.Option("--address", help=ADDRESS_HELP,
                                                      callback=_address)]
LangOption = Annotated[str, typer.Option("--lang", help="Language of the report (uk, en).")]
PlayersOption = Annotated[Optional[int], typer.Option(
    "--players", help="Players per game (default: 4, or the most the game seats if fewer).")]
CheckOption = Annotated[Check, typer.Option("--check", help="Invariant checks: after every decision "
                                            "(step), at the engine's checkpoints (round), or never (off).")]


def _extra_options(args: list[str], engine: Engine, flags: dict[str, str]) -> dict[str, str]:
    """Engine options given as their own flags (``--goals-variant planned``, kept from before
    options were declared by engines): ``--NAME VALUE`` or ``--NAME=VALUE`` where NAME, with
    dashes as underscores, is one of the engine's options or aliases. Anything else is a usage
    error naming the flag."""
    from ..rules.simulate import AGENT_OPTIONS
    names = {o.name for o in (*engine.options, *AGENT_OPTIONS)}
    aliases = engine.option_aliases
    out: dict[str, str] = {}
    k = 0
    while k < len(args):
        arg = args[k]
        flag, eq, value = arg.partition("=")
        name = flag[2:].replace("-", "_") if flag.startswith("--") else ""
        name = aliases.get(name, name)
        if name not in names:
            raise UsageError(f"no such option: {flag} (engine options: "
                             f"{', '.join(sorted(names)) or 'none'}; see --help-options)")
        if not eq:
            k += 1
            if k >= len(args):
                raise UsageError(f"{flag} needs a value")
            value = args[k]
        out[name] = value
        flags[name] = flag
        k += 1
    return out


def _option_pairs(values: list[str], flags: dict[str, str], flag: str = "--option") -> dict[str, str]:
    out = {}
    for item in values:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise UsageError(f"{flag} {item!r}: write name=value")
        out[name.strip()] = value.strip()
        flags[name.strip()] = flag
    return out


def options_help(engine: Engine) -> str:
    """The engine's options and the agents', one block each, for ``--help-options``."""
    from ..rules.simulate import AGENT_OPTIONS

    def block(o: Any) -> list[str]:
        kind = " | ".join(map(str, o.choices)) if o.choices else o.type.__name__
        return [f"  {o.name} ({kind}; default: {o.default!r})"] + ([f"      {o.help}"] if o.help else [])
    lines = [f"options of the {engine.name} engine (--option NAME=VALUE):" if engine.options
             else f"the {engine.name} engine has no options"]
    for o in engine.options:
        lines += block(o)
    lines.append("options of the agents (--option NAME=VALUE):")
    for o in AGENT_OPTIONS:
        lines += block(o)
    return "\n".join(lines)


def playable(root: Path) -> tuple[Any, Engine]:
    """The loaded game at ``root`` and its engine; findings (exit 1) for a game that does
    not load or that its engine cannot play."""
    from ..check.engine import check_engine
    from ..model import load_game
    from ..rules import ENGINES
    loaded, findings = load_game(root)
    if loaded is None or findings:
        raise FindingsError(findings)
    module = ENGINES.get(loaded.manifest.engine or "")    # a broken engine: EngineError, exit 1
    if module is None:
        raise EngineError(f"{loaded.id} names no rules engine this forge has "
                          f"(engine: {loaded.manifest.engine!r}; known: {', '.join(ENGINES)})")
    unfit = list(check_engine(loaded))     # data the engine cannot play: findings, never a crash
    if unfit:
        raise FindingsError(unfit)
    return loaded, module


def engine_options(engine: Engine, given: dict[str, str], flags: dict[str, str]) -> dict[str, str]:
    """``given`` checked against the engine's options: a bad value typed is a usage error."""
    from ..rules.core import resolve_options
    from ..rules.simulate import AGENT_OPTIONS
    for name, value in given.items():
        try:
            resolve_options((*engine.options, *AGENT_OPTIONS), {name: value})
        except EngineError as exc:
            raise UsageError(f"{flags.get(name, '--option')}: {exc} (see --help-options)") from None
    return given


def seat_agents(agents: str | None, module: Engine) -> tuple[str, ...]:
    """The agents named by --agents, checked; without it, the engine's default agents."""
    from ..rules.agents import agents_for
    if agents is None:
        return module.default_agents
    agent_list = tuple(split_names(agents, "--agents"))
    known = agents_for(module)
    for a in agent_list:
        if a not in known:
            raise UsageError(f"--agents: unknown agent {a!r} (known: {', '.join(known)})")
    return agent_list


def seat_count(players: int | None, loaded: Any, module: Engine) -> int:
    """--players, checked; default 4, or the most the game seats if fewer."""
    from ..rules.simulate import player_range
    lo, hi = player_range(loaded, module)
    if players is None:
        players = max(lo, min(4, hi))
    if not lo <= players <= hi:
        raise UsageError(f"--players: {loaded.id} takes {lo}-{hi} players (got {players})")
    return players


def chosen_sets(sets: str | None, loaded: Any) -> tuple[str, ...] | None:
    chosen = tuple(s.strip() for s in sets.split(",") if s.strip()) if sets else None
    unknown = [s for s in chosen or () if s not in loaded.manifest.sets]
    if unknown:
        raise UsageError(f"unknown set(s) {', '.join(unknown)} (known: {', '.join(loaded.manifest.sets)})")
    return chosen


def run_checks(show: Output, executor: str, address: str | None, jobs: int) -> None:
    """--address and --jobs, before any work (typer checks --check and --executor against their
    choices, --jobs against 0..MAX_JOBS and the form of --address): a note when --jobs asks
    for more processes on this machine than it has cores (it runs one per core)."""
    from ..rules.workers import local_workers
    if address and executor != "dask":
        raise UsageError("--address names a dask scheduler: give --executor dask too")
    if jobs and not address and (n := local_workers(jobs)) < jobs:
        show.summary(f"note: --jobs {jobs}: this machine gives forge {n} cores; running {n} worker processes")


def interrupted(show: Output, done: int, asked: int) -> None:
    """The one line Ctrl-C earns, after the partial result; exit 130."""
    show.error(f"forge: interrupted: the result above counts the {done:,} games finished "
               f"of {asked:,}")
    raise typer.Exit(130)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def simulate(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="Game id or folder."),
    games: int = typer.Option(1000, "--games", min=1, help="Games to play."),
    players: PlayersOption = None,
    seed: int = typer.Option(0, "--seed", help="Seed of the whole run."),
    sets: Optional[str] = typer.Option(None, "--sets", help="Sets in play, comma-separated (default: "
                                       "the engine's, usually the first set)."),
    agents: Optional[str] = typer.Option(None, "--agents", help="Agents per seat, comma-separated, "
                                         "repeated over the seats (random, search, and the engine's "
                                         "own: --help-options); default: the engine's own choice "
                                         "(random, unless --help-options names another)."),
    option: list[str] = typer.Option([], "--option", help="An engine option, NAME=VALUE "
                                     "(repeatable; --help-options lists them). An engine option "
                                     "can also be given as --NAME VALUE."),
    help_options: bool = typer.Option(False, "--help-options", help="List the engine's options "
                                      "and agents, and exit."),
    jobs: JobsOption = 1,
    executor: ExecutorOption = Executor.loky,
    address: AddressOption = None,
    check: CheckOption = Check.round,
    report: Optional[Path] = typer.Option(None, "--report", help="Also write a PDF balance report."),
    lang: LangOption = "uk",
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Simulate games; report win rates, scores, dead cards and invariant violations (exit 1).
    Ctrl-C prints the result of the games finished so far and exits 130."""
    from ..rules.agents import agents_for
    from ..rules.simulate import simulate as run
    from ..rules.workers import Interrupted

    show = Output(format, quiet, verbose)
    loaded, module = playable(resolve_games([game])[0])
    if help_options:
        typer.echo(options_help(module))
        typer.echo("agents: " + ", ".join(agents_for(module))
                   + f" (default: {', '.join(module.default_agents)})")
        raise typer.Exit(0)
    flags: dict[str, str] = {}
    given = _extra_options(list(ctx.args), module, flags)
    given.update(_option_pairs(option, flags))
    given = engine_options(module, given, flags)
    agent_list = seat_agents(agents, module)
    if report is not None:
        check_output(report, "--report", folder=False)
    players = seat_count(players, loaded, module)
    run_checks(show, executor.value, address, jobs)
    if lang not in loaded.manifest.locales:
        raise UsageError(f"--lang: one of {', '.join(loaded.manifest.locales)}")
    chosen = chosen_sets(sets, loaded)
    try:
        with show.progress(games, f"{loaded.id}: {games:,} games") as bar:
            result = run(loaded, games=games, players=players, seed=seed, options=given,
                         sets=chosen, agents=agent_list, jobs=jobs, check=check.value,
                         executor=executor.value, address=address, progress=bar.advance)
    except Interrupted as stop:
        _emit(show, stop.partial)
        interrupted(show, stop.partial["games"] + stop.partial["violation_count"], games)
    if report is not None:
        from ..rules.report import write_report
        write_report(result, report, lang=lang, game=loaded)
    _emit(show, result)
    timeouts = (result.get("engine") or {}).get("timeouts", 0)
    if result["games"] and timeouts == result["games"]:
        # no game ended by its rules: an end that never holds is a defect, not a statistic
        show.error(f"{loaded.id}: every game hit the work cap (option cap): no end condition held")
        raise typer.Exit(1)
    raise typer.Exit(1 if result["violation_count"] else 0)


def _emit(show: Output, result: dict) -> None:
    if show.json:
        show.data(result)
    else:
        typer.echo(text_summary(result))


def text_summary(r: dict) -> str:
    name = lambda a: r["agent_names"].get(a, {}).get("en", a)   # noqa: E731
    who = ", ".join(dict.fromkeys(map(name, r["agents"])))
    lines = [f"{r['game']}: {counted(r['games'], 'game')}, {r['players']} players, seed {r['seed']}, "
             f"sets {','.join(r['sets'])}, agents {','.join(map(name, r['agents']))}",
             f"speed: {r['games_per_s']} games/s, {r['decisions_per_s']} decisions/s, "
             f"{r['mean_decisions_per_game']} decisions/game"]
    for s, rate in enumerate(r["seat_win_rate"]):
        lo, hi = rate["ci95"]
        lines.append(f"  seat {rate['seat']} ({name(rate['agent'])}): win {rate['win_rate']:.3f} "
                     f"[{lo:.3f}, {hi:.3f}], mean score {r['mean_score'][s]}")
    bound = f"{100 * r['never_seen_bound95']:.2g} %"
    lines.append("dead cards (no rule offered them): " + (", ".join(r["dead_cards"]) or "none")
                 + (f"; each offered in under {bound} of games (95 %)" if r["dead_cards"] else ""))
    lines.append(f"offered but never played by these agents ({who}): "
                 + ("games chosen/offered, by option verb" if r["unplayed_cards"] else "none"))
    lines += [f"  {_offered(r, c)}" for c in r["unplayed_cards"]]
    lines.append("decisions by kind (times asked, in games): " + ", ".join(
        f"{kind} {k['decisions']} ({k['games']})" for kind, k in r["decision_kinds"].items()))
    lines.append(f"options by verb ({who}; times chosen, in games chosen/offered): " + ", ".join(
        f"{verb} {v['chosen']} ({v['games_chosen']}/{v['games_offered']})"
        for verb, v in r["option_verbs"].items()))
    lines.append(f"violations: {r['violation_count']}")
    for v in r["violations"][:5]:
        lines.append(f"  game {v['game']} seed {v['seed']}: {v['message']}")
    from ..rules.report import engine_lines
    lines += engine_lines(r, "en")
    return "\n".join(lines)


def _offered(r: dict, cid: str) -> str:
    """``cid`` and how its options fared: ``sleep_spell: discard 364/878, play 0/1391``."""
    verbs = r["cards"][cid]["options"]
    return f"{cid}: " + ", ".join(f"{verb} {v['games_chosen']}/{v['games_offered']}"
                                  for verb, v in verbs.items())
