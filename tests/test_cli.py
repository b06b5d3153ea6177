"""`forge build` as a user runs it: products, options, refusals, and nothing good overwritten."""
from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from conftest import run_forge, tree_digest
from pdfread import assert_fonts_embedded

MM = 72 / 25.4


def test_build_writes_the_selected_products(tmp_path):
    out = tmp_path / "out"
    result = run_forge("build", "rules_does_not_exist", "--lang", "en", "--what",
                       "printshop,cheatsheet", "--out", str(out))
    assert result.returncode == 0, result.stderr
    folder = out / "rules_does_not_exist" / "en"
    assert sorted(p.name for p in folder.iterdir()) == ["cheatsheet.pdf", "printshop-token-soul_token.pdf",
                                                        "printshop.pdf"]
    cheat = PdfReader(folder / "cheatsheet.pdf")
    assert len(cheat.pages) == 1 and "Rules. Does Not Exist." in cheat.pages[0].extract_text()
    shop = PdfReader(folder / "printshop.pdf")
    box = shop.pages[0].trimbox
    assert round(float(box.width) / MM) == 63 and round(float(box.height) / MM) == 88
    assert_fonts_embedded(cheat)
    # Not a terminal: no progress bar, no escape codes in the output.
    assert "\x1b[" not in result.stdout + result.stderr
    assert (folder / "printshop.pdf").stat().st_mode & 0o044 == 0o044, "outputs are world-readable"


def test_unknown_product_language_and_paper_are_usage_errors(tmp_path):
    for args in (["--what", "poster"], ["--lang", "fr"], ["--paper", "a3"]):
        result = run_forge("build", "rules_does_not_exist", "--out", str(tmp_path), *args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
    assert not any(tmp_path.rglob("*.pdf"))


def test_a_game_with_findings_is_refused_and_good_files_stay(tmp_path, game_copy):
    folder = game_copy("rules_does_not_exist")
    out = tmp_path / "out"
    good = run_forge("build", str(folder), "--what", "cheatsheet", "--out", str(out))
    assert good.returncode == 0, good.stderr
    before = tree_digest(out)
    sounds = folder / "sounds.yaml"
    sounds.write_text(sounds.read_text(encoding="utf-8").replace("bonus:", "bonsu:", 1), encoding="utf-8")
    bad = run_forge("build", str(folder), "--what", "cheatsheet", "--out", str(out))
    assert bad.returncode == 1
    assert "sounds.yaml:" in bad.stdout + bad.stderr and "bonsu" in bad.stdout + bad.stderr
    assert "Traceback" not in bad.stderr
    assert tree_digest(out) == before, "a refused build must not touch what was built before"
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]


def test_output_bytes_do_not_depend_on_the_other_products_of_the_run(tmp_path):
    """ReportLab's stream settings are process-wide: a cheat sheet built alone, or after the PnP
    sheets, is the same file."""
    full, alone = tmp_path / "full", tmp_path / "alone"
    assert run_forge("build", "rules_does_not_exist", "--out", str(full)).returncode == 0
    assert run_forge("build", "rules_does_not_exist", "--what", "cheatsheet,rulebook",
                     "--out", str(alone)).returncode == 0
    for name in ("cheatsheet.pdf", "rulebook.pdf"):
        made = [(folder / "rules_does_not_exist" / "uk" / name).read_bytes() for folder in (full, alone)]
        assert made[0] == made[1], name
