"""TeX -> MathML with math-core: every lesson formula, the quirks, errors, limits, macros."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from pizarra.math import mathml
from pizarra.math.mathml import MacroError, MathCoreRenderer, MathError, MathRenderer, with_macros
from pizarra.render import assets

FORMULAS = Path(__file__).parent / "fixtures" / "math" / "formulas.txt"


@dataclass(frozen=True)
class Formula:
    """One block of the formulas fixture."""

    tex: str
    """The TeX between the dollars."""
    display: bool
    """``$$...$$`` rather than ``$...$``."""
    line: int
    """Where the block starts in the fixture, for test ids."""


def load_formulas(path: Path = FORMULAS) -> list[Formula]:
    """Blocks separated by blank lines, each ``$...$`` or ``$$...$$``; ``# `` lines skipped."""
    formulas: list[Formula] = []
    block: list[str] = []
    start = 0
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate([*lines, ""], start=1):
        if line.startswith("# "):
            continue
        if line.strip():
            if not block:
                start = number
            block.append(line)
            continue
        if block:
            text = "\n".join(block)
            display = text.startswith("$$")
            fence = "$$" if display else "$"
            assert text.startswith(fence) and text.endswith(fence), f"line {start}: {text!r}"
            formulas.append(Formula(text[len(fence) : -len(fence)].strip("\n"), display, start))
            block = []
    return formulas


ALL = load_formulas()


def parse(mathml_text: str) -> ET.Element:
    return ET.fromstring(mathml_text)


def texts(root: ET.Element, tag: str) -> list[str]:
    return [el.text or "" for el in root.iter(tag)]


@pytest.fixture(scope="module")
def render() -> MathCoreRenderer:
    return MathCoreRenderer()


def test_fixture_holds_the_whole_lesson() -> None:
    displays = [f for f in ALL if f.display]
    assert len(ALL) == 143
    assert len(displays) == 32
    assert len({(f.tex, f.display) for f in ALL}) == len(ALL)
    assert sum(r"\begin{aligned}" in f.tex for f in ALL) == 2
    restored = [f.tex for f in displays if "factores}}" in f.tex and "a^p=" in f.tex]
    assert restored, "the definition of a^p is restored"
    assert any(f.tex.startswith(r"\frac{(2n)^2d_k}{n^2d_k}") for f in displays)


@pytest.mark.parametrize("formula", ALL, ids=lambda f: f"line{f.line}")
def test_every_lesson_formula_renders(render: MathCoreRenderer, formula: Formula) -> None:
    out = render(formula.tex, formula.display)
    root = parse(out)
    assert root.tag == "math"
    assert not list(root.iter("merror"))
    assert "<merror" not in out
    if formula.display:
        assert root.get("display") == "block"
    else:
        assert root.get("display") is None
    annotation = root.find("semantics/annotation")
    assert annotation is not None
    assert annotation.get("encoding") == "application/x-tex"
    assert annotation.text == formula.tex


def test_aligned_is_a_table_with_one_row_per_line(render: MathCoreRenderer) -> None:
    aligned = [f for f in ALL if r"\begin{aligned}" in f.tex]
    for formula in aligned:
        root = parse(render(formula.tex, True))
        rows = list(root.iter("mtr"))
        assert len(list(root.iter("mtable"))) == 1
        assert len(rows) == formula.tex.count("\\\\") + 1
        assert all(len(row.findall("mtd")) == 2 for row in rows)
        assert "&" not in "".join(root.itertext()).replace(formula.tex, "")


def test_thousands_separator_is_one_number(render: MathCoreRenderer) -> None:
    root = parse(render("2{,}048", False))
    assert texts(root, "mn") == ["2,048"]
    assert not list(root.iter("mo"))
    big = parse(render(r"512\times2{,}048=1{,}048{,}576", True))
    assert texts(big, "mn") == ["512", "2,048", "1,048,576"]


