"""The MyST dialect of real lectures: what lowering records beyond the rendered HTML."""

from __future__ import annotations

import base64
from dataclasses import replace
from pathlib import Path

from pizarra.check.kernel.execute import KernelRunner
from pizarra.check.references import check_references
from pizarra.pipeline.frame import render_site
from pizarra.pipeline.lesson import verify_lesson
from pizarra.pipeline.tools import Tools
from pizarra.render.pages import render_lesson_body
from pizarra.source.lower import parse_lesson
from tests.support import fake_math, lesson_from, small_course

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def test_formulas_inside_directives_reach_the_math_checks() -> None:
    lesson, errors = lesson_from(
        "```{math}\n:label: a\nx^2\n```\n\n"
        "```{prf:theorem}\nSea $y$.\n\n$$\nz\n$$ (b)\n```\n\n"
        "```{tip}\n$w$\n```\n\n```{exercise-start}\n```\n\n$v$\n\n```{exercise-end}\n```\n"
    )
    assert errors == []
    assert lesson is not None
    assert [m.tex for m in lesson.math] == ["x^2", "y", "z", "w", "v"]
    assert [(t.label, t.number) for t in lesson.targets] == [("a", 1), ("b", 2)]
    assert str(lesson.math[0].pos) == "prueba.md:13:1"


def test_a_formula_outside_dollars_and_latex_delimiters_are_warned() -> None:
    _, errors = lesson_from("La suma \\sum_{k} es x^{2}.\n\nY \\(x\\) también.\n")
    assert errors[0].startswith("prueba.md:11:9: warning: this looks like a formula outside")
    assert errors[1].startswith("prueba.md:13:3: warning: \\( does not start math in MyST")
    assert len(errors) == 2


def test_a_label_used_twice_is_an_error_but_equations_have_their_own() -> None:
    _, errors = lesson_from("(a)=\nUno.\n\n```{math}\n:label: a\nx\n```\n\n(a)=\nDos.\n")
    assert errors == [
        "prueba.md:19:1: error: label 'a' is already used at line 11\n"
        "    hint: give each target its own label"
    ]


def test_a_target_right_before_a_theorem_names_it() -> None:
    lesson, errors = lesson_from(
        "(t)=\n```{prf:theorem}\n:label: thm\nA.\n```\n\n"
        "(same)=\n```{prf:lemma}\n:label: same\nB.\n```\n"
    )
    assert errors == []
    assert lesson is not None
    named = {t.label: (t.kind, t.number, t.title) for t in lesson.targets}
    assert named == {
        "t": ("theorem", 1, "Teorema 1"),
        "thm": ("theorem", 1, "Teorema 1"),
        "same": ("lemma", 1, "Lema 1"),
    }


def test_images_inside_the_course_are_copied_into_the_site(tmp_path: Path) -> None:
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "dot.png").write_bytes(PNG)
    (tmp_path / "evil.svg").write_text("<svg/>")
    body = (
        "```{figure} img/dot.png\n:name: fig-dot\n:alt: A dot\n:width: 50%\n\nUn punto.\n```\n\n"
        "```{image} /img/dot.png\n```\n\n"
        "```{image} ../outside.png\n:alt: x\n```\n\n"
        "```{image} evil.svg\n:alt: x\n```\n"
    )
    lesson, errors = lesson_from(body, tmp_path)
    assert [e.split("\n")[0] for e in errors] == [
        "prueba.md:19:1: warning: this image has no alternative text",
        "prueba.md:22:1: error: the image '../outside.png' is outside the course folder",
        "prueba.md:26:1: error: unsupported image type '.svg'",
    ]
    assert lesson is not None
    course = small_course(lesson)
    tools = Tools(fake_math, KernelRunner(), None)
    results = [verify_lesson(course, e.lesson, tools, False) for e in course.entries if e.lesson]
    files = render_site(course, results)
    assert files["media/img/dot.png"] == PNG
    page = files["prueba/index.html"].decode()
    assert '<figure class="figure" id="fig-dot">' in page
    assert '<img src="../media/img/dot.png" alt="A dot" style="width: 50%">' in page
    assert '<figcaption><span class="figure-number">Figura 1</span> <p>Un punto.</p>' in page


