"""Options in a directive's braces, mystmd's ``{tip .class #id key=value}``: read as the
same options written as lines, so each directive's checks apply to them."""

from __future__ import annotations

from pizarra.base.errors import SourcePos
from pizarra.render.pages import render_lesson_body
from pizarra.source.syntax.inline_options import read_header
from tests.support import fake_math, lesson_from, small_course

AT = SourcePos("a.md", 3, 1)


def _html(body: str) -> tuple[str, list[str]]:
    lesson, errors = lesson_from(body)
    assert lesson is not None
    html = str(render_lesson_body(small_course(lesson), lesson, fake_math))
    return html, [e.split("\n")[0] for e in errors]


def test_the_braces_hold_the_name_then_classes_an_id_and_keys() -> None:
    header, errors = read_header('{Note .a #x .b k="v } \\" w" z=1} The argument', AT)
    assert errors == []
    assert header is not None
    assert (header.name, header.argument) == ("note", "The argument")
    assert [(o.name, o.value, o.pos.col) for o in header.options] == [
        ("class", "a b", 7),
        ("id", "x", 10),
        ("k", 'v } " w', 16),
        ("z", "1", 29),
    ]


def test_a_plain_fence_and_a_plain_directive_have_no_inline_options() -> None:
    assert read_header('python "x', AT) == (None, [])
    header, errors = read_header('{tip} say "hi', AT)
    assert errors == [] and header is not None
    assert (header.name, header.options, header.argument) == ("tip", (), 'say "hi')


def test_an_unclosed_quote_and_a_bare_word_are_errors_at_their_column() -> None:
    header, errors = read_header('{tip title="abc} x', AT)
    assert header is None
    assert [d.format().split("\n")[0] for d in errors] == [
        "a.md:3:12: error: unclosed quote in the directive's braces"
    ]
    _, errors = read_header("{tip foo}", AT)
    assert [d.format().split("\n")[0] for d in errors] == [
        "a.md:3:6: error: cannot read 'foo' in {tip ...}"
    ]


def test_icon_false_is_accepted_on_an_admonition_which_draws_no_icon() -> None:
    html, errors = _html(":::{tip icon=false} ⏱️ Time to learn\n20 minutes\n:::\n")
    assert errors == []
    assert '<aside class="admonition admonition-tip">' in html
    assert "<p>⏱️ Time to learn</p>" in html and "<p>20 minutes</p>" in html
    html, errors = _html(":::{note icon=false} ⏱️ Time to learn\n1 hour\n:::\n")
    assert errors == []
    assert '<div class="note" role="note">' in html and "<p>1 hour</p>" in html
    _, errors = _html(":::{note icon=maybe}\nx\n:::\n")
    assert errors == ["prueba.md:11:1: error: option :icon: is true or false, not 'maybe'"]


def test_a_class_and_an_id_in_the_braces_mean_class_and_label() -> None:
    html, errors = _html(":::{tip .dropdown #mine}\nHidden.\n:::\n\nSee {ref}`mine`.\n")
    assert errors == []
    assert "admonition-dropdown" in html
    _, errors = _html("```{math} #sum\nx+y\n```\n")
    assert errors == []


def test_an_unknown_key_is_the_usual_unknown_option_error_at_its_column() -> None:
    _, errors = lesson_from(":::{tip iconn=false}\nx\n:::\n")
    assert errors[0].startswith("prueba.md:11:9: error: unknown option :iconn:")
    assert "`:icon:`" in errors[0]


def test_an_option_in_the_braces_and_in_the_body_is_given_twice() -> None:
    _, errors = _html(":::{tip .a}\n:class: b\nx\n:::\n")
    assert errors == ["prueba.md:12:1: error: option :class: given twice"]


def test_a_directive_that_takes_no_options_says_so() -> None:
    _, errors = _html("```{index .x}\nfoo\n```\n")
    assert errors == ["prueba.md:11:11: error: {index} takes no options"]


def test_an_unclosed_quote_is_an_error_at_its_line_and_nothing_is_lost_silently() -> None:
    _, errors = _html(':::{tip title="abc} x\ny\n:::\n')
    assert errors == ["prueba.md:11:15: error: unclosed quote in the directive's braces"]


def test_a_code_cell_reads_options_from_its_braces() -> None:
    lesson, errors = lesson_from("```{code-cell timeout=5} python\nx = 1\n```\n")
    assert errors == []
    assert lesson is not None
    assert [getattr(b, "timeout", None) for b in lesson.blocks] == [5.0]
    _, errors = lesson_from("```{code-cell timeout=5} python\n---\ntimeout: 6\n---\nx = 1\n```\n")
    assert errors == ["prueba.md:13:1: error: cell option 'timeout' given twice"]


def test_options_in_the_braces_join_those_of_a_yaml_block() -> None:
    html, errors = _html(":::{admonition .dropdown} Más\n---\nname: mas\n---\nDentro.\n:::\n")
    assert errors == []
    assert "admonition-dropdown" in html
    _, errors = _html(":::{admonition #a} Más\n---\nname: b\n---\nDentro.\n:::\n")
    assert errors == ["prueba.md:13:1: error: option name given twice"]
