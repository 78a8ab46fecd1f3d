"""One GET of the development server: a page or an asset of the build being served.

Kept apart from the app's wiring (rebuilds, watching, live reload) because it is the
part a request reaches: bounds on the request, redirects, the failed build's page, and
a lesson page rendered on request for an explorer's state.
"""

from __future__ import annotations

import mimetypes

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from pizarra.base.i18n.strings import t
from pizarra.check.code_cells import cell_figures, cell_tables
from pizarra.check.shown_outputs import cell_printed
from pizarra.pipeline.outlines import with_each
from pizarra.pipeline.tools import Tools
from pizarra.render.asset_urls import fixed_assets
from pizarra.render.explorers import ExplorerStateError, state_params
from pizarra.render.pages import lesson_path, render_lesson_page, render_status_page
from pizarra.serve.answers import (
    LIVE_SCRIPT,
    error_page,
    file_answer,
    file_name,
    folder_url,
    html_answer,
    inject,
    repeated,
    status_answer,
)
from pizarra.serve.state import SiteState
from pizarra.source.model import Course, Lesson

MAX_QUERY = 2048
MAX_PATH = 1024


def _before_a_good_build(state: SiteState, request: Request, live: bool) -> Response:
    """No build has passed yet: the failed build's errors on the course's own status page
    (503), with pizarra's stylesheets, as a later failure shows them; a plain page when
    not even the course could be read."""
    failed = state.failed_course
    if failed is None:
        return html_answer(error_page(state.errors).encode(), 503)
    name = file_name(request.url.path)
    data = fixed_assets().get(name.removeprefix("assets/")) if name else None
    if name is not None and name.startswith("assets/") and data is not None:
        media = mimetypes.guess_type(name)[0] or "application/octet-stream"
        return file_answer(request, data, media)
    message = t(failed.lang, "build_failed_message")
    title = t(failed.lang, "build_failed_title")
    html = render_status_page(failed, 503, title, message, "/").encode()
    shown = inject(html, True, state.errors)  # the errors even without live reload
    return html_answer(shown if live else shown.replace(LIVE_SCRIPT, b"</head>", 1), 503)


def respond(state: SiteState, tools: Tools, request: Request, live: bool) -> Response:
    """Answer one GET for a page or an asset of the current build."""
    course = state.course
    raw_path = request.url.path
    if len(raw_path) > MAX_PATH or len(request.url.query) > MAX_QUERY:
        message = t(course.lang, "uri_too_long") if course else ""
        return status_answer(course, 414, "bad_request_title", message, live)
    if course is None:
        return _before_a_good_build(state, request, live)
    twice = repeated(request)
    if twice:
        message = t(course.lang, "repeated_parameter", name=twice)
        return status_answer(course, 400, "bad_request_title", message, live)
    name = file_name(raw_path)
    if name is None:
        return status_answer(course, 404, "not_found_title", "", live)
    if name not in state.files and f"{name}/index.html" in state.files:
        return RedirectResponse(folder_url(name, request.url.query), status_code=308)
    data = state.files.get(name)
    if data is None:
        return status_answer(course, 404, "not_found_title", "", live, errors=state.errors)
    edition, lesson = _lesson_for(course, name)
    if lesson is not None and request.query_params:
        edition, lesson = _whole(state, edition, lesson)
        query = dict(request.query_params)
        params = {p for e in lesson.explorers() for p in state_params(e.spec)}
        if params & set(query):
            try:
                ledger = state.ledgers.get(lesson.path)
                outcomes = state.outcomes.get(lesson.path, [])
                figures, tables = cell_figures(outcomes), cell_tables(outcomes)
                page = render_lesson_page(
                    edition,
                    lesson,
                    tools.math,
                    query,
                    ledger,
                    figures,
                    cell_printed(outcomes),
                    tables,
                )
                data = page.encode()
            except ExplorerStateError as exc:
                return status_answer(
                    course, 400, "bad_request_title", exc.message, live, root="../"
                )
    media = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if media == "text/html":
        return html_answer(inject(data, live, state.errors), 200)
    return file_answer(request, data, media)


def _lesson_for(course: Course, name: str) -> tuple[Course, Lesson | None]:
    """The lesson whose page is ``name``, with its edition (the course or a translation)."""
    for edition in (course, *course.editions):
        for lesson in edition.lessons():
            if edition.site_dir + lesson_path(lesson) == name:
                return edition, lesson
    return course, None


def _whole(state: SiteState, edition: Course, lesson: Lesson) -> tuple[Course, Lesson]:
    """``lesson`` with its body, in its edition: the course served holds outlines (a
    server of 200 lessons holds 140 MB less), and a page rendered on request needs one."""
    whole = state.whole(lesson)
    if whole is lesson:
        return edition, lesson
    return with_each(edition, lambda ln: whole if ln is lesson else ln), whole
