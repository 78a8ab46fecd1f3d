"""Front-matter declarations the claims check reads: functions and conventions, validated."""

from __future__ import annotations

from pathlib import Path

from pizarra.check.claims import check_claims
from pizarra.source.lower import parse_lesson

HEAD = "---\ntitle: T\nlesson: 1\nlang: es\nsummary: S.\n"


def _parse(front: str, body: str = "Texto.\n") -> tuple[object, list[str]]:
    lesson, diagnostics = parse_lesson(Path("l.md"), "l.md", HEAD + front + "---\n\n" + body)
    return lesson, [d.format() for d in diagnostics]


def test_functions_are_defined_and_applied() -> None:
    lesson, errors = _parse('functions:\n  g: "x^2 + 1"\n', "$g(3)=10$ y $g(3)=11$.\n")
    assert errors == []
    diagnostics, counts = check_claims(lesson)  # type: ignore[arg-type]
    assert (counts.checked, counts.failed) == (1, 1)
    assert diagnostics[0].pos.line == 10


def test_a_definition_that_cannot_be_read_is_an_error_at_its_key() -> None:
    _, errors = _parse('functions:\n  f: "x + 1"\n  g: "x^2 + \\\\cdots"\n')
    assert errors[0].startswith("l.md:8:3: error: functions: the definition of g cannot be read")
    _, errors = _parse('functions:\n  g: "x y"\n')
    assert "say which letter is the parameter of g" in errors[0]
    _, errors = _parse('functions:\n  "g(x)": "x + y"\n')
    assert "letters that are not parameters: y" in errors[0]


def test_conventions_are_validated_with_positions() -> None:
    _, errors = _parse("conventions:\n  log: 3\n")
    assert errors[0].startswith("l.md:6:1: error: conventions: log must be 10, e or 2")
    _, errors = _parse("conventions:\n  base: 2\n")
    assert errors[0].startswith("l.md:6:1: error: unknown convention 'base'")
    assert "zero_to_the_zero" in errors[0]


def test_log_convention_changes_the_base() -> None:
    lesson, errors = _parse("conventions:\n  log: 2\n", "$\\log 8 = 3$\n")
    assert errors == []
    assert check_claims(lesson)[1].checked == 1  # type: ignore[arg-type]


def test_refuted_identity_names_its_counterexample() -> None:
    lesson, _ = _parse("variables:\n  a: real\n  b: real\n", "$(a+b)^2=a^2+b^2$\n")
    [diagnostic] = check_claims(lesson)[0]  # type: ignore[arg-type]
    assert diagnostic.message == (
        "(a+b)^2 = a^2+b^2 is false for a = 1, b = 1: the left side is 4, the right side is 2"
    )
    assert "\\overset{?}{=}" in diagnostic.hint


def test_spanish_thousands_written_the_english_way_get_a_hint() -> None:
    lesson, _ = _parse("", "$512^2=262{,}144$\n")
    [diagnostic] = check_claims(lesson)[0]  # type: ignore[arg-type]
    assert "262\\,144" in diagnostic.hint
