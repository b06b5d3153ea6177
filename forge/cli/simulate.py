"""`forge simulate`: play many seeded games with the game's rules engine and summarise them."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from ..errors import FindingsError, UsageError
from .app import Format, app, check_output, resolve_games, split_names


def _config(module, game, sets: str, goals_variant: str, goals_value: int, promo_jobs: str,
            promo_cards: str):
    chosen = tuple(s.strip() for s in sets.split(",") if s.strip()) if sets else ("base",)
    unknown = [s for s in chosen if s not in game.manifest.sets]
    if unknown:
        raise UsageError(f"unknown set(s) {', '.join(unknown)} (known: {', '.join(game.manifest.sets)})")
    replace = ()
    if promo_cards == "replace":
        replace = module.full_replacement(game)
    elif promo_cards != "add":
        raise UsageError("--promo-cards is 'add' or 'replace'")
    try:
        return module.Config(sets=chosen, goals_variant=goals_variant, goals_same_value=goals_value,
                             promo_jobs=promo_jobs, promo_replace=replace)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


@app.command()
def simulate(
    game: str = typer.Argument(..., help="Game id or folder."),
    games: int = typer.Option(1000, "--games", min=1, help="Games to play."),
    players: int = typer.Option(4, "--players", help="Players per game."),
    seed: int = typer.Option(0, "--seed", help="Seed of the whole run."),
    sets: str = typer.Option("base", "--sets", help="Sets in play, comma-separated (base is always in)."),
    agents: str = typer.Option("random", "--agents", help="Agents per seat, comma-separated, repeated "
                               "over the seats (random, greedy)."),
    jobs: int = typer.Option(1, "--jobs", min=0, help="Worker processes; 0 = one per core."),
    goals_variant: str = typer.Option("standard", "--goals-variant",
                                      help="#RelationshipGoals: standard, same, open, hidden, planned."),
    goals_value: int = typer.Option(0, "--goals-value", min=0, help="VP of every goal for --goals-variant "
                                    "same (0: a random VP card sets it)."),
    promo_jobs: str = typer.Option("mix", "--promo-jobs", help="Promo jobs: mix or replace."),
    promo_cards: str = typer.Option("add", "--promo-cards", help="Promo cards: add, or replace the "
                                    "base cards they name."),
    check: str = typer.Option("round", "--check", help="Invariant checks: step, round or off."),
    report: Optional[Path] = typer.Option(None, "--report", help="Also write a PDF balance report."),
    lang: str = typer.Option("uk", "--lang", help="Language of the report (uk, en)."),
    format: Format = typer.Option(Format.text, "--format", help="Output format."),
) -> None:
    """Simulate games; report win rates, scores, dead cards and invariant violations (exit 1)."""
    from ..model import load_game
    from ..rules import ENGINES
    from ..rules.simulate import player_range, simulate as run

    agent_list = tuple(split_names(agents, "--agents"))
    if report is not None:
        check_output(report, "--report", folder=False)
    root = resolve_games([game])[0]
    loaded, findings = load_game(root)
    if loaded is None or findings:
        raise FindingsError(findings)
    module = ENGINES.get(loaded.manifest.engine or "")
    if module is None:
        raise UsageError(f"{loaded.id} names no rules engine this forge has "
                         f"(engine: {loaded.manifest.engine!r}; known: {', '.join(ENGINES)})")
    lo, hi = player_range(loaded, module)
    if not lo <= players <= hi:
        raise UsageError(f"--players: {loaded.id} takes {lo}-{hi} players (got {players})")
    if check not in ("step", "round", "off"):
        raise UsageError("--check is step, round or off")
    if lang not in loaded.manifest.locales:
        raise UsageError(f"--lang: one of {', '.join(loaded.manifest.locales)}")
    config = _config(module, loaded, sets, goals_variant, goals_value, promo_jobs, promo_cards)
    try:
        result = run(loaded, games=games, players=players, seed=seed, config=config,
                     agents=agent_list, jobs=jobs, check=check)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if report is not None:
        from ..rules.report import write_report
        write_report(result, report, lang=lang, game=loaded)
    if format is Format.json:
        json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        typer.echo(text_summary(result))
    raise typer.Exit(1 if result["violations"] else 0)


def text_summary(r: dict) -> str:
    lines = [f"{r['game']}: {r['games']} games, {r['players']} players, seed {r['seed']}, "
             f"sets {','.join(r['sets'])}, agents {','.join(r['agents'])}",
             f"speed: {r['games_per_s']} games/s, {r['decisions_per_s']} decisions/s, "
             f"{r['mean_decisions_per_game']} decisions/game"]
    for s, rate in enumerate(r["seat_win_rate"]):
        lo, hi = rate["ci95"]
        lines.append(f"  seat {rate['seat']} ({rate['agent']}): win {rate['win_rate']:.3f} "
                     f"[{lo:.3f}, {hi:.3f}], mean score {r['mean_score'][s]}")
    lines.append("dead cards: " + (", ".join(r["dead_cards"]) or "none"))
    lines.append(f"violations: {len(r['violations'])}")
    for v in r["violations"][:5]:
        lines.append(f"  game {v['game']} seed {v['seed']}: {v['message']}")
    return "\n".join(lines)
