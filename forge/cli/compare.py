"""`forge compare`: did a change move the balance beyond noise? Two versions of a game (a git
revision or a folder each, or engine options), or a game with and without a card (--ablate),
play the same seeded games; the paired differences come with 95 % intervals and a verdict."""
from __future__ import annotations

import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Optional

import typer

from ..errors import UsageError
from .app import (Format, FormatOption, Output, QuietOption, VerboseOption, app, check_output,
                  resolve_games)
from .simulate import (AddressOption, Check, CheckOption, Executor, ExecutorOption, JobsOption,
                       LangOption, PlayersOption, _option_pairs, chosen_sets, engine_options,
                       interrupted, playable, run_checks, seat_agents, seat_count)


def version(root: Path, given: str | None, flag: str, stack: ExitStack) -> Path:
    """The game folder a --a/--b names: the game itself (nothing given), a folder, or the game's
    folder at a git revision, written into a temporary folder (removed at the end) from git's
    objects as committed (`forge.revision`); the repository is not touched."""
    from ..revision import extract
    if given is None:
        return root
    folder = Path(given)
    if folder.is_dir():
        return folder
    tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="forge-compare-")))
    try:
        return extract(root, given, tmp)
    except UsageError as exc:
        raise UsageError(f"{flag} {given}: {exc}") from None


