"""KaTeX's support table, example by example: each typesets, or is an error with a hint
saying what to write instead (never an error that leaves the author guessing)."""

from __future__ import annotations

import html
import re

import pytest

from pizarra.math.mathml import MathCoreRenderer, MathError
from tests.support import FIXTURES

TABLE = FIXTURES / "suites" / "katex" / "support_table.md"
TYPESET = 315
"""Examples that typeset (277 before the rewrites of ``tex_compat``); only goes up."""


def examples() -> list[tuple[str, str]]:
    """(command, example TeX) of each row that KaTeX supports: the row's code, else its
    rendered formula."""
    found = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|") or line.startswith(("|:-", "|Symbol")):
            continue
        cells = line.strip("|").split("|")
        if len(cells) < 3 or "not supported" in cells[1].lower():
            continue
        code = re.findall(r"`([^`]*)`", "|".join(cells[2:]))
        rendered = re.search(r"\$(.*)\$", cells[1])
        tex = "\n".join(code) if code else rendered.group(1) if rendered else None
        if tex is not None:
            tex = html.unescape(tex.replace("&nbsp;", " ")).replace("\\VERT", "|")
            found.append((cells[0], tex.strip("$") if tex.startswith("$") else tex))
    return found


@pytest.fixture(scope="module")
def outcomes() -> list[tuple[str, str, MathError | None]]:
    render = MathCoreRenderer()
    results = []
    for name, tex in examples():
        try:
            render(tex, True)
            results.append((name, tex, None))
        except MathError as exc:
            results.append((name, tex, exc))
    return results


def test_every_example_typesets_or_is_refused_with_a_hint(
    outcomes: list[tuple[str, str, MathError | None]],
) -> None:
    unhinted = [(n, t) for n, t, e in outcomes if e is not None and not e.hint]
    assert unhinted == []


def test_as_many_examples_typeset_as_recorded(
    outcomes: list[tuple[str, str, MathError | None]],
) -> None:
    assert len(outcomes) == 361
    assert sum(e is None for _, _, e in outcomes) == TYPESET
