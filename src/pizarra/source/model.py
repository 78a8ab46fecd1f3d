"""The parsed course: its lessons and their entries, typed, frozen values that every later
stage reads. A lesson's blocks are in :mod:`pizarra.source.blocks`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pizarra.source.blocks import (
    Block,
    Citation,
    CodeCell,
    Exercise,
    Explorer,
    Image,
    IndexEntry,
    LessonRef,
    MathItem,
    Ref,
    Section,
    Source,
    Target,
    walk,
)

if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class Lesson:
    """One lesson, parsed and validated for syntax; checks read it, render prints it."""

    path: Path
    """The source file."""
    display_path: str
    """The path used in messages."""
    number: int
    """Its number in the course."""
    title: str
    """From the front matter."""
    lang: str
    """BCP 47 language tag (``es``, ``en``)."""
    summary: str
    """One or two sentences for the course page."""
    slug: str
    """The URL segment of the lesson page."""
    blocks: tuple[Block, ...]
    """The body in order."""
    sources: tuple[Source, ...] = ()
    """The numbered sources list."""
    math: tuple[MathItem, ...] = ()
    """Every formula, in order."""
    lesson_refs: tuple[LessonRef, ...] = ()
    """Every ``{lesson}`` role."""
    citations: tuple[Citation, ...] = ()
    """Every ``{cite}`` role."""
    targets: tuple[Target, ...] = ()
    """Every labelled place references can point to."""
    refs: tuple[Ref, ...] = ()
    """Every ``{ref}``, ``{eq}``, ``{doc}`` and ``[text](label)`` reference."""
    sections: tuple[Section, ...] = ()
    """Every heading below the title."""
    index: tuple[IndexEntry, ...] = ()
    """Every ``{index}`` entry, in order."""
    conventions: Mapping[str, str] = field(default_factory=dict)
    """Front matter ``conventions`` (e.g. ``zero_to_the_zero: "1"``)."""
    variables: Mapping[str, str] = field(default_factory=dict)
    """Front matter ``variables``: letter -> domain (``positive``...), for symbolic checks."""
    functions: Mapping[str, str] = field(default_factory=dict)
    """Front matter ``functions``: name (``g`` or ``g(x)``) -> TeX definition, for claims."""
    source_text: str = ""
    """The whole file, for tools that rewrite it."""
    strict_claims: bool = False
    """Front matter ``strict_claims``: a statement pizarra cannot decide is an error."""
    macros: Mapping[str, str] = field(default_factory=dict)
    """TeX macros for its formulas: the course's, then the front matter's (name -> TeX)."""
    bibliography: tuple[Path, ...] = ()
    """The BibTeX files its front matter names (inputs of the build, like its images)."""
    data_files: tuple[Path, ...] = ()
    """Other files its parse read (a ``{csv-table}``'s ``:file:``): inputs of the build."""
    kernel_memory: int | None = None
    """Front matter ``kernel_memory``: MiB its kernel may allocate (None: the default)."""
    original: str = ""
    """Front matter ``original``: the lesson file this one translates (empty: an original)."""
    original_digest: str = ""
    """Front matter ``original_digest``: the version of the original it follows."""
    original_blocks: tuple[str, ...] = ()
    """Front matter ``original_blocks``: digests of the original's paragraphs then."""
    original_synced: str = ""
    """Front matter ``original_synced``: the day (ISO date) it was last in step."""

    pin_outputs: bool = False
    """Front matter ``pin_outputs``: every printed output needs an ``{output}`` block."""
    incomplete: bool = False
    """Its front matter has errors (reported): it is checked for the rest, never published,
    and its number and title are the course's."""
    inline_images: tuple[Image, ...] = ()
    """Markdown images of local files (``![alt](a.png)``), copied like ``{image}``."""

    def read_files(self) -> tuple[Path, ...]:
        """Every file besides itself and its images that its parse read: a change to one
        must be seen as a change to the lesson."""
        return (*self.bibliography, *self.data_files)

    def code_cells(self) -> Iterator[CodeCell]:
        """Every code cell, including those inside exercises and notes."""
        yield from (b for b in walk(self.blocks) if isinstance(b, CodeCell))

    def explorers(self) -> Iterator[Explorer]:
        yield from (b for b in walk(self.blocks) if isinstance(b, Explorer))

    def exercises(self) -> Iterator[Exercise]:
        yield from (b for b in walk(self.blocks) if isinstance(b, Exercise))

    def images(self) -> tuple[Image, ...]:
        """Every ``{image}``, ``{figure}`` and Markdown image of a file (their files are
        copied into the site).

        Found once per lesson object: a build asks three times (the lesson's key, the
        site's inputs, the files it copies), and a server asks again at every rebuild of
        lessons it holds unchanged; walking 200 bodies took a quarter of a rebuild."""
        found = self.__dict__.get("_images")
        if found is None:
            found = (*(b for b in walk(self.blocks) if isinstance(b, Image)), *self.inline_images)
            object.__setattr__(self, "_images", found)  # frozen, and the same body for good
        return found


@dataclass(frozen=True)
class CourseEntry:
    """A lesson in the course's order: published (with its source) or upcoming."""

    number: int
    """Its number."""
    title: str
    """Title shown on the course page."""
    summary: str
    """Summary shown on the course page."""
    lesson: Lesson | None
    """The parsed lesson when published; None when upcoming."""
    doc: str = ""
    """An upcoming lesson's file name, so ``{doc}`` can point to it before it is published."""
    labels: tuple[str, ...] = ()
    """Labels an upcoming lesson will define, so ``{ref}`` can point to it already."""

    @property
    def published(self) -> bool:
        return self.lesson is not None


@dataclass(frozen=True)
class Alternate:
    """One edition of a course, as the pages of the others see it."""

    lang: str
    """Its language."""
    site_dir: str
    """Its folder in the site (empty for the original)."""
    slugs: Mapping[int, str]
    """Lesson number -> slug, for the lessons it has."""


@dataclass(frozen=True)
class Course:
    """The whole course, lessons in order."""

    title: str
    """Course title."""
    lang: str
    """Language of the course UI."""
    description: str
    """Shown under the title on the course page."""
    root: Path
    """The folder of the course (or of the single lesson file)."""
    entries: tuple[CourseEntry, ...]
    """Lessons in order of their numbers."""
    site_dir: str = ""
    """The folder of this edition in the site: empty for the original, ``en/`` for a
    translation (:mod:`pizarra.source.translations`)."""
    editions: tuple[Course, ...] = ()
    """The original's translated editions, in the order ``languages`` lists them."""
    alternates: tuple[Alternate, ...] = ()
    """Every edition's language, folder and lesson slugs (the original's first), so each
    page can link to itself in the other languages."""
    url: str = ""
    """Where the site is published (``https://host/sub/``), from ``course.yaml``: what the
    sitemap's absolute URLs start with; empty when not declared."""
    behind: Mapping[int, str] = field(default_factory=dict)
    """A translation's lessons whose original changed since ``original_digest``: number ->
    the original's current digest."""

    def entry(self, number: int) -> CourseEntry | None:
        return next((e for e in self.entries if e.number == number), None)

    def lessons(self) -> Iterator[Lesson]:
        yield from (e.lesson for e in self.entries if e.lesson is not None)
