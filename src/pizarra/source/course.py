"""The course manifest (``course.yaml``) -> :class:`~pizarra.source.model.Course`.

A course folder holds ``course.yaml``, listing every lesson in order: published
ones name their source file; upcoming ones give only a title and a summary, so
the course page can announce them and references to them never break. A single
lesson file is a course of one lesson.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import replace
from pathlib import Path
from typing import Any

from pizarra import BUNDLED as BUNDLED
from pizarra.base.errors import Diagnostic, SourcePos, display_path
from pizarra.base.i18n.strings import LANGUAGES, supported
from pizarra.base.suggest import did_you_mean
from pizarra.source.lesson_file import LessonReader, read_lesson_file
from pizarra.source.model import Course, CourseEntry
from pizarra.source.syntax.macros import merged, read_macros
from pizarra.source.syntax.yaml_source import YamlDoc, load_mapping
from pizarra.source.translations import TRANSLATION_FIELDS, with_translations

MANIFEST = "course.yaml"
_COURSE_FIELDS = ("title", "lang", "description", "lessons", "macros", *TRANSLATION_FIELDS)
MAX_LABELS = 10_000
"""Labels an upcoming lesson may list (each resolves ``{ref}`` to its course entry)."""
_LABEL = re.compile(r"^[\w:.-]{1,200}$")


def load_course(
    src: Path, read: LessonReader = read_lesson_file
) -> tuple[Course | None, list[Diagnostic]]:
    """Read a course folder or a single lesson file, with every syntax error found.

    Each lesson file is read by ``read`` (path, course folder or None): the pipeline
    passes one that takes unchanged lessons from its cache, or from its workers.
    """
    if not src.exists():
        return None, [
            Diagnostic(
                SourcePos(display_path(src), 1, 1),
                "no such file or folder",
                hint="give a course folder with course.yaml, or one lesson .md file",
            )
        ]
    if src.is_file():
        return _single_lesson(src, read)
    manifest = src / MANIFEST
    if not manifest.is_file():
        return None, [
            Diagnostic(
                SourcePos(display_path(src), 1, 1),
                f"no {MANIFEST} here, and this is not a lesson file",
                hint=f"give a course folder with {MANIFEST}, or one lesson .md file",
            )
        ]
    shown = display_path(manifest)
    try:
        text = manifest.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        problem = exc.strerror if isinstance(exc, OSError) else f"not UTF-8 (byte {exc.start})"
        return None, [
            Diagnostic(
                SourcePos(shown, 1, 1),
                f"cannot read {MANIFEST}: {problem}",
                hint="save it as UTF-8 text that your user can read",
            )
        ]
    doc, errors = _manifest_mapping(text, shown)
    if doc is None:
        return None, errors
    values = doc.values
    origin = SourcePos(shown, 1, 1)
    for key in values:
        if key not in _COURSE_FIELDS:
            errors.append(
                Diagnostic(
                    doc.key_pos.get(key, origin),
                    f"unknown course field {key!r}",
                    hint=did_you_mean(
                        str(key), _COURSE_FIELDS, "fields: " + ", ".join(_COURSE_FIELDS)
                    ),
                )
            )
    title = values.get("title")
    lang = values.get("lang")
    if not isinstance(title, str) or not title.strip():
        errors.append(
            Diagnostic(
                doc.key_pos.get("title", origin),
                "the course needs a `title`",
                hint="add `title: Math for AI` (your course's name)",
            )
        )
    if not isinstance(lang, str) or not supported(lang):
        errors.append(
            Diagnostic(
                doc.key_pos.get("lang", origin),
                f"the course needs a `lang` among {', '.join(LANGUAGES)}",
                hint="the language of the course page, e.g. `lang: es`",
            )
        )
    raw_lessons = values.get("lessons")
    if not isinstance(raw_lessons, list) or not raw_lessons:
        errors.append(
            Diagnostic(
                doc.key_pos.get("lessons", origin),
                "the course needs a `lessons` list",
                hint="list them in order: `- number: 1` with `file:` or `title:` and `summary:`",
            )
        )
        return None, errors
    macros = read_macros(values.get("macros"), doc.key_pos.get("macros", origin), errors)
    entries: list[tuple[CourseEntry, SourcePos]] = []
    for index, raw in enumerate(raw_lessons, start=1):
        pos = doc.item("lessons", index - 1, origin)
        entry = _entry(src, raw, index, pos, errors, read)
        if entry is not None:
            entries.append((_with_course_macros(entry, macros, errors), pos))
    _check_order(entries, errors)
    if not isinstance(title, str) or not isinstance(lang, str) or not title.strip():
        return None, errors
    description = values.get("description")
    course = Course(
        title=title.strip(),
        lang=lang,
        description=description.strip() if isinstance(description, str) else "",
        root=src,
        entries=tuple(entry for entry, _ in entries),
    )
    course = with_translations(course, values, doc.key_pos, read, macros, errors)
    return course, errors


_MANIFESTS: dict[tuple[str, str], YamlDoc] = {}


def _manifest_mapping(text: str, shown: str) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """:func:`load_mapping` of ``course.yaml``; the last clean one is kept (read-only), so a
    server's rebuilds after a lesson was saved do not parse the manifest again."""
    kept = _MANIFESTS.get((text, shown))
    if kept is not None:
        return kept, []
    doc, errors = load_mapping(text, SourcePos(shown, 1, 1), MANIFEST)
    if doc is not None and not errors:
        _MANIFESTS.clear()
        _MANIFESTS[(text, shown)] = doc
    return doc, errors


