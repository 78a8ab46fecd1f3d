"""Resolving references across the course: ``{ref}``, ``{numref}``, ``{eq}``, ``{doc}``,
``{any}`` and label links.

One function serves both the check (which reports what does not resolve) and the
renderer (which needs the link and its text), so the two cannot disagree.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from pizarra.base.i18n.strings import STRINGS, t
from pizarra.source.blocks import Ref, Target
from pizarra.source.model import Course, CourseEntry, Lesson


@dataclass(frozen=True)
class Resolved:
    """Where a reference goes and what it shows."""

    href: str
    """Relative URL from the referring lesson's page."""
    text: str
    """The link text ("" for a Markdown link, which keeps its own)."""


def resolve(course: Course, lesson: Lesson, ref: Ref) -> Resolved | str:
    """The resolved reference, or the reason it does not resolve."""
    if ref.kind == "doc":
        return _resolve_doc(course, lesson, ref)
    if ref.kind == "any":
        return _resolve_any(course, lesson, ref)
    found = _find_target(course, lesson, ref.label, ref.kind == "eq")
    if found is None and ref.kind == "link":  # [text](other_lecture): a lesson by its name
        doc = _resolve_doc(course, lesson, Ref("doc", ref.label, "", ref.pos))
        if isinstance(doc, Resolved):
            return Resolved(doc.href, "")
    if found is None:
        upcoming = _upcoming_label(course, ref.label) if ref.kind != "eq" else None
        if upcoming is not None:
            anchor = t(lesson.lang, "id_lesson", n=upcoming.number)
            return Resolved(f"../#{anchor}", ref.text or upcoming.title)
        return f"no label {ref.label!r} in the course"
    owner, target = found
    href = f"#{target.anchor}" if owner is lesson else f"../{owner.slug}/#{target.anchor}"
    if ref.kind == "numref":
        return _numbered(lesson, ref, target, href)
    if ref.kind == "eq":
        if target.kind != "equation" or target.number is None:
            return f"{ref.label!r} is not a numbered equation (it is a {target.kind})"
        return Resolved(href, f"({target.number})")
    if ref.kind == "link":
        return Resolved(href, "")
    if ref.kind == "link-empty":
        return _filled(lesson, ref, target, href)
    text = ref.text or target.title
    if not text:
        return f"{ref.label!r} has no title to show"
    return Resolved(href, text)


def _resolve_any(course: Course, lesson: Lesson, ref: Ref) -> Resolved | str:
    """``{any}``: a label, as ``{ref}``; else a lesson, as ``{doc}``; else ``{ref}``'s reason."""
    as_label = resolve(course, lesson, replace(ref, kind="ref"))
    if isinstance(as_label, Resolved):
        return as_label
    as_doc = _resolve_doc(course, lesson, replace(ref, kind="doc"))
    if isinstance(as_doc, Resolved):
        return as_doc
    if _find_target(course, lesson, ref.label, False) or _upcoming_label(course, ref.label):
        return as_label
    return f"no label or lesson {ref.label!r} in the course"


def ambiguous_any(course: Course, lesson: Lesson, ref: Ref) -> str | None:
    """Why an ``{any}`` that names both a label and a lesson goes to the label, or None.

    Sphinx takes the first of several targets, labels before documents, and warns."""
    if ref.kind != "any" or not isinstance(resolve(course, lesson, ref), Resolved):
        return None
    if _find_target(course, lesson, ref.label, False) is None:
        return None
    if not isinstance(_resolve_doc(course, lesson, replace(ref, kind="doc")), Resolved):
        return None
    return f"{{any}} `{ref.label}` names both a label and a lesson; it links to the label"


def _find_target(
    course: Course, lesson: Lesson, label: str, equation: bool
) -> tuple[Lesson, Target] | None:
    """The target named ``label``: equations first for ``{eq}``, last for the others."""
    found: tuple[Lesson, Target] | None = None
    for owner in (lesson, *(other for other in course.lessons() if other is not lesson)):
        for target in owner.targets:
            if target.label == label:
                if (target.kind == "equation") == equation:
                    return owner, target
                found = found or (owner, target)
    return found