@app.command()
def compare(
    game: str = typer.Argument(..., help="Game id or folder."),
    a: Optional[str] = typer.Option(None, "--a", help="Side A: a git revision of the game's "
                                    "folder (HEAD~1, a tag) or a game folder (default: the game)."),
    b: Optional[str] = typer.Option(None, "--b", help="Side B, as --a (default: the game)."),
    option: list[str] = typer.Option([], "--option", help="An engine option on both sides, "
                                     "NAME=VALUE (repeatable)."),
    a_option: list[str] = typer.Option([], "--a-option", help="An engine option on side A only."),
    b_option: list[str] = typer.Option([], "--b-option", help="An engine option on side B only."),
    ablate: list[str] = typer.Option([], "--ablate", help="Card id: compare side A with its "
                                     "agents forbidden to choose the card, and report what the "
                                     "card is worth to whoever plays it (repeatable: each card "
                                     "on its own)."),
    games: int = typer.Option(2000, "--games", min=2, help="Paired games to play."),
    players: PlayersOption = None,
    seed: int = typer.Option(0, "--seed", help="Seed of the whole run (both sides)."),
    sets: Optional[str] = typer.Option(None, "--sets", help="Sets in play, comma-separated."),
    agents: Optional[str] = typer.Option(None, "--agents", help="Agents per seat, comma-separated "
                                         "(default: the engine's, as for simulate)."),
    precision: float = typer.Option(1.0, "--precision", min=0.01, help="Interval half-width, in "
                                    "percentage points, to compute the games needed for."),
    jobs: JobsOption = 1,
    executor: ExecutorOption = Executor.loky,
    address: AddressOption = None,
    check: CheckOption = Check.round,
    report: Optional[Path] = typer.Option(None, "--report", help="Also write a PDF page of charts."),
    lang: LangOption = "uk",
    format: FormatOption = Format.text,
    quiet: QuietOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Compare two versions of a game on the same seeded games: paired changes of win rate per
    seat, score, game length and per card, with 95 % intervals and a verdict. Exit 0 either way;
    Ctrl-C prints the comparison of the games finished so far and exits 130."""
    from ..rules.compare import Side, compare as run
    from ..rules.workers import Interrupted

    show = Output(format, quiet, verbose)
    if ablate and (b is not None or b_option):
        raise UsageError("--ablate compares side A with itself without the card: give no --b "
                         "or --b-option with it")
    if not (ablate or b is not None or a is not None or a_option or b_option):
        raise UsageError("nothing to compare: give --a and/or --b (a git revision or a folder), "
                         "--a-option/--b-option, or --ablate CARD")
    run_checks(show, executor.value, address, jobs)
    if report is not None:
        check_output(report, "--report", folder=False)
    root = resolve_games([game])[0]
    with ExitStack() as stack:
        game_a, module = playable(version(root, a, "--a", stack))
        flags: dict[str, str] = {}
        common = _option_pairs(option, flags)
        opts_a = engine_options(module, {**common, **_option_pairs(a_option, flags, "--a-option")}, flags)
        side_a = Side(game_a, a or str(root), opts_a)
        side_b = None
        if not ablate:
            game_b, module_b = playable(version(root, b, "--b", stack))
            if module_b is not module:
                raise UsageError(f"side B plays with the {module_b.name} engine, side A with "
                                 f"{module.name}: a comparison needs one engine")
            opts_b = engine_options(module, {**common, **_option_pairs(b_option, flags, "--b-option")}, flags)
            side_b = Side(game_b, b or str(root), opts_b)
        for card in ablate:
            if card not in {c.id for c in game_a.cards}:
                raise UsageError(f"--ablate {card}: no such card in {game_a.id}")
        agent_list = seat_agents(agents, module)
        players = seat_count(players, game_a, module)
        if lang not in game_a.manifest.locales:
            raise UsageError(f"--lang: one of {', '.join(game_a.manifest.locales)}")
        chosen = chosen_sets(sets, game_a)
        try:
            with show.progress(games, f"{game_a.id}: {games:,} paired games") as bar:
                result = run(side_a, side_b, games=games, players=players, seed=seed,
                             sets=chosen, agents=agent_list, ablate=tuple(ablate), jobs=jobs,
                             check=check.value, executor=executor.value, address=address,
                             precision=precision / 100, progress=bar.advance)
        except Interrupted as stop:
            _emit(show, stop.partial)
            interrupted(show, stop.partial["games"] + stop.partial["dropped_for_violations"], games)
        if report is not None:
            from ..rules.report import write_comparison
            write_comparison(result, report, lang=lang, game=game_a)
    _emit(show, result)


def _emit(show: Output, result: dict) -> None:
    if show.json:
        show.data(result)
    else:
        typer.echo(text_summary(result))


def _interval(e: dict, pp: bool = True) -> str:
    if e["diff"] is None:
        return "n/a"
    k, unit = (100, " pp") if pp else (1, "")
    half = (e["ci95"][1] - e["ci95"][0]) / 2
    return f"{k * e['diff']:+.2f}{unit} ± {k * half:.2f}"


def _level(x: Any, pp: bool = True) -> str:
    return "–" if x is None else (f"{x:.3f}" if pp else f"{x:.2f}")


def text_summary(r: dict) -> str:
    a, b = r["a"], r["b"]
    if b is None:
        head = f"{r['game']}: {a['source']} with and without {', '.join(r['ablation'])}"
    else:
        head = f"{r['game']}: A = {a['source']}{_opts(a)}, B = {b['source']}{_opts(b)}"
    lines = [head, f"{r['games']:,} paired games (same seeds on both sides), {r['players']} "
             f"players, seed {r['seed']}, agents {','.join(r['agents'])}"
             + (f"; {r['dropped_for_violations']} left out for a violation"
                if r["dropped_for_violations"] else ""),
             "verdict: " + "; ".join(r["verdict"])]
    if b is None:
        lines.append("card: holders' win rate with it, without it, change (95 %)")
        for card, e in r["ablation"].items():
            lines.append(f"  {card}: {_level(e['a'])} → {_level(e['b'])}, {_interval(e)} "
                         f"(played in {100 * e['played_share_a']:.0f} % of games)")
        return "\n".join(lines)
    lines.append("seat win rate: A → B, change B − A (95 %)")
    for e in r["seat_win_rate"]:
        lines.append(f"  seat {e['seat']} ({e['agent']}): {_level(e['a'])} → {_level(e['b'])}, "
                     f"{_interval(e)}")
    lines.append("mean score: " + ", ".join(f"{e['seat']} {_interval(e, pp=False)}"
                                             for e in r["mean_score"]))
    lines.append(f"game length (seat decisions): {_level(r['length']['a'], False)} → "
                 f"{_level(r['length']['b'], False)}, {_interval(r['length'], pp=False)}")
    moved = sorted(r["cards"].items(), key=lambda kv: -abs(kv[1]["win_share"]["diff"] or 0))[:8]
    lines.append("cards, largest win-share changes (win share: A → B, change; play share change):")
    for card, v in moved:
        w = v["win_share"]
        lines.append(f"  {card}: {_level(w['a'])} → {_level(w['b'])}, {_interval(w)}; "
                     f"played {_interval(v['play_share'])}")
    need = r["games_needed"]
    lines.append(f"games for ± {100 * r['precision']:.1f} pp on every seat's change: "
                 + (f"{need:,}" if need else "any number (the sides play the same games)"))
    return "\n".join(lines)


def _opts(side: dict) -> str:
    return f" ({', '.join(f'{k}={v}' for k, v in side['options'].items())})" if side["options"] else ""
