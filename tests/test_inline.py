"""Inline markup of card text (`forge.render.inline`): `:icon:`, `**bold**`, `*italic*`, escapes,
and the tags a layout's markup may hold; drawn on a built card and read back from the PDF."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from conftest import forge_in_process
from forge.render import fonts, inline
from forge.render.elements import Invalid, validate
from forge.render.icons import BUILT_IN
from forge.render.layout import fit_text

R, B, I = fonts.REGULAR, fonts.BOLD, fonts.ITALIC


@pytest.mark.parametrize("text", ["Time: 3", "10:30", "a:b:c", "2 * 3", "5*", "*", "** x **", "Note:coin:",
                                  ":Coin:", "C:\\Games"])
def test_colons_and_asterisks_that_are_not_markup_print_as_written(text):
    assert inline.runs({"text": text}, R, BUILT_IN) == [(R, text)]
    assert inline.unknown_icons({"text": text}, BUILT_IN) == []


@pytest.mark.parametrize("text, marks", [("**Draw 1 card", ["**Draw"]), ("Every *game begins", ["*game"]),
                                         ("Draw 1**", ["1**"]), ("x**a**", ["x**a**"]),
                                         ("**a** and *b*, 5*, 2 * 3, ** x **, \\*\\*x", [])])
def test_a_mark_that_opens_or_closes_nothing_is_named(text, marks):
    """Such a mark prints as an asterisk: `forge check` reports it (`unclosed-emphasis`)."""
    assert inline.unclosed_marks({"text": text}) == marks


def test_icons_emphasis_and_escapes_become_runs():
    got = inline.runs({"text": "**Draw** 2 :coin::coin:, *then* \\*x\\* \\:coin: :nope:"}, R, BUILT_IN)
    assert got == [(B, "Draw"), (R, " 2\u00a0"), ("icon:coin", inline.OBJECT), ("icon:coin", inline.OBJECT),
                   (R, ", "), (I, "then"), (R, " *x* :coin: :nope:")]
    assert inline.plain({"text": "**Draw** 2 :coin:"}, BUILT_IN) == "Draw 2\u00a0"  # glued to its number
    assert inline.unknown_icons({"text": ":nope: and :coin: and :nope:"}, BUILT_IN) == ["nope"]
    # in markup the same rules hold between the tags, and entities are the characters they stand for
    assert inline.runs({"markup": "<b>Gain:</b> 1 :heart: &amp; *x*"}, R, BUILT_IN) == [
        (B, "Gain:"), (R, " 1\u00a0"), ("icon:heart", inline.OBJECT), (R, " & "), (I, "x")]


def test_an_icon_is_measured_as_a_glyph_of_one_em():
    el = {"kind": "text", "x": 0, "y": 0, "w": 100, "h": 40, "text": "a :coin: b", "size": 10, "hyphenate": False}
    (para,), size, ok = fit_text(el, "en", BUILT_IN)
    (width, frags), = para.lines
    assert ok and ("icon:coin", inline.OBJECT) in frags
    expected = (fonts.unit_width("a  b", R) + inline.ADVANCE) * 10
    assert width == pytest.approx(expected)
    # a box exactly as wide as the icons holds them on one line, one narrower breaks them
    one_line = {"kind": "text", "x": 0, "y": 0, "h": 40, "size": 10, "text": ":coin::coin::coin:"}
    (para,), _, _ = fit_text(dict(one_line, w=30 / (72 / 25.4) + 0.01), "en", BUILT_IN)
    assert len(para.lines) == 1


def test_markup_the_renderer_cannot_draw_is_refused_at_the_element():
    validate("text", {"x": 0, "y": 0, "w": 9, "h": 9, "markup": "<b>a</b><br/><i>b</i> :coin:"})
    for markup, named in (("<u>a</u>", "<u>"), ('<font color="red">a</font>', "<font>"),
                          ('<img src="x.png"/>', "<img>")):
        with pytest.raises(Invalid, match=named):
            validate("text", {"x": 0, "y": 0, "w": 9, "h": 9, "markup": markup})
        with pytest.raises(Invalid, match=named):
            validate("text", {"x": 0, "y": 0, "w": 9, "h": 9, "paras": [{"markup": markup}]})


MANA = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M12 1.5 C12 1.5 4 10.5 4 15.5 '
        'A8 8 0 0 0 20 15.5 C20 10.5 12 1.5 12 1.5 Z" fill="currentColor"/></svg>')


def test_icons_and_bold_are_drawn_on_a_built_card(tmp_path):
    assert forge_in_process("new", "demo", "--lang", "en", "--types", "action", cwd=tmp_path).returncode == 0
    cards = tmp_path / "cards" / "demo"
    (cards / "icons").mkdir()
    (cards / "icons" / "mana.svg").write_text(MANA, encoding="utf-8")
    data = (cards / "action.yaml").read_text(encoding="utf-8")
    data = data.replace("    - draw: 1\n", '    - draw: 1\n  text: {en: "**Draw** 1 card and pay :coin::mana:"}\n', 1)
    (cards / "action.yaml").write_text(data, encoding="utf-8")
    layout = tmp_path / "templates/demo/cards/action.yaml.j2"  # a label and a table cell take them too
    layout.write_text(layout.read_text(encoding="utf-8").replace(
        "p.footer(W, H, set_name) }}", "p.footer(W, H, set_name ~ ' :heart:') }}\n{{ el('table', x=5, y=72, "
        "w=40, size=7.5, rows=[['**Price**', '3 :coin:']]) }}"), encoding="utf-8")

    bad = data.replace(":mana:", ":manna:").replace("**Draw** 1", "**Draw 1")
    (cards / "action.yaml").write_text(bad, encoding="utf-8")
    checked = forge_in_process("check", "demo", cwd=tmp_path)
    line = next(n for n, text in enumerate(bad.splitlines(), 1) if ":manna:" in text)
    assert checked.returncode == 1 and f"cards/demo/action.yaml:{line}:" in checked.stderr
    assert "unknown-icon" in checked.stderr and "did you mean 'mana'?" in checked.stderr
    unclosed, = [f for f in checked.stderr.splitlines() if "unclosed-emphasis" in f] or [checked.stderr]
    assert unclosed.startswith(f"cards/demo/action.yaml:{line}:") and "«**Draw»" in unclosed

    (cards / "action.yaml").write_text(data, encoding="utf-8")
    built = forge_in_process("build", "demo", "--what", "printshop,cheatsheet,rulebook", "--lang", "en", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    page = PdfReader(tmp_path / "output/demo/en/printshop.pdf").pages[0]
    printed, lines, squares = _read(page)
    assert "Draw 1 card and pay" in printed
    assert "*" not in printed and ":coin:" not in printed and ":mana:" not in printed
    _assert_drawn(lines, squares)
    (base, runs), = ((y, runs) for y, runs in lines.items() if any("Base game" in r[0] for r in runs))
    size = runs[0][2]
    assert [(x, y) for side, x, y in squares if side == pytest.approx(inline.SIDE * size, abs=0.01)
            and y == pytest.approx(base - inline.DROP * size, abs=0.02)], "the footer label's heart"
    (base, runs), = ((y, runs) for y, runs in lines.items() if any("Price" in r[0] for r in runs))
    assert runs[0][1].endswith("+Roboto-Bold") and runs[0][2] == 7.5, runs
    assert [(x, y) for side, x, y in squares if side == pytest.approx(inline.SIDE * 7.5, abs=0.01)
            and y == pytest.approx(base - inline.DROP * 7.5, abs=0.02)], "the table cell's coin"
    # The cheat sheet's and the rulebook's tables print the card's effect as the card does.
    for book in ("cheatsheet", "rulebook"):
        pages = PdfReader(tmp_path / f"output/demo/en/{book}.pdf").pages
        page = next(p for p in pages if "Draw 1 card and pay" in p.extract_text())
        printed, lines, squares = _read(page)
        assert "**" not in printed and ":coin:" not in printed and ":mana:" not in printed, book
        _assert_drawn(lines, squares)


def _read(page):
    """The page's text; its lines (baseline -> (text, font, size) runs); the squares scaled
    more than a point (icons: x, y, side)."""
    lines: dict[float, list[tuple[str, str, float]]] = {}
    squares: list[tuple[float, float, float]] = []

    def text(said, cm, tm, font, size):
        if said.strip():
            lines.setdefault(round(cm[5] + tm[5], 2), []).append((said, font["/BaseFont"], size * cm[0]))

    def operator(op, args, cm, tm):
        if op == b"cm" and float(args[0]) == float(args[3]) > 1:
            squares.append((float(args[0]) * cm[0], cm[4] + cm[0] * float(args[4]), cm[5] + cm[3] * float(args[5])))

    return page.extract_text(visitor_text=text, visitor_operand_before=operator), lines, squares


def _assert_drawn(lines, squares):
    """"Draw" in bold and the coin and mana icons in its line, one advance apart (the line in
    the largest type: a rulebook's table, not the card pictures beside it)."""
    base, runs = max(((y, runs) for y, runs in lines.items() if any("card and pay" in r[0] for r in runs)),
                     key=lambda line: line[1][0][2])
    draw = next(r for r in runs if "Draw" in r[0])
    assert draw[1].endswith("+Roboto-Bold"), "bold in the family's own bold face"
    size = draw[2]
    inline_icons = [s for s in squares if s[0] == pytest.approx(inline.SIDE * size, abs=0.01)]
    assert len(inline_icons) == 2, squares  # the built-in coin and the game's own mana drop
    for side, x, y in inline_icons:
        assert y == pytest.approx(base - inline.DROP * size, abs=0.02), "on the text's line"
    assert inline_icons[1][1] - inline_icons[0][1] == pytest.approx(inline.ADVANCE * size, abs=0.02)
