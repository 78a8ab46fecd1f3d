"""The course index: ``{index}`` entries in Sphinx's grammar, sorted onto one page."""

from __future__ import annotations

from dataclasses import replace

from pizarra.check.kernel.execute import KernelRunner
from pizarra.check.links import PageScans, check_links
from pizarra.pipeline.frame import render_site
from pizarra.pipeline.lesson import verify_lesson
from pizarra.pipeline.tools import Tools
from pizarra.render.index_page import index_groups, index_path, sort_key
from pizarra.source.model import Course, Lesson
from tests.support import fake_math, lesson_from, small_course

ENTRIES = """\
## Potencias

```{index} single: Potencia; base
```

```{index}
pair: exponente; logaritmo
triple: suma; producto; cociente
see: índice; exponente
seealso: base; logaritmo
!Álgebra, agua
```

La {index}`base <single: !base>` y el {index}`número e`.
"""


def parsed(body: str = ENTRIES) -> Lesson:
    lesson, errors = lesson_from(body)
    assert errors == [] and lesson is not None
    return lesson


def rows(lesson: Lesson) -> list[tuple[str, str, str, bool, str, bool]]:
    return [(e.term, e.subterm, e.anchor, e.main, e.see, e.see_also) for e in lesson.index]


def test_every_form_of_entry_is_recorded_with_its_place() -> None:
    lesson = parsed()
    assert rows(lesson) == [
        ("Potencia", "base", "index-potencia", False, "", False),
        ("exponente", "logaritmo", "index-exponente", False, "", False),
        ("logaritmo", "exponente", "index-exponente", False, "", False),
        ("suma", "producto cociente", "index-exponente", False, "", False),
        ("producto", "cociente, suma", "index-exponente", False, "", False),
        ("cociente", "suma producto", "index-exponente", False, "", False),
        ("índice", "", "", False, "exponente", False),
        ("base", "", "", False, "logaritmo", True),
        ("Álgebra", "", "index-exponente", True, "", False),
        ("agua", "", "index-exponente", False, "", False),
        ("base", "", "index-base", True, "", False),
        ("número e", "", "index-numero-e", False, "", False),
    ]
    assert str(lesson.index[1].pos) == "prueba.md:17:1"


def test_malformed_entries_are_errors_at_their_line() -> None:
    _, errors = lesson_from(
        "```{index} pair: solo\n```\n\n```{index}\n:name: x\nsingle: a; b; c\n```\n\n"
        "```{index}\n```\n\nUn {index}`término <single: >` vacío y {index}`otro <, ,>`.\n"
    )
    hint = (
        "    hint: write `single: term`, `single: term; subterm`, `pair: a; b`"
        " or `see: term; other`"
    )
    assert errors == [
        "prueba.md:11:1: error: {index} entry 'pair: solo': pair takes 2 terms separated by"
        " ';' (each at most 200 characters)\n" + hint,
        "prueba.md:15:1: error: {index} takes no options (':name: x')\n" + hint,
        "prueba.md:16:1: error: {index} entry 'single: a; b; c': single takes 1 or 2 terms"
        " separated by ';' (each at most 200 characters)\n" + hint,
        "prueba.md:19:1: error: {index} has no entry\n" + hint,
        "prueba.md:22:4: error: {index} entry 'single:': single takes 1 or 2 terms"
        " separated by ';' (each at most 200 characters)\n" + hint,
        "prueba.md:22:40: error: {index} entry ', ,' has an empty or overlong term\n" + hint,
    ]


