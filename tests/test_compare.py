"""forge compare: paired games on both sides, intervals, verdicts, git revisions, ablation, PDF."""
from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from forge.cli.app import app
from forge import revision
from forge.errors import FindingsError, UsageError
from forge.rules.compare import mean_difference, moments_add, ratio_difference
from pdfread import assert_fonts_embedded

ROOT = Path(__file__).resolve().parents[1] / "cards" / "love_formula"
PAIR = "daisuke_chi"


def raise_vp(folder: Path, card: str = PAIR, by: int = 3) -> None:
    """The pair card ``card`` scores ``by`` more, incomplete or perfect."""
    path = folder / "base_pairs.yaml"
    text = path.read_text(encoding="utf-8")
    head, rest = text.split(f"- id: {card}\n", 1)
    entry, tail = rest.split("\n\n", 1)
    entry = re.sub(r"(vp_\w+): (\d+)", lambda m: f"{m[1]}: {int(m[2]) + by}", entry)
    path.write_text(f"{head}- id: {card}\n{entry}\n\n{tail}", encoding="utf-8")


def cli(*args: str) -> dict:
    res = CliRunner().invoke(app, ["compare", *args, "--format", "json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_a_game_against_a_copy_of_itself_changes_nothing(tmp_path):
    shutil.copytree(ROOT, tmp_path / "love_formula")
    r = cli(str(ROOT), "--b", str(tmp_path / "love_formula"), "--games", "20", "--players", "3")
    assert r["verdict"] == ["no change beyond noise"] and not r["changed"] and r["games"] == 20
    for e in r["seat_win_rate"]:
        assert e["a"] == e["b"] and e["diff"] == 0 and e["ci95"] == [0, 0]
    assert r["length"]["diff"] == 0 and r["games_needed"] == 0


def test_raising_a_pair_cards_vp_raises_its_holders_win_rate(tmp_path):
    """Common random numbers: the same deals on both sides, so +3 VP on one pair card shows as
    a clear rise of its players' win share with an interval that excludes zero (over 60 games,
    +0.43 from 0.27 to 0.59; 120 games narrow it to 0.41..0.65)."""
    shutil.copytree(ROOT, tmp_path / "love_formula")
    raise_vp(tmp_path / "love_formula")
    r = cli(str(ROOT), "--b", str(tmp_path / "love_formula"), "--games", "60")
    e = r["cards"][PAIR]["win_share"]
    assert e["diff"] > 0.1 and e["ci95"][0] > 0, e
    assert r["changed"] and any(c["what"] == "win_share" and c["id"] == PAIR for c in r["changes"])
    assert any(line.startswith(f"{PAIR}: its players' win share +") for line in r["verdict"])
    assert sum(x["diff"] for x in r["seat_win_rate"]) == pytest.approx(0, abs=1e-3)  # wins move


def test_a_git_revision_is_one_side(tmp_path):
    """--a HEAD reads the game's folder as committed (read only, into a temporary folder) and
    compares it with the working copy."""
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo / "cards" / "love_formula")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "cards"], check=True)
    game = repo / "cards" / "love_formula"
    raise_vp(game)
    r = cli(str(game), "--a", "HEAD", "--games", "60")  # the raise shows, as above
    assert r["a"]["source"] == "HEAD" and r["cards"][PAIR]["win_share"]["ci95"][0] > 0
    assert subprocess.run(git + ["status", "--porcelain"], capture_output=True, text=True,
                          check=True).stdout.split() == ["M", "cards/love_formula/base_pairs.yaml"]
    bad = CliRunner().invoke(app, ["compare", str(game), "--a", "no-such-rev", "--games", "2"])
    assert isinstance(bad.exception, UsageError) and "no-such-rev" in str(bad.exception)


def committed_game(tmp_path: Path, *links: tuple[str, str]) -> tuple[Path, int]:
    """A repository holding the game, with ``links`` (name, target) in its folder, committed;
    the game folder and how many bytes its files take."""
    game = tmp_path / "repo" / "cards" / "love_formula"
    shutil.copytree(ROOT, game)
    for name, target in links:
        (game / name).symlink_to(target)
    git = ["git", "-C", str(game.parents[1]), "-c", "user.name=t", "-c", "user.email=t@t"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "cards"]):
        subprocess.run(git + args, check=True)
    return game, sum(len(os.readlink(p)) if p.is_symlink() else p.stat().st_size
                     for p in game.rglob("*") if p.is_symlink() or p.is_file())


