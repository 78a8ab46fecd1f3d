"""Numbered and emphasised lines of shown code: ``:linenos:``, ``:lineno-start:``,
``:emphasize-lines:`` on ``{code-cell}`` and ``{code-block}``."""

from __future__ import annotations

import re
from html import unescape

import pytest

from pizarra.render.code_listing import code_pre
from pizarra.source.blocks import CodeCell, Prose
from pizarra.source.code_lines import CodeLines
from tests.support import lesson_from


def test_a_code_cell_takes_its_line_options_in_either_form() -> None:
    for options in (
        ":linenos:\n:emphasize-lines: 1,3\n",
        "---\nlinenos: true\nemphasize-lines: 1,3\n---\n",
    ):
        lesson, errors = lesson_from(
            f"```{{code-cell}} python\n{options}a = 1\nb = 2\nc = 3\n```\n"
        )
        assert errors == [] and lesson is not None
        [cell] = [b for b in lesson.blocks if isinstance(b, CodeCell)]
        assert cell.lines == CodeLines(1, frozenset({1, 3}))
        assert cell.code == "a = 1\nb = 2\nc = 3\n"


def test_lineno_start_in_a_yaml_header_is_read_as_its_number() -> None:
    lesson, errors = lesson_from("```{code-cell} python\n---\nlineno-start: 4\n---\nx = 1\n```\n")
    assert errors == [] and lesson is not None
    [cell] = [b for b in lesson.blocks if isinstance(b, CodeCell)]
    assert cell.lines == CodeLines(4, frozenset())


@pytest.mark.parametrize("value", ["0", "-3", "tres", "1.5", "2000000"])
def test_a_first_number_that_is_not_a_positive_whole_number_is_an_error_at_its_line(
    value: str,
) -> None:
    for directive in ("code-cell", "code-block"):
        _, errors = lesson_from(
            f"```{{{directive}}} python\n:caption: Uno\n:lineno-start: {value}\nx = 1\n```\n"
        )
        messages = [e.split("\n")[0] for e in errors if "lineno-start" in e]
        assert messages == [
            f"prueba.md:13:1: error: option :lineno-start: must be a positive whole number, "
            f"not {value!r}"
        ], directive


def test_a_value_on_linenos_and_a_bad_line_list_are_errors_at_their_lines() -> None:
    _, errors = lesson_from(
        "```{code-block} python\n:linenos: yes\n:emphasize-lines: 1;2\n\nx = 1\n```\n"
    )
    assert [e.split("\n")[0] for e in errors] == [
        "prueba.md:12:1: error: option :linenos: is a flag, not 'yes'",
        "prueba.md:13:1: error: option :emphasize-lines: lists lines such as 1,3-5, not '1;2'",
    ]


def test_emphasis_beyond_the_code_is_a_warning_and_marks_the_lines_there_are() -> None:
    lesson, errors = lesson_from(
        "```{code-cell} python\n:emphasize-lines: 2-5\nx = 1\ny = 2\n```\n"
    )
    assert [e.split("\n")[0] for e in errors] == [
        "prueba.md:12:1: warning: option :emphasize-lines: names line 5, but the code has 2 lines"
    ]
    assert lesson is not None
    [cell] = [b for b in lesson.blocks if isinstance(b, CodeCell)]
    assert cell.lines == CodeLines(None, frozenset({2}))


def test_without_line_options_a_listing_has_no_line_elements() -> None:
    lesson, errors = lesson_from("```{code-block} python\n:caption: Uno\n\nx = 1\n```\n")
    assert errors == [] and lesson is not None
    [prose] = [b for b in lesson.blocks if isinstance(b, Prose) and b.tokens[0].type == "fence"]
    assert prose.tokens[0].meta["lines"] is None


def test_the_numbers_are_not_in_the_code_a_reader_copies() -> None:
    code = 's = """uno\ndos"""\nprint(s)  # <b>\n'
    html = str(code_pre(code, "python", CodeLines(98, frozenset({2}))))
    assert html.startswith('<pre class="numbered" style="counter-reset: line 97" tabindex="0">')
    assert html.count('class="line"') == 3
    inner = html.removeprefix(html[: html.index("<code")]).removesuffix("</pre>")
    assert unescape(re.sub(r"<[^>]+>", "", inner)) == code