def test_figure_options_that_only_style_sphinx_are_accepted_and_an_image_has_no_figclass(
    tmp_path: Path,
) -> None:
    (tmp_path / "dot.png").write_bytes(PNG)
    styled = ":alt: A dot\n:figclass: margin\n:class: shadow\n:align: left\n:figwidth: 60%\n"
    body = f"```{{figure}} dot.png\n{styled}\nUn punto.\n```\n\n```{{image}} dot.png\n{styled}```\n"
    lesson, errors = lesson_from(body, tmp_path)
    assert [e.split("\n")[0] for e in errors] == [
        "prueba.md:23:1: error: unknown option :figclass:"
    ]
    assert lesson is not None
    html = str(render_lesson_body(small_course(lesson), lesson, fake_math))
    assert html.count('<img src="../media/dot.png" alt="A dot">') == 2
    assert "margin" not in html and "shadow" not in html


def test_every_figure_is_numbered_and_numref_shows_its_number(tmp_path: Path) -> None:
    (tmp_path / "dot.png").write_bytes(PNG)
    figure = "```{{figure}} dot.png\n{name}:alt: A dot\n\n{caption}\n```\n\n"
    body = (
        figure.format(name="", caption="Sin nombre.")
        + figure.format(name=":name: fig-b\n", caption="Con nombre.")
        + "```{prf:theorem}\n:label: thm\nT.\n```\n\n"
        + "Ver {numref}`fig-b`, {numref}`la figura %s <fig-b>`, {numref}`thm` "
        + "y {numref}`{name} ({number}) <fig-b>` {cite}`libro`.\n\n"
        + "Mal: {numref}`nada` {numref}`sec`.\n\n(sec)=\n## Sección\n"
    )
    lesson, errors = lesson_from(body, tmp_path)
    assert errors == [] and lesson is not None
    course = small_course(lesson)
    assert [e.message for e in check_references(course, lesson)] == [
        "{numref} cannot be resolved: no label 'nada' in the course",
        "{numref} cannot be resolved: 'sec' is not numbered (it is a section)",
    ]
    html = str(render_lesson_body(course, lesson, fake_math))
    assert '<span class="figure-number">Figura 1</span> <p>Sin nombre.</p>' in html
    assert '<span class="figure-number">Figura 2</span> <p>Con nombre.</p>' in html
    assert (
        '<p>Ver <a class="ref ref-numref" href="#fig-b">Figura 2</a>, '
        '<a class="ref ref-numref" href="#fig-b">la figura 2</a>, '
        '<a class="ref ref-numref" href="#thm">Teorema 1</a> '
        'y <a class="ref ref-numref" href="#fig-b">A dot (2)</a> '
    ) in html


BIB = r"""
@article{hamilton2005,
  author = {Hamilton, James D. and Smith, Ann},
  title = {{What's real about the business cycle?}},
  journal = {Review},
  year = {2005},
  doi = {10.1/xyz}
}
@book{unused, title = {Never cited}, year = {1999}}
"""


def test_citations_resolve_from_a_bibtex_file(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB)
    text = (
        "---\ntitle: T\nlesson: 1\nlang: en\nsummary: S.\nbibliography: refs.bib\n---\n"
        "As {cite}`hamilton2005` shows, and {cite:p}`nobody`.\n"
    )
    lesson, errors = parse_lesson(tmp_path / "l.md", "l.md", text)
    assert errors == []
    assert lesson is not None
    assert [(s.key, s.title, s.url) for s in lesson.sources] == [
        (
            "hamilton2005",
            "Hamilton, Smith (2005). What's real about the business cycle? Review.",
            "https://doi.org/10.1/xyz",
        )
    ]
    found = check_references(small_course(lesson), lesson)
    assert [d.message for d in found] == ["no source with id 'nobody'"]


