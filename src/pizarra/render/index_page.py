"""The course's index page: every ``{index}`` entry of its lessons, alphabetically.

Terms are sorted and grouped by their letters without accents and case (Unicode NFKD
with combining marks dropped, then casefold), a sensible order for the languages
pizarra speaks without a collation library. Terms that differ only in case or accents
are one term, shown as first written. Each place links to the anchor the entry left
in its lesson page; a course without entries has no index page and no link to one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pizarra.base.i18n.strings import t
from pizarra.render.pages import SITE_CSS
from pizarra.render.pages import _page as page  # the one frame every page shares
from pizarra.source.blocks import IndexEntry
from pizarra.source.model import Course, Lesson


@dataclass(frozen=True)
class Place:
    """A link from the index to one place in a lesson."""

    href: str
    """The lesson page and the entry's anchor, relative to the index page."""
    text: str
    """The lesson's title, numbered when the term has several places in that lesson."""
    main: bool
    """The main place for the term (``!`` in the entry)."""


@dataclass(frozen=True)
class Term:
    """One line of the index, with its places, cross-references and subterms."""

    name: str
    """As first written."""
    places: tuple[Place, ...]
    """In course order."""
    see: tuple[str, ...]
    """Terms the reader is sent to instead (``see``)."""
    see_also: tuple[str, ...]
    """Related terms (``seealso``)."""
    subterms: tuple[Term, ...]
    """The second level, sorted."""


@dataclass(frozen=True)
class Group:
    """The terms under one initial letter."""

    letter: str
    """The capital shown (``#`` gathers terms that do not start with a letter)."""
    anchor: str
    """Its id in the page."""
    terms: tuple[Term, ...]
    """Sorted."""


def index_path(course: Course) -> str | None:
    """The index page's path in the site, or None when no lesson has an entry.

    The folder is named in the course's language (``indice``) unless a lesson's
    page already lives there."""
    if not any(lesson.index for lesson in course.lessons()):
        return None
    taken = {lesson.slug for lesson in course.lessons()} | {"assets"}
    folder = base = t(course.lang, "index_folder")
    number = 2
    while folder in taken:
        folder, number = f"{base}-{number}", number + 1
    return f"{folder}/index.html"


def render_index_page(course: Course) -> str:
    """The index page (one folder below the site's root)."""
    lang = course.lang
    groups = index_groups(list(course.lessons()))
    return page(
        "term_index.html",
        course,
        lang,
        "../",
        f"{t(lang, 'index_title')} · {course.title}",
        SITE_CSS,
        (),
        groups=groups,
    )


def index_groups(lessons: Sequence[Lesson]) -> tuple[Group, ...]:
    """The entries of ``lessons`` as sorted groups of terms."""
    found: list[tuple[Lesson, IndexEntry]] = [(ln, e) for ln in lessons for e in ln.index]
    terms = _terms([(lesson, entry, entry.term) for lesson, entry in found], True)
    groups: dict[str, list[Term]] = {}
    for term in terms:
        groups.setdefault(_letter(term.name), []).append(term)
    return tuple(
        Group(letter, f"letra-{number}", tuple(members))
        for number, (letter, members) in enumerate(groups.items(), start=1)
    )


def sort_key(term: str) -> tuple[str, str]:
    """Letters without accents, casefolded; then the exact text, for a stable order."""
    decomposed = unicodedata.normalize("NFKD", term)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return bare.casefold(), term


def _terms(items: list[tuple[Lesson, IndexEntry, str]], top: bool) -> tuple[Term, ...]:
    """Merge ``items`` (lesson, entry, name at this level) into sorted terms."""
    by_key: dict[str, list[tuple[Lesson, IndexEntry, str]]] = {}
    for item in items:
        by_key.setdefault(sort_key(item[2])[0], []).append(item)
    merged = []
    for members in by_key.values():
        name = members[0][2]
        own = [(ln, e) for ln, e, _ in members if not (top and e.subterm)]
        deeper = [(ln, e, e.subterm) for ln, e, _ in members if top and e.subterm]
        merged.append(
            Term(
                name,
                _places([(ln, e) for ln, e in own if not e.see]),
                _unique(e.see for _, e in own if e.see and not e.see_also),
                _unique(e.see for _, e in own if e.see and e.see_also),
                _terms(deeper, False) if deeper else (),
            )
        )
    return tuple(sorted(merged, key=lambda term: sort_key(term.name)))


def _places(found: list[tuple[Lesson, IndexEntry]]) -> tuple[Place, ...]:
    places: dict[tuple[str, str], Place] = {}
    counts: dict[str, int] = {}
    for lesson, entry in found:
        if (lesson.slug, entry.anchor) not in places:
            count = counts[lesson.slug] = counts.get(lesson.slug, 0) + 1
            text = lesson.title if count == 1 else f"{lesson.title} ({count})"
            href = f"../{lesson.slug}/#{entry.anchor}"
            places[(lesson.slug, entry.anchor)] = Place(href, text, entry.main)
    return tuple(places.values())


def _unique(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))


def _letter(name: str) -> str:
    bare = sort_key(name)[0]
    return bare[:1].upper() if bare[:1].isalpha() else "#"