def _entry(
    root: Path,
    raw: Any,
    index: int,
    pos: SourcePos,
    errors: list[Diagnostic],
    read: LessonReader,
) -> CourseEntry | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("number"), int):
        errors.append(Diagnostic(pos, f"lesson entry {index} needs a `number`", hint="- number: 8"))
        return None
    number = int(raw["number"])
    unknown = set(raw) - {"number", "file", "title", "summary", "doc", "labels"}
    if unknown:
        errors.append(
            Diagnostic(
                pos,
                f"lesson entry {number}: unknown field(s) {', '.join(sorted(unknown))}",
                hint="an entry has `number` and either `file` or `title` and `summary`",
            )
        )
    file = raw.get("file")
    if file is None:
        title, summary = raw.get("title"), raw.get("summary")
        if not isinstance(title, str) or not isinstance(summary, str):
            errors.append(
                Diagnostic(
                    pos,
                    f"upcoming lesson {number} needs a `title` and a `summary`",
                    hint="or give its `file` to publish it",
                )
            )
            return None
        doc = raw.get("doc", "")
        if not isinstance(doc, str) or not re.match(r"^[\w.-]{0,100}$", doc):
            errors.append(
                Diagnostic(
                    pos,
                    f"upcoming lesson {number}: `doc` must be a file name without .md",
                    hint="the name {doc} references will use, e.g. `doc: markov_chains_II`",
                )
            )
            doc = ""
        labels = raw.get("labels", [])
        if not isinstance(labels, list) or not all(
            isinstance(label, str) and _LABEL.match(label) for label in labels[:MAX_LABELS]
        ):
            errors.append(
                Diagnostic(
                    pos,
                    f"upcoming lesson {number}: `labels` must be a list of labels",
                    hint="the labels its lecture defines, e.g. `labels: [ergodicity]`",
                )
            )
            labels = []
        labels = labels[:MAX_LABELS]
        return CourseEntry(number, title.strip(), summary.strip(), None, doc, tuple(labels))
    problem = _file_problem(root, file)
    if problem is not None:
        message, hint = problem
        errors.append(Diagnostic(pos, f"lesson {number}: {message}", hint=hint))
        return None
    path = root / str(file)
    lesson, lesson_errors = read(path, root)
    errors.extend(lesson_errors)
    stem = Path(str(file)).stem
    if lesson is None:
        # Its errors are reported; the course keeps its place, so the other lessons'
        # {lesson} and {doc} references to it do not fail as well.
        return CourseEntry(number, str(raw.get("title") or stem), "", None, stem)
    if lesson.incomplete:
        title = str(raw.get("title") or stem)
        lesson = replace(lesson, number=number, title=title)
        return CourseEntry(number, title, "", lesson)
    if lesson.number != number:
        errors.append(
            Diagnostic(
                SourcePos(lesson.display_path, 1, 1),
                f"this file says it is lesson {lesson.number}, but {MANIFEST} lists it as {number}",
                hint="make the front matter `lesson:` and the course entry agree",
            )
        )
    return CourseEntry(number, lesson.title, lesson.summary, lesson)


