"""Each page's links to itself in the course's other languages: ``<link rel="alternate"
hreflang>`` in its head (every edition, its own included, as search engines ask) and a
visible language link (``<a hreflang>``) for each other edition.

Editions are trees of the site (the original at the top, a translation in ``en/``), so
from a page ``root`` deep in its edition the site's top is ``root`` plus one ``../`` per
folder of the edition's ``site_dir``. A page of a lesson links to the same lesson in
the other languages, when translated; any other page, and a lesson not translated, to
the other edition's course page.
"""

from __future__ import annotations

from dataclasses import dataclass

from pizarra.base.i18n.strings import t
from pizarra.source.model import Course


@dataclass(frozen=True)
class AlternateLink:
    """One edition of the page."""

    lang: str
    """Its language."""
    href: str
    """Its URL, relative to the page."""
    name: str
    """The language's name in that language (``English``, ``Español``)."""
    current: bool
    """True for the page's own edition."""


def alternate_links(
    course: Course, root: str, number: int | None = None, report: bool = False
) -> list[AlternateLink]:
    """The editions of the page ``root`` deep in ``course``'s tree; of lesson ``number``
    when given (of its verification report with ``report``). Empty for a course in one
    language."""
    if len(course.alternates) < 2:
        return []
    top = root + "../" * course.site_dir.count("/")
    links = []
    for alternate in course.alternates:
        slug = alternate.slugs.get(number) if number is not None else None
        href = top + alternate.site_dir + (f"{slug}/" if slug else "")
        if slug and report:
            href += t(alternate.lang, "report_folder") + "/"
        current = alternate.lang == course.lang
        links.append(
            AlternateLink(alternate.lang, href or "./", t(alternate.lang, "language_name"), current)
        )
    return links


def original_href(course: Course, root: str, number: int) -> str | None:
    """From a translated lesson's page, its original's page (None in the original)."""
    if not course.site_dir or not course.alternates:
        return None
    original = course.alternates[0]
    slug = original.slugs.get(number)
    return root + "../" * course.site_dir.count("/") + f"{slug}/" if slug else None
