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
