"""The bounded in-memory store the build's caches share."""

from __future__ import annotations

from pizarra.recent import Recent


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
