"""The MyST extensions: footnotes, definition and task lists, strikethrough, amsmath,
attributes, colon fences without a directive, named admonitions and empty links."""

from __future__ import annotations

import re
from pathlib import Path

from pizarra.check.references import check_references
from pizarra.render.pages import render_lesson_body
from tests.support import fake_math, lesson_from, small_course
from tests.test_myst_dialect import PNG


def _html(body: str, tmp: Path | None = None) -> tuple[str, list[str]]:
    lesson, errors = lesson_from(body, tmp)
    assert lesson is not None
    course = small_course(lesson)
    errors += [d.format() for d in check_references(course, lesson)]
    shown = [e.split("\n")[0] for e in errors if "never cited" not in e]
    return str(render_lesson_body(course, lesson, fake_math)), shown


def test_footnotes_are_numbered_with_back_links_and_inline_notes_too() -> None:
    html, errors = _html("Uno[^a] y dos^[en línea].\n\n[^a]: La nota $x$.\n")
    assert errors == []
    assert '<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup>' in html
    assert '<li id="fn2" class="footnote-item"><p>en línea' in html
    assert 'href="#fnref1" class="footnote-backref"' in html
    assert '<math display="inline">x</math>' in html


def test_a_footnote_undefined_unused_or_inside_a_directive_is_an_error() -> None:
    _, errors = _html("Ver[^x].\n\n[^y]: Nadie la usa.\n\n```{tip}\nAquí^[no].\n```\n")
    assert errors == [
        "prueba.md:11:4: error: footnote [^x] has no definition",
        "prueba.md:13:1: error: footnote [^y] is defined but never referenced",
        "prueba.md:16:5: error: a footnote inside a directive is not supported",
    ]


def test_definition_lists_task_lists_and_strikethrough_render() -> None:
    html, errors = _html("Término\n: Definición\n\n- [x] hecho\n- [ ] <b>falta</b>\n\n~~no~~\n")
    assert errors == ["prueba.md:15:7: error: raw HTML is not allowed: <b>"]
    assert "<dl>\n<dt>Término</dt>\n<dd>Definición</dd>\n</dl>" in html
    assert '<input type="checkbox" disabled checked aria-label="hecho"> ' in html
    assert '<input type="checkbox" disabled aria-label="pendiente"> ' in html
    assert "<s>no</s>" in html


def test_amsmath_environments_at_top_level_are_display_math() -> None:
    lesson, errors = lesson_from("\\begin{align}\na &= 1\n\\end{align}\n")
    assert errors == []
    assert lesson is not None
    assert [(m.tex, m.display, str(m.pos)) for m in lesson.math] == [
        ("\\begin{align}\na &= 1\n\\end{align}", True, "prueba.md:11:1")
    ]


def test_class_and_id_attributes_are_kept_and_any_other_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(PNG)
    html, errors = _html(
        "[texto]{.nota} y ![i](a.png){#x onclick=1}\n\n{#b}\nPárrafo {ref}`ver <b>`.\n\n"
        "{#c}\n```\ncódigo\n```\n",
        tmp_path,
    )
    assert errors == [
        "prueba.md:11:29: error: attributes are not supported here: {onclick=1}",
        "prueba.md:17:1: error: attributes are not supported here: {#c}",
    ]
    assert '<span class="nota">texto</span>' in html
    assert '<p id="b">Párrafo <a class="ref ref-ref" href="#b">ver</a>.</p>' in html
    assert 'id="x"' in html and "onclick" not in html


def test_a_colon_fence_without_a_directive_is_code_as_in_myst() -> None:
    html, errors = _html(":::python\nx = 1\n:::\n\n:::\n<b>\n:::\n")
    assert errors == []
    assert '<code class="language-python hl">' in html
    assert "&lt;b&gt;" in html


def test_text_after_a_named_admonition_starts_its_body() -> None:
    html, errors = _html("```{tip} Cuidado con *esto*\nY más.\n```\n")
    assert errors == []
    assert '<p class="admonition-title">Consejo</p>' in html
    assert "<p>Cuidado con <em>esto</em></p>\n<p>Y más.</p>" in html


def test_an_empty_link_shows_its_targets_number_or_is_an_error() -> None:
    html, errors = _html("$$\nx\n$$ (eq1)\n\nVer [](#eq1) y [](eq1) y [](https://x.org).\n")
    assert errors == ["prueba.md:15:26: error: a link with no text is invisible"]
    assert html.count('<a href="#eq1">(1)</a>') == 2


def test_substitutions_from_the_front_matter_are_markdown_and_an_unknown_one_is_an_error() -> None:
    from pathlib import Path

    from pizarra.source.lower import parse_lesson

    text = (
        "---\ntitle: T\nlesson: 1\nlang: en\nsummary: S.\nsubstitutions:\n  key: '*b* $x$'\n---\n"
        "A {{ key }} and {{ nope }}.\n\n{{key}}\n"
    )
    lesson, errors = parse_lesson(Path("a.md"), "a.md", text)
    assert [e.format().split("\n")[0] for e in errors] == [
        "a.md:9:17: error: no substitution {{ nope }} in the front matter"
    ]
    assert lesson is not None
    assert [m.tex for m in lesson.math] == ["x", "x"]
    html = str(render_lesson_body(small_course(lesson), lesson, fake_math))
    assert html.startswith('<p>A <em>b</em> <math display="inline">x</math> and {{ nope }}.</p>')
    assert '<p><em>b</em> <math display="inline">x</math></p>' in html


def test_a_colon_fence_named_like_a_directive_without_braces_is_warned() -> None:
    _, errors = lesson_from(":::note\nTexto.\n:::\n")
    assert errors[0].startswith("prueba.md:11:1: warning: :::note is shown as code, as in MyST")
    assert "write :::{note}" in errors[0]


def _ids(html: str) -> list[str]:
    return re.findall(r' id="(fn[^"]*)"', html)


def test_a_footnote_referenced_before_a_directive_is_listed_once_at_the_end() -> None:
    html, errors = _html("Intro.\n\nText [^a].\n\n```{note}\nDo it.\n```\n\n[^a]: The note.\n")
    assert errors == []
    assert _ids(html) == ["fnref1", "fn1"]
    assert html.index("</div>") < html.index('<section class="footnotes">')
    assert '<li id="fn1" class="footnote-item"><p>The note. <a href="#fnref1"' in html


def test_a_footnote_referenced_after_a_directive_is_listed_once_at_the_end() -> None:
    html, errors = _html("```{note}\nDo it.\n```\n\nText [^a].\n\n[^a]: The note.\n")
    assert errors == []
    assert _ids(html) == ["fnref1", "fn1"]
    assert html.count('<section class="footnotes">') == 1
    assert '<a href="#fn1" id="fnref1">[1]</a>' in html


def test_footnotes_around_a_directive_are_numbered_once_per_page() -> None:
    html, errors = _html(
        "Uno [^a].\n\n```{note}\nDo it.\n```\n\nDos [^b].\n\n[^a]: A.\n\n[^b]: B.\n"
    )
    assert errors == []
    assert _ids(html) == ["fnref1", "fnref2", "fn1", "fn2"]
    assert '<a href="#fn1" id="fnref1">[1]</a>' in html
    assert '<a href="#fn2" id="fnref2">[2]</a>' in html
    assert '<li id="fn2" class="footnote-item"><p>B. <a href="#fnref2"' in html