def test_a_revision_keeps_links_inside_the_game_and_refuses_links_that_lead_out(tmp_path):
    """Links are followed once written: `e` looks inside (d/d/../.. written out is the game
    folder) but `d` is the game folder itself, so `e` is its parent's parent."""
    game, _ = committed_game(tmp_path, ("same.yaml", "base_pairs.yaml"), ("d", "."),
                             ("e", "d/d/../.."), ("abs", "/etc/hostname"))
    with pytest.raises(FindingsError) as refused:
        revision.extract(game, "HEAD", tmp_path / "out")
    assert [(f.file, f.code) for f in refused.value.findings] == [
        ("HEAD:cards/love_formula/abs", "path-outside"), ("HEAD:cards/love_formula/e", "path-outside")]
    game, _ = committed_game(tmp_path / "2", ("same.yaml", "base_pairs.yaml"), ("d", "."))
    copy = revision.extract(game, "HEAD", tmp_path / "out2")
    assert copy.name == "love_formula" and (copy / "same.yaml").read_text() == (ROOT / "base_pairs.yaml").read_text()
    assert os.readlink(copy / "d") == "."


def test_a_revision_is_bounded_before_it_is_read(tmp_path, monkeypatch):
    """Files and bytes of a revision's game folder are counted from git's listing and object
    headers: over a bound, nothing is written."""
    game, size = committed_game(tmp_path)
    files = sum(1 for p in game.rglob("*") if p.is_file())
    out = tmp_path / "out"
    out.mkdir()
    for name, value in (("MAX_BYTES", size - 1), ("MAX_FILES", files - 1)):
        with monkeypatch.context() as m:
            m.setattr(revision, name, value)
            with pytest.raises(FindingsError) as refused:
                revision.extract(game, "HEAD", out)
        [finding] = refused.value.findings
        assert finding.file == "HEAD:cards/love_formula/" and finding.code == "too-large"
        assert not any(out.iterdir())
    monkeypatch.setattr(revision, "MAX_BYTES", size)
    monkeypatch.setattr(revision, "MAX_FILES", files)
    assert revision.extract(game, "HEAD", out) == out.resolve() / "love_formula"


def test_git_waiting_on_the_repositorys_config_is_stopped(tmp_path, monkeypatch):
    """An include of a pipe makes git wait for a writer forever: it is stopped, a usage error."""
    game, _ = committed_game(tmp_path)
    os.mkfifo(tmp_path / "pipe")
    with open(game.parents[1] / ".git" / "config", "a") as config:
        config.write(f"[include]\n\tpath = {tmp_path / 'pipe'}\n")
    monkeypatch.setattr(revision, "GIT_SECONDS", 1)
    with pytest.raises(UsageError, match="stopped after 1 s"):
        revision.extract(game, "HEAD", tmp_path / "out")


def test_engine_options_as_the_two_sides():
    r = cli(str(ROOT), "--sets", "base,goals", "--a-option", "goals_variant=same",
            "--b-option", "goals_variant=planned", "--games", "10", "--players", "2")
    assert r["a"]["options"] == {"goals_variant": "same"}
    assert r["b"]["options"] == {"goals_variant": "planned"}
    assert r["sets"] == ["base", "goals"] and r["games"] == 10


def test_ablation_reports_what_a_card_is_worth_to_its_holders():
    r = cli(str(ROOT), "--ablate", PAIR, "--games", "20", "--players", "3")
    e = r["ablation"][PAIR]
    assert r["b"] is None and 0 < e["played_share_a"] <= 1
    assert e["a"] is not None and e["ci95"][0] <= e["diff"] <= e["ci95"][1]