@pytest.mark.parametrize(
    ("tex", "tag", "expected"),
    [
        (r"QK^{\mathsf T}", "mi", "𝖳"),
        (r"r\ge0 \quad\Longleftrightarrow\quad x", "mo", "⟺"),
        (r"\underbrace{a\cdots a}_{m\text{ factores}}", "mo", "⏟"),
        (r"\text{él añadió}", "mtext", "él\u00a0añadió"),
        (r"a\ne0", "mo", "≠"),
    ],
)
def test_symbols(render: MathCoreRenderer, tex: str, tag: str, expected: str) -> None:
    root = parse(render(tex, False))
    assert expected in texts(root, tag)


def test_structures(render: MathCoreRenderer) -> None:
    root = parse(render(r"a^{m/q}=\left(\sqrt[q]{a}\right)^m", True))
    assert len(list(root.iter("mroot"))) == 1
    # \left( \right) stay stretchy: "(" and ")" are fences by MathML's operator dictionary.
    fences = [el for el in root.iter("mo") if el.text in "()" and el.get("stretchy") != "false"]
    assert [el.text for el in fences] == ["(", ")"]
    dfrac = parse(render(r"\dfrac{a^m}{a^n}", False))
    assert len(list(dfrac.iter("mfrac"))) == 1
    assert any(el.get("displaystyle") == "true" for el in dfrac.iter())
    brace = parse(render(r"\underbrace{a\cdots a}_{m\text{ factores}}", True))
    assert [el.text for el in brace.iter("mtext")] == ["\u00a0factores"]


@pytest.mark.parametrize(
    ("tex", "fragment", "offset"),
    [
        (r"\fracc{1}", r'Unknown command "\fracc"', 0),
        (r"x^{2", 'Expected closing token "}"', 4),
        ("a & b", 'Found "&"', 2),
        (r"\text{ééé} \fracc", r'Unknown command "\fracc"', 11),
        (r"\href{javascript:alert(1)}{x}", r'Unknown command "\href"', 0),
        (r"\htmlData{foo=bar}{x}", r'Unknown command "\htmlData"', 0),
    ],
)
def test_invalid_tex_is_a_clean_error(
    render: MathCoreRenderer, tex: str, fragment: str, offset: int
) -> None:
    with pytest.raises(MathError) as caught:
        render(tex, True)
    message = caught.value.message
    assert message.startswith("invalid LaTeX: ")
    assert fragment in message
    assert str(caught.value) == message
    assert "\n" not in message and "\x1b" not in message
    assert caught.value.offset == offset


@pytest.mark.parametrize("command", ["def", "newcommand", "renewcommand", "let", "gdef"])
def test_definitions_inside_formulas_are_refused(render: MathCoreRenderer, command: str) -> None:
    with pytest.raises(MathError) as caught:
        render(rf"x + \{command}\a{{y}} \a", True)
    assert caught.value.offset == 4
    assert caught.value.hint is not None and "macros:" in caught.value.hint
    assert render(r"\\def", True).count("<mi>") == 3


def test_limits(render: MathCoreRenderer) -> None:
    assert parse(render("x" * mathml.MAX_TEX_CHARS, False)).tag == "math"
    with pytest.raises(MathError, match="too long"):
        render("x" * (mathml.MAX_TEX_CHARS + 1), False)
    deepest = 4999
    assert parse(render("{" * deepest + "x" + "}" * deepest, True)).tag == "math"


def test_macros_expand_and_stay_in_the_annotation() -> None:
    render = MathCoreRenderer({"R": r"\mathbb{R}", "vect": r"\mathbf{#1}"})
    root = parse(render(r"\vect{x}\in\R^n", False))
    assert texts(root, "mi")[:2] == ["𝐱", "ℝ"]
    annotation = root.find("semantics/annotation")
    assert annotation is not None and annotation.text == r"\vect{x}\in\R^n"


