"""The bounded in-memory store the build's caches share."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

from pizarra.base.recent import Recent


def test_the_value_used_longest_ago_goes_first() -> None:
    kept: Recent[str, int] = Recent(2)
    assert kept.put("a", 1) == 1
    kept.put("b", 2)
    assert kept.get("a") == 1  # "a" is now the newest
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c"), len(kept)) == (1, None, 3, 2)


def test_putting_a_key_again_replaces_its_value_without_growing() -> None:
    kept: Recent[str, int] = Recent(2)
    kept.put("a", 1)
    kept.put("a", 2)
    assert (kept.get("a"), len(kept)) == (2, 1)


def test_threads_reading_and_evicting_at_once_never_raise() -> None:
    # A server reads one rebuild's parses while a thread keeps the last one's; with the
    # interpreter switching threads as often as it can, a get whose key another thread
    # evicted between its two steps is met in a few hundred rounds.
    kept: Recent[int, int] = Recent(4)

    def churn(offset: int) -> None:
        for n in range(20_000):
            kept.put((n + offset) % 9, n)
            kept.get((n * 7 + offset) % 9)

    assert _in_four_threads(churn) == []
    assert len(kept) <= 4


def test_threads_putting_values_of_many_groups_at_once_never_raise() -> None:
    # Two threads keep parses at once (a rebuild's, and the one before it's), and the
    # groups are pruned while the other thread adds one.
    kept: Recent[int, int] = Recent(4, per_group=2)

    def churn(offset: int) -> None:
        for n in range(20_000):
            kept.put(n * 4 + offset, n, group=(n + offset) % 13)

    assert _in_four_threads(churn) == []
    assert len(kept) <= 4


def test_a_group_keeps_only_its_newest_values() -> None:
    kept: Recent[str, int] = Recent(10, per_group=2)
    for n in range(5):
        kept.put(f"l01-v{n}", n, group="l01.md")
    kept.put("l02-v0", 0, group="l02.md")
    assert [kept.get(f"l01-v{n}") for n in range(5)] == [None, None, None, 3, 4]
    assert kept.get("l02-v0") == 0
    assert len(kept) == 3


def test_putting_a_kept_value_again_does_not_push_out_its_group() -> None:
    kept: Recent[str, int] = Recent(10, per_group=2)
    kept.put("v1", 1, group="g")
    kept.put("v2", 2, group="g")
    kept.put("v1", 1, group="g")  # an undo: v1 is the newest again
    kept.put("v3", 3, group="g")
    assert (kept.get("v1"), kept.get("v2"), kept.get("v3")) == (1, None, 3)


def test_groups_with_nothing_kept_are_forgotten() -> None:
    kept: Recent[str, int] = Recent(3, per_group=2)
    for n in range(50):
        kept.put(f"k{n}", n, group=f"file{n}")
    assert len(kept) == 3
    assert len(kept._groups) <= 4


def _in_four_threads(churn: Callable[[int], None]) -> list[BaseException]:
    """Run ``churn(0)`` to ``churn(3)`` at once, the interpreter switching threads as
    often as it can; what they raised."""
    failures: list[BaseException] = []

    def caught(offset: int) -> None:
        try:
            churn(offset)
        except BaseException as exc:  # the caller's assertion reports it
            failures.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=caught, args=(k,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    return failures