def _numbered(lesson: Lesson, ref: Ref, target: Target, href: str) -> Resolved | str:
    """``{numref}``: "Figure 2", or the author's text with ``%s`` (or ``{number}``) filled."""
    if target.number is None:
        return f"{ref.label!r} is not numbered (it is a {target.kind})"
    number = str(target.number)
    if ref.text:
        text = ref.text.replace("%s", number).replace("{number}", number)
        return Resolved(href, text.replace("{name}", target.title))
    key = {"figure": "figure_n", "exercise": "exercise_n", "table": "table_n"}.get(target.kind)
    if key is not None:
        return Resolved(href, t(lesson.lang, key, n=target.number))
    word = STRINGS.get(lesson.lang.partition("-")[0], STRINGS["en"]).get(f"prf_{target.kind}")
    if word is None:
        return f"{ref.label!r} needs the text to show: {{numref}}`text %s <{ref.label}>`"
    return Resolved(href, f"{word} {number}")


def _filled(lesson: Lesson, ref: Ref, target: Target, href: str) -> Resolved | str:
    """``[](label)``: MyST fills in the target's number (an equation's "(2)") or title."""
    if target.kind == "equation" and target.number is not None:
        return Resolved(href, f"({target.number})")
    if target.title:
        return Resolved(href, target.title)
    if target.number is not None:
        return _numbered(lesson, ref, target, href)
    return f"{ref.label!r} has no title or number to show: write the link's text"


def _upcoming_label(course: Course, label: str) -> CourseEntry | None:
    """The upcoming lesson that lists ``label`` in its course entry, if one does."""
    for entry in course.entries:
        if entry.lesson is None and label in entry.labels:
            return entry
    return None


def external(ref: Ref) -> bool:
    """A ``{doc}`` into another project (``{doc}`book:page```, Sphinx's intersphinx)."""
    return ref.kind == "doc" and ":" in ref.label


def _resolve_doc(course: Course, lesson: Lesson, ref: Ref) -> Resolved | str:
    if ":" in ref.label:
        return f"{ref.label!r} points into another project"
    name = ref.label.rsplit("/", 1)[-1].removesuffix(".md")
    near = _by_path(course, lesson, ref.label.removesuffix(".md"))
    if near is not None:
        return Resolved("./" if near is lesson else f"../{near.slug}/", ref.text or near.title)
    for entry in course.entries:
        other = entry.lesson
        if other is not None and name in (other.path.stem, other.slug):
            href = "./" if other is lesson else f"../{other.slug}/"
            return Resolved(href, ref.text or other.title)
        if other is None and entry.doc == name:
            return Resolved(
                f"../#{t(lesson.lang, 'id_lesson', n=entry.number)}", ref.text or entry.title
            )
    return f"no lesson {name!r} in the course"


def _by_path(course: Course, lesson: Lesson, label: str) -> Lesson | None:
    """The lesson whose file ``label`` names relative to ``lesson``'s, as MyST and Sphinx
    read a document's path, so two lessons of one file name in different folders
    (``numpy.md``, ``numpy/numpy.md``) are told apart; None when it names no file."""
    return _lessons_by_path(course).get(os.path.normpath(lesson.path.parent / label))


_BY_PATH: list[tuple[Course, dict[str, Lesson]]] = []
"""The last course's lessons by their path without ``.md``: made once per course, not
once per reference (a course of 200 lessons has thousands)."""


def _lessons_by_path(course: Course) -> dict[str, Lesson]:
    if _BY_PATH and _BY_PATH[0][0] is course:
        return _BY_PATH[0][1]
    table: dict[str, Lesson] = {}
    for other in course.lessons():
        table.setdefault(os.path.normpath(other.path.with_suffix("")), other)
    _BY_PATH[:] = [(course, table)]
    return table


def hint_for(ref: Ref) -> str:
    """What to do about a reference that does not resolve."""
    if ref.kind == "doc":
        if ":" in ref.label:
            return "link to the other site with [text](https://...): only its text is shown"
        return "{doc} names a lesson by its file name (without .md), e.g. {doc}`text <powers>`"
    if ref.kind == "any":
        return (
            "{any} names a label ((name)= before a heading, or :label: on a directive) "
            "or a lesson by its file name (without .md)"
        )
    if ref.kind == "eq":
        return "give the equation a label: $$ ... $$ (name) or {math} with :label: name"
    if ref.kind == "numref":
        return (
            "{numref} names a numbered {figure} (:name:), theorem or exercise (:label:); "
            f"for anything else use {{ref}}`text <{ref.label}>`"
        )
    return (
        "define the label with (name)= before a heading, or :label: on a directive; "
        f"a place without a title needs text: {{ref}}`text <{ref.label}>`"
    )
