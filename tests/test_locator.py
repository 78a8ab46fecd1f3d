"""Inline positions are found in linear time: each search resumes at the previous match.

A 2 MB lesson of tiny inline elements used to take minutes, because every child's
position was found by scanning the block from its start. These tests pin the
mechanism that makes it linear (bench/bench_parse.py measures the time).
"""

from __future__ import annotations

from pizarra.source.syntax.context import LowerContext
from pizarra.source.syntax.inline import WINDOW, Locator


def context(lines: list[str]) -> LowerContext:
    return LowerContext("lesson.md", lines, "es", lambda text, line, ctx: ())


def test_successive_children_get_their_own_line_and_column() -> None:
    lines = ["$a$ y $a$", "luego $a$"]
    locate = Locator(context(lines), [0, 2])
    found = [locate.find("$a$") for _ in range(3)]
    assert [(p.line, p.col) for p in found] == [(1, 1), (1, 7), (2, 7)]


def test_a_search_resumes_after_the_previous_match_not_at_the_block_start() -> None:
    lines = ["$a$ " * 1000]
    locate = Locator(context(lines), [0, 1])
    columns = [locate.find("$a$").col for _ in range(1000)]
    assert columns == [1 + 4 * k for k in range(1000)]


def test_each_search_looks_only_a_bounded_window_ahead() -> None:
    far = " " * (WINDOW + 10) + "$b$"
    locate = Locator(context(["x", far]), [0, 2])
    assert (locate.find("$b$").line, locate.find("$b$").col) == (1, 1)
    near = Locator(context(["x", " " * 10 + "$b$"]), [0, 2]).find("$b$")
    assert (near.line, near.col) == (2, 11)


def test_a_link_is_placed_at_its_opening_bracket() -> None:
    lines = ["[sic] then [a [nested] \\] text](x) and", "[two", "lines](y)"]
    locate = Locator(context(lines), [0, 3])
    first, second = locate.find("](x", opening=True), locate.find("](y", opening=True)
    assert [(first.line, first.col), (second.line, second.col)] == [(1, 12), (2, 1)]