def test_a_broken_bibtex_file_is_an_error_at_the_front_matter(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text("@article{x, title = {unclosed")
    text = (
        "---\ntitle: T\nlesson: 1\nlang: en\nsummary: S.\nbibliography: refs.bib\n---\n{cite}`x`\n"
    )
    _, errors = parse_lesson(tmp_path / "l.md", "l.md", text)
    assert [str(e.pos) for e in errors] == ["l.md:6:1"]
    assert errors[0].message.startswith("refs.bib is not valid BibTeX")


def test_inline_html_is_an_error_not_text() -> None:
    _, errors = lesson_from("Una <sup>nota</sup> y a < b > c.\n")
    assert [e.split("\n")[0] for e in errors] == [
        "prueba.md:11:5: error: raw HTML is not allowed: <sup>",
    ]


def test_raw_html_is_an_error_and_the_renderer_still_escapes_it() -> None:
    lesson, errors = lesson_from("Un <script>alert(1)</script> aquí.\n\n<div>bloque</div>\n")
    assert [e.split("\n")[0] for e in errors] == [
        "prueba.md:11:4: error: raw HTML is not allowed: <script>",
        "prueba.md:13:1: error: raw HTML is not allowed: <div>",
    ]
    assert lesson is not None
    html = str(render_lesson_body(small_course(lesson), lesson, fake_math))
    assert html == (
        "<p>Un &lt;script&gt;alert(1)&lt;/script&gt; aquí.</p>\n&lt;div&gt;bloque&lt;/div&gt;\n"
    )


def test_html_is_told_by_commonmark_rules_comments_are_dropped_and_escapes_are_literal() -> None:
    lesson, errors = lesson_from(
        "<!-- una nota\n\npara mí -->\nUno <!-- dos --> tres \\<b> y &lt;i>.\n\n"
        '<a href="x\ny">\n\nSin *<img src="a" title="*"/>*.\n\n<?php echo 1; ?>\n'
    )
    assert [e.split("\n")[0] for e in errors] == [
        'prueba.md:16:1: error: raw HTML is not allowed: <a href="x',
        'prueba.md:19:6: error: raw HTML is not allowed: <img src="a" title="*"/>',
        "prueba.md:21:1: error: raw HTML is not allowed: <?php echo 1; ?>",
    ]
    assert lesson is not None
    html = str(render_lesson_body(small_course(lesson), lesson, fake_math))
    assert html.startswith("<p>Uno  tres &lt;b&gt; y &lt;i&gt;.</p>\n")


def test_links_that_run_code_or_embed_content_are_errors() -> None:
    lesson, errors = lesson_from(
        "[a](javascript:alert(1)) [b](VBScript:x) ![c](data:image/png;base64,AA) [d](https://x.org)\n"
    )
    assert [e.split("\n")[0] for e in errors] == [
        "prueba.md:11:1: error: a link to a javascript: URL is not allowed",
        "prueba.md:11:26: error: a link to a vbscript: URL is not allowed",
        "prueba.md:11:43: error: an image to a data: URL is not allowed",
    ]
    assert lesson is not None
    html = str(render_lesson_body(small_course(lesson), lesson, fake_math))
    assert "javascript" not in html and "VBScript" not in html and "data:" not in html


def test_doc_points_to_an_upcoming_lesson_by_its_doc_name() -> None:
    lesson, errors = lesson_from(
        "Ver {doc}`la siguiente <cadenas_ii>` y {doc}`cadenas_ii` {cite}`libro`.\n"
    )
    assert errors == [] and lesson is not None
    course = small_course(lesson)
    upcoming = replace(course.entries[2], doc="cadenas_ii")
    course = replace(course, entries=(*course.entries[:2], upcoming))
    assert check_references(course, lesson) == []
    html = str(render_lesson_body(course, lesson, fake_math))
    assert html == (
        '<p>Ver <a class="ref ref-doc" href="../#leccion-3">la siguiente</a> y '
        '<a class="ref ref-doc" href="../#leccion-3">Futura</a> '
        '<a class="cite" href="#fuente-1">[1]</a>.</p>\n'
    )


def test_ref_points_to_a_label_an_upcoming_lesson_lists() -> None:
    lesson, errors = lesson_from(
        "Ver {ref}`más tarde <ergodicidad>` y {ref}`ergodicidad` {cite}`libro`; "
        "no {eq}`ergodicidad`.\n"
    )
    assert errors == [] and lesson is not None
    course = small_course(lesson)
    upcoming = replace(course.entries[2], labels=("ergodicidad",))
    course = replace(course, entries=(*course.entries[:2], upcoming))
    [eq] = check_references(course, lesson)
    assert eq.format().startswith(
        "prueba.md:11:75: error: {eq} cannot be resolved: no label 'ergodicidad'"
    )
    html = str(render_lesson_body(course, lesson, fake_math))
    assert html.startswith(
        '<p>Ver <a class="ref ref-ref" href="../#leccion-3">más tarde</a> y '
        '<a class="ref ref-ref" href="../#leccion-3">Futura</a> '
    )


def test_doc_into_another_project_is_a_warning_and_shows_its_text() -> None:
    lesson, errors = lesson_from(
        "Ver {doc}`el modelo <dynam:samuelson>` y {doc}`falta` {cite}`libro`.\n"
    )
    assert errors == [] and lesson is not None
    course = small_course(lesson)
    external, missing = check_references(course, lesson)
    assert external.format() == (
        "prueba.md:11:5: warning: {doc} cannot be resolved: 'dynam:samuelson' points into "
        "another project\n"
        "    hint: link to the other site with [text](https://...): only its text is shown"
    )
    assert missing.format().startswith("prueba.md:11:42: error: {doc} cannot be resolved")
    html = str(render_lesson_body(course, lesson, fake_math))
    assert html.startswith('<p>Ver <span class="ref">el modelo</span> y ')


def test_a_gated_exercise_may_start_with_its_question_and_an_inner_fence_end_with_it() -> None:
    lesson, errors = lesson_from(
        "```{exercise-start}\n:label: ex-a\n\nLa pregunta.\n\n```{hint}\nUna pista.\n```\n\n"
        "Más.\n\n```{exercise-end}\n```\n\nTexto.\n\n```{tip}\nSin cerrar.\n"
    )
    assert [e.split("\n")[0] for e in errors] == [
        "prueba.md:16:1: warning: fence ```{hint} is closed only by the end of the directive "
        "around it",
        "prueba.md:27:1: error: unclosed fence ```{tip}",
    ]
    assert lesson is not None
    html = str(render_lesson_body(small_course(lesson), lesson, fake_math))
    assert html.startswith(
        '<section class="exercise" aria-labelledby="pregunta-1">\n'
        '  <h3 id="pregunta-1">Pregunta 1</h3>\n'
        "  <p>La pregunta.</p>\n"
        '<aside class="admonition admonition-hint">\n'
    )
    assert "<p>Más.</p>\n\n</section>" in html


def test_display_math_may_hold_blank_lines_as_in_myst() -> None:
    lesson, errors = lesson_from("$$\na = 1\n\nb = 2\n$$ (dos)\n\nTexto.\n")
    assert errors == []
    assert lesson is not None
    assert [m.tex for m in lesson.math] == ["a = 1\n\nb = 2"]


def test_an_unclosed_display_formula_is_still_an_error_where_the_pairing_ends() -> None:
    _, errors = lesson_from("$$\na = 1\n\nTexto.\n\n$$\nb\n$$\n")
    assert [e.split("\n")[0] for e in errors] == [
        "prueba.md:18:1: error: unclosed $$: display math has no closing $$"
    ]


def test_prf_ref_links_a_theorem_and_download_links_a_remote_file(tmp_path: Path) -> None:
    body = (
        "```{prf:theorem}\n:label: thm\nT.\n```\n\n"
        "Como {prf:ref}`se dijo <thm>`, con {download}`los datos <https://example.org/d.csv>`.\n"
    )
    lesson, errors = lesson_from(body, tmp_path)
    assert errors == [] and lesson is not None
    course = small_course(lesson)
    assert [e.message for e in check_references(course, lesson)] == [
        "source 'libro' is never cited"
    ]
    html = str(render_lesson_body(course, lesson, fake_math))
    assert '<a class="ref ref-ref" href="#thm">se dijo</a>' in html
    assert '<a href="https://example.org/d.csv">los datos</a>' in html


def test_a_download_of_a_local_file_or_a_script_link_is_an_error(tmp_path: Path) -> None:
    for target in ("datos.csv", "javascript:alert(1)"):
        _, errors = lesson_from(f"Los {{download}}`datos <{target}>`.\n", tmp_path)
        [error] = errors
        assert f"{{download}} of {target!r}: pizarra links only to files on the web" in error