def _file_problem(root: Path, file: object) -> tuple[str, str] | None:
    """Why a lesson's ``file`` cannot be read as a lesson of the course (message, hint)."""
    if not isinstance(file, str) or Path(file).is_absolute() or ".." in Path(file).parts:
        return (
            "`file` must be a path inside the course",
            "write it relative to course.yaml, e.g. `lessons/07-potencias.md`",
        )
    path = root / file
    if not path.is_file():
        return (
            f"no such file {file!r}",
            "the path is relative to course.yaml; check its spelling",
        )
    if not inside(root, path):
        return (
            f"{file!r} leads outside the course folder (to {path.resolve()})",
            "copy the lesson into the course folder instead of linking to it",
        )
    return None


def lesson_files(src: Path) -> list[Path]:
    """The lesson files the manifest of the course folder ``src`` names, in its order,
    that :func:`load_course` would parse (none when ``src`` is a lesson file)."""
    try:
        text = (src / MANIFEST).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return []
    doc, _ = _manifest_mapping(text, display_path(src / MANIFEST))
    listed = doc.values.get("lessons") if doc is not None else None
    raws = listed if isinstance(listed, list) else []
    files = [raw.get("file") for raw in raws if isinstance(raw, dict)]
    return [src / f for f in files if isinstance(f, str) and _file_problem(src, f) is None]


def _with_course_macros(
    entry: CourseEntry, macros: dict[str, str], errors: list[Diagnostic]
) -> CourseEntry:
    """The entry whose lesson also knows the course's macros (its own win)."""
    if entry.lesson is None or not macros:
        return entry
    at = SourcePos(entry.lesson.display_path, 1, 1)
    both, found = merged(macros, dict(entry.lesson.macros), at)
    errors.extend(found)
    return replace(entry, lesson=replace(entry.lesson, macros=both))


def _check_order(entries: list[tuple[CourseEntry, SourcePos]], errors: list[Diagnostic]) -> None:
    seen: set[int] = set()
    previous = 0
    for entry, pos in entries:
        if entry.number in seen:
            errors.append(
                Diagnostic(
                    pos,
                    f"lesson number {entry.number} is used twice",
                    hint="every lesson needs its own number",
                )
            )
        elif entry.number < previous:
            errors.append(
                Diagnostic(
                    pos,
                    f"lesson {entry.number} is listed after lesson {previous}",
                    hint="list lessons in increasing order",
                )
            )
        seen.add(entry.number)
        previous = max(previous, entry.number)
    slugs: dict[str, int] = {}
    for entry, _ in entries:
        if entry.lesson is None:
            continue
        other = slugs.setdefault(entry.lesson.slug, entry.number)
        if other != entry.number:
            errors.append(
                Diagnostic(
                    SourcePos(entry.lesson.display_path, 1, 1),
                    f"lessons {other} and {entry.number} share the URL slug {entry.lesson.slug!r}",
                    hint="set `slug:` in one of their front matters",
                )
            )


def inside(root: Path, path: Path) -> bool:
    """True if ``path``, with every symlink resolved, lies in the folder ``root``.

    Sources, and anything a source refers to, must pass this: a symlink (or
    ``..``) to a file outside the course would publish that file.
    """
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        parts = ()
    if parts and ".." not in parts and _no_link_below(root, parts):
        return True  # ``root``'s own links resolve alike for both: ``path`` is in it
    return path.resolve().is_relative_to(root.resolve())


def _no_link_below(root: Path, parts: tuple[str, ...]) -> bool:
    """True if no step from ``root`` down ``parts`` is a symlink (all of them exist).

    One ``lstat`` a step, where resolving both paths took eight: a rebuild of 200
    lessons checks every lesson file, twice."""
    at = os.fspath(root)
    for part in parts:
        at = os.path.join(at, part)
        try:
            if stat.S_ISLNK(os.lstat(at).st_mode):
                return False
        except OSError:
            return False
    return True


def _single_lesson(path: Path, read: LessonReader) -> tuple[Course | None, list[Diagnostic]]:
    lesson, errors = read(path, None)
    if lesson is None:
        return None, errors
    entry = CourseEntry(lesson.number, lesson.title, lesson.summary, lesson)
    return Course(lesson.title, lesson.lang, lesson.summary, path.parent, (entry,)), errors
