"""Functions defined in a lesson's prose: their scope, redefinitions, and the cache."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pizarra.base.errors import SourcePos
from pizarra.check.claims import claim_records
from pizarra.check.verdicts import VerdictCache
from pizarra.math.exact.context import Context
from pizarra.math.exact.judge import Status
from pizarra.math.exact.prose import definitions_in
from pizarra.source.blocks import MathItem
from pizarra.source.model import Lesson

C, U, F = Status.CHECKED, Status.UNCHECKED, Status.FAILED


def _lesson(*texs: str, **fields: object) -> Lesson:
    items = tuple(
        MathItem(tex, False, SourcePos("l.md", line, 1)) for line, tex in enumerate(texs, 3)
    )
    return Lesson(
        path=Path("l.md"),
        display_path="l.md",
        number=1,
        title="T",
        lang="en",
        summary="",
        slug="t",
        blocks=(),
        math=items,
        **fields,  # type: ignore[arg-type]
    )


def _statuses(lesson: Lesson) -> list[tuple[int, Status, str]]:
    records, _ = claim_records(lesson)
    return [(r.pos.line, r.status, r.reason) for r in records]


def test_a_definition_holds_from_its_line_on() -> None:
    lesson = _lesson("g(2) = 5", "g(t) = 3t - 1", "g(2) = 5", "g(2) = 4")
    assert [s for _, s, _ in _statuses(lesson)] == [U, U, C, F]
    assert _statuses(lesson)[1][2] == "defines g(t) from here on"


def test_a_redefinition_is_an_error_naming_both_lines() -> None:
    records, problems = claim_records(_lesson("g(t) = 3t - 1", "g(2) = 5", "g(x) = 2x"))
    [problem] = problems
    assert problem.pos.line == 5
    assert problem.message == (
        "g is defined twice: at line 3 (g(t) = 3t - 1) and at line 5 (g(x) = 2x)"
    )
    assert [r.status for r in records] == [U, C, U]


def test_a_restatement_with_another_letter_is_no_error() -> None:
    records, problems = claim_records(_lesson("g(t) = 3t - 1", "g(x) = 3x - 1", "g(2) = 5"))
    assert problems == []
    assert [r.status for r in records] == [U, U, C]
    assert records[1].reason == "restates the definition of g(x) (line 3)"


def test_what_is_not_a_definition() -> None:
    context = Context()
    for tex in [
        "P(A) = 0.3",  # a parameter the body does not use
        "f(n) = C n^p",  # letters that are not parameters
        "g(2) = 5",  # a value, not a parameter
        "g(t, t) = t",  # a repeated parameter
        "g(t+1) = t",
        "f(n) = n f(n - 1)",  # recursive: its body cannot be read
        "\\ln(x) = x",  # a built-in function
        "g(t) \\le 3t",
        "g(t) = 3t \\pm 1",
    ]:
        assert definitions_in(tex, context, frozenset()) == [], tex
    assert definitions_in("g(t) = t", Context(domains={"g": "real"}), frozenset()) == []
    assert definitions_in("g(t) = t", context, frozenset({"g"})) == []


def test_the_front_matter_function_is_not_redefined_by_prose() -> None:
    lesson = _lesson("g(x) = x^2 + 2", "g(1) = 2", functions={"g": "x^2 + 1"})
    records, problems = claim_records(lesson)
    assert problems == []
    assert [r.status for r in records] == [U, C]


def test_the_cache_keeps_each_scope_apart(tmp_path: Path) -> None:
    cache = VerdictCache.under(tmp_path)
    lesson = _lesson("g(2) = 5", "g(t) = 3t - 1", "g(2) = 5")
    from pizarra.check.claims import check_claims

    for _ in range(2):
        _, counts = check_claims(lesson, cache)
        assert (counts.checked, counts.unchecked, counts.failed) == (1, 2, 0)
    other = _lesson("g(t) = 3t + 1", "g(2) = 5")
    _, counts = check_claims(other, cache)
    assert (counts.checked, counts.unchecked, counts.failed) == (0, 1, 1)


REPLACING = {"redefinition": "replaces"}


def test_with_the_replacing_convention_each_definition_holds_until_the_next() -> None:
    lesson = _lesson(
        "f(x) = x^2", "f(3) = 9", "f(x) = x + 1", "f(3) = 4", "f(3) = 9", conventions=REPLACING
    )
    records, problems = claim_records(lesson)
    assert problems == []
    assert [r.status for r in records] == [U, C, U, C, F]
    assert records[2].reason == "redefines f(x) from here on (it was f(x) = x^2, line 3)"


def test_with_the_replacing_convention_an_unreadable_definition_ends_the_last() -> None:
    cases = r"f(x) = \begin{cases}-1 & x < 0\\ 1 & x \ge 0\end{cases}"
    lesson = _lesson("f(x) = x^2", "f(0) = 0", cases, "f(0) = 1", conventions=REPLACING)
    records, problems = claim_records(lesson)
    assert problems == []
    # f(0) = 1 would fail with x^2; the author's f is now the piecewise one: unchecked
    assert [(r.pos.line, r.status) for r in records if r.claim in ("f(0) = 0", "f(0) = 1")] == [
        (4, C),
        (6, U),
    ]
    [ended] = [r for r in records if r.pos.line == 5 and r.reason.startswith("defines f again")]
    assert "f(x) = x^2 (line 3) no longer holds" in ended.reason


def test_without_the_convention_an_unreadable_definition_changes_nothing() -> None:
    lesson = _lesson("f(x) = x^2", "f(x) = |x| + C", "f(2) = 4")  # C: no definition
    records, problems = claim_records(lesson)
    assert problems == [] and records[-1].status is C


def test_a_definition_with_three_parameters() -> None:
    lesson = _lesson("h(x, y, z) = x + 2y + 3z", "h(1, 2, 3) = 14", "h(1, 2, 3) = 6")
    assert [s for _, s, _ in _statuses(lesson)] == [U, C, F]
    assert _statuses(lesson)[0][2] == "defines h(x, y, z) from here on"


def test_a_head_with_unmatched_brackets_or_e_defines_nothing() -> None:
    context = Context()
    for tex in [
        "g\\left(t)) = t",  # \left without its \right
        "g((t\\right) = t",  # \right without its \left
        "g(t] = t",
        "g[t) = t",
        "g(e) = 2e",  # e is the constant, never a parameter
        "g(t,) = t",  # a trailing comma
    ]:
        assert definitions_in(tex, context, frozenset()) == [], tex
    assert [
        d.function.params for d in definitions_in("g\\left(t\\right) = t", context, frozenset())
    ] == [("t",)]


def test_every_definition_in_a_formula_is_found_after_links_that_define_nothing() -> None:
    context = Context(domains={"x": "real"})
    for before in [
        "g(1) = 2",  # not a head
        "x(t) = t",  # a declared variable
        "e(t) = t",  # a constant
        "k(t) = t \\pm 1",  # a body with \pm
        "P(A) = 0.3",  # a body without its parameter
    ]:
        found = definitions_in(f"{before}, \\quad h(t) = 3t", context, frozenset())
        assert [(d.name, d.function.params) for d in found] == [("h", ("t",))], before


def test_a_definition_may_use_one_made_earlier_in_its_formula() -> None:
    found = definitions_in("g(t) = 2t, \\quad h(t) = g(t) + 1", Context(), frozenset())
    assert [d.name for d in found] == ["g", "h"]


def test_the_longest_formula_searched() -> None:
    from pizarra.math.exact.prose import MAX_FORMULA

    head = "g(t) = t"
    exact = head + " " * (MAX_FORMULA - len(head))
    assert [d.name for d in definitions_in(exact, Context(), frozenset())] == ["g"]
    assert definitions_in(exact + " ", Context(), frozenset()) == []


def test_a_definition_is_read_in_the_lessons_language() -> None:
    lesson = replace(_lesson("g(t) = 1{,}5t", "g(2) = 3", "g(2) = 30"), lang="es")
    assert [s for _, s, _ in _statuses(lesson)] == [U, C, F]
    # in English numerals 1{,}500 is 1500: k(1) = 1500 must never be checked here
    lesson = replace(_lesson("k(x) = 1{,}500x", "k(1) = 1500", "k(1) = 1{,}5"), lang="es")
    assert [s for _, s, _ in _statuses(lesson)] == [U, F, C]


def test_a_value_at_e_defines_nothing() -> None:
    # g(e) = 2e states a value of g at e: it must not make g(1) = 2 checked
    lesson = _lesson("g(e) = 2e", "g(1) = 2")
    assert [s for _, s, _ in _statuses(lesson)] == [U, U]
    assert "defines" not in _statuses(lesson)[0][2]


def test_a_definition_and_a_redefinition_keep_their_claim_and_no_hint() -> None:
    records, problems = claim_records(_lesson("g(t) = 3t - 1", "g(x) = 2x"))
    assert [(r.claim, r.status, r.hint) for r in records] == [
        ("g(t) = 3t - 1", U, ""),
        ("g(x) = 2x", U, ""),
    ]
    assert records[1].reason == problems[0].message
    assert problems[0].hint == (
        "give the new function another name (h, g_2), or drop one of the definitions"
    )
