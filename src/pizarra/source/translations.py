"""A course in several languages: ``languages`` and ``translations`` in ``course.yaml``,
and the translation files that name their originals -> one :class:`Course` per edition.

The first language ``languages`` lists is the original's (the course's ``lang``). A
translation of a lesson lives in the folder named by its language (``en/``), anywhere
below it, and its front matter names the file it translates (``original:``, a path from
the translation). The site has one tree per language: the original at the top, each
translation in its folder (``en/``), each with its own course page, assets and search.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from pizarra.base.errors import Diagnostic, SourcePos, display_path
from pizarra.base.i18n.strings import LANGUAGES, supported
from pizarra.source.lesson_file import LessonReader
from pizarra.source.model import Alternate, Course, CourseEntry, Lesson
from pizarra.source.syntax.macros import merged

_URL = re.compile(r"^https?://[^\s<>\"'&]{1,500}/$")

MAX_TRANSLATIONS = 1000
"""Translation files a language's folder may hold (each is read and verified)."""

TRANSLATION_FIELDS = ("languages", "translations", "url")
"""The fields of ``course.yaml`` read here."""

RESERVED = ("assets", "pagefind")
"""Folders of the site a language's folder may not be called."""


def source_digest(text: str) -> str:
    """The version of a lesson file's text, as a translation records it."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def paragraphs(text: str) -> list[tuple[int, str]]:
    """The file's paragraphs (runs of non-blank lines) with the number of their first line."""
    found: list[tuple[int, str]] = []
    run: list[str] = []
    first = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            if not run:
                first = number
            run.append(line.rstrip())
        elif run:
            found.append((first, "\n".join(run)))
            run = []
    if run:
        found.append((first, "\n".join(run)))
    return found


