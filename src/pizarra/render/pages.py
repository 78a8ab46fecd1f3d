"""Course and lessons -> HTML pages, through autoescaped Jinja templates.

Pages link to each other and to ``assets/`` with relative URLs, so the built
site works from any folder of any static host.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from jinja2 import Environment
from markupsafe import Markup

from pizarra.base.errors import SourcePos
from pizarra.base.i18n.dates import long_date
from pizarra.base.i18n.plurals import counted
from pizarra.base.i18n.strings import t
from pizarra.check.animation_frames import shown_figures
from pizarra.check.xref import resolve
from pizarra.math.mathml import MathRenderer, with_macros
from pizarra.render.alternates import alternate_links, original_href
from pizarra.render.answers import answer_strings, render_answers
from pizarra.render.asset_urls import asset_url
from pizarra.render.code_listing import code_pre
from pizarra.render.csp import with_meta
from pizarra.render.explorers import asset_names, render_explorer, state_pages
from pizarra.render.explorers.growth_html import growth_template
from pizarra.render.frame_table import frame_table
from pizarra.render.math_numbers import localized
from pizarra.render.prose import ProseContext, equation_html, render_prose
from pizarra.render.templating import load_all, page_environment
from pizarra.source.blocks import Block, CodeCell, Explorer, Figure, Prose
from pizarra.source.model import Course, CourseEntry, Lesson

if TYPE_CHECKING:
    from pizarra.check.ledger import LessonLedger

SITE_CSS = ("pizarra.css", "math.css")

Figures = Mapping[SourcePos, tuple[Figure, ...]]
"""The figures each code cell drew, by the cell's position (from the run that checked it)."""
Printed = Mapping[SourcePos, str]
"""What each code cell without an ``{output}`` block printed in the run that checked it:
shown on the page as this build's output, not pinned."""

Tables = Mapping[SourcePos, str]
"""The ``text/html`` of the DataFrame each code cell showed, by the cell's position:
untrusted, shown only as :func:`pizarra.render.frame_table.frame_table` rebuilds it."""


@dataclass(frozen=True)
class PageLink:
    """A link to a neighbouring lesson."""

    label: str
    """"Lección anterior" / "Lección siguiente"."""
    title: str
    """The lesson's number and title."""
    href: str
    """Where it goes."""
    rel: str
    """``prev`` or ``next``."""


@cache
def _environment() -> Environment:
    return page_environment()


def compile_templates() -> None:
    """Load every template now, the explorers' too (a server does it once, before the
    first save)."""
    load_all(_environment())
    growth_template()


def _page(
    template: str,
    course: Course,
    lang: str,
    root: str,
    page_title: str,
    css: Sequence[str] = SITE_CSS,
    scripts: Sequence[str] = (),
    **values: object,
) -> str:
    """Render one page template with what every page's frame (base.html) needs,
    and the page's Content-Security-Policy."""
    return with_meta(
        _environment()
        .get_template(template)
        .render(
            lang=lang,
            t=lambda key, **kw: t(lang, key, **kw),
            counted=lambda key, count: counted(lang, key, count),
            course=course,
            root=root,
            css=css,
            scripts=scripts,
            asset=asset_url,
            page_title=page_title,
            alternates=alternate_links(
                course, root, _page_lesson(values), report=template == "report.html"
            ),
            **values,
        )
    )


def _page_lesson(values: dict[str, object]) -> int | None:
    """The number of the lesson a page belongs to, if any (its alternates are that lesson's)."""
    lesson = values.get("lesson")
    return lesson.number if isinstance(lesson, Lesson) else None


def lesson_path(lesson: Lesson) -> str:
    """The lesson page's path in the site."""
    return f"{lesson.slug}/index.html"


def render_course_page(course: Course, index_href: str | None = None) -> str:
    """The course's front page: lessons in order with their status, and a link to the
    index page when there is one (``index_href``)."""

    def href(entry: CourseEntry) -> str | None:
        return f"{entry.lesson.slug}/" if entry.lesson is not None else None

    return _page(
        "course.html", course, course.lang, "", course.title, entry_href=href, index_href=index_href
    )


def render_lesson_page(
    course: Course,
    lesson: Lesson,
    math: MathRenderer,
    query: Mapping[str, str] | None = None,
    ledger: LessonLedger | None = None,
    figures: Figures | None = None,
    printed: Printed | None = None,
    tables: Tables | None = None,
) -> str:
    """A lesson page; ``query`` selects explorer states (``?n=2048``) for server rendering.

    ``ledger`` is what verification decided; the page then links to its report.

    Raises :class:`pizarra.render.explorers.ExplorerStateError` for a state outside an
    explorer's domain.
    """
    lang = lesson.lang
    body = render_lesson_body(course, lesson, math, query, figures, printed, tables)
    kinds = sorted({e.kind for e in lesson.explorers()})
    css = [*SITE_CSS, *(n for k in kinds for n in asset_names(k) if n.endswith(".css"))]
    scripts = [n for k in kinds for n in asset_names(k) if n.endswith(".js")]
    answers = any(e.answers for e in lesson.exercises())
    if answers:
        css.append("answers.css")
        scripts.append("answers.js")
    return _page(
        "lesson.html",
        course,
        lang,
        "../",
        f"{lesson.title} · {course.title}",
        css,
        scripts,
        lesson=lesson,
        body=body,
        neighbours=_neighbours(course, lesson),
        verification=ledger.counts if ledger is not None else None,
        report_href=f"{t(lang, 'report_folder')}/",
        cells=ledger.cells_run if ledger is not None else 0,
        entry_href=_sibling_href,
        answer_strings=answer_strings(lang) if answers else None,
        behind_original=original_href(course, "../", lesson.number)
        if lesson.number in course.behind
        else None,
        synced=long_date(lesson.original_synced, lang) if lesson.original_synced else "",
    )


