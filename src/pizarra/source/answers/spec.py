"""What an ``{answer}`` declares, as read at parse time: typed, frozen, with positions.

The values stay as the author wrote them, in the syntax a learner types (``1/16``,
``0,0625``, ``x^(-2)``): deciding what they mean is the check's job
(:mod:`pizarra.check.answers`), which reports a bad value at its line.
"""

from __future__ import annotations

from dataclasses import dataclass

from pizarra.base.errors import SourcePos

KINDS = ("number", "expression", "choice", "set", "list", "interval")
"""The answer types, in the order the documentation lists them."""

VERDICTS = ("correct", "incorrect", "unchecked", "unread")
"""What the checker may answer: right, wrong, "cannot check this form", "cannot read it"."""


@dataclass(frozen=True)
class Located:
    """A text of the declaration and where it is."""

    text: str
    """As written (surrounding blanks removed)."""
    pos: SourcePos
    """Its line and column in the lesson file."""


@dataclass(frozen=True)
class Mistake:
    """An anticipated wrong answer and what to tell the learner who gives it."""

    answer: tuple[Located, ...]
    """The wrong value (items for a set or list, option ids for a choice)."""
    feedback: str
    """Shown after "Not correct"."""
    pos: SourcePos
    """The list item."""


@dataclass(frozen=True)
class Option:
    """One option of a choice."""

    id: str
    """What ``value`` and ``mistakes`` name it by."""
    text: str
    """What the learner reads (may hold ``$...$`` math)."""
    pos: SourcePos
    """The list item."""


@dataclass(frozen=True)
class QuestionTest:
    """A typed input and the verdict the author expects: run by ``pizarra check``."""

    input: str
    """What a learner would type (option ids, comma-separated, for a choice)."""
    verdict: str
    """One of :data:`VERDICTS`."""
    feedback: str | None
    """The feedback expected after the verdict (None: not compared)."""
    pos: SourcePos
    """The list item: a disagreement is reported here."""


@dataclass(frozen=True)
class AnswerSpec:
    """One answer field of an exercise."""

    kind: str
    """One of :data:`KINDS`."""
    label: str
    """The field's accessible label (may hold ``$...$`` math)."""
    value: tuple[Located, ...]
    """The correct answer: one text, or the items of a set or list, or option ids."""
    pos: SourcePos
    """The opening fence."""
    number: int = 1
    """1, 2, ... within its exercise."""
    approx: bool = False
    """A number stated to its last written digit, judged as ``\\approx`` is."""
    form: tuple[Located, ...] = ()
    """Form requirements on top of the value (``evaluated``, ``no-negative-exponents``...)."""
    letters: tuple[str, ...] = ()
    """The letters an expression may use (and the unknown of ``x = 7``)."""
    where: tuple[Located, ...] = ()
    """The question's domain, one condition a line (``x != 0``, ``x > 0``)."""
    of: Located | None = None
    """The TeX whose value this is (``64^{-2/3}``): checked against it and the solution."""
    options: tuple[Option, ...] = ()
    """A choice's options."""
    several: bool = False
    """A choice of several options (check boxes) rather than one (radio buttons)."""
    mistakes: tuple[Mistake, ...] = ()
    """Anticipated wrong answers, with their feedback."""
    hint: str = ""
    """Shown on demand next to the field."""
    tests: tuple[QuestionTest, ...] = ()
    """Question tests."""
