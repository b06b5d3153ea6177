"""`forge watch` and `forge preview --watch`: a save rebuilds what it feeds; a bad save keeps the
last good file; Ctrl-C is 130."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import ROOT, forge_in_process, run_forge
from forge.cli.watch import Watched, plan, watch_games
from forge.scaffold import scaffold

PRODUCTS = ["pnp", "printshop", "rulebook", "rulebook-booklet", "cheatsheet"]


#: How long a wait here may last before forge counts as hung: a guard against a test that
#: never ends, far above what a build costs on a loaded machine, and no speed claim.
HANG = 300
POLL = 0.05


def _wait(condition) -> None:
    """Wait until `condition()` holds: for an event forge reports, not for a time. The polls
    are bounded only so that a hang ends the test (`HANG` seconds of them)."""
    for _ in range(int(HANG / POLL)):
        if condition():
            return
        time.sleep(POLL)
    pytest.fail(f"nothing after {HANG} s: forge hangs")


def _text(pdf: Path) -> str:
    return " ".join(page.extract_text() for page in PdfReader(pdf).pages)


def _run_here(monkeypatch, cwd: Path, verbs: tuple[str, ...]) -> list[tuple[str, list[str]]]:
    """The `python -m forge VERB ARGS` processes the watch starts, run in this process instead
    (`forge_in_process`, in `cwd`) for the verbs `verbs`, and only counted (exit 0) for the
    others; the list of (verb, args) started, in order."""
    from types import SimpleNamespace

    calls: list[tuple[str, list[str]]] = []

    def run(command, **kwargs):  # [python, -m, forge, verb, args...]
        calls.append((command[3], command[4:]))
        code = forge_in_process(*command[3:], cwd=cwd).returncode if command[3] in verbs else 0
        return subprocess.CompletedProcess(command, code, None)

    monkeypatch.setattr("forge.cli.watch.subprocess", SimpleNamespace(run=run, PIPE=subprocess.PIPE))
    return calls


def test_which_products_a_saved_file_rebuilds(tmp_path):
    scaffold(tmp_path, "g", ["uk", "en"], ["action"])
    game = Watched.of(tmp_path / "cards" / "g")
    t = tmp_path / "templates"

    def rebuilt(name: str, lang: str | None = "en") -> list[str]:
        found = plan([game], [tmp_path / name], PRODUCTS, lang)
        return found[game][0] if game in found else []

    assert rebuilt("cards/g/action.yaml") == PRODUCTS
    assert rebuilt("templates/g/cards/action.yaml.j2") == PRODUCTS
    assert rebuilt("templates/_common/cards/parts.j2") == PRODUCTS
    assert rebuilt("templates/g/rulebook.en.md.j2") == ["rulebook", "rulebook-booklet"]
    assert rebuilt("templates/g/cheatsheet.en.md.j2") == ["cheatsheet"]
    assert rebuilt("templates/g/rulebook.uk.md.j2") == [], "a language not being built"
    assert rebuilt("templates/g/rulebook.uk.md.j2", lang=None) == ["rulebook", "rulebook-booklet"]
    assert rebuilt("output/g/en/pnp-a4.pdf") == []
    own = [(tmp_path / "cards" / "g").resolve(), (t / "g").resolve()]
    assert game.folders() == own, "forge's own _common is not the project's to edit"
    (t / "_common").mkdir()
    assert game.folders() == own + [(t / "_common").resolve()]


def test_the_builds_own_writes_into_the_game_folder_are_no_save(tmp_path):
    """`--out cards/<game>/out`: the output folder, the temporary folder a build is written in
    and the folders made to hold them are no sources, for the language asked for or, with
    none, each of the game's."""
    scaffold(tmp_path, "g", ["uk", "en"], ["action"])
    root = tmp_path / "cards" / "g"
    game = Watched.of(root)
    out = root / "out"
    own = [out, out / "g", out / "g" / "en" / "pnp-a4.pdf", out / "g" / ".en.abc_1234.tmp",
           out / "g" / ".en.abc_1234.tmp" / "png" / "x.png", out / "g" / ".en.abc_1234.old",
           out / "g" / "en" / ".notes.txt.abc_1234.tmp"]
    for lang in ("en", None):
        assert plan([game], [p.resolve() for p in own], PRODUCTS, lang, out) == {}
    assert plan([game], [(out / "g" / "uk" / "pnp-a4.pdf").resolve()], PRODUCTS, "en", out) != {}, \
        "a folder of a language not being built is the user's"
    saved = plan([game], [p.resolve() for p in [*own, root / "action.yaml"]], PRODUCTS, None, out)
    assert saved == {game: (PRODUCTS, [(root / "action.yaml").resolve()])}


