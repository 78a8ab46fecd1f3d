"""State shared by the lowering rules of one lesson: positions, collected items, errors."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown_it.token import Token

from pizarra.base.errors import Diagnostic, Severity, SourcePos
from pizarra.source.answers.spec import AnswerSpec
from pizarra.source.blocks import (
    Block,
    Citation,
    Image,
    IndexEntry,
    LessonRef,
    MathItem,
    Ref,
    Section,
    Target,
)
from pizarra.source.syntax.inline_options import InlineOption


@dataclass(frozen=True)
class Directive:
    """A fenced directive as the lowering rules see it."""

    name: str
    """The name between braces: ``exercise``, ``code-cell``..."""
    argument: str
    """The text after the name on the fence line."""
    body: str
    """The raw body."""
    pos: SourcePos
    """The opening fence."""
    body_pos: SourcePos
    """The first line of the body."""
    token: Token
    """The fence token (its ``map`` gives the line range)."""
    gated: tuple[str, int] | None = None
    """For ``{x-start}`` ... ``{x-end}``: the text between them and its 0-based first line."""
    inline: tuple[InlineOption, ...] = ()
    """Options written in the braces, ``{tip .class key=value}``, read with the body's."""


@dataclass
class LowerContext:
    """What the lowering rules of one file share."""

    path: str
    """The file as shown in messages."""
    lines: list[str]
    """The source lines, for columns and fence checks."""
    lang: str
    """The lesson language."""
    parse_nested: Callable[[str, int, LowerContext], tuple[Block, ...]]
    """Parse a directive body that starts at a 0-based line into blocks."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    math: list[MathItem] = field(default_factory=list)
    lesson_refs: list[LessonRef] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    index_entries: list[IndexEntry] = field(default_factory=list)
    exercise_count: int = 0
    """Exercises numbered so far."""
    inside_exercise: bool = False
    """True while lowering an exercise's body (where a solution may appear)."""
    answers: list[AnswerSpec] = field(default_factory=list)
    """The answer fields of the exercise being lowered, in order."""
    depth: int = 0
    """How many directive bodies enclose the tokens being lowered."""
    substitutions: dict[str, str] = field(default_factory=dict)
    """The front matter's ``substitutions``: name -> Markdown."""
    data_files: list[Path] = field(default_factory=list)
    """Files the parse read besides the lesson (a ``{csv-table}``'s ``:file:``)."""
    in_tab_set: int = 0
    """How many ``{tab-set}`` bodies enclose them (a ``{tab-item}`` belongs in one)."""
    anchors: set[str] = field(default_factory=set)
    """Heading ids used so far in the page."""
    suffixes: dict[str, int] = field(default_factory=dict)
    """Per id base, the next ``-N`` to try (so repeated headings cost linear time)."""
    targets: dict[str, Target] = field(default_factory=dict)
    """Labelled places so far, by label."""
    equations: dict[str, Target] = field(default_factory=dict)
    """Labelled equations so far, by label (their own namespace, for ``{eq}``)."""
    refs: list[Ref] = field(default_factory=list)
    images: list[Image] = field(default_factory=list)
    """Markdown images of local files (``![alt](a.png)``), copied into the site."""
    local_files: bool = True
    """Whether Markdown images are looked for beside the lesson; off only where the
    markup is judged without its folder (the ecosystem's suites): they stay as written."""
    counters: dict[str, int] = field(default_factory=dict)
    """Numbers given so far per kind (``equation``, ``theorem``...)."""
    lesson_file: Path = Path("lesson.md")
    """The lesson file (images are found next to it)."""
    root: Path = Path(".")
    """The course folder: images must live inside it; ``/x.png`` starts here."""
    cell_timeout: float | None = None
    """Seconds a code cell may run unless it says (front matter ``cell_timeout``)."""
    parse_env: dict[str, Any] = field(default_factory=dict)
    """markdown-it's ``env`` for every parse of the file: it holds the parse budget."""

    def pos(self, line0: int, col0: int = 0) -> SourcePos:
        """The position of a 0-based line and column."""
        return SourcePos(self.path, line0 + 1, col0 + 1)

    def line_pos(self, line0: int) -> SourcePos:
        """The position of the first non-blank character of a 0-based line."""
        text = self.lines[line0] if 0 <= line0 < len(self.lines) else ""
        return self.pos(line0, len(text) - len(text.lstrip()))

    def error(self, pos: SourcePos, message: str, hint: str = "", detail: str = "") -> None:
        self.diagnostics.append(Diagnostic(pos, message, hint, detail))

    def warn(self, pos: SourcePos, message: str, hint: str = "") -> None:
        self.diagnostics.append(Diagnostic(pos, message, hint, severity=Severity.WARNING))

    def next_number(self, kind: str) -> int:
        """The next number of ``kind`` (1, 2, ...)."""
        self.counters[kind] = self.counters.get(kind, 0) + 1
        return self.counters[kind]

    def add_target(
        self,
        label: str,
        kind: str,
        number: int | None,
        title: str,
        pos: SourcePos,
        anchor: str = "",
    ) -> str:
        """Register ``label`` and return the element's id; a label used twice is an error.

        ``anchor`` is the id when the block already has one (an exercise's ``pregunta-N``).
        Equations have labels of their own, as in Sphinx's math domain. A ``(label)=``
        right before a directive that declares the same label is the same target.
        """
        label = label.strip()
        table = self.equations if kind == "equation" else self.targets
        anchor = anchor or self.unique_anchor(label)
        first = table.get(label)
        if first is not None and first.kind == "target" and not first.title and kind != "target":
            table[label] = Target(label, kind, number, title, first.anchor, first.pos)
            return anchor
        if first is not None:
            self.error(
                pos,
                f"label {label!r} is already used at line {first.pos.line}",
                hint="give each target its own label",
            )
            return anchor
        table[label] = Target(label, kind, number, title, anchor, pos)
        return anchor

    def adopt(self, label: str, kind: str, number: int | None, title: str) -> None:
        """A ``(label)=`` right before a block names that block (a theorem, an exercise)."""
        first = self.targets.get(label)
        if first is not None and first.kind == "target" and not first.title:
            self.targets[label] = Target(label, kind, number, title, first.anchor, first.pos)

    def unique_anchor(self, text: str) -> str:
        """An ASCII id for ``text``, unique in the page (``-2``, ``-3`` on repeats) and
        never one of the page template's own ids."""
        base = slugify(text) or "seccion"
        anchor, n = base, self.suffixes.get(base, 2)
        while anchor in self.anchors or template_id(anchor):
            anchor, n = f"{base}-{n}", n + 1
        self.suffixes[base] = n
        self.anchors.add(anchor)
        return anchor


TEMPLATE_IDS = frozenset(
    {"contenido", "fuentes", "nav-lecciones", "nav-pagina", "lecciones", "proximamente"}
    | {"afirmaciones", "celdas", "referencias"}
    | {"content", "sources", "nav-lessons", "nav-page", "lessons", "upcoming"}
    | {"claims", "cells", "references"}
)
"""Ids the page templates give their own elements (main, sources, navigation...), in
every interface language (``id_*`` in :mod:`pizarra.base.i18n.strings`)."""
_TEMPLATE_ID = re.compile(r"(?:fuente|pregunta|leccion|source|question|lesson)-\d+")


def template_id(anchor: str) -> bool:
    """True if a page template may use ``anchor`` itself (``contenido``, ``fuente-3``)."""
    return anchor in TEMPLATE_IDS or _TEMPLATE_ID.fullmatch(anchor) is not None


def slugify(text: str) -> str:
    """Lower-case ASCII words joined by ``-``: accents dropped so URLs stay readable."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
