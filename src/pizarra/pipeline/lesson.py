"""One lesson verified and rendered: every check, then its pages if it has no error."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING

from pizarra.base.errors import Diagnostic, Severity, SourcePos
from pizarra.base.guard import guarded
from pizarra.base.i18n.numbers import format_integer
from pizarra.check.answers.questions import check_answers
from pizarra.check.claims import claim_records
from pizarra.check.code_cells import (
    CellOutcome,
    cell_figures,
    cell_tables,
    check_code_cells,
    run_code_cells,
)
from pizarra.check.html_scan import PageScan, scan_page
from pizarra.check.ledger import LessonLedger, lesson_ledger, strict_claim_errors
from pizarra.check.math import check_math
from pizarra.check.references import check_references
from pizarra.check.shown_outputs import cell_printed
from pizarra.math.mathml import Remembering
from pizarra.render.highlight import highlight
from pizarra.render.pages import (
    compile_templates,
    lesson_path,
    render_lesson_page,
    render_state_pages,
)
from pizarra.render.prose import fence_language
from pizarra.render.report_page import render_report_page, report_path
from pizarra.site.searchable import packed
from pizarra.source.blocks import CodeCell, Prose, walk
from pizarra.source.model import Course, Lesson

if TYPE_CHECKING:
    from pizarra.pipeline.tools import Tools


@dataclass(frozen=True)
class LessonResult:
    """What verifying and rendering one lesson produced."""

    diagnostics: tuple[Diagnostic, ...]
    """Its problems (errors and warnings)."""
    ledger: LessonLedger | None
    """What verification decided, item by item (None if checking it crashed)."""
    outcomes: tuple[CellOutcome, ...]
    """Its code cells' runs."""
    pages: dict[str, bytes]
    """Its files in the site: the lesson page, its report page, its figures' SVG
    files and its explorers' state pages (empty when the lesson has errors)."""
    scans: dict[str, PageScan] = field(default_factory=dict)
    """The ids and links of each HTML file of ``pages``, read where it was rendered."""
    cached: bool = False
    """True when the whole result came from the cache."""
    indexed: bytes | None = None
    """Its lesson page as Pagefind reads it (:func:`~pizarra.site.searchable.packed`), made
    where the page was rendered and kept with it: a build whose lessons come from the
    cache hands Pagefind their pages without reading each again (0.8 s of a one-line
    edit at 200 lessons)."""


def verify_lesson(
    course: Course,
    lesson: Lesson,
    tools: Tools,
    strict: bool,
    outcomes: Sequence[CellOutcome] | None = None,
) -> LessonResult:
    """Every check of one lesson, then its pages if it has no error (``outcomes``: its
    cells' runs when they were run already, by :func:`confirm_lesson`).

    A bug in pizarra while checking or rendering becomes an internal-error diagnostic
    at the lesson (:mod:`pizarra.base.guard`), and the other lessons are still done.
    """
    found: list[Diagnostic] = []
    at = SourcePos(lesson.display_path, 1, 1)
    tools = replace(tools, math=Remembering(tools.math))  # checked, then rendered
    check = partial(_check, course, lesson, tools, strict, outcomes)
    checked = guarded(check, None, at, "checking this lesson", found)
    if checked is None:
        return LessonResult(tuple(found), None, (), {})
    diagnostics, ledger, outcomes = checked
    pages: dict[str, bytes] = {}
    scans: dict[str, PageScan] = {}
    if not lesson.incomplete and not any(d.severity is Severity.ERROR for d in diagnostics):
        render = partial(_pages, course, lesson, tools, ledger, outcomes)
        pages = guarded(render, pages, at, "rendering this lesson", diagnostics)
        reading = partial(scan_pages, pages)
        scans = guarded(reading, scans, at, "reading the links of its pages", diagnostics)
    page = pages.get(lesson_path(lesson))
    indexed = None
    if page is not None:
        preparing = partial(packed, page)
        indexed = guarded(preparing, None, at, "preparing its page for search", diagnostics)
    return LessonResult(tuple(diagnostics), ledger, tuple(outcomes), pages, scans, indexed=indexed)


