"""The claim verdict cache: a warm check proves nothing twice, and stays correct."""

from __future__ import annotations

from pathlib import Path

import pytest

from pizarra.check import claims
from pizarra.check.claims import check_claims
from pizarra.check.verdicts import VerdictCache
from tests.support import lesson_from

BODY = "Se cumple $512^2=262\\,144$ y $\\frac{1}{4}=0{,}25$, pero no $2^3=9$.\n"


def judgements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The formulas judged from now on (a verdict read from the cache is not judged)."""
    calls: list[str] = []
    real = claims.judge_formula

    def counting(tex: str, context: claims.Context) -> list[claims.Verdict]:
        calls.append(tex)
        return real(tex, context)

    monkeypatch.setattr(claims, "judge_formula", counting)
    return calls


def test_second_check_uses_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lesson, errors = lesson_from(BODY)
    assert lesson is not None and not errors
    cache = VerdictCache.under(tmp_path)
    first = check_claims(lesson, cache)
    calls = judgements(monkeypatch)
    second = check_claims(lesson, cache)
    assert calls == []
    assert [d.format() for d in second[0]] == [d.format() for d in first[0]]
    assert second[1] == first[1] == claims.ClaimCounts(checked=2, unchecked=0, failed=1)


def test_context_is_part_of_the_key(tmp_path: Path) -> None:
    cache = VerdictCache.under(tmp_path)
    plain = claims.Context()
    declared = claims.Context(domains={"n": "positive"})
    assert cache.keys(["\\sqrt{n^2}=n"], plain) != cache.keys(["\\sqrt{n^2}=n"], declared)


def test_a_corrupt_entry_is_a_miss(tmp_path: Path) -> None:
    cache = VerdictCache.under(tmp_path)
    [key] = cache.keys(["1=1"], claims.Context())
    cache.store.put(VerdictCache.KIND, key, b"{not json")
    cache.store.flush()
    assert VerdictCache.under(tmp_path).get_many([key]) == {}


def test_a_lesson_reads_its_verdicts_at_once_and_judges_a_repeat_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lesson, errors = lesson_from(BODY + "Otra vez $2^3=9$ y $512^2=262\\,144$.\n")
    assert lesson is not None and not errors
    cache = VerdictCache.under(tmp_path)
    calls = judgements(monkeypatch)
    first = claims.claim_records(lesson, cache)
    assert sorted(calls) == sorted(set(calls)) and len(calls) == 3
    assert first == claims.claim_records(lesson)  # what no cache gives
    cache.store.flush()
    reads: list[int] = []
    real_many = cache.store.get_many

    def many(kind: str, keys: object) -> dict[str, bytes]:
        reads.append(1)
        return real_many(kind, keys)  # type: ignore[arg-type]

    monkeypatch.setattr(cache.store, "get_many", many)
    monkeypatch.setattr(cache.store, "get", lambda kind, key: pytest.fail("one key at a time"))
    calls.clear()
    assert claims.claim_records(lesson, cache) == first
    assert calls == [] and reads == [1]


def test_only_formulas_that_state_something_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A formula with no relation is told to hold no claim at once: reading it from the
    cache would cost more than that, so it takes no entry."""
    lesson, errors = lesson_from(BODY + "\nSean $n$, $2^{10}$ y $x_1$.\n")
    assert lesson is not None and not errors
    cache = VerdictCache.under(tmp_path)
    kept: list[str] = []
    real_put = cache.put

    def put(key: str, verdicts: list[claims.Verdict]) -> None:
        kept.append(key)
        real_put(key, verdicts)

    monkeypatch.setattr(cache, "put", put)
    first = check_claims(lesson, cache)
    assert len(lesson.math) == 6 and len(kept) == 3, "the three formulas with a relation"
    cache.store.flush()
    calls = judgements(monkeypatch)
    second = check_claims(lesson, cache)
    assert sorted(calls) == ["2^{10}", "n", "x_1"]
    assert [d.format() for d in second[0]] == [d.format() for d in first[0]]
    assert second[1] == first[1]