def render_state_pages(course: Course, lesson: Lesson) -> dict[str, str]:
    """Each explorer state but the initial one, as a small page beside the lesson page:
    the explorer's no-JavaScript links go there, so they work from any static host.

    A growth explorer has at most 25 values, so a lesson gets at most 24 such pages
    per explorer."""
    lang = lesson.lang
    pages: dict[str, str] = {}
    for explorer in lesson.explorers():
        css = [*SITE_CSS, *(n for n in asset_names(explorer.kind) if n.endswith(".css"))]
        scripts = [n for n in asset_names(explorer.kind) if n.endswith(".js")]
        for name, query in state_pages(explorer.spec):
            fragment = render_explorer(explorer, lang, query)
            chosen = ", ".join(f"{k} = {v}" for k, v in query.items())
            title = " · ".join((chosen, lesson.title, course.title))
            pages[f"{lesson.slug}/{name}"] = _page(
                "state.html",
                course,
                lang,
                "../",
                title,
                css,
                scripts,
                lesson=lesson,
                explorer=fragment,
                back=f"./#{explorer.spec.id}",
            )
    return pages


def render_lesson_body(
    course: Course,
    lesson: Lesson,
    math: MathRenderer,
    query: Mapping[str, str] | None = None,
    figures: Figures | None = None,
    printed: Printed | None = None,
    tables: Tables | None = None,
) -> Markup:
    """The HTML of the lesson's blocks (what golden-file tests compare)."""
    lang = lesson.lang
    sources = {source.key: number for number, source in enumerate(lesson.sources, start=1)}

    def lesson_href(number: int) -> str | None:
        entry = course.entry(number)
        if entry is None or entry.lesson is None:
            return None
        return f"../{entry.lesson.slug}/"

    prose = ProseContext(
        lang=lang,
        math=localized(with_macros(math, lesson.macros), lang),
        lesson_href=lesson_href,
        course_href=lambda number: f"../#{t(lang, 'id_lesson', n=number)}",
        source_number=sources.get,
        resolve=lambda ref: resolve(course, lesson, ref),
    )
    return _render_blocks(lesson.blocks, prose, query, figures or {}, printed or {}, tables or {})


def render_status_page(course: Course, status: int, title: str, message: str, root: str) -> str:
    """A small page for 400 and 404 answers, in the course's language and style."""
    page_title = f"{title} · {course.title}"
    if status == 404 and not message:
        message = t(course.lang, "not_found_message")
    return _page(
        "status.html",
        course,
        course.lang,
        root,
        page_title,
        status=status,
        title=title,
        message=message,
        lessons=[e for e in course.entries if e.lesson is not None] if status == 404 else [],
    )


def _render_blocks(
    blocks: tuple[Block, ...],
    prose: ProseContext,
    query: Mapping[str, str] | None,
    figures: Figures,
    printed: Printed,
    tables: Tables,
) -> Markup:
    template = _environment().get_template("blocks.html")
    parts: list[Markup] = []
    for block in blocks:
        if isinstance(block, Prose):
            parts.append(render_prose(block.tokens, prose))
        elif isinstance(block, Explorer):
            parts.append(render_explorer(block, prose.lang, query))
        else:
            parts.append(
                Markup(
                    template.render(
                        block=block,
                        kind=type(block).__name__,
                        t=lambda key, **kw: t(prose.lang, key, **kw),
                        render=lambda inner: _render_blocks(
                            inner, prose, query, figures, printed, tables
                        ),
                        figures=shown_figures(figures.get(block.pos, ()))
                        if isinstance(block, CodeCell)
                        else (),
                        printed=printed.get(block.pos, "") if isinstance(block, CodeCell) else "",
                        table=Markup(frame_table(tables[block.pos], t(prose.lang, "table")))
                        if isinstance(block, CodeCell) and block.pos in tables
                        else "",
                        code_pre=code_pre,
                        equation=lambda b: equation_html(prose, b.tex, b.anchor, b.number),
                        answers=lambda b: render_answers(b, prose.lang, prose.math),
                    )
                )
            )
    return Markup("").join(parts)


def _sibling_href(entry: CourseEntry) -> str | None:
    """From one lesson page, the URL of another published lesson (None if upcoming)."""
    return f"../{entry.lesson.slug}/" if entry.lesson is not None else None


def _neighbours(course: Course, lesson: Lesson) -> list[PageLink]:
    """The nearest published lessons before and after ``lesson``; upcoming ones are skipped."""
    published = [e for e in course.entries if e.lesson is not None]
    index = next(i for i, e in enumerate(published) if e.lesson is lesson)
    links = []
    for offset, key, rel in ((-1, "previous_lesson", "prev"), (1, "next_lesson", "next")):
        at = index + offset
        if 0 <= at < len(published):
            entry = published[at]
            assert entry.lesson is not None
            title = f"{entry.number}. {entry.title}"
            href = f"../{entry.lesson.slug}/"
            links.append(PageLink(t(lesson.lang, key), title, href, rel))
    return links
