"""Worked examples quoted from scenario files: title, story, and the result the scenario asserts.

The scenario files are the rules engine's tests (tests/scenarios/<game>/*.yaml, see
docs/scenarios.md): the rulebook prints what the engine checks, so an example in print is an
example that passes. A rulebook's example states its result in a sentence or two, so only the
`expect:` keys the file names in `shows:` are printed (by default who has how much and who wins),
as sentences in the rulebook's language (forge/rulebook/outcome.py), never as keys and card ids;
the rest of what the engine checks is the build's gate, not the reader's text.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import Finding
from ..scenario import ScenarioError, load_scenario, run_scenario
from .markdown import parsed
from .outcome import describe

def failing_examples(game: Any, rendered: Any) -> list[Finding]:
    """Run every scenario a rendered template quotes; each one that fails is a finding at the
    template line that quotes it. A rulebook whose example the engine rejects is not printed."""
    findings = []
    for block in rendered.blocks.values():
        if block.kind != "scenario" or not block.scenario:
            continue
        result = run_scenario(block.scenario["_path"], game)
        if not result.passed:
            findings.append(Finding(block.file, block.line, 1 if block.line else 0, "rulebook-scenario",
                                    f"the quoted example {Path(result.path).stem!r} fails in the "
                                    f"rules engine: {'; '.join(result.failures)}",
                                    "fix the scenario, the data or the rules"))
    return findings


#: What an example states when its file has no `shows:`: the game's result. Where cards lie
#: after a move is the story's to tell, or the file names those keys.
RESULT_KEYS = ("scores", "winners", "over")


def localised(value: Any, lang: str) -> str:
    if isinstance(value, dict):
        return str(value.get(lang) or next(iter(value.values()), ""))
    return "" if value is None else str(value)


def outcome_sentences(data: dict, lang: str, game: Any = None) -> list[str]:
    """What the scenario's `expect:` asserts under the keys of its `shows:`, as sentences a player reads in `lang` (see
    forge/rulebook/outcome.py): card names, not ids; «гравець А», not keys. Empty when the file
    cannot be read again or asserts nothing that can be put in words."""
    path = data.get("_path")
    if not path:
        return []
    try:
        sc = load_scenario(path, game)
    except ScenarioError:
        return []
    names = {c.id: c.name for c in sc.game.cards} if sc.game is not None else {}
    shown = sc.data.get("shows", RESULT_KEYS)
    expect = {k: v for k, v in (sc.data.get("expect") or {}).items() if k in shown}
    return describe(expect, lang, names, sc.engine, sc.game)


def scenario_flowables(conv, data: dict) -> list:
    """Flowables for one scenario, set in the converter's quote style."""
    s, lang = conv.styles, conv.lang
    out = []
    title = localised(data.get("title"), lang)
    if title:
        out.append(conv.para(f"<b>{conv.text(title)}</b>", s.quote))
    story = localised(data.get("story"), lang)
    if story.strip():
        out.extend(conv.nodes(parsed(story).children, 0, s.quote))
    sentences = outcome_sentences(data, lang, conv.game)
    if sentences:
        out.append(conv.para(" ".join(conv.text(line) for line in sentences), s.quote))
    return out
