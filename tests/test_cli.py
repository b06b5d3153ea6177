"""The CLI as a user runs it: `forge build` (products, options, refusals, nothing good overwritten),
and what every command shares: data on stdout, findings and summaries on stderr, --format json,
-q/-v, flags as flags, completion, and progress bars on a terminal only."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import ROOT, forge_forked, forge_in_process, tree_digest
from forge.scaffold import scaffold
from pdfread import assert_fonts_embedded

MM = 72 / 25.4


def _small_game(folder: Path) -> Path:
    """A scaffolded game `g` in `folder` (6 cards of 63 x 88 mm, in uk and en): where the
    built-in games are incidental, its products cost a tenth of theirs."""
    scaffold(folder, "g", ["uk", "en"], ["action", "character"])
    return folder / "cards" / "g"


def test_build_writes_the_selected_products(tmp_path):
    out = tmp_path / "out"
    result = forge_in_process("build", str(_small_game(tmp_path)), "--lang", "en", "--what",
                              "printshop,cheatsheet", "--out", str(out))
    assert result.returncode == 0, result.stderr
    folder = out / "g" / "en"
    assert sorted(p.name for p in folder.iterdir()) == ["cheatsheet.pdf", "printshop.pdf"]
    cheat = PdfReader(folder / "cheatsheet.pdf")
    assert len(cheat.pages) == 1 and "Action 1" in cheat.pages[0].extract_text()
    shop = PdfReader(folder / "printshop.pdf")
    box = shop.pages[0].trimbox
    assert round(float(box.width) / MM) == 63 and round(float(box.height) / MM) == 88
    assert_fonts_embedded(cheat)
    # Not a terminal: no progress bar, no escape codes in the output.
    assert "\x1b[" not in result.stdout + result.stderr
    assert (folder / "printshop.pdf").stat().st_mode & 0o044 == 0o044, "outputs are world-readable"


def test_unknown_product_language_and_paper_are_usage_errors(tmp_path):
    for args in (["--what", "poster"], ["--lang", "fr"], ["--paper", "a3"]):
        result = forge_in_process("build", "rules_does_not_exist", "--out", str(tmp_path), *args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
    assert not any(tmp_path.rglob("*.pdf"))


@pytest.mark.parametrize("args, says", [
    (["build", "--paper", "a3"], "Invalid value for '--paper': 'a3' is not one of 'a4', 'letter'"),
    (["build", "--duplex", "x"], "Invalid value for '--duplex': 'x' is not one of 'long', 'short'."),
    (["simulate", "--games", "x"], "Invalid value for '--games': should be a whole number (got 'x')"),
    (["simulate", "--games", "0"], "Invalid value for '--games': should be greater than or equal to 1 (got '0')"),
])
def test_an_option_value_refused_is_worded_as_forge_words_it(args, says):
    """typer coerces options with pydantic; its words ("Value error, ...", "Input should") never show."""
    result = forge_in_process(*args)
    assert result.returncode == 2 and says in result.stderr, result.stderr
    assert "Value error" not in result.stderr and "Input should" not in result.stderr


def test_one_is_counted_in_the_singular():
    played = forge_in_process("simulate", "rules_does_not_exist", "--games", "1")
    assert played.returncode == 0 and played.stdout.startswith("rules_does_not_exist: 1 game, "), played.stdout


def _misspell_a_key(folder: Path) -> None:
    """A finding in the game `g`: a key of its first action card misspelt."""
    cards = folder / "action.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("cost:", "cots:", 1), encoding="utf-8")


def test_a_game_with_findings_is_refused_and_good_files_stay(tmp_path):
    folder = _small_game(tmp_path)
    out = tmp_path / "out"
    good = forge_in_process("build", str(folder), "--what", "cheatsheet", "--out", str(out))
    assert good.returncode == 0, good.stderr
    before = tree_digest(out)
    _misspell_a_key(folder)
    bad = forge_in_process("build", str(folder), "--what", "cheatsheet", "--out", str(out))
    assert bad.returncode == 1
    assert "action.yaml:" in bad.stdout + bad.stderr and "cots" in bad.stdout + bad.stderr
    assert "Traceback" not in bad.stderr
    assert tree_digest(out) == before, "a refused build must not touch what was built before"
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


def test_output_bytes_do_not_depend_on_the_other_products_of_the_run(tmp_path):
    """ReportLab's stream settings are process-wide: a cheat sheet built alone, or after the PnP
    sheets, is the same file."""
    game, full, alone = _small_game(tmp_path), tmp_path / "full", tmp_path / "alone"
    assert forge_forked("build", str(game), "--out", str(full)).returncode == 0
    assert forge_forked("build", str(game), "--what", "cheatsheet,rulebook", "--out", str(alone)).returncode == 0
    for name in ("cheatsheet.pdf", "rulebook.pdf"):
        made = [(folder / "g" / "uk" / name).read_bytes() for folder in (full, alone)]
        assert made[0] == made[1], name


# -- conventions every command shares (issue 14): data on stdout, words on stderr -------------

COMMANDS = ("build", "check", "cards", "scenario", "schema", "simulate", "new", "import", "export",
            "watch", "preview")


def _cli():
    import typer

    from forge.cli import app
    return typer.main.get_command(app)


def _invoke(*args: str):
    from typer.testing import CliRunner

    from forge.cli import app
    return CliRunner().invoke(app, list(args))


def test_every_command_takes_format_quiet_and_verbose_and_help_shows_the_choices():
    assert set(COMMANDS) <= set(_cli().commands)
    for name in _cli().commands:  # every command, the ones added later too
        shown = " ".join(_invoke(name, "--help").stdout.split())
        assert "--format <text|json>" in shown and "-q, --quiet" in shown and "-v, --verbose" in shown, name
        assert "<bool>" not in shown, f"{name}: a flag takes no value, so help shows none"
    shown = " ".join(_invoke("build", "--help").stdout.split())
    assert "--duplex <long|short>" in shown and "--paper <a4|letter|a4,letter|letter,a4>" in shown
    assert "(pnp, printshop, png," in shown, "--what lists the products"


def test_what_a_command_imports_is_left_out_of_later_garbage_collections():
    """The modules, classes and constants a command imports live as long as the process: a
    full collection walking them again costs `forge build` a seventh of its time."""
    import gc

    from forge.cli.app import Commands
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    Commands({})["schema"]
    assert gc.get_freeze_count() > 0
    gc.unfreeze()


def test_a_flag_given_a_value_is_a_usage_error_naming_it():
    flags = [(name, opt) for name, command in _cli().commands.items() for param in command.params
             if getattr(param, "is_flag", False) for opt in param.opts if opt.startswith("--")]
    assert ("build", "--home") in flags and ("import", "--dry-run") in flags and ("preview", "--back") in flags
    for name, flag in flags:
        result = _invoke(name, flag, "true")
        assert result.exit_code == 2, (name, flag, result.stdout, result.stderr)
        assert f"write {flag} alone, not {flag} true" in result.stderr, (name, flag, result.stderr)
    done = forge_forked("build", "--home", "true")
    assert done.returncode == 2 and "--home" in done.stderr and "Traceback" not in done.stderr
    both = forge_forked("check", "rules_does_not_exist", "-q", "-v")
    assert both.returncode == 2 and "--quiet and --verbose" in both.stderr


def _under_bash(flag: str, home: Path) -> subprocess.CompletedProcess:
    """`forge FLAG` run from bash, as a user runs it: typer takes the shell to complete for from
    the process's ancestors (shellingham), so a run with no shell above it (a test runner started
    by a service) would find none. `; exit $?` keeps bash from replacing itself with forge."""
    return subprocess.run(["bash", "-c", f'"$0" -m forge {flag}; exit $?', sys.executable],
                          env={**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(home)},
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_completion_is_on_and_offers_the_choices(tmp_path):
    shown = _under_bash("--show-completion", tmp_path)
    assert shown.returncode == 0 and "complete " in shown.stdout and "_FORGE_COMPLETE" in shown.stdout
    installed = _under_bash("--install-completion", tmp_path)
    assert installed.returncode == 0, installed.stderr
    assert "_FORGE_COMPLETE" in (tmp_path / ".bash_completions" / "forge.sh").read_text()
    assert "forge.sh" in (tmp_path / ".bashrc").read_text()

    def complete(words: str) -> list[str]:  # what bash asks of the script just installed
        return forge_in_process(env={"_FORGE_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD":
                                     str(len(words.split()) - (not words.endswith(" ")))}).stdout.split()

    assert complete("forge build --duplex ") == ["long", "short"]
    assert complete("forge check --format ") == ["text", "json"]
    assert complete("forge build --what pnp,rule") == ["pnp,rulebook", "pnp,rulebook-booklet"]
    assert "love_formula" in complete("forge check lo")


def test_check_findings_go_to_stderr_and_json_to_stdout(tmp_path):
    folder = _small_game(tmp_path)
    _misspell_a_key(folder)
    text = forge_in_process("check", str(folder))
    assert text.returncode == 1 and text.stdout == ""
    assert "action.yaml:" in text.stderr and "cots" in text.stderr
    assert re.fullmatch(r"g: \d+ cards, \d+ findings", text.stderr.splitlines()[-1]), "the summary comes last"
    quiet = forge_in_process("check", str(folder), "-q")
    assert quiet.returncode == 1 and quiet.stdout == ""
    assert quiet.stderr.splitlines() == text.stderr.splitlines()[:-1], "-q: the findings, no summary"
    as_json = forge_in_process("check", str(folder), "--format", "json", "-q")
    assert as_json.returncode == 1 and as_json.stderr == ""
    findings = json.loads(as_json.stdout)
    assert findings and {"file", "line", "code", "message", "fix"} <= set(findings[0])
    assert any(f["file"].endswith("action.yaml") and f["line"] >= 1 and "cots" in f["message"]
               for f in findings)


def test_build_summarises_on_stderr_and_lists_its_files_as_json(tmp_path):
    out = tmp_path / "out"
    args = ("build", str(_small_game(tmp_path)), "--lang", "en", "--what", "cheatsheet,printshop",
            "--out", str(out))
    text = forge_in_process(*args)
    assert text.returncode == 0, text.stderr
    assert text.stdout == ""
    folder = out / "g" / "en"
    (summary,) = text.stderr.splitlines()
    assert re.fullmatch(rf"g/en: 2 files, [\d.]+ [kM]B in {re.escape(str(folder))}", summary), summary
    verbose = forge_in_process(*args, "-v")
    assert verbose.stdout == "" and len(verbose.stderr.splitlines()) == 3
    assert "printshop.pdf" in verbose.stderr and "(printshop)" in verbose.stderr
    quiet = forge_in_process(*args, "-q")
    assert quiet.returncode == 0 and quiet.stdout == "" and quiet.stderr == ""
    as_json = forge_in_process(*args, "--format", "json")
    assert as_json.returncode == 0, as_json.stderr
    files = json.loads(as_json.stdout)
    assert sorted((f["product"], Path(f["path"]).name) for f in files) == [
        ("cheatsheet", "cheatsheet.pdf"), ("printshop", "printshop.pdf")]
    for f in files:
        assert f["game"] == "g" and f["lang"] == "en"
        assert Path(f["path"]).parent == folder and f["bytes"] == Path(f["path"]).stat().st_size > 0


def test_every_command_prints_one_json_document_on_stdout(tmp_path):
    """`--format json`: stdout parses as JSON as a whole, whatever the command says on stderr."""
    scaffold(tmp_path, "g", ["en"], ["action"])
    sheet = tmp_path / "action.csv"
    sheet.write_text("id;name.en;cost;effects\naction_1;Spark;3;[draw: 2]\n", encoding="utf-8")
    scenario = next((ROOT / "tests" / "scenarios" / "love_formula").glob("*.yaml"))
    said = {}
    for args, cwd in [(("cards", "love_formula"), ROOT), (("schema", "love_formula"), ROOT),
                      (("scenario", str(scenario)), ROOT),
                      (("simulate", "rules_does_not_exist", "--games", "3"), ROOT),
                      (("preview", "love_formula", "kiss", "--out", str(tmp_path / "kiss.png")), ROOT),
                      (("new", "fresh", "--lang", "en"), tmp_path),
                      (("import", "g", str(sheet), "--type", "action", "--file", "action"), tmp_path)]:
        done = forge_forked(*args, "--format", "json", cwd=cwd)
        assert done.returncode == 0, (args, done.stderr)
        said[args[0]] = json.loads(done.stdout)
    assert {"id", "type", "copies"} <= set(said["cards"][0])
    assert said["schema"]["type"] == "array" and said["scenario"][0]["passed"] is True
    assert said["simulate"]["games"] == 3
    (preview,) = said["preview"]
    assert preview["product"] == "preview" and preview["bytes"] == (tmp_path / "kiss.png").stat().st_size
    assert "cards/fresh/game.yaml" in [f["path"] for f in said["new"]]
    assert said["import"]["written"] and said["import"]["updated"] == ["action_1"]
    assert said["import"]["findings"] == []


def test_data_goes_to_stdout_and_quiet_silences_the_summary():
    records = json.loads(forge_forked("cards", "love_formula", "--format", "json").stdout)
    text = forge_forked("cards", "love_formula")
    assert text.returncode == 0 and "kiss" in text.stdout and "kiss" not in text.stderr
    assert text.stderr.strip() == (f"love_formula: {len(records)} designs, "
                                   f"{sum(r['copies'] for r in records)} cards")
    quiet = forge_forked("cards", "love_formula", "-q")
    assert quiet.stdout == text.stdout and quiet.stderr == ""
    verbose = forge_forked("cards", "love_formula", "-v")
    assert verbose.stdout == text.stdout and "love_formula/base_pairs.yaml: " in verbose.stderr


def test_a_failing_scenario_is_reported_on_stderr(tmp_path):
    scenario = next((ROOT / "tests" / "scenarios" / "love_formula").glob("*.yaml"))
    passed = forge_forked("scenario", str(scenario))
    assert passed.returncode == 0 and passed.stdout == ""
    assert passed.stderr.strip() == "1 passed, 0 failed", "a pass is a line only with -v"
    assert forge_forked("scenario", str(scenario), "-v").stderr.startswith(f"PASS {scenario}")
    assert forge_forked("scenario", str(scenario), "-q").stderr == ""


@pytest.mark.slow
def test_watch_streams_a_json_line_per_build(tmp_path):
    scaffold(tmp_path, "w", ["en"], ["action"])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "forge", "watch", "w", "--what", "cheatsheet",
                             "--format", "json", "-q"], cwd=tmp_path, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = proc.stdout.readline()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    event = json.loads(line)
    assert event["game"] == "w" and event["products"] == ["cheatsheet"] and event["exit"] == 0
    (written,) = event["files"]
    assert written["product"] == "cheatsheet" and (tmp_path / written["path"]).is_file()
    assert proc.returncode == 130 and proc.stderr.read() == "", "-q: nothing but errors"


def _on_a_terminal(monkeypatch, *args: str, ci: str = "") -> tuple[subprocess.CompletedProcess, bytes]:
    """Run forge with stderr on a pseudo-terminal (stdout captured) and the environment variable
    CI as given (empty: not a CI job); what the terminal got. In this process: what is drawn
    depends on stderr being a terminal, not on a process of its own."""
    import io
    import pty
    import threading

    from forge.cli import main
    master, slave = pty.openpty()
    seen: list[bytes] = []

    def read() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal closed: forge is done
                return
            if not chunk:
                return
            seen.append(chunk)
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    out = io.StringIO()
    with monkeypatch.context() as m, open(slave, "w", encoding="utf-8") as terminal:
        m.setenv("CI", ci)
        m.delenv("FORGE_DEBUG", raising=False)
        m.setattr(sys, "argv", ["forge", *args])
        m.setattr(sys, "stdout", out)
        m.setattr(sys, "stderr", terminal)
        with pytest.raises(SystemExit) as done:
            main()
    reader.join(60)
    os.close(master)
    return subprocess.CompletedProcess(["forge", *args], done.value.code, out.getvalue(), ""), b"".join(seen)


def test_the_progress_bar_is_drawn_on_a_terminal_only(tmp_path, monkeypatch):
    args = ("build", str(_small_game(tmp_path)), "--what", "cheatsheet", "--out", str(tmp_path / "out"))
    shown, terminal = _on_a_terminal(monkeypatch, *args, "--lang", "uk,en")
    assert shown.returncode == 0 and shown.stdout == ""
    assert b"\x1b[" in terminal and b"forge build" in terminal, terminal
    # the summary comes after the bar is gone, a line per language, on lines of its own
    before, summary = terminal.split(b"g/uk: 1 file, ", 1)
    assert before.endswith((b"\n", b"\x1b[2K")) and "\u2501".encode() not in summary, terminal
    assert summary.count(b"\n") == 2 and b"\r\ng/en: 1 file, " in summary, terminal
    quiet, terminal = _on_a_terminal(monkeypatch, *args, "-q")
    assert quiet.returncode == 0 and terminal == b""
    in_ci, terminal = _on_a_terminal(monkeypatch, *args, ci="true")
    assert in_ci.returncode == 0 and b"\x1b[" not in terminal and b"g/uk" in terminal
    as_json, terminal = _on_a_terminal(monkeypatch, *args, "--format", "json")
    assert json.loads(as_json.stdout) and b"\x1b[" not in terminal


def test_progress_is_silent_off_a_terminal(capsys, monkeypatch):
    from forge.cli.progress import progress

    monkeypatch.delenv("CI", raising=False)
    with progress(3, "work") as bar:  # pytest's captured stderr is no terminal
        bar.advance()
        bar.advance(2, label="done")
    with progress(None, "work", enabled=False) as bar:
        bar.advance()
    assert capsys.readouterr() == ("", "")


def test_ctrl_c_while_forge_is_still_starting_exits_130_without_a_traceback(tmp_path):
    """Ctrl-C can come while the CLI's libraries are still being imported, before `main`
    runs: here the import of typer is interrupted."""
    shadow = tmp_path / "shadow" / "typer"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise KeyboardInterrupt\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(shadow.parent), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "forge", "--version"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 130
    assert done.stderr == "" and done.stdout == ""