def block_digest(paragraph: str) -> str:
    """The short digest of one paragraph (``original_blocks`` lists them)."""
    return hashlib.sha256(paragraph.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def changed_paragraphs(original: Lesson, recorded: tuple[str, ...]) -> list[int]:
    """The first lines of the original's paragraphs that are not as they were when the
    translation recorded ``recorded`` (new or changed since)."""
    known = set(recorded)
    return [
        line for line, text in paragraphs(original.source_text) if block_digest(text) not in known
    ]


def with_translations(
    course: Course,
    values: dict[str, Any],
    key_pos: dict[str, SourcePos],
    read: LessonReader,
    macros: dict[str, str],
    errors: list[Diagnostic],
) -> Course:
    """``course`` with its translated editions (``languages`` beyond its own ``lang``)."""
    origin = SourcePos(display_path(course.root / "course.yaml"), 1, 1)
    course = replace(course, url=_site_url(values, key_pos.get("url", origin), errors))
    languages = _languages(values, course.lang, key_pos.get("languages", origin), errors)
    texts = values.get("translations", {})
    at = key_pos.get("translations", origin)
    if not isinstance(texts, dict) or set(texts) - set(languages[1:]):
        errors.append(
            Diagnostic(
                at,
                "`translations` must map each translated language to its course texts",
                hint="e.g. `translations: {en: {title: ..., description: ...}}`, for a "
                "language `languages` lists after the first",
            )
        )
        texts = {}
    if len(languages) < 2:
        return course
    by_path = {e.lesson.path.resolve(): e.lesson for e in course.entries if e.lesson is not None}
    editions = []
    for lang in languages[1:]:
        lessons = _translations_of(course.root, lang, by_path, read, macros, errors)
        editions.append(_edition(course, lang, texts.get(lang, {}), lessons, at, errors))
    alternates = tuple(
        Alternate(ed.lang, ed.site_dir, {e.number: e.lesson.slug for e in ed.entries if e.lesson})
        for ed in (course, *editions)
    )
    _check_slugs(course, languages, errors)
    editions = [replace(ed, alternates=alternates) for ed in editions]
    return replace(course, editions=tuple(editions), alternates=alternates)


def _site_url(values: dict[str, Any], pos: SourcePos, errors: list[Diagnostic]) -> str:
    """``url``: where the site is published, for the sitemap's absolute URLs."""
    url = values.get("url", "")
    if url == "":
        return ""
    if not isinstance(url, str) or not _URL.match(url):
        errors.append(
            Diagnostic(
                pos,
                "`url` must be the site's address, http(s) and ending with /",
                hint="e.g. `url: https://example.org/math-for-ai/` (for the sitemap)",
            )
        )
        return ""
    return url


def _languages(
    values: dict[str, Any], lang: str, pos: SourcePos, errors: list[Diagnostic]
) -> list[str]:
    raw = values.get("languages")
    if raw is None:
        return [lang]
    if (
        not isinstance(raw, list)
        or not raw
        or not all(isinstance(x, str) and supported(x) for x in raw)
        or len(set(raw)) != len(raw)
        or raw[0] != lang
    ):
        errors.append(
            Diagnostic(
                pos,
                f"`languages` must list different languages among {', '.join(LANGUAGES)}, "
                "the course's `lang` first",
                hint=f"e.g. `languages: [{lang}, {'en' if lang != 'en' else 'es'}]`: the "
                "original first, then its translations",
            )
        )
        return [lang]
    return list(raw)


def _translations_of(
    root: Path,
    lang: str,
    originals: dict[Path, Lesson],
    read: LessonReader,
    macros: dict[str, str],
    errors: list[Diagnostic],
) -> dict[int, Lesson]:
    """The translations in ``root/lang/``, by the number of the lesson they translate."""
    folder = root / lang
    files = sorted(folder.rglob("*.md"))[: MAX_TRANSLATIONS + 1] if folder.is_dir() else []
    if len(files) > MAX_TRANSLATIONS:
        errors.append(
            Diagnostic(
                SourcePos(display_path(folder), 1, 1),
                f"more than {MAX_TRANSLATIONS} lesson files in the `{lang}` folder",
                hint="a folder per language holds that language's lesson files only",
            )
        )
        files = files[:MAX_TRANSLATIONS]
    found: dict[int, Lesson] = {}
    for path in files:
        if not path.resolve().is_relative_to(root.resolve()):
            continue
        lesson, lesson_errors = read(path, root)
        errors.extend(lesson_errors)
        if lesson is None:
            continue
        translated = _checked(lesson, lang, originals, errors)
        if translated is None:
            continue
        if translated.number in found:
            errors.append(
                Diagnostic(
                    SourcePos(lesson.display_path, 1, 1),
                    f"a second `{lang}` translation of lesson {translated.number} "
                    f"(the first is {found[translated.number].display_path})",
                    hint="keep one translation per lesson and language",
                )
            )
            continue
        if macros:
            both, more = merged(
                macros, dict(translated.macros), SourcePos(lesson.display_path, 1, 1)
            )
            errors.extend(more)
            translated = replace(translated, macros=both)
        found[translated.number] = translated
    return found


def _checked(
    lesson: Lesson, lang: str, originals: dict[Path, Lesson], errors: list[Diagnostic]
) -> Lesson | None:
    """``lesson`` if it is a translation into ``lang`` of one of ``originals``."""
    at = SourcePos(lesson.display_path, 1, 1)
    if not lesson.original:
        errors.append(
            Diagnostic(
                at,
                f"a lesson in the `{lang}` folder that names no original",
                hint="add `original: ../lessons/07-....md` (the file it translates) to its "
                "front matter",
            )
        )
        return None
    original = originals.get((lesson.path.parent / lesson.original).resolve())
    if original is None:
        errors.append(
            Diagnostic(
                at,
                f"its original {lesson.original!r} is not a published lesson of the course",
                hint="the path goes from this file to a lesson file course.yaml lists",
            )
        )
        return None
    problems = []
    if lesson.lang != lang:
        problems.append(
            (
                f"its `lang` is {lesson.lang!r}, but it is in the `{lang}` folder",
                f"write `lang: {lang}`",
            )
        )
    if lesson.number != original.number:
        problems.append(
            (
                f"it says it is lesson {lesson.number}, its original lesson {original.number}",
                f"write `lesson: {original.number}`",
            )
        )
    for message, hint in problems:
        errors.append(Diagnostic(at, message, hint=hint))
    return None if problems else lesson


def _edition(
    course: Course,
    lang: str,
    texts: Any,
    lessons: dict[int, Lesson],
    at: SourcePos,
    errors: list[Diagnostic],
) -> Course:
    """The edition of ``course`` in ``lang``: its translated lessons, and the others as
    upcoming, with the titles ``translations.<lang>.upcoming`` gives them."""
    texts = texts if isinstance(texts, dict) else {}
    upcoming = texts.get("upcoming", {})
    if not isinstance(upcoming, dict) or not all(
        isinstance(k, int) and isinstance(v, dict) for k, v in upcoming.items()
    ):
        errors.append(
            Diagnostic(
                at,
                f"`translations.{lang}.upcoming` must map lesson numbers to a title and summary",
                hint="e.g. `upcoming: {9: {title: ..., summary: ...}}`",
            )
        )
        upcoming = {}
    entries = []
    for entry in course.entries:
        lesson = lessons.get(entry.number)
        if lesson is not None:
            entries.append(CourseEntry(entry.number, lesson.title, lesson.summary, lesson))
            continue
        given = upcoming.get(entry.number, {})
        title = given.get("title", entry.title)
        summary = given.get("summary", entry.summary)
        entries.append(
            CourseEntry(entry.number, str(title), str(summary), None, entry.doc, entry.labels)
        )
    originals = {e.number: e.lesson for e in course.entries if e.lesson is not None}
    behind = {
        n: source_digest(originals[n].source_text)
        for n, lesson in lessons.items()
        if lesson.original_digest != source_digest(originals[n].source_text)
    }
    title = texts.get("title", course.title)
    description = texts.get("description", course.description)
    return Course(
        title=str(title).strip(),
        lang=lang,
        description=str(description).strip(),
        root=course.root,
        entries=tuple(entries),
        site_dir=f"{lang}/",
        behind=behind,
    )


def _check_slugs(course: Course, languages: list[str], errors: list[Diagnostic]) -> None:
    """An original's slug may not take the folder of a language, or of the site's files."""
    for lesson in course.lessons():
        if lesson.slug in (*languages[1:], *RESERVED):
            errors.append(
                Diagnostic(
                    SourcePos(lesson.display_path, 1, 1),
                    f"its URL slug {lesson.slug!r} is the folder of a language or of the site",
                    hint="set another `slug:` in its front matter",
                )
            )
