"""References inside the sources: lessons by number, labels, equations, lessons by
name and citations by source id."""

from __future__ import annotations

from pizarra.base.errors import Diagnostic, Severity
from pizarra.check.xref import ambiguous_any, external, hint_for, resolve
from pizarra.source.model import Course, Lesson


def check_references(course: Course, lesson: Lesson) -> list[Diagnostic]:
    errors = []
    numbers = [entry.number for entry in course.entries]
    for ref in lesson.lesson_refs:
        if course.entry(ref.number) is None:
            errors.append(
                Diagnostic(
                    ref.pos,
                    f"lesson {ref.number} is not in the course",
                    hint="lessons in the course: " + ", ".join(map(str, numbers)),
                )
            )
        elif ref.number == lesson.number:
            errors.append(
                Diagnostic(
                    ref.pos, "a lesson refers to itself", hint="link a section with #anchor instead"
                )
            )
    for xref in lesson.refs:
        found = resolve(course, lesson, xref)
        if isinstance(found, str):
            what = f"{{{xref.kind}}}" if not xref.kind.startswith("link") else "link"
            errors.append(
                Diagnostic(
                    xref.pos,
                    f"{what} cannot be resolved: {found}",
                    hint_for(xref),
                    severity=Severity.WARNING if external(xref) else Severity.ERROR,
                )
            )
        elif (both := ambiguous_any(course, lesson, xref)) is not None:
            errors.append(
                Diagnostic(
                    xref.pos,
                    both,
                    f"write {{ref}}`{xref.label}` or {{doc}}`{xref.label}` to say which",
                    severity=Severity.WARNING,
                )
            )
    keys = {source.key for source in lesson.sources}
    cited = set()
    for citation in lesson.citations:
        cited.add(citation.key)
        if citation.key not in keys:
            errors.append(
                Diagnostic(
                    citation.pos,
                    f"no source with id {citation.key!r}",
                    hint="sources: "
                    + (
                        ", ".join(sorted(keys)) or "none; add a `sources:` list to the front matter"
                    ),
                )
            )
    for source in lesson.sources:
        if source.key not in cited:
            errors.append(
                Diagnostic(
                    source.pos,
                    f"source {source.key!r} is never cited",
                    hint=f"cite it with {{cite}}`{source.key}` or remove it",
                    severity=Severity.WARNING,
                )
            )
    return errors
