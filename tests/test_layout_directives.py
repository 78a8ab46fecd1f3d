"""Jupyter Book's layout directives: dropdowns, asides, tabs, cards, grids, tables, glossaries,
the small inline roles, options in YAML and the directives pizarra refuses with a hint."""

from __future__ import annotations

from pathlib import Path

from pizarra.check.references import check_references
from pizarra.render.pages import render_lesson_body
from tests.support import fake_math, lesson_from, small_course


def _html(body: str, tmp: Path | None = None) -> tuple[str, list[str]]:
    lesson, errors = lesson_from(body, tmp)
    assert lesson is not None
    course = small_course(lesson)
    errors += [d.format() for d in check_references(course, lesson)]
    shown = [e.split("\n")[0] for e in errors if "never cited" not in e]
    return str(render_lesson_body(course, lesson, fake_math)), shown


def test_tabs_are_radio_buttons_so_they_work_without_script_and_by_keyboard() -> None:
    html, errors = _html(
        "::::{tab-set}\n:::{tab-item} Uno\n$x$\n:::\n:::{tab-item} Dos\n:selected:\nB\n:::\n::::\n"
    )
    assert errors == []
    assert '<input class="tab-input" type="radio" name="tabs-1" id="tabs-1-1">' in html
    assert 'id="tabs-1-2" checked>' in html
    assert '<label class="tab-label" for="tabs-1-2">Dos</label>' in html
    assert '<math display="inline">x</math>' in html


def test_a_tab_item_outside_a_tab_set_and_stray_content_are_errors() -> None:
    _, errors = _html("```{tab-item} Solo\nA\n```\n\n::::{tab-set}\nSuelto.\n::::\n")
    assert errors == [
        "prueba.md:11:1: error: a {tab-item} belongs in a {tab-set}",
        "prueba.md:16:1: error: content in a {tab-set} outside its {tab-item}s would not be shown",
        "prueba.md:15:1: error: a {tab-set} holds no {tab-item}",
    ]


def test_dropdowns_toggles_margins_and_sidebars() -> None:
    html, errors = _html(
        "```{dropdown} Más\n:open:\n:color: primary\nA\n```\n\n```{toggle}\nB\n```\n\n"
        "```{margin}\nC\n```\n\n```{sidebar} Al lado\nD\n```\n"
    )
    assert errors == []
    assert '<details class="dropdown" open>\n  <summary>Más</summary>' in html
    assert "<summary>Mostrar</summary>" in html
    assert '<aside class="margin">' in html
    assert '<p class="aside-title">Al lado</p>' in html


def test_cards_in_a_grid_with_header_footer_and_a_checked_link() -> None:
    html, errors = _html(
        "::::{grid} 1 2 3\n:::{grid-item-card} A\n:link: https://example.org\nCab\n^^^\nCuerpo\n"
        "+++\nPie\n:::\n:::{card} B\n:link: javascript:alert(1)\nX\n:::\n::::\n"
    )
    assert errors == [
        "prueba.md:20:1: error: a card's :link: must be an https:// URL, not 'javascript:alert(1)'"
    ]
    assert '<div class="grid grid-xs-1 grid-sm-2 grid-md-3 grid-lg-3">' in html
    assert '<p class="card-title"><a href="https://example.org">A</a></p>' in html
    assert '<div class="card-header"><p>Cab</p>' in html
    assert '<div class="card-footer"><p>Pie</p>' in html
    assert "javascript" not in html