def test_a_watch_writing_into_the_game_folder_rebuilds_once_a_save(tmp_path, capsys, monkeypatch):
    """The rebuilds are counted: one for the start and one for each save, none for the files
    the builds write into the watched folder (each build run in this process: what it writes
    counts, not the process it runs in; the slow tests run the watch's own processes)."""
    scaffold(tmp_path, "w", ["en"], ["action"])
    _run_here(monkeypatch, tmp_path, ("build",))
    root = tmp_path / "cards" / "w"
    cards = root / "action.yaml"
    builds: list[tuple[list[str], int]] = []
    stop = threading.Event()
    thread = threading.Thread(target=watch_games, daemon=True, kwargs=dict(
        roots=[root], products=["cheatsheet"], out=root / "out", stop=stop, debounce=100,
        on_build=lambda game, what, code: builds.append((what, code))))
    thread.start()
    try:
        _wait(lambda: len(builds) >= 1)
        for n, name in enumerate(["Spark", "Flare"], start=2):
            cards.write_text(cards.read_text(encoding="utf-8").replace('"Action 1"', f'"{name}"')
                             .replace('"Spark"', f'"{name}"'), encoding="utf-8")
            _wait(lambda: len(builds) >= n)
            assert name in _text(root / "out" / "w" / "en" / "cheatsheet.pdf")
    finally:
        stop.set()
        thread.join(HANG)
    assert not thread.is_alive(), f"the watch did not stop within {HANG} s of being told to"
    said = capsys.readouterr().err
    changed = [line for line in said.splitlines() if line.endswith(" changed")]
    assert builds == [(["cheatsheet"], 0)] * 3, said
    assert len(changed) == 2 and all(line.endswith("/cards/w/action.yaml changed") for line in changed), said


def test_a_save_rebuilds_and_a_bad_save_keeps_the_last_good_file(tmp_path, monkeypatch):
    """Each build run in this process (the slow tests run the watch's own build processes)."""
    scaffold(tmp_path, "w", ["en"], ["action"])
    _run_here(monkeypatch, tmp_path, ("build",))
    cards = tmp_path / "cards" / "w" / "action.yaml"
    out = tmp_path / "out"
    sheet = out / "w" / "en" / "cheatsheet.pdf"
    builds: list[tuple[list[str], int]] = []
    stop = threading.Event()
    thread = threading.Thread(target=watch_games, daemon=True, kwargs=dict(
        roots=[tmp_path / "cards" / "w"], products=["cheatsheet"], out=out, lang="en", paper="a4",
        stop=stop, on_build=lambda game, what, code: builds.append((what, code)), debounce=100))
    thread.start()
    try:
        _wait(lambda: len(builds) >= 1)
        assert builds[0] == (["cheatsheet"], 0) and "Action 1" in _text(sheet)

        cards.write_text(cards.read_text(encoding="utf-8").replace('"Action 1"', '"Spark"'), encoding="utf-8")
        _wait(lambda: len(builds) >= 2)
        assert builds[1] == (["cheatsheet"], 0)
        assert "Spark" in _text(sheet)

        good = sheet.read_bytes()
        cards.write_text(cards.read_text(encoding="utf-8").replace("cost: 1\n", "cost: 99\n"), encoding="utf-8")
        _wait(lambda: len(builds) >= 3)
        assert builds[2] == (["cheatsheet"], 1), "findings: the build is refused"
        assert sheet.read_bytes() == good, "the last good file stays"
    finally:
        stop.set()
        thread.join(HANG)
    assert not thread.is_alive(), f"the watch did not stop within {HANG} s of being told to"