def test_with_macros_adds_and_overrides() -> None:
    base = MathCoreRenderer({"R": r"\mathbb{R}"})
    assert base.with_macros({}) is base
    extended = base.with_macros({"N": r"\mathbb{N}"})
    assert extended is base.with_macros({"N": r"\mathbb{N}"})
    assert "ℕ" in extended(r"\N", False) and "ℝ" in extended(r"\R", False)
    overridden = base.with_macros({"R": "x"})
    assert "<mi>x</mi>" in overridden(r"\R", False)

    def fake(tex: str, display: bool) -> str:
        return tex

    assert with_macros(fake, {"R": "x"}) is fake


@pytest.mark.parametrize(
    ("macros", "fragment"),
    [
        ({"1x": "y"}, "invalid macro name"),
        ({"a": r"\b", "b": r"\a"}, "expands to itself"),
        ({"a": r"\frac{\a}{2}"}, "expands to itself"),
        ({"a": r"\def\b{c}"}, "must not define"),
        ({"a": "x" * (mathml.MAX_MACRO_CHARS + 1)}, "too long"),
    ],
)
def test_bad_macros_are_refused(macros: dict[str, str], fragment: str) -> None:
    problems = mathml.macro_problems(macros)
    assert len(problems) == 1 and fragment in problems[0].message
    with pytest.raises(MacroError, match=fragment):
        MathCoreRenderer(macros)


def test_macro_expansion_is_bounded_before_conversion() -> None:
    # Nesting through macros is what could overflow the converter's stack: a formula
    # whose expansion could exceed MAX_EXPANDED characters is refused without converting.
    body = r"\sqrt{\sqrt{\sqrt{\sqrt{\sqrt{\sqrt{\sqrt{\sqrt{#1}}}}}}}}"
    render = MathCoreRenderer({"b": body})
    assert parse(render(r"\b{x}", True)).tag == "math"
    with pytest.raises(MathError, match="once its macros are expanded"):
        render(r"\b{" * 900 + "x" + "}" * 900, True)


def test_grouped_numbers_are_one_mn(render: MathCoreRenderer) -> None:
    root = parse(render(r"3{,}5 + 2,5", False))
    assert texts(root, "mn") == ["3,5", "2", "5"]


def test_threads_share_one_renderer() -> None:
    serial = MathCoreRenderer()
    expected = [serial(f.tex, f.display) for f in ALL]
    shared = MathCoreRenderer()
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda f: shared(f.tex, f.display), ALL))
    assert got == expected


def test_a_fake_renderer_satisfies_the_protocol() -> None:
    def fake(tex: str, display: bool) -> str:
        return f"<math>{tex}</math>"

    renderer: MathRenderer = fake
    assert renderer("x", True) == "<math>x</math>"


def test_main_font_face_covers_the_lesson(render: MathCoreRenderer) -> None:
    core = assets.codepoints(assets.MATH_FONT.ranges)
    used: set[int] = set()
    for formula in ALL:
        root = parse(render(formula.tex, formula.display))
        semantics = root.find("semantics")
        assert semantics is not None
        for child in list(semantics)[:-1]:
            used.update(ord(ch) for ch in "".join(child.itertext()))
    missing = sorted(f"U+{cp:04X}" for cp in used - core)
    assert not missing


def test_a_remembering_renderer_converts_each_formula_once() -> None:
    from pizarra.math.mathml import MathError, Remembering, with_macros

    calls: list[tuple[str, bool]] = []

    def counting(tex: str, display: bool) -> str:
        calls.append((tex, display))
        if tex == "\\bad":
            raise MathError("unknown command")
        return f"<math>{tex}</math>"

    math = Remembering(counting)
    assert [math("x", False), math("x", False), math("x", True)] == ["<math>x</math>"] * 3
    assert calls == [("x", False), ("x", True)]
    for _ in range(2):
        with pytest.raises(MathError):
            math("\\bad", False)
    assert calls[2:] == [("\\bad", False)] * 2, "a failure is not remembered"
    core = Remembering(MathCoreRenderer())
    named = with_macros(core, {"midpoint": "M_0"})
    assert named is not core and with_macros(core, {"midpoint": "M_0"}) is named
    assert "<msub><mi>M</mi><mn>0</mn></msub>" in named("\\midpoint", False)
    with pytest.raises(MathError):
        core("\\midpoint", False)
