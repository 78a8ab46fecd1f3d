"""Assumed claims: a relation that only restates a declared domain is not "checked"."""

from __future__ import annotations

import pytest

from pizarra.base.errors import SourcePos
from pizarra.check.claims import ClaimCounts, ClaimRecord, iter_claims
from pizarra.math.exact.judge import Status

A, C, U = Status.ASSUMED, Status.CHECKED, Status.UNCHECKED


def statuses(tex: str, **variables: str) -> list[Status]:
    return [v.status for v in iter_claims(tex, variables=variables)]


@pytest.mark.parametrize(
    ("tex", "domain"),
    [
        pytest.param("x>0", "positive", id="same-relation"),
        pytest.param("0<x", "positive", id="letter-on-the-right"),
        pytest.param("x\\ge0", "positive", id="weaker-ge"),
        pytest.param("x\\ne0", "positive", id="weaker-ne"),
        pytest.param("x\\neq0", "nonzero", id="nonzero-neq"),
        pytest.param("x\\ge0", "nonnegative", id="nonnegative"),
        pytest.param("x>-1", "positive", id="weaker-bound"),
        pytest.param("n\\ge1", "positive_integer", id="positive-integer"),
        pytest.param("d_k>0", "positive", id="subscripted-letter"),
    ],
)
def test_a_relation_the_declaration_implies_on_its_own_is_assumed(tex: str, domain: str) -> None:
    letter = "d_k" if tex.startswith("d_k") else tex.replace("0<", "")[0]
    [verdict] = iter_claims(tex, variables={letter: domain})
    assert verdict.status is A
    assert verdict.message == f"restates the declaration {letter}: {domain}"


@pytest.mark.parametrize(
    ("tex", "variables", "expected"),
    [
        pytest.param("\\sqrt{x^2}=x", {"x": "positive"}, [C], id="uses-the-declaration"),
        pytest.param("x^2+1>0", {"x": "real"}, [C], id="expression-not-a-letter"),
        pytest.param("2x>0", {"x": "positive"}, [C], id="multiple-of-the-letter"),
        pytest.param("x>y", {"x": "positive", "y": "positive"}, [U], id="two-letters"),
        pytest.param("x>0", {}, [U], id="undeclared-letter"),
        pytest.param("x>0", {"x": "real"}, [U], id="not-implied"),
        pytest.param("x>1", {"x": "positive"}, [U], id="stronger-than-declared"),
        pytest.param("x<0", {"x": "positive"}, [U], id="contradicts-the-declaration"),
        pytest.param("x=3", {"x": "positive"}, [U], id="defines-a-value"),
        pytest.param("3>2", {"x": "positive"}, [C], id="no-letter"),
    ],
)
def test_anything_else_keeps_its_verdict(
    tex: str, variables: dict[str, str], expected: list[Status]
) -> None:
    assert statuses(tex, **variables) == expected


def test_each_link_of_a_chain_is_judged_apart() -> None:
    assert statuses("0<x<1", x="positive") == [A, U]


def test_assumed_claims_are_counted_apart_from_checked_ones() -> None:
    verdicts = iter_claims("0<x\\le x+1", variables={"x": "positive"})
    here = SourcePos("leccion.md", 1, 1)
    records = [ClaimRecord(here, v.claim, v.status, v.message, v.hint) for v in verdicts]
    counts = ClaimCounts.of(records)
    assert counts == ClaimCounts(checked=1, assumed=1)
    assert (counts + counts).summary() == "claims: 2 checked, 2 assumed, 0 unchecked, 0 failed"