def test_list_and_csv_tables_are_numbered_captioned_and_referable(tmp_path: Path) -> None:
    (tmp_path / "datos.csv").write_text("n,cuadrado\n2,4\n3,$9$\n", encoding="utf-8")
    html, errors = _html(
        "```{list-table} Potencias *de dos*\n:header-rows: 1\n:name: t1\n\n* - n\n  - $2^n$\n"
        "* - 1\n  - 2\n```\n\n```{csv-table} Cuadrados\n:file: datos.csv\n:header-rows: 1\n```\n\n"
        "Ver {numref}`t1`.\n",
        tmp_path,
    )
    assert errors == []
    assert '<figure class="table-figure" id="t1">' in html
    assert '<span class="caption-number">Tabla 1</span> Potencias <em>de dos</em>' in html
    assert '<th>n</th><th><math display="inline">2^n</math></th>' in html
    assert '<span class="caption-number">Tabla 2</span> Cuadrados' in html
    assert '<td>3</td><td><math display="inline">9</math></td>' in html
    assert '<a class="ref ref-numref" href="#t1">Tabla 1</a>' in html


def test_a_table_that_would_lose_cells_or_reads_outside_the_course_is_an_error(
    tmp_path: Path,
) -> None:
    _, errors = _html(
        "```{list-table}\n* - a\n  - b\n* - c\n```\n\n```{csv-table}\n:file: ../fuera.csv\n```\n",
        tmp_path,
    )
    assert errors == [
        "prueba.md:11:1: error: the rows of this {list-table} have 1, 2 cells: every row needs "
        "as many",
        "prueba.md:17:1: error: '../fuera.csv' is outside the course folder",
    ]


def test_a_glossary_and_the_terms_that_link_to_it() -> None:
    html, errors = _html(
        "```{glossary}\nGradiente\n  El vector de *derivadas*.\n```\n\n"
        "El {term}`gradiente` y {term}`el otro <Gradiente>`; {term}`nadie`.\n"
    )
    assert errors == [
        "prueba.md:16:53: error: {term} cannot be resolved: no label 'term:nadie' in the course"
    ]
    assert (
        '<dt id="term-gradiente">Gradiente</dt><dd><p>El vector de <em>derivadas</em>.</p>' in html
    )
    assert '<a class="ref ref-term" href="#term-gradiente">gradiente</a>' in html
    assert '<a class="ref ref-term" href="#term-gradiente">el otro</a>' in html


def test_a_glossary_written_as_a_definition_list_as_mystmd_writes_it() -> None:
    html, errors = _html(
        ":::{glossary}\n[Binder](https://jupyter.org/binder)\n: An open service\n  for all.\n\n"
        ": A second paragraph.\n: A third.\n\nGitHub\n\n: A host for *git*.\n"
        "rama\n  Sphinx's form, in the same glossary.\n:::\n\n"
        "See {term}`Binder`, {term}`github` and {term}`rama`.\n"
    )
    assert errors == []
    assert (
        '<dt id="term-binder"><a href="https://jupyter.org/binder">Binder</a></dt>'
        "<dd><p>An open service\nfor all.</p>\n<p>A second paragraph.</p>\n<p>A third.</p>"
    ) in html
    assert '<dt id="term-github">GitHub</dt><dd><p>A host for <em>git</em>.</p>' in html
    assert '<dt id="term-rama">rama</dt>' in html
    assert '<a class="ref ref-term" href="#term-binder">Binder</a>' in html


def test_a_term_without_a_definition_is_still_an_error_in_either_form() -> None:
    _, errors = _html(":::{glossary}\nGitHub\n: A host.\n\nSuelto\n:::\n")
    assert errors == ["prueba.md:15:1: error: the term 'Suelto' has no definition"]
    _, errors = _html(":::{glossary}\n  A definition first.\n:::\n")
    assert errors == ["prueba.md:12:3: error: a glossary starts with a term"]


def test_a_div_shows_its_body_in_a_div_with_its_class_names() -> None:
    html, errors = _html(
        ":::{div}\n:class: col-page-middle\n:name: aqui\nTexto *a*.\n:::\n\n"
        ":::{div .b}\nT\n:::\n\n{ref}`ver <aqui>`\n"
    )
    assert errors == []
    assert '<div class="col-page-middle" id="aqui">\n  <p>Texto <em>a</em>.</p>' in html
    assert '<div class="b">\n  <p>T</p>' in html
    assert '<a class="ref ref-ref" href="#aqui">ver</a>' in html