@pytest.mark.slow
def test_ctrl_c_exits_quietly_with_130(tmp_path):
    scaffold(tmp_path, "q", ["en"], ["action"])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "forge", "watch", "q", "--what", "cheatsheet"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.extend(proc.stderr), daemon=True)
    reader.start()
    try:
        _wait(lambda: any("built cheatsheet" in line for line in said) or proc.poll() is not None)
        proc.send_signal(signal.SIGINT)  # idle, watching: as a user presses Ctrl-C
        proc.wait(timeout=HANG)
        reader.join(HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
    err = "".join(said)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Aborted" not in err
    assert "watching" in err and "built cheatsheet" in err


def _start(args: list[str], cwd: Path) -> tuple[subprocess.Popen, list[str], list[str]]:
    """`forge ARGS` as a user starts it in a terminal (Ctrl-C reaches it), its stdout and
    stderr lines collected as they come."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("FORGE_DEBUG", None)
    proc = subprocess.Popen([sys.executable, "-m", "forge", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    out: list[str] = []
    err: list[str] = []
    for stream, lines in ((proc.stdout, out), (proc.stderr, err)):
        threading.Thread(target=lambda s=stream, l=lines: l.extend(s), daemon=True).start()
    return proc, out, err


@pytest.mark.slow
def test_preview_watch_draws_each_save_as_a_fresh_preview_would(tmp_path):
    scaffold(tmp_path, "w", ["en"], ["action"])
    cards = tmp_path / "cards" / "w" / "action.yaml"
    png = tmp_path / "out" / "a.png"
    proc, out, err = _start(["preview", "w", "action_1", "--watch", "--out", str(png),
                             "--format", "json"], tmp_path)
    try:
        _wait(lambda: len(out) >= 1 or proc.poll() is not None)
        first = png.read_bytes()
        assert json.loads(out[0])[0]["path"] == "out/a.png", "one JSON document a line"

        cards.write_text(cards.read_text(encoding="utf-8").replace('"Action 1"', '"Spark"'), encoding="utf-8")
        _wait(lambda: len(out) >= 2 or proc.poll() is not None)
        fresh = run_forge("preview", "w", "action_1", "--out", str(tmp_path / "fresh.png"), cwd=tmp_path)
        assert fresh.returncode == 0, fresh.stderr
        assert png.read_bytes() == (tmp_path / "fresh.png").read_bytes() != first, \
            "the saved name is drawn, exactly as a preview of its own draws it"

        good = png.read_bytes()
        (tmp_path / "templates" / "w" / "rulebook.en.md.j2").write_text("# Rules\n", encoding="utf-8")
        time.sleep(0.5)  # a batch of its own: the rulebook is not drawn on a card
        cards.write_text(cards.read_text(encoding="utf-8").replace("cost: 1\n", "cost: 99\n"), encoding="utf-8")
        _wait(lambda: any("not drawn" in line for line in err) or proc.poll() is not None)
        said = "".join(err)
        assert "action.yaml:" in said and "cost: 99" in said, "the finding, with file:line"
        assert "not drawn (exit 1); the last good PNG stays" in said
        assert "rulebook.en.md.j2" not in said and len(out) == 2
        assert png.read_bytes() == good

        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, "".join(err)
    assert "Traceback" not in "".join(err)


@pytest.mark.slow
def test_preview_watch_stops_at_once_on_a_card_that_is_not_there(tmp_path):
    scaffold(tmp_path, "w", ["en"], ["action"])
    done = run_forge("preview", "w", "action_9", "--watch", cwd=tmp_path)
    said = done.stderr
    assert done.returncode == 2, said
    assert "no card 'action_9' (did you mean" in said and "nothing to draw (see above)" in said
    assert "not drawn" not in said, "nothing was drawn before, so no last good PNG to keep"
    assert "Traceback" not in said and not done.stdout


def test_without_fork_each_drawing_is_a_fresh_forge_process(tmp_path, monkeypatch):
    from forge.cli import warm

    scaffold(tmp_path, "w", ["en"], ["action"])
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.delattr(os, "fork")
    monkeypatch.setattr(sys, "argv", ["forge", "preview", "w", "action_1", "--watch", "--out", "a.png"])
    assert warm.forked(lambda: 1 / 0) == 0, "the arguments are run, less --watch"
    assert (tmp_path / "a.png").is_file()


def test_a_saved_sheet_the_manifest_names_is_imported_again_not_built(tmp_path):
    """`sheets:` in the manifest: saving the sheet calls for `forge import` with its arguments
    (which writes the card file: a save that rebuilds), and for no build of its own."""
    from forge.cli.watch import imports
    from forge.model import load_game
    from forge.sheet_export import export_sheet
    scaffold(tmp_path, "g", ["uk", "en"], ["action"])
    root = tmp_path / "cards" / "g"
    sheet = root / "action.csv"
    export_sheet(load_game(root)[0], "action", sheet)
    with open(root / "game.yaml", "a", encoding="utf-8") as manifest:
        manifest.write("\nsheets:\n  - {path: action.csv, type: action, file: action}\n")
    sheet.write_text(sheet.read_text(encoding="utf-8-sig").replace(",1,", ",7,"), encoding="utf-8")
    game = Watched.of(root)
    (found,) = imports([game], [sheet])
    assert found == (game, sheet.resolve(), [str(root.resolve()), str(sheet.resolve()), "--type", "action",
                                             "--file", "action"])
    assert plan([game], [sheet], PRODUCTS, None) == {}
    assert imports([game], [root / "action.yaml"]) == []
    done = forge_in_process("import", *found[2], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "cost: 7" in (root / "action.yaml").read_text(encoding="utf-8")
    assert forge_in_process("check", "g", cwd=tmp_path).returncode == 0


def test_a_real_save_of_a_named_sheet_imports_it_and_rebuilds_from_the_card_file(tmp_path, monkeypatch, capsys):
    """End to end, with a real watcher and real saves: saving the sheet runs its import (here in
    this process), whose card file is the save that rebuilds; the sheet itself rebuilds nothing.
    The builds are only counted (the process runner is a stand-in: no build runs)."""
    from forge.model import load_game
    from forge.sheet_export import export_sheet
    scaffold(tmp_path, "g", ["en"], ["action"])
    root = tmp_path / "cards" / "g"
    sheet = root / "action.csv"
    export_sheet(load_game(root)[0], "action", sheet)
    with open(root / "game.yaml", "a", encoding="utf-8") as manifest:
        manifest.write("\nsheets:\n  - {path: action.csv, type: action, file: action}\n")
    calls = _run_here(monkeypatch, tmp_path, ("import",))
    stop = threading.Event()
    thread = threading.Thread(target=watch_games, daemon=True, kwargs=dict(
        roots=[root], products=["cheatsheet"], out=tmp_path / "out", lang="en", stop=stop, debounce=100))
    thread.start()
    try:
        _wait(lambda: len(calls) >= 1)  # the first build
        sheet.write_text(sheet.read_text(encoding="utf-8-sig").replace(",1,", ",7,"), encoding="utf-8")
        _wait(lambda: len(calls) >= 3)
    finally:
        stop.set()
        thread.join(HANG)
    assert not thread.is_alive(), f"the watch did not stop within {HANG} s of being told to"
    assert [verb for verb, _ in calls] == ["build", "import", "build"], calls
    assert calls[1][1][:6] == [str(root.resolve()), str(sheet.resolve()), "--type", "action", "--file", "action"]
    assert "cost: 7" in (root / "action.yaml").read_text(encoding="utf-8"), "the import wrote the card file"
    assert calls[2][1][calls[2][1].index("--what") + 1] == "cheatsheet"
    said = capsys.readouterr().err.splitlines()
    assert [line.split("/cards/g/")[-1] for line in said if "changed" in line] == [
        "action.csv changed: importing it", "action.yaml changed"], "the sheet's save builds nothing itself"
