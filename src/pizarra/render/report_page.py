"""A lesson's verification report page: what "verified" means, statement by statement.

Every lesson page links here. Readers see the counts, every math statement typeset
as on the lesson page with its status (and, when it was assumed or could not be
decided, why), the code cells that were re-run and compared, and the references that
were resolved.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markupsafe import Markup

from pizarra.base.i18n.strings import t
from pizarra.check.ledger import LessonLedger
from pizarra.math.exact.judge import Status
from pizarra.math.mathml import MathError, MathRenderer, with_macros
from pizarra.render.math_numbers import localized
from pizarra.render.pages import SITE_CSS
from pizarra.render.pages import _page as page  # the one frame every page shares
from pizarra.source.model import Course, Lesson


def report_folder(lesson: Lesson) -> str:
    """The report's folder below the lesson's (``verificacion`` in Spanish)."""
    return t(lesson.lang, "report_folder")


def report_path(lesson: Lesson) -> str:
    """The report page's path in the site."""
    return f"{lesson.slug}/{report_folder(lesson)}/index.html"


def render_report_page(
    course: Course, lesson: Lesson, ledger: LessonLedger, math: MathRenderer | None = None
) -> str:
    """The report page of ``lesson`` (two folders below the site's root); with ``math``,
    each statement is typeset as the lesson page shows it, else shown as its TeX."""
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
        typeset=_typesetter(lesson, math),
    )


def _typesetter(lesson: Lesson, math: MathRenderer | None) -> Callable[[str], Markup | None]:
    """A statement as inline MathML, or None when it cannot be typeset on its own (a
    link cut from an aligned row, say): the page then shows its TeX rather than nothing."""
    if math is None:
        return lambda claim: None
    render = localized(with_macros(math, lesson.macros), lesson.lang)

    def typeset(claim: str) -> Markup | None:
        try:
            return Markup(render(claim, False))  # MathML the renderer made, escaped by it
        except MathError:
            return None

    return typeset


def reason_text(lang: str, reason: str) -> str:
    """A checker's reason in the page's language when pizarra knows its wording.

    The checker words its reasons in English for authors at the terminal; readers
    get them in the lesson's language. A reason with no translation is shown as
    written rather than dropped.
    """
    for pattern, wording in REASONS.get(lang, ()):
        match = pattern.fullmatch(reason)
        if match:
            return wording.format(*match.groups())
    return reason


def _rules(pairs: list[tuple[str, str]]) -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(pattern), wording) for pattern, wording in pairs)


REASONS: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "es": _rules(
        [
            (
                r"letters not declared under variables: (.+)",
                "tiene letras que la lección no declara en «variables» ({})",
            ),
            (r"defines (.+) from here on", "define {} para el resto de la lección"),
            (
                r"restates the definition of (.+) \(line (\d+)\)",
                "repite la definición de {} (línea {})",
            ),
            (
                r"(.+) is a judgement of size, not a relation pizarra decides",
                "{} es un juicio de tamaño, no una relación que pizarra decida",
            ),
            (r"a unit on one side only", "lleva una unidad en un solo lado"),
            (
                r"(.+) is 1000 bytes to some and 1024 to others: write kB \(1000\) or KiB \(1024\)",
                "{} son 1000 bytes para unos y 1024 para otros: escribe kB (1000) o KiB (1024)",
            ),
            (
                r"defines or states a value of (.+)",
                "define o fija el valor de {}: no es una afirmación que comprobar",
            ),
            (
                r"function application (.+) of a function pizarra does not know",
                "aplica una función, {}, que pizarra no conoce",
            ),
            (r"(.+) is not arithmetic", "{} no es aritmética que pizarra sepa evaluar"),
            (
                r"words or a unit \((.+)\) next to a number",
                "lleva palabras o una unidad ({}) junto a un número",
            ),
            (r"too large: (.+)", "demasiado grande para decidirla con certeza ({})"),
            (r"unknown function (.+)", "usa una función que pizarra no conoce: {}"),
            (r"(.+) of an expression with letters", "{} de una expresión con letras"),
            (
                r"an equation to solve, not a claim",
                "es una ecuación por resolver, no una afirmación",
            ),
            (r"a side has no real value", "uno de sus lados no tiene valor real"),
            (
                r"not proved for every value of its letters",
                "no se ha demostrado para todos los valores de sus letras",
            ),
            (
                r"a condition on its letters \(one side has none\)",
                "es una condición sobre sus letras (un lado no tiene ninguna)",
            ),
            (
                r"an approximation or \\pm with letters is not decided",
                "una aproximación o un ± con letras no se decide",
            ),
            (r"arithmetic with \\infty is not decided", "la aritmética con ∞ no se decide"),
            (
                r"a root index that is not a positive integer",
                "el índice de una raíz no es un entero positivo",
            ),
            (
                r"a sum or product whose bounds are not whole numbers",
                "una suma o un producto con límites que no son enteros",
            ),
            (
                r"an irrational power of a number that is not positive",
                "una potencia irracional de un número que no es positivo",
            ),
            (r"empty side", "uno de sus lados está vacío"),
            (
                r"restates the declaration (.+): positive",
                "solo repite lo que la lección declara: {} > 0",
            ),
            (
                r"restates the declaration (.+): nonnegative",
                "solo repite lo que la lección declara: {} ≥ 0",
            ),
            (
                r"restates the declaration (.+): nonzero",
                "solo repite lo que la lección declara: {} ≠ 0",
            ),
            (
                r"restates the declaration (.+): integer",
                "solo repite lo que la lección declara: {} es un número entero",
            ),
            (
                r"restates the declaration (.+): positive_integer",
                "solo repite lo que la lección declara: {} es un entero positivo",
            ),
            (
                r"restates the declaration (.+): real",
                "solo repite lo que la lección declara: {} es real",
            ),
            (
                r"n!! is a double factorial to some, \(n!\)! to others: ambiguous",
                "n!! es el doble factorial para unos y (n!)! para otros: es ambigua",
            ),
            (
                r"a / before an implicit product \(6/2\(1\+2\)\) is ambiguous: use \\frac",
                "una / antes de un producto implícito (6/2(1+2)) es ambigua: usa \\frac",
            ),
        ]
    ),
}
