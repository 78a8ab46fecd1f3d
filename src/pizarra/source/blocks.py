"""The blocks of a parsed lesson: typed, frozen values, each with its source position.

Prose keeps markdown-it's tokens (the renderer already knows how to print them);
everything a check must reason about (math, code cells, references, citations,
exercises, explorers) is lifted into its own dataclass.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from markdown_it.token import Token

from pizarra.base.errors import SourcePos
from pizarra.source.container import Container

if TYPE_CHECKING:
    from pizarra.source.answers.spec import AnswerSpec
    from pizarra.source.code_lines import CodeLines
    from pizarra.source.explorers.spec import ExplorerSpec


@dataclass(frozen=True)
class MathItem:
    """One formula, inline (``$...$``) or display (``$$...$$``)."""

    tex: str
    """The TeX between the delimiters, unchanged."""
    display: bool
    """True for display math."""
    pos: SourcePos
    """Where the opening delimiter is."""


@dataclass(frozen=True)
class LessonRef:
    """A ``{lesson}`N``` role."""

    number: int
    """The lesson number referred to."""
    pos: SourcePos
    """Where the role starts."""


@dataclass(frozen=True)
class Citation:
    """A ``{cite}`key``` role."""

    key: str
    """The id of a source in the front matter's ``sources`` list."""
    pos: SourcePos
    """Where the role starts."""


@dataclass(frozen=True)
class Target:
    """Something a reference can point to: a ``(label)=``, a labelled equation, theorem..."""

    label: str
    """The author's name for it (``eq:euler``, ``la_neumann``)."""
    kind: str
    """``section``, ``target``, ``equation``, ``exercise``, ``figure`` or a ``prf`` kind."""
    number: int | None
    """Its number when numbered (equations, exercises, theorems...)."""
    title: str
    """The text a reference without its own text shows ("" when there is none)."""
    anchor: str
    """The element id in the page."""
    pos: SourcePos
    """Where it is declared."""


@dataclass(frozen=True)
class IndexEntry:
    """One entry of the course's index, from an ``{index}`` directive or role."""

    term: str
    """The term it is filed under, as written."""
    subterm: str
    """The second level ("" for none): ``Vectors`` in ``single: Linear Algebra; Vectors``."""
    anchor: str
    """The id of its place in the lesson page ("" for a ``see`` entry)."""
    pos: SourcePos
    """Where it is declared."""
    main: bool = False
    """Marked with ``!``: the main place for the term."""
    see: str = ""
    """For ``see`` and ``seealso`` entries: the term the reader is sent to."""
    see_also: bool = False
    """True for ``seealso`` (the term has places of its own too)."""


@dataclass(frozen=True)
class Ref:
    """A reference: ``{ref}``, ``{eq}``, ``{doc}``, ``{any}`` or a ``[text](label)`` link."""

    kind: str
    """``ref``, ``eq``, ``doc``, ``any`` or ``link``."""
    label: str
    """The target's label (or, for ``doc``, the lesson's file name)."""
    text: str
    """Explicit text (``{ref}`text <label>```), "" when none was given."""
    pos: SourcePos
    """Where the reference is."""


@dataclass(frozen=True)
class Source:
    """One entry of the lesson's numbered sources list."""

    key: str
    """The id used by ``{cite}``."""
    title: str
    """What the reader sees."""
    url: str
    """Where the source lives (http or https; "" for a bibliography entry without one)."""
    pos: SourcePos
    """Where it is declared in the front matter."""


@dataclass(frozen=True)
class Section:
    """A heading of the lesson, for the outline and for ``#anchor`` links."""

    level: int
    """2 for ``##``, 3 for ``###``... (the lesson title is the only level 1)."""
    title: str
    """Plain text of the heading."""
    anchor: str
    """The element id, unique in the page."""
    pos: SourcePos
    """Where the heading is."""


@dataclass(frozen=True)
class Prose:
    """A run of ordinary Markdown: paragraphs, headings, lists, tables, math."""

    tokens: tuple[Token, ...]
    """markdown-it block tokens, rendered by :mod:`pizarra.render.pages`."""
    pos: SourcePos
    """Where the run starts."""


@dataclass(frozen=True)
class Output:
    """The ``{output}`` block that states what a code cell prints."""

    text: str
    """Expected stdout, with a final newline."""
    pos: SourcePos
    """The opening fence."""
    start_line: int
    """0-based line of the opening fence (for ``--update-outputs``)."""
    end_line: int
    """0-based line just after the closing fence."""


@dataclass(frozen=True)
class Figure:
    """A figure a code cell drew, captured as SVG when the lesson ran."""

    svg: bytes
    """The SVG document, deterministic for the same code and library versions."""
    width: int
    """Its width in CSS pixels."""
    height: int
    """Its height in CSS pixels."""
    frame: int = 0
    """For a frame of an animation, its number (from 1) in the animation; else 0."""
    frames: int = 0
    """For a frame of an animation, how many frames the animation has; else 0."""

    @property
    def name(self) -> str:
        """The file name it is published under, next to its lesson's page."""
        return f"fig-{hashlib.sha256(self.svg).hexdigest()[:16]}.svg"