def test_a_div_leaves_out_words_that_are_not_class_names_with_a_warning() -> None:
    html, errors = _html(':::{div}\n:class: ok x"y <b>\nT\n:::\n\n:::{div} Título\nT\n:::\n')
    assert errors == [
        "prueba.md:11:1: warning: class(es) left out of the {div}: 'x\"y', '<b>'",
        "prueba.md:16:1: error: a {div} takes no argument, not 'Título'",
    ]
    assert '<div class="ok">' in html and "<b>" not in html


def test_sub_sup_kbd_and_abbr_roles() -> None:
    html, errors = _html(
        "H{sub}`2`O, x{sup}`2`, {kbd}`Ctrl`, {abbr}`IA (inteligencia artificial)`\n"
    )
    assert errors == []
    assert "H<sub>2</sub>O, x<sup>2</sup>, <kbd>Ctrl</kbd>, " in html
    assert '<abbr title="inteligencia artificial">IA</abbr>' in html


def test_options_in_a_yaml_block_and_a_code_blocks_caption() -> None:
    html, errors = _html(
        "```{code-block} python\n---\ncaption: Un ejemplo\nname: lst\n---\nx = 1\n```\n"
    )
    assert errors == []
    assert '<figure class="code-listing" id="lst">\n<figcaption>Un ejemplo</figcaption>' in html
    assert "caption:" not in html


def test_unsupported_directives_are_errors_that_say_what_to_do() -> None:
    _, errors = lesson_from("```{mermaid}\ngraph TD\n```\n\n```{iframe} https://x.org\n```\n")
    assert errors[0].startswith(
        "prueba.md:11:1: error: unsupported directive {mermaid}\n"
        "    hint: draw the diagram as an image"
    )
    assert errors[1].startswith("prueba.md:15:1: error: unsupported directive {iframe}")


def test_an_included_file_is_read_in_place_with_its_own_positions(tmp_path: Path) -> None:
    (tmp_path / "partes").mkdir()
    (tmp_path / "partes" / "p.md").write_text(
        "Antes.\nINICIO\nCon $\\fracc$ y {ref}`nada`.\nFIN\nDespués.\n", encoding="utf-8"
    )
    (tmp_path / "partes" / "celda.md").write_text("```{code-cell} python\n1\n```\n", "utf-8")
    body = (
        "```{include} partes/p.md\n:start-after: INICIO\n:end-before: FIN\n```\n\n"
        "```{include} partes/celda.md\n```\n\n```{include} ../fuera.md\n```\n"
    )
    lesson, errors = lesson_from(body, tmp_path)
    assert [e.split("\n")[0] for e in errors] == [
        "partes/celda.md:1:1: error: code cells cannot come from an included file",
        "prueba.md:19:1: error: '../fuera.md' is outside the course folder",
    ]
    assert lesson is not None
    assert [(m.tex, str(m.pos)) for m in lesson.math] == [("\\fracc", "partes/p.md:3:5")]
    assert [str(r.pos) for r in lesson.refs] == ["partes/p.md:3:16"]
    assert (tmp_path / "partes" / "p.md").resolve() in lesson.data_files
    html = str(render_lesson_body(small_course(lesson), lesson, fake_math))
    assert "Antes" not in html and "Después" not in html and "Con " in html


def test_a_file_that_includes_itself_stops_with_an_error(tmp_path: Path) -> None:
    (tmp_path / "yo.md").write_text(
        "Texto.\n\n```{include} yo.md\n```\n\n```{include} yo.md\n```\n", encoding="utf-8"
    )
    _, errors = lesson_from("```{include} yo.md\n```\n", tmp_path)
    assert errors and all("nested more than 8 deep" in e for e in errors)
