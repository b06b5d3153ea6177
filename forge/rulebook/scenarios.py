"""Worked examples quoted from scenario files: title, story, and the outcome the scenario asserts.

The scenario files are the rules engine's tests (tests/scenarios/<game>/*.yaml, see
docs/scenarios.md): the rulebook prints what the engine checks, so an example in print is an
example that passes. The outcome is printed from the file's assertions, not from prose.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from markdown_it.tree import SyntaxTreeNode

from ..errors import Finding
from ..scenario import run_scenario
from .markdown import parser

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


_LABEL = {"uk": "Перевірено рушієм гри", "en": "Checked by the game engine"}
_OUTCOME_KEYS = ("expect", "expected", "assert", "asserts", "outcome", "then")


def localised(value: Any, lang: str) -> str:
    if isinstance(value, dict):
        return str(value.get(lang) or next(iter(value.values()), ""))
    return "" if value is None else str(value)


def outcome_lines(data: dict, lang: str) -> list[str]:
    """One line per asserted fact, `key: value`, nested keys joined by a space."""
    for key in _OUTCOME_KEYS:
        if key in data:
            return list(_flatten(data[key], lang, ""))
    return []


def _flatten(value: Any, lang: str, prefix: str):
    if isinstance(value, dict) and set(value) >= {lang}:
        yield f"{prefix}{localised(value, lang)}"
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)):
                yield from _flatten(item, lang, f"{prefix}{key} ")
            else:
                yield f"{prefix}{key}: {_value(item, lang)}"
    elif isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            yield f"{prefix.strip()}: {', '.join(_value(v, lang) for v in value)}"
        else:
            for item in value:
                yield from _flatten(item, lang, prefix)
    else:
        yield f"{prefix.strip()}: {_value(value, lang)}"


_YES_NO = {"uk": ("так", "ні"), "en": ("yes", "no")}


def _value(v: Any, lang: str = "en") -> str:
    if isinstance(v, bool):
        return _YES_NO.get(lang, _YES_NO["en"])[0 if v else 1]
    return str(v)


def scenario_flowables(conv, data: dict) -> list:
    """Flowables for one scenario, set in the converter's quote style."""
    s, lang = conv.styles, conv.lang
    out = []
    title = localised(data.get("title"), lang)
    if title:
        out.append(conv.para(f"<b>{conv.text(title)}</b>", s.quote))
    story = localised(data.get("story"), lang)
    if story.strip():
        out.extend(conv.nodes(SyntaxTreeNode(parser().parse(story)).children, 0, s.quote))
    lines = outcome_lines(data, lang)
    if lines:
        out.append(conv.para(f"<i>{conv.text(_LABEL.get(lang, _LABEL['en']))}:</i> "
                             + "; ".join(conv.text(line) for line in lines), s.small))
    return out
