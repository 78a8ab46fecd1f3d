"""The claims check: verdicts of whole formulas, positions, counts, conventions."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.check.claims import ClaimCounts, check_claims, iter_claims
from pizarra.math.exact.judge import Status
from pizarra.source.blocks import MathItem
from pizarra.source.model import Lesson
from pizarra.source.syntax.front_matter_fields import check_conventions

FIXTURES = Path(__file__).parent / "fixtures" / "claims"
LETTERS = {"c": Status.CHECKED, "u": Status.UNCHECKED, "f": Status.FAILED}


def _cases() -> list[object]:
    """One case per fixture line, with the line number as its id (``line12``)."""
    cases = []
    lines = (FIXTURES / "verdicts.txt").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.startswith("#"):
            continue
        expected, tex = line.split(" ::: ", 1)
        statuses = [] if expected == "-" else [LETTERS[word] for word in expected.split()]
        cases.append(pytest.param(tex, statuses, id=f"line{number}"))
    return cases


@pytest.mark.parametrize(("tex", "expected"), _cases())
def test_verdicts(tex: str, expected: list[Status]) -> None:
    verdicts = iter_claims(tex)
    assert [v.status for v in verdicts] == expected, [(v.claim, v.message) for v in verdicts]


def _lesson(*items: MathItem, **fields: object) -> Lesson:
    return Lesson(
        path=Path("leccion.md"),
        display_path="leccion.md",
        number=7,
        title="Potencias",
        lang="es",
        summary="",
        slug="potencias",
        blocks=(),
        math=items,
        **fields,  # type: ignore[arg-type]
    )


def _inline(tex: str, line: int = 3, col: int = 5) -> MathItem:
    return MathItem(tex, False, SourcePos("leccion.md", line, col))


def test_false_square_fails_at_its_position_with_both_values() -> None:
    diagnostics, counts = check_claims(_lesson(_inline("512^2 = 262\\,145", 12, 9)))
    assert counts == ClaimCounts(checked=0, unchecked=0, failed=1)
    [diagnostic] = diagnostics
    assert diagnostic.format().splitlines()[0] == (
        "leccion.md:12:9: error: claim is false: 512^2 = 262\\,145 "
        "(left side is 262144, right side is 262145)"
    )
    assert "fix the number" in diagnostic.hint


def test_true_square_passes() -> None:
    diagnostics, counts = check_claims(_lesson(_inline("512^2=262\\,144")))
    assert diagnostics == []
    assert counts == ClaimCounts(checked=1, unchecked=0, failed=0)


def test_even_root_of_negative_is_not_defined() -> None:
    [diagnostic] = check_claims(_lesson(_inline(r"\sqrt{-9}=3")))[0]
    assert diagnostic.message.startswith(r"\sqrt{-9} is not defined in the real numbers")


def test_zero_to_negative_power_is_not_defined() -> None:
    [diagnostic] = check_claims(_lesson(_inline("0^{-3}=0")))[0]
    assert diagnostic.message.startswith("0^{-3} is not defined in the real numbers")


def test_zero_to_the_zero_needs_a_convention() -> None:
    item = _inline("0^0=1")
    [diagnostic], counts = check_claims(_lesson(item))
    assert "0^0 has no value unless the lesson declares a convention" in diagnostic.message
    assert "zero_to_the_zero" in diagnostic.hint
    assert counts.failed == 1
    diagnostics, counts = check_claims(_lesson(item, conventions={"zero_to_the_zero": "1"}))
    assert diagnostics == []
    assert counts == ClaimCounts(checked=1)


def test_zero_to_the_zero_convention_can_leave_it_undefined() -> None:
    lesson = _lesson(_inline("0^0=1"), conventions={"zero_to_the_zero": "undefined"})
    [diagnostic] = check_claims(lesson)[0]
    assert "0^0 is not defined in the real numbers" in diagnostic.message


def test_bad_convention_and_domain_are_reported() -> None:
    lesson = _lesson(
        _inline("1=1"),
        conventions={"zero_to_the_zero": "tal vez"},
        variables={"n": "prime"},
    )
    messages = [d.message for d in check_claims(lesson)[0]]
    assert any("zero_to_the_zero must be a number" in m for m in messages)
    assert any("n has unknown domain 'prime'" in m for m in messages)


def test_multiline_display_points_at_the_failing_row() -> None:
    tex = (
        "\n\\begin{aligned}\n"
        "N_{\\text{old}} &= 512\\times2048=1\\,048\\,576,\\\\\n"
        "N_{\\text{new}} &= 1024\\times4096=4\\,194\\,305.\n"
        "\\end{aligned}\n"
    )
    item = MathItem(tex, True, SourcePos("leccion.md", 20, 1))
    [diagnostic], counts = check_claims(_lesson(item))
    assert diagnostic.pos == SourcePos("leccion.md", 23, 1)
    assert "4\\,194\\,305" in diagnostic.message
    assert counts == ClaimCounts(checked=1, unchecked=2, failed=1)


@pytest.mark.parametrize("tex", ["512^2=262\\,145.", "\n512^2=262\\,145.\n"])
def test_display_math_on_its_own_lines_points_at_the_content(tex: str) -> None:
    source = "---\ntitle: t\n---\n\nAntes del cambio,\n\n$$\n512^2=262\\,145.\n$$\n"
    item = MathItem(tex, True, SourcePos("leccion.md", 7, 1))
    [diagnostic] = check_claims(_lesson(item, source_text=source))[0]
    assert diagnostic.pos == SourcePos("leccion.md", 8, 1)


def test_aligned_rows_of_the_parameter_block_pass() -> None:
    tex = (
        r"\begin{aligned} N_{\text{old}} &= 512\times2{,}048=1{,}048{,}576,\\"
        r" N_{\text{new}} &= 1{,}024\times4{,}096=4{,}194{,}304. \end{aligned}"
    )
    statuses = [v.status for v in iter_claims(tex)]
    assert statuses == [Status.UNCHECKED, Status.CHECKED] * 2


def test_aligned_continuation_rows_check_every_link() -> None:
    tex = r"\begin{aligned} (a+b)^2 &=(a+b)(a+b)\\ &=a^2+ab+ba+b^2\\ &=a^2+2ab+b^2. \end{aligned}"
    verdicts = iter_claims(tex, variables={"a": "real", "b": "real"})
    assert [v.claim for v in verdicts] == [
        "(a+b)^2 = (a+b)(a+b)",
        "(a+b)(a+b) = a^2+ab+ba+b^2",
        "a^2+ab+ba+b^2 = a^2+2ab+b^2",
    ]
    assert all(v.status is Status.CHECKED for v in verdicts)


def test_declared_domain_lets_an_identity_be_proved() -> None:
    tex = r"\sqrt{n^2}=n"
    assert [v.status for v in iter_claims(tex)] == [Status.UNCHECKED]
    proved = iter_claims(tex, variables={"n": "positive"})
    assert [v.status for v in proved] == [Status.CHECKED]


def test_counts_add_up_over_a_lesson() -> None:
    lesson = _lesson(
        _inline("(2+3)^2=25\\ne13=2^2+3^2"),
        _inline("x=7"),
        _inline("2^3=9"),
    )
    diagnostics, counts = check_claims(lesson)
    assert counts == ClaimCounts(checked=3, unchecked=1, failed=1)
    assert len(diagnostics) == 1
    assert (counts + counts).summary() == "claims: 6 checked, 0 assumed, 2 unchecked, 2 failed"


def test_hostile_formulas_finish_quickly_as_unchecked() -> None:
    formulas = [
        "2^{2^{2^{2^{2^{2}}}}}=1",
        "9999^{99999}=1",
        "(\\sqrt[61]{2}-1)^{64}=0",
        "\\sqrt[3]{2+\\sqrt5}+\\sqrt[3]{2-\\sqrt5}=1",
        "(a+b+c+d+e)^{16}(f+g+h+i+j)^{16}=1",
        "(" * 200 + "1" + ")" * 200 + "=1",
        "1" + "+1" * 2000 + "=2001",
        "x" * 20_000 + "=1",
    ]
    start = time.monotonic()
    for tex in formulas:
        assert [v.status for v in iter_claims(tex)] == [Status.UNCHECKED], tex[:40]
    assert time.monotonic() - start < 10


def test_nearly_equal_algebraic_numbers_are_told_apart() -> None:
    power = "(\\sqrt[6]{3}+\\sqrt[3]{2}-1)^{16}"
    [equal] = iter_claims(f"{power}=(\\sqrt[3]{{2}}+\\sqrt[6]{{3}}-1)^{{8}}{power[:-5]}^{{8}}")
    [apart] = iter_claims(f"{power}={power}+10^{{-40}}")
    assert (equal.status, apart.status) == (Status.CHECKED, Status.FAILED)


def test_every_formula_of_the_reference_lesson_passes() -> None:
    formulas = (FIXTURES / "reference-formulas.txt").read_text(encoding="utf-8").splitlines()
    counts = ClaimCounts()
    declared = {"n": "positive", "d_k": "positive", "C": "positive", "k": "positive"}
    for tex in formulas:
        verdicts = iter_claims(tex, variables=declared)
        assert all(v.status is not Status.FAILED for v in verdicts), (tex, verdicts)
        for v in verdicts:
            counts += ClaimCounts(
                checked=int(v.status is Status.CHECKED),
                assumed=int(v.status is Status.ASSUMED),
                unchecked=int(v.status is Status.UNCHECKED),
            )
    # n > 0, C > 0 and k > 0 restate the declarations: assumed, not checked
    assert counts == ClaimCounts(checked=57, assumed=3, unchecked=67, failed=0)
    cube_root = iter_claims(r"\sqrt[3]{-8}=-2")
    assert [v.status for v in cube_root] == [Status.CHECKED]


def test_the_bare_comma_convention_checks_thousands_and_leaves_lists_unchecked() -> None:
    items = (_inline("20,000 + 5,000 = 25,000"), _inline("j = 1,2", 4), _inline("2,048 = 2048", 5))
    lesson = replace(_lesson(*items), lang="en")
    diagnostics, counts = check_claims(lesson)
    # without the convention each bare comma is ambiguous: 20,000, 5,000, 25,000, 1,2, 2,048
    assert len(diagnostics) == 5 and all("ambiguous" in d.message for d in diagnostics)
    lesson = replace(lesson, conventions={"bare_comma": "thousands_or_list"})
    diagnostics, counts = check_claims(lesson)
    assert diagnostics == []
    assert (counts.checked, counts.unchecked, counts.failed) == (2, 1, 0)
    wrong = replace(lesson, math=(_inline("20,000 = 2000"),))
    [diagnostic] = check_claims(wrong)[0]
    assert "claim is false" in diagnostic.message


def test_an_unknown_bare_comma_value_is_reported() -> None:
    errors: list[Diagnostic] = []
    check_conventions({"bare_comma": "decimal"}, SourcePos("x.md", 2, 1), errors)
    [error] = errors
    assert "bare_comma must be thousands_or_list" in error.message