def test_terms_sort_without_accents_and_case_and_merge_their_places() -> None:
    lesson = parsed()
    groups = index_groups([lesson])
    assert [g.letter for g in groups] == ["A", "B", "C", "E", "I", "L", "N", "P", "S"]
    a, b = groups[0], groups[1]
    assert [t.name for t in a.terms] == ["agua", "Álgebra"]
    assert [p.main for p in a.terms[1].places] == [True]
    [base] = b.terms
    assert [(p.href, p.text, p.main) for p in base.places] == [
        ("../prueba/#index-base", "Prueba", True)
    ]
    assert base.see_also == ("logaritmo",) and base.see == ()
    [index_term] = groups[4].terms
    assert index_term.places == () and index_term.see == ("exponente",)
    potencia, producto = groups[7].terms
    assert (potencia.name, producto.name) == ("Potencia", "producto")
    assert potencia.places == () and [s.name for s in potencia.subterms] == ["base"]
    assert sort_key("Ñu")[0] == "nu" and sort_key("ÉL") < sort_key("elz")


def test_the_places_of_a_term_name_their_lessons_and_count_repeats() -> None:
    lesson = parsed("```{index} Python\n```\n\nUn {index}`python`.\n")
    other = replace(lesson, title="Otra", slug="otra")
    [group] = index_groups([lesson, other])
    [python] = group.terms
    assert python.name == "Python"
    assert [(p.href, p.text) for p in python.places] == [
        ("../prueba/#index-python", "Prueba"),
        ("../prueba/#index-python-2", "Prueba (2)"),
        ("../otra/#index-python", "Otra"),
        ("../otra/#index-python-2", "Otra (2)"),
    ]
    assert [g.letter for g in index_groups([parsed("```{index} 3D, z\n```\n")])] == ["#", "Z"]


def site(course: Course) -> dict[str, bytes]:
    tools = Tools(fake_math, KernelRunner(), None)
    lessons = [e.lesson for e in course.entries if e.lesson is not None]
    return render_site(course, [verify_lesson(course, ln, tools, False) for ln in lessons])


def test_the_index_page_links_to_every_place_and_the_course_page_links_to_it() -> None:
    lesson = parsed()
    course = small_course(lesson)
    course = replace(
        course,
        entries=tuple(
            replace(e, lesson=replace(e.lesson, index=()))
            if e.lesson is not None and e.lesson.slug == "otra"
            else e
            for e in course.entries
        ),
    )
    assert index_path(course) == "indice/index.html"
    files = site(course)
    page = files["indice/index.html"].decode()
    assert "<h1>Índice alfabético</h1>" in page and 'lang="es"' in page
    assert '<strong><a href="../prueba/#index-base">Prueba</a></strong>' in page
    assert "<em>véase también</em> logaritmo" in page
    assert '<a class="ref' not in page and "<script>" not in page
    assert '<a href="indice/">Índice alfabético de términos</a>' in files["index.html"].decode()
    origins = {"prueba/index.html": "prueba.md", "otra/index.html": "otra.md"}
    sources = {"prueba/index.html": lesson.source_text, "otra/index.html": ""}
    assert check_links(files, origins, sources, PageScans(None)) == []


def test_terms_are_escaped_on_the_index_page() -> None:
    lesson = parsed("```{index} <b>negrita</b> & co\n```\n")
    page = site(small_course(replace(lesson)))["indice/index.html"].decode()
    assert "&lt;b&gt;negrita&lt;/b&gt; &amp; co" in page and "<b>negrita" not in page


def test_a_course_without_entries_has_no_index_page_nor_link() -> None:
    lesson = parsed("Nada que indexar.\n")
    course = small_course(lesson)
    assert index_path(course) is None
    files = site(course)
    assert not [name for name in files if name.startswith("indice")]
    assert "indice" not in files["index.html"].decode()


def test_a_lesson_named_like_the_index_folder_keeps_its_page() -> None:
    lesson = replace(parsed("```{index} a\n```\n"), slug="indice")
    assert index_path(small_course(lesson)) == "indice-2/index.html"


def test_a_heading_made_of_an_index_role_keeps_its_title() -> None:
    lesson = parsed("## Los {index}`vectores <single: vectores>`\n\nTexto.\n")
    [section] = lesson.sections
    assert (section.title, section.anchor) == ("Los vectores", "los-vectores")
    assert [e.anchor for e in lesson.index] == ["index-vectores"]
