"""A lesson's verification report page: what "verified" means, statement by statement.

Every lesson page links here. Readers see the counts, every math statement with its
status (and, when pizarra could not decide it, why), the code cells that were re-run
and compared, and the references that were resolved.
"""

from __future__ import annotations

from pizarra.check.ledger import LessonLedger
from pizarra.exact.judge import Status
from pizarra.i18n.strings import t
from pizarra.model import Course, Lesson
from pizarra.render import SITE_CSS
from pizarra.render import _page as page  # the one frame every page shares


def report_folder(lesson: Lesson) -> str:
    """The report's folder below the lesson's (``verificacion`` in Spanish)."""
    return t(lesson.lang, "report_folder")


def report_path(lesson: Lesson) -> str:
    """The report page's path in the site."""
    return f"{lesson.slug}/{report_folder(lesson)}/index.html"


def render_report_page(course: Course, lesson: Lesson, ledger: LessonLedger) -> str:
    """The report page of ``lesson`` (two folders below the site's root)."""
    lang = lesson.lang
    status_text = {s: t(lang, f"claim_{s.value}") for s in Status}
    return page(
        "report.html",
        course,
        lang,
        "../../",
        f"{t(lang, 'report_title')} · {lesson.title} · {course.title}",
        SITE_CSS,
        (),
        lesson=lesson,
        ledger=ledger,
        counts=ledger.counts,
        status_text=status_text,
        reason=lambda text: reason_text(lang, text),
    )


def reason_text(lang: str, reason: str) -> str:
    """A checker's reason in the page's language when pizarra knows its wording.

    The checker words its reasons in English for authors; the common ones are
    translated for readers, the rest are shown as written.
    """
    return REASONS.get(lang, {}).get(reason, reason)


REASONS: dict[str, dict[str, str]] = {
    "es": {
        "not proved for every value of its letters": (
            "tiene letras y no se ha demostrado para todos sus valores"
        ),
        "a side has no real value": "un lado no tiene valor real",
        "formula too long": "la fórmula es demasiado larga para comprobarla",
    },
}
