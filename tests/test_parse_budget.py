"""A lesson's parse is bounded in work, not only in bytes: past a limit it is one error
at the line where the parse stopped (each case below took from 20 s to 81 s at 2 MB)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.myst_role import myst_role_plugin

from pizarra.source import markdown
from pizarra.source.lower import parse_lesson
from pizarra.source.parse_budget import MAX_BLOCKS, MAX_MARKS, MAX_PARAGRAPH_MARKS

FRONT = "---\ntitle: T\nlesson: 1\nlang: en\nsummary: S.\n---\n\nIntro.\n\n"
BODY_LINE = FRONT.count("\n") + 1
PARAGRAPH = f"this paragraph has more than {MAX_PARAGRAPH_MARKS:,} places where inline markup"
MARKS = f"the lesson has more than {MAX_MARKS:,} places where inline markup"
BLOCKS = f"the lesson has more than {MAX_BLOCKS:,} blocks and table cells"


def errors(body: str) -> list[tuple[int, str]]:
    _, found = parse_lesson(Path("l.md"), "l.md", FRONT + body)
    return [(e.pos.line, e.message) for e in found]


N = MAX_PARAGRAPH_MARKS + 1
TABLE = "|a" * 3_000 + "|\n" + "|-" * 3_000 + "|\n" + "|a" * 3_000 + "|\n\n"
OVER = {
    # name: (body, line of the error counted from the body's first line, message)
    "emphasis": ("*a **a" * (N // 2 + 1), 0, PARAGRAPH),  # "*" and "**": two marks
    "entities": ("&amp;" * N, 0, PARAGRAPH),
    "dollars": ("$a$ " * N, 0, PARAGRAPH),
    "roles": ("{a}`x` " * N, 0, PARAGRAPH),
    "second-paragraph": ("ok\n\n" + "[a](b) " * N, 2, PARAGRAPH),
    # 10,000 marks a paragraph: the sixth passes 50,000
    "paragraphs-of-marks": (("*a* " * 5_000 + "\n\n") * 6, 10, MARKS),
    # 9,003 cells a table, counted where each starts: the third passes 20,000
    "wide-tables": (TABLE * 3, 8, BLOCKS),
    # the front matter and "Intro." are blocks too
    "paragraphs": ("a\n\n" * MAX_BLOCKS, 2 * (MAX_BLOCKS - 2), BLOCKS),
    "list-items": ("- a\n" * MAX_BLOCKS, MAX_BLOCKS - 3, BLOCKS),
    "in-a-directive": (":::{note}\n" + "&amp;" * N + "\n:::\n", 1, PARAGRAPH),
}


@pytest.mark.parametrize("name", OVER)
def test_past_a_limit_the_lesson_is_one_error_at_its_line(name: str) -> None:
    body, line, message = OVER[name]
    [(at, found)] = errors(body)
    assert at == BODY_LINE + line and found.startswith(message)


def test_just_under_the_limits_a_lesson_parses() -> None:
    body = "*a **a" * (MAX_PARAGRAPH_MARKS // 3 - 100) + "\n\n"
    body += "|a" * 100 + "|\n" + "|-" * 100 + "|\n" + ("|a" * 100 + "|\n") * 50
    body += "\n" + "&amp; $x$ {ref}`intro` [a](#intro)\n\n" * 1_000
    assert errors(body) == []


def test_roles_read_as_the_plugin_reads_them() -> None:
    plugin = MarkdownIt("commonmark").use(myst_role_plugin)
    ours = MarkdownIt("commonmark").use(myst_role_plugin)
    ours.inline.ruler.at("myst_role", markdown._myst_role)

    def inline(md: MarkdownIt, text: str) -> list[object]:
        return [[(c.type, c.content, c.meta) for c in t.children or []] for t in md.parse(text)]

    pieces = ["{", "}", "a", "`", "``", " ", "\n", "{ref}", "{a:b}", "{x}`y`", "\\"]
    rng = random.Random(7)
    for _ in range(3_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
        assert inline(ours, text) == inline(plugin, text), text