def test_the_forbidden_card_is_chosen_only_when_nothing_else_is_offered(tmp_path):
    from forge.model import load_game
    from forge.rules import love_formula
    from forge.rules.simulate import Plan, play_chunk
    from forge.rules.workers import Setup
    game = load_game(ROOT)[0]
    setup = Setup.of(love_formula.prepare(game, love_formula.Config()))
    free = play_chunk(Plan(setup, 4, ("random",), 3, "round"), 0, 40).card_plays
    barred = play_chunk(Plan(setup, 4, ("random",), 3, "round", frozenset({"kiss"})), 0, 40)
    assert barred.card_plays.get("kiss", 0) < free["kiss"] / 3


def test_usage_errors():
    for args, words in ((["--ablate", PAIR, "--b", str(ROOT)], "--ablate"),
                        (["--ablate", "no_such_card"], "no such card"),
                        ([], "nothing to compare")):
        res = CliRunner().invoke(app, ["compare", str(ROOT), "--games", "2", *args])
        assert isinstance(res.exception, UsageError) and words in str(res.exception), res.output


def test_text_and_pdf(tmp_path):
    shutil.copytree(ROOT, tmp_path / "love_formula")
    raise_vp(tmp_path / "love_formula")
    pdf = tmp_path / "compare.pdf"
    res = CliRunner().invoke(app, ["compare", str(ROOT), "--b", str(tmp_path / "love_formula"),
                                   "--games", "60", "--report", str(pdf), "--lang", "uk"])
    assert res.exit_code == 0, res.output
    assert "verdict: " in res.output and "games for ± 1.0 pp" in res.output
    reader = PdfReader(str(pdf))
    assert len(reader.pages) == 1
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Порівняння: Формула кохання" in text and "60 парних партій" in text
    assert "«Дайсуке та Чі»: частка перемог тих, хто її зіграв, +" in text
    assert "\x00" not in text
    assert_fonts_embedded(reader)


def test_interval_arithmetic_matches_the_textbook():
    """Paired mean difference from the sums and products equals the direct computation."""
    pairs = [(1, 0), (0, 0), (1, 1), (0, 1), (1, 0), (1, 0), (0, 0), (1, 1)]
    m: dict = {}
    for v in pairs:
        moments_add(m, "k", v)
    e = mean_difference(m["k"], len(pairs))
    d = [b - a for a, b in pairs]
    mean = sum(d) / len(d)
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1))
    assert e["diff"] == round(mean, 4) and e["sd"] == round(sd, 4)
    assert e["ci95"][1] - e["diff"] == pytest.approx(1.959964 * sd / math.sqrt(len(d)), abs=1e-4)
    # a ratio with equal sides has no change and no spread
    m = {}
    for w, p in ((2, 1), (0, 2), (1, 1)):
        moments_add(m, "r", (w, p, w, p))
    same = ratio_difference(m["r"], 3)
    assert same["a"] == same["b"] == float(Fraction(3, 4)) and same["diff"] == 0 and same["sd"] == 0


def test_paired_sums_travel_as_plain_data_and_are_checked():
    """A chunk's sums come back from a dask worker as plain data, equal; sums of another shape
    (a row too short, a key `compare_chunk` never makes, a count that is not whole) are a
    ValueError before they are merged."""
    from forge.model import load_game
    from forge.rules import love_formula, plain
    from forge.rules.compare import Paired, Sides, compare_chunk
    from forge.rules.simulate import Plan
    from forge.rules.workers import Setup
    game = load_game(ROOT)[0]
    plan = Plan(Setup.of(love_formula.prepare(game, love_formula.Config())), 3, ("random",), 3, "round")
    sides = Sides((plan, Plan(plan.setup, 3, ("random",), 3, "round", frozenset({"kiss"}))), ("kiss",))
    assert plain.loads(plain.dumps(sides), Sides) == sides
    part = compare_chunk(sides, 0, 6)
    back = plain.loads(plain.dumps(part), Paired)
    back.check()
    assert back == part and part.moments
    for bad in (Paired(-1), Paired(1, 0, {(1, "win", 0): [1, 2]}), Paired(1, 0, {(1, "spam"): [0] * 5}),
                Paired(1, 0, {(1, "length"): [0, 0, 0, 0, 0.5]}), Paired(1, 0, {"x": [0] * 5})):
        with pytest.raises(ValueError):
            bad.check()
