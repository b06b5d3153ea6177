"""`forge watch`: a save rebuilds what it feeds; a bad save keeps the last good file; Ctrl-C is 130."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from pypdf import PdfReader

from conftest import ROOT
from forge.cli.watch import Watched, plan, watch_games
from forge.scaffold import scaffold

PRODUCTS = ["pnp", "printshop", "rulebook", "rulebook-booklet", "cheatsheet"]


def _wait(condition, seconds: float = 90.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def _text(pdf: Path) -> str:
    return " ".join(page.extract_text() for page in PdfReader(pdf).pages)


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


def test_a_save_rebuilds_and_a_bad_save_keeps_the_last_good_file(tmp_path):
    scaffold(tmp_path, "w", ["en"], ["action"])
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
        thread.join(10)
    assert not thread.is_alive()


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
        proc.wait(timeout=30)
        reader.join(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    err = "".join(said)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Aborted" not in err
    assert "watching" in err and "built cheatsheet" in err