@dataclass(frozen=True)
class CodeCell:
    """A ``{code-cell} python`` block: code that the build runs, in order, in one kernel."""

    language: str
    """As written: ``python``, ``python3``, ``ipython3`` or ``ipython``."""
    code: str
    """The source, with a final newline."""
    pos: SourcePos
    """The opening fence."""
    code_line: int
    """1-based line of the first line of code (to map tracebacks)."""
    output: Output | None
    """The expected output block right after the cell, if any."""
    timeout: float = 30.0
    """Seconds the cell may run (``:timeout:`` option)."""
    fence_end_line: int = 0
    """0-based line just after the cell's closing fence (to insert an output)."""
    tags: frozenset[str] = frozenset()
    """Tags from ``:tags:`` or the YAML header, each one pizarra honours."""
    caption: str = ""
    """The caption of the figures the cell draws (``caption`` option)."""
    alt: str = ""
    """Their text alternative (``alt`` option); empty is a warning when a figure appears."""
    anchor: str = ""
    """The id of its figure, named by ``mystnb: {figure: {name}}`` ("" when none)."""
    number: int | None = None
    """Its figure's number in the lesson, when named (what ``{numref}`` shows)."""
    lines: CodeLines | None = None
    """How its lines are shown: numbered, some emphasised (None: plain)."""

    @property
    def runs(self) -> bool:
        """False for a ``skip-execution`` cell, whose output block is shown as written."""
        return "skip-execution" not in self.tags

    @property
    def nondeterministic(self) -> bool:
        """Its output is shown but never compared (``:nondeterministic:``)."""
        return "nondeterministic" in self.tags


@dataclass(frozen=True)
class Solution:
    """The step-by-step solution of an exercise; a disclosure on the page."""

    body: tuple[Block, ...]
    """Its content."""
    pos: SourcePos
    """The opening fence."""
    exercise: int = 0
    """The number of the exercise it solves, when it stands after it (0 when nested)."""


@dataclass(frozen=True)
class Exercise:
    """A numbered question, with its optional solution."""

    number: int
    """1, 2, ... in order of appearance in the lesson."""
    body: tuple[Block, ...]
    """The question."""
    solution: Solution | None
    """Shown on demand."""
    pos: SourcePos
    """The opening fence."""
    title: str = ""
    """Optional title given after the directive name."""
    answers: tuple[AnswerSpec, ...] = ()
    """Fields a learner answers in the page (``{answer}``), checked exactly."""


@dataclass(frozen=True)
class Note:
    """A ``{note}`` aside."""

    body: tuple[Block, ...]
    """Its content."""
    title: str
    """Optional title given after the directive name."""
    pos: SourcePos
    """The opening fence."""


@dataclass(frozen=True)
class Admonition:
    """A titled aside of a kind: ``tip``, ``warning``, ``important``... or a generic one."""

    kind: str
    """The directive name (``admonition`` for the generic one)."""
    title: str
    """The title given after the name ("" for the kind's own name)."""
    body: tuple[Block, ...]
    """Its content."""
    pos: SourcePos
    """The opening fence."""
    dropdown: bool = False
    """``:class: dropdown``: shown closed, as a disclosure the reader opens."""


@dataclass(frozen=True)
class Proof:
    """A ``{prf:theorem}``, ``{prf:lemma}``... or ``{prf:proof}`` block."""

    kind: str
    """``theorem``, ``lemma``, ``definition``, ``proof``..."""
    number: int | None
    """Numbered per kind in the lesson; None for proofs and ``:nonumber:``."""
    title: str
    """The title after the directive name ("" when none)."""
    anchor: str
    """The element id (from ``:label:``, or generated)."""
    body: tuple[Block, ...]
    """Its content."""
    pos: SourcePos
    """The opening fence."""


@dataclass(frozen=True)
class Equation:
    """A display formula from ``{math}``, numbered when it has a ``:label:``."""

    tex: str
    """The TeX of the body."""
    number: int | None
    """Its equation number (None without a label)."""
    anchor: str
    """The element id ("" without a label)."""
    pos: SourcePos
    """The opening fence."""


@dataclass(frozen=True)
class Image:
    """An ``{image}`` or ``{figure}``: a file of the course, copied into the site."""

    file: Path
    """The image file on disk (inside the course folder)."""
    site_path: str
    """Where the build writes it, relative to the site root."""
    alt: str
    """Alternative text (``:alt:``)."""
    caption: tuple[Block, ...]
    """The figure's caption (empty for an image)."""
    anchor: str
    """The element id from ``:name:`` ("" when none)."""
    width: str
    """A CSS width from ``:width:`` such as ``80%`` or ``300px`` ("" when none)."""
    pos: SourcePos
    """The opening fence."""
    number: int | None = None
    """A figure's number in the lesson (None for an image)."""


@dataclass(frozen=True)
class Epigraph:
    """An ``{epigraph}``: a quotation that opens a lesson or section."""

    body: tuple[Block, ...]
    """The quotation (and its attribution)."""
    pos: SourcePos
    """The opening fence."""


@dataclass(frozen=True)
class Explorer:
    """An interactive explorer, declared in YAML and rendered on the server."""

    kind: str
    """Which explorer module draws it (``growth``...)."""
    spec: ExplorerSpec
    """The validated declaration."""
    pos: SourcePos
    """The opening fence."""


Block: TypeAlias = (
    Prose
    | CodeCell
    | Exercise
    | Solution
    | Note
    | Explorer
    | Admonition
    | Proof
    | Equation
    | Image
    | Epigraph
    | Container
)


def walk(blocks: tuple[Block, ...]) -> Iterator[Block]:
    """Depth-first over blocks, entering exercises, solutions and notes."""
    for block in blocks:
        yield block
        if isinstance(block, Exercise):
            yield from walk(block.body)
            if block.solution is not None:
                yield from walk(block.solution.body)
        elif isinstance(block, Note | Admonition | Proof | Epigraph | Solution | Container):
            yield from walk(block.body)
        elif isinstance(block, Image):
            yield from walk(block.caption)