def confirm_lesson(
    course: Course, lesson: Lesson, tools: Tools, strict: bool, seen: LessonResult
) -> LessonResult:
    """The result of a lesson verified before whose cells' outputs were seen once only
    (``seen``, under the same key: nothing else of the lesson or its course changed).

    Its cells run again. If each shows exactly what it showed (and the cell cache
    confirms it), ``seen`` is the result, with these runs, confirmed: nothing else is
    checked or rendered again, which was 45 % of a first rebuild's work on a lesson.
    Otherwise the lesson is verified with the outcomes of this run, so a cell whose
    output changed is reported as nondeterministic, never run a third time."""
    at = SourcePos(lesson.display_path, 1, 1)
    found: list[Diagnostic] = []
    run = partial(run_code_cells, lesson, tools.runner, tools.cache)
    outcomes = guarded(run, None, at, "running its code cells", found)
    if outcomes is None:
        return verify_lesson(course, lesson, tools, strict)
    if _shows_the_same(outcomes, seen.outcomes):
        return replace(seen, outcomes=tuple(outcomes), cached=False)
    return verify_lesson(course, lesson, tools, strict, outcomes)


def _shows_the_same(now: Sequence[CellOutcome], seen: Sequence[CellOutcome]) -> bool:
    """Every cell ran again, confirmed, with what it had: the same result in every field
    but its duration."""
    return len(now) == len(seen) and all(
        n.confirmed
        and n.earlier is None
        and not n.cached
        and n.cell == s.cell
        and replace(n.result, duration=0.0) == replace(s.result, duration=0.0)
        for n, s in zip(now, seen, strict=True)
    )


def pay_first_use(lessons: Iterable[Lesson]) -> None:
    """What a process pays at the first of these lessons it verifies, paid now: the
    lexers of their code (Pygments compiles a lexer's rules when it first makes one,
    0.02 s for Python), the number formats of their languages (CLDR data, from
    Babel) and the templates. A crew worker pays it while the main process assembles
    the course: 0.04 s of its first lesson.

    Never raises: a failure here is met, and reported, where the lesson is verified."""
    with contextlib.suppress(Exception):
        compile_templates()
        languages = {"python"}  # every cell's: a served course's outlines show no block
        for lesson in lessons:
            format_integer(0, lesson.lang)
            for block in walk(lesson.blocks):
                if isinstance(block, CodeCell):
                    languages.add(block.language)
                elif isinstance(block, Prose):
                    languages.update(fence_language(t) for t in block.tokens if t.type == "fence")
        for language in sorted(languages - {""}):
            highlight("", language)


def _check(
    course: Course,
    lesson: Lesson,
    tools: Tools,
    strict: bool,
    ran: Sequence[CellOutcome] | None = None,
) -> tuple[list[Diagnostic], LessonLedger, list[CellOutcome]]:
    diagnostics = check_math(lesson, tools.math)
    records, found = claim_records(lesson, tools.verdicts)
    diagnostics += found
    outcomes = list(ran) if ran is not None else run_code_cells(lesson, tools.runner, tools.cache)
    ledger = lesson_ledger(course, lesson, records, outcomes)
    diagnostics += ledger.failures()
    if strict or lesson.strict_claims:
        diagnostics += strict_claim_errors(ledger)
    diagnostics += check_code_cells(lesson, outcomes, pin=lesson.pin_outputs)
    diagnostics += check_references(course, lesson)
    diagnostics += check_answers(lesson)
    return diagnostics, ledger, list(outcomes)


def _pages(
    course: Course,
    lesson: Lesson,
    tools: Tools,
    ledger: LessonLedger,
    outcomes: Sequence[CellOutcome],
) -> dict[str, bytes]:
    """The lesson page, its report page, the SVG files of its figures beside it, and a
    page for each explorer state but the initial one (so links select states on any host)."""
    figures = cell_figures(outcomes)
    tables = cell_tables(outcomes)
    page = render_lesson_page(
        course,
        lesson,
        tools.math,
        ledger=ledger,
        figures=figures,
        printed=cell_printed(outcomes),
        tables=tables,
    )
    folder = lesson_path(lesson).rpartition("/")[0]
    files = {f"{folder}/{f.name}": f.svg for shown in figures.values() for f in shown}
    states = {path: html.encode() for path, html in render_state_pages(course, lesson).items()}
    return {
        **files,
        **states,
        lesson_path(lesson): page.encode(),
        report_path(lesson): render_report_page(course, lesson, ledger, tools.math).encode(),
    }


def scan_pages(pages: dict[str, bytes]) -> dict[str, PageScan]:
    """The ids and links of every HTML page of ``pages``: read by the worker that
    rendered them, in parallel with the other lessons, instead of by the main process."""
    return {path: scan_page(data) for path, data in pages.items() if path.endswith(".html")}
