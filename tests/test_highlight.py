"""Highlighting is kept per block of code, without changing what any block becomes."""

from __future__ import annotations

from markupsafe import Markup

from pizarra.render import highlight as module
from pizarra.render.highlight import KEPT_CODE_CHARS, highlight


def test_kept_and_long_code_are_highlighted_alike() -> None:
    line = "total = sum(x ** 2 for x in range(10))  # cuadrados\n"
    short = line * 3
    long = line * (KEPT_CODE_CHARS // len(line) + 1)
    assert len(long) > KEPT_CODE_CHARS
    first, again = highlight(short, "python"), highlight(short, "Python")
    assert first == again and isinstance(again, Markup)
    assert '<span class="k">for</span>' in first
    assert str(highlight(long, "python")).count('<span class="k">for</span>') == long.count("for")


def test_only_short_code_is_kept() -> None:
    module._highlighted.cache_clear()
    highlight("print(1)\n", "python")
    highlight("x = 1\n" * (KEPT_CODE_CHARS // 6 + 1), "python")
    assert module._highlighted.cache_info().currsize == 1


def test_an_unknown_language_or_html_in_code_is_escaped_text() -> None:
    assert highlight("<b>", "no-such-language") == "&lt;b&gt;"
    assert "&lt;b&gt;" in highlight("'<b>'\n", "python")


def test_only_measured_lexers_highlight() -> None:
    from pygments.lexers import get_all_lexers

    from pizarra.source.syntax.highlighting import HIGHLIGHTED

    assert not HIGHLIGHTED - {name for name, *_ in get_all_lexers()}  # no misspelt name
    # quadratic or backtracking for seconds on some text: shown plain
    assert highlight("a\n" * 50, "csharp") == "a\n" * 50
    assert highlight("a" * 50, "amdgpu") == "a" * 50
    assert "<span" in highlight("x = 1\n", "py") and "<span" in highlight("int x;\n", "c")
    assert highlight("a " * 50, "java") == "a " * 50  # 2 s on 20,000 characters of "a "


def test_code_longer_than_a_block_may_be_is_plain() -> None:
    from pizarra.source.syntax.highlighting import MAX_CODE_CHARS

    code = "x = 1\n" * (MAX_CODE_CHARS // 6 + 1)
    assert highlight(code, "python") == code


LESSON = "---\ntitle: T\nlesson: 1\nlang: en\nsummary: S.\n---\n\n"


def test_plain_code_is_a_warning_at_its_block() -> None:
    from pathlib import Path

    from pizarra.source.lower import parse_lesson
    from pizarra.source.syntax.highlighting import MAX_CODE_CHARS

    body = (
        "```csharp\nint x;\n```\n\n"
        "```{code-block} devicetree\n/ { };\n```\n\n"
        "```python\n" + "x = 1\n" * (MAX_CODE_CHARS // 6 + 1) + "```\n\n"
        "```text\nplain\n```\n\n```no-such-language\nplain\n```\n"
    )
    _, found = parse_lesson(Path("l.md"), "l.md", LESSON + body)
    assert [(e.pos.line, e.severity.value, e.message) for e in found] == [
        (8, "warning", "csharp code is shown without highlighting: its lexer can be slow"),
        (12, "warning", "devicetree code is shown without highlighting: its lexer can be slow"),
        (16, "warning", "code longer than 20,000 characters is shown without highlighting"),
    ]


def test_a_lesson_of_code_past_the_budget_is_an_error_at_the_block() -> None:
    from pathlib import Path

    from pizarra.source.lower import parse_lesson
    from pizarra.source.syntax.highlighting import MAX_CODE_CHARS, MAX_LESSON_CODE_CHARS

    block = "```python\n" + "x = 1\n" * (MAX_CODE_CHARS // 6 - 1) + "```\n\n"
    count = MAX_LESSON_CODE_CHARS // (MAX_CODE_CHARS - 12) + 1
    _, found = parse_lesson(Path("l.md"), "l.md", LESSON + block * count)
    assert [(e.pos.line, e.message) for e in found] == [
        (
            8 + (count - 1) * block.count("\n"),
            "the lesson has more than 400,000 characters of highlighted code",
        )
    ]
