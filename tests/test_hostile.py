"""Hostile and broken input, run through the `forge` command: each case in tests/cases/hostile/
is data with the answer forge must give written beside it (see the README there)."""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
import yaml

from conftest import CARDS, ROOT, forge_forked, tree_digest

#: What one hostile run may cost, enforced by the kernel rather than timed: address space (a
#: payload that asks for gigabytes fails, and forge must turn that into a finding before it
#: allocates) and CPU seconds (a payload that spins is killed). The CPU bound guards against a
#: hang, not for speed: it is 10x or more a case's honest cost, since CPU time too grows on a
#: slower machine or one whose cores are busy with other work (the runs here cost at most 3 CPU
#: s; a case whose honest work is larger says `cpu: N`). Work that must stay in proportion to
#: its input is counted where it is done (tests/test_load.py, tests/test_fit.py).
MEMORY = 1 << 30
CPU_SECONDS = 30

#: git as the `git:` edits run it: a fixed identity and date, no user or system config.
GIT_ENV = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}

HERE = Path(__file__).parent / "cases" / "hostile"
CASES = [(path.stem, case) for path in sorted(HERE.glob("*.yaml"))
         for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []]


def _fill(value, places: dict[str, str]):
    if isinstance(value, str):
        for key, real in places.items():
            value = value.replace(key, real)
        return value
    if isinstance(value, list):
        return [_fill(v, places) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, places) for k, v in value.items()}
    return value


def _edit(proj: Path, edit: dict) -> None:
    path = proj / edit.get("file", ".")
    path.parent.mkdir(parents=True, exist_ok=True)
    if "replace" in edit:
        old, new = edit["replace"]
        if "repeat" in edit:  # the new text goes on with generated text
            text, times = edit["repeat"]
            new += text * times + edit.get("then", "")
        text = path.read_text(encoding="utf-8")
        assert old in text, f"the case no longer matches {edit['file']}: {old!r}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    elif "write" in edit:
        path.write_text(edit["write"], encoding="utf-8")
    elif "symlink" in edit:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        path.unlink(missing_ok=True)
        path.symlink_to(edit["symlink"])
    elif "repeat" in edit:
        text, times = edit["repeat"]
        path.write_text(edit.get("before", "") + text * times + edit.get("then", ""), encoding="utf-8")
    elif "mkdir" in edit:
        path.mkdir(parents=True, exist_ok=True)
    elif "bytes" in edit:
        path.write_bytes(bytes.fromhex(edit["bytes"]))
    elif "zip" in edit:
        _write_zip(path, edit["zip"])
    elif "fifo" in edit:
        path.unlink(missing_ok=True)
        os.mkfifo(path)
    elif "git" in edit:
        for args in edit["git"]:
            done = subprocess.run(["git", *args], cwd=path, env=GIT_ENV, capture_output=True, text=True)
            assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    if "mode" in edit:
        os.chmod(path, edit["mode"])


def _write_zip(path: Path, members: dict) -> None:
    """An archive (.xlsx, .ods) of deflated members; a member is a text, or a list of texts and
    [text, times], written in pieces (a member of gigabytes costs no memory here)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, parts in members.items():
            with z.open(name, "w") as f:
                for part in [parts] if isinstance(parts, str) else parts:
                    text, times = (part, 1) if isinstance(part, str) else part
                    batch = max(1, (1 << 20) // max(len(text), 1))
                    while times > 0:
                        f.write(text.encode("utf-8") * min(times, batch))
                        times -= batch


def _line_of(path: Path, needle: str) -> int:
    lines = path.read_bytes().decode("utf-8", "replace").splitlines()
    return next(n for n, line in enumerate(lines, 1) if needle in line)


def _bounded_forge(args: list[str], cwd: Path, cpu: int, env: dict[str, str] | None) -> subprocess.CompletedProcess:
    """forge in a process of its own under the kernel's limits above; a run killed by them
    fails the case with what killed it."""
    limits = {resource.RLIMIT_AS: (MEMORY, MEMORY), resource.RLIMIT_CPU: (cpu, cpu + 1)}
    done = forge_forked(*args, cwd=cwd, limits=limits, env=env)
    assert done.returncode >= 0, f"killed by signal {-done.returncode} (over {cpu} CPU s or {MEMORY >> 20} MiB?)"
    return done


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[f"{f}: {c['name']}" for f, c in CASES])
def test_hostile_input_gets_a_clear_answer(tmp_path, case):
    proj = tmp_path / "proj"
    game = proj / "cards" / case.get("new", case.get("game", "love_formula"))
    places = {"@TMP@": str(tmp_path), "@PROJ@": str(proj), "@GAME@": str(game), "@OUT@": str(tmp_path / "out")}
    case = _fill(case, places)
    if "new" in case:
        from forge.scaffold import scaffold
        scaffold(proj, case["new"])
    else:
        shutil.copytree(CARDS / game.name, game)
    if case.get("templates"):
        shutil.copytree(ROOT / "templates", proj / "templates")
    for edit in case.get("edit", []):
        _edit(proj, edit)
    env = {"PATH": os.pathsep.join([case["path"], os.environ["PATH"]])} if "path" in case else None
    for before in case.get("before", []):
        done = forge_forked(*before, cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stdout + done.stderr
    digests = {p: tree_digest(Path(p)) if Path(p).is_dir() else Path(p).read_bytes()
               for p in case.get("unchanged", [])}
    result = _bounded_forge(case["run"], tmp_path, case.get("cpu", CPU_SECONDS), env)
    said = result.stdout + result.stderr
    try:
        exits = case["exit"] if isinstance(case["exit"], list) else [case["exit"]]
        assert result.returncode in exits, said
        assert "Traceback" not in said and "internal error" not in said
        if "where" in case:
            where = case["where"]
            line = where.get("line") or _line_of(proj / where["file"], where["line_of"])
            assert f"{Path(where['file']).name}:{line}:" in said, said
        for text in case.get("says", []):
            assert text in said, said
        for text in case.get("says_not", []):
            assert text not in said, said
        for path in case.get("absent", []):
            assert not Path(path).exists(), f"{path} was made: the payload ran"
        for path, digest in digests.items():
            now = tree_digest(Path(path)) if Path(path).is_dir() else Path(path).read_bytes()
            assert now == digest, f"{path} changed"
    finally:
        for edit in case.get("edit", []):  # let pytest remove what a case made read-only
            if "mode" in edit:
                os.chmod(proj / edit["file"], 0o755)
