"""What a translation must keep of its original, read item by item with its place: the
values of its formulas, the numbers of its prose and tables, the numbers of its code
cells and of their outputs, its explorers' declarations, its references.

Each item is an :class:`Item`: a canonical ``key`` (what is compared), how it ``reads``
in its own file (for messages) and where it is. Formulas are compared as mathematics:
their tokens with numerals replaced by exact values, spacing and words of ``\\text``
dropped, so ``4{,}194{,}304`` in English equals ``4\\,194\\,304`` in Spanish. Numbers
outside formulas are read in the lesson's language (``67.108.864`` and ``0,25`` in
Spanish, ``67,108,864`` and ``0.25`` in English) and compared as values.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, fields, is_dataclass, replace
from fractions import Fraction

from pizarra.base.errors import SourcePos
from pizarra.base.i18n.numbers import decimal_symbol
from pizarra.check.answers.lexer import Unread, tokens
from pizarra.math.exact.lexer import Kind, lex
from pizarra.math.exact.numerals import Numeral
from pizarra.source.answers.spec import AnswerSpec, Located, Mistake, Option, QuestionTest
from pizarra.source.blocks import Exercise
from pizarra.source.explorers.shared_spec import Choice, Word
from pizarra.source.model import Lesson

WORD_COMMANDS = ("\\text", "\\textrm", "\\textit", "\\textbf", "\\mbox")
"""Commands whose words a translation translates (``\\operatorname`` is kept)."""

TEXT_FIELDS = frozenset(
    {"label", "unit", "hint", "summary", "caption", "table_caption", "current_label", "mark"}
    | {"alt", "lang", "score_label", "probability_label"}
    | {"pos", "source", "id"}
)
"""Fields of an explorer's declaration a translation may change: its words, its
positions, the formulas as typed (their parsed value is compared) and its id (an anchor)."""

ANSWER_WORDS: dict[type, frozenset[str]] = {
    Mistake: frozenset({"feedback"}),
    Option: frozenset({"text"}),
    QuestionTest: frozenset({"input", "feedback"}),
}
"""Words of an answer field a translation translates: what a learner reads and the inputs
its question tests type (``no definido`` is ``undefined``; each file's tests run on their
own). Values, mistaken answers, forms, option ids and verdicts are kept: the values and
mistaken answers as a learner's tokens read in each file's language (``3,32`` in Spanish is
``3.32`` in English, ``[0; inf)`` is ``[0, inf)``), ``of:`` as a formula."""

MAX_ITEMS = 50_000
"""Items of one kind read from a lesson: bounded work for any file."""


@dataclass(frozen=True)
class Item:
    """One thing a translation keeps."""

    key: object
    """What is compared."""
    reads: str
    """How it is written in its file."""
    pos: SourcePos
    """Where."""


def formula_items(lesson: Lesson) -> list[Item]:
    """Every formula as mathematics, in order."""
    return [
        Item(_formula_key(item.tex, lesson.lang), f"${item.tex.strip()}$", item.pos)
        for item in lesson.math[:MAX_ITEMS]
    ]


def _formula_key(tex: str, lang: str) -> tuple[object, ...]:
    key: list[object] = []
    for token in lex(tex, lang):
        if token.kind is Kind.TEXT and token.text.startswith(WORD_COMMANDS):
            continue
        if token.kind is Kind.NUMBER and isinstance(token.numeral, Numeral):
            key.append(token.numeral.value)
        else:
            key.append(token.text)
    return tuple(key)


_FENCE = re.compile(r"^(\s*)(`{3,}|:{3,}|~{3,})(.*)$")
_VERBATIM = re.compile(
    r"^\{(?:code-cell|explorer|answer|code|code-block|raw|bibliography|output|index|math)\}"
    r"|^[A-Za-z]|^$"
)
"""Fences whose lines are not prose: an explorer's or an answer field's YAML is compared as
a declaration (:func:`explorer_items`, :func:`exercise_items`), its words are free."""
_MASKS = (
    re.compile(r"\$\$.*?\$\$|\$(?!\s)[^$\n]*?(?<!\s)\$", re.DOTALL),  # formulas
    re.compile(r"\{[a-z-]+\}`[^`]*`"),  # roles: {cite}`key`, {lesson}`2`
    re.compile(r"`+[^`]*`+"),  # code spans
    re.compile(r"\]\([^)]*\)"),  # link destinations
    re.compile(r"<!--.*?-->", re.DOTALL),
    re.compile(r"^\([\w:.-]+\)=\s*$", re.MULTILINE),  # targets
    re.compile(r"^\s*:[\w-]+:.*$", re.MULTILINE),  # directive options
    re.compile(r"https?://\S+"),
)


def masked_prose(text: str) -> str:
    """``text`` with all but its prose blanked (same length, same lines): the front matter,
    code and explorer fences, formulas, roles, code spans, links' addresses, comments."""
    lines = text.split("\n")
    out: list[str] = []
    front = bool(lines) and lines[0].strip() == "---"
    fence: str | None = None
    for index, line in enumerate(lines):
        if front:
            out.append(" " * len(line))
            front = not (index > 0 and line.strip() == "---")
            continue
        match = _FENCE.match(line)
        if fence is not None:
            out.append(" " * len(line))
            if match and match.group(2).startswith(fence[0]) and len(match.group(2)) >= len(fence):
                fence = None if not match.group(3).strip() else fence
            continue
        if match and _VERBATIM.match(match.group(3).strip()):
            fence = match.group(2)
            out.append(" " * len(line))
            continue
        if match:  # a directive with prose inside: only its fence line goes
            out.append(" " * len(line))
            continue
        out.append(line)
    masked = "\n".join(out)
    for pattern in _MASKS:
        masked = pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), masked)
    return masked


_SPANISH_NUMBER = re.compile(r"(?<![\w.,])\d{1,3}(?:\.\d{3})+(?:,\d+)?(?![\w])|\d+(?:,\d+)?|\d+")
_ENGLISH_NUMBER = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|\d+(?:\.\d+)?")


def _comma(lang: str) -> bool:
    """Whether ``lang`` writes a decimal comma (``es``, not ``es-MX``), as CLDR says."""
    return decimal_symbol(lang) == ","


def prose_value(text: str, lang: str) -> Fraction:
    """A prose number's value in ``lang``: ``67.108.864`` or ``0,25`` in Spanish."""
    group, decimal = (".", ",") if _comma(lang) else (",", ".")
    whole, _, fraction = text.replace(group, "").partition(decimal)
    value = Fraction(int(whole))
    if fraction:
        value += Fraction(int(fraction), 10 ** len(fraction))
    return value


def prose_number_items(lesson: Lesson) -> list[Item]:
    """Every number of the prose and tables (outside formulas and code), in order."""
    pattern = _SPANISH_NUMBER if _comma(lesson.lang) else _ENGLISH_NUMBER
    items: list[Item] = []
    for number, line in enumerate(masked_prose(lesson.source_text).split("\n"), start=1):
        for match in pattern.finditer(line):
            if len(items) >= MAX_ITEMS or len(match.group()) > 200:
                return items
            value = prose_value(match.group(), lesson.lang)
            pos = SourcePos(lesson.display_path, number, match.start() + 1)
            items.append(Item(value, match.group(), pos))
    return items


_OUTPUT_NUMBER = re.compile(r"-?\d{1,400}(?:\.\d{1,400})?(?:[eE][-+]?\d{1,3})?")
_SPANISH_OUTPUT_NUMBER = re.compile(r"-?\d{1,400}(?:[.,]\d{1,400})?(?:[eE][-+]?\d{1,3})?")


def code_items(lesson: Lesson) -> list[Item]:
    """Each code cell's language, tags and numeric literals, then the numbers its pinned
    output prints: names, strings and comments may be translated, and the translation's
    cells are re-run and compared with its own outputs like any lesson's."""
    items: list[Item] = []
    out_pattern = _SPANISH_OUTPUT_NUMBER if _comma(lesson.lang) else _OUTPUT_NUMBER
    for cell in list(lesson.code_cells())[:MAX_ITEMS]:
        literals = tuple(_numeric_literals(cell.code, cell.language))
        shape = (cell.language, tuple(sorted(cell.tags)), literals)
        items.append(Item(("cell", shape), f"a {cell.language} cell", cell.pos))
        if cell.output is not None:
            numbers = tuple(
                Fraction(m.group().replace(",", "."))
                for m in out_pattern.finditer(cell.output.text)
            )[:MAX_ITEMS]
            items.append(Item(("output", numbers), "its output", cell.output.pos))
    return items


def _numeric_literals(code: str, language: str) -> list[str]:
    """The numbers a cell's code writes (Python's, read by its tokenizer; other languages'
    by a pattern), outside strings and comments."""
    if language not in ("python", "python3", "ipython", "ipython3"):
        return re.findall(r"\b\d[\d_]*(?:\.\d+)?\b", code)
    found: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.NUMBER:
                found.append(token.string.replace("_", "").lower())
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return re.findall(r"\b\d[\d_]*(?:\.\d+)?\b", code)
    return found


def explorer_items(lesson: Lesson) -> list[Item]:
    """Each explorer's declaration without its words (labels, hints, summary...)."""
    return [
        Item(
            (explorer.kind, _declaration(explorer.spec)),
            f"the {explorer.kind} explorer",
            explorer.pos,
        )
        for explorer in list(lesson.explorers())[:MAX_ITEMS]
    ]


def _declaration(value: object, depth: int = 0) -> object:
    if depth > 30:
        return repr(value)
    if isinstance(value, Word):  # its forms are the language's (CLDR categories differ too)
        return ("word", value.count)
    if isinstance(value, Choice):  # its conditions are kept, its texts translated
        return ("choice", tuple(_declaration(c, depth + 1) for c, _ in value.cases))
    if is_dataclass(value) and not isinstance(value, type):
        return tuple(
            (f.name, _declaration(getattr(value, f.name), depth + 1))
            for f in fields(value)
            if f.name not in TEXT_FIELDS and f.name not in ANSWER_WORDS.get(type(value), ())
        )
    if isinstance(value, (tuple, list)):
        return tuple(_declaration(v, depth + 1) for v in value)
    return value


def reference_items(lesson: Lesson) -> list[Item]:
    """Its sources (key and address), then every reference to a lesson, a source or a
    label, in order (a label's name may be translated: only its kind is compared)."""
    items = [
        Item(("source", s.key, s.url), f"source {s.key!r} ({s.url or 'no address'})", s.pos)
        for s in lesson.sources
    ]
    places = [
        *((r.pos, ("lesson", r.number), f"{{lesson}}`{r.number}`") for r in lesson.lesson_refs),
        *((c.pos, ("cite", c.key), f"{{cite}}`{c.key}`") for c in lesson.citations),
        *((r.pos, ("ref", r.kind), f"a {r.kind} reference") for r in lesson.refs),
    ]
    items += [Item(key, reads, pos) for pos, key, reads in sorted(places, key=lambda p: p[0])]
    return items[:MAX_ITEMS]


EXERCISE_TEXT = frozenset({"body", "solution", "title", "pos"})
"""An exercise's words (its formulas are compared with the others'); whatever else it
declares (its number, an answer to check) is kept."""


def exercise_items(lesson: Lesson) -> list[Item]:
    """Its questions: whether each has a solution, and what each declares but its words
    (an answer's values compared as what they mean: ``0,7311`` in Spanish is ``0.7311``)."""
    return [
        Item(
            ("question", e.solution is not None, _exercise(e, lesson.lang)),
            f"question {e.number}",
            e.pos,
        )
        for e in list(lesson.exercises())[:MAX_ITEMS]
    ]


def _exercise(exercise: Exercise, lang: str) -> object:
    return tuple(
        (
            f.name,
            _declaration(
                tuple(_answer(a, lang) for a in exercise.answers)
                if f.name == "answers"
                else getattr(exercise, f.name)
            ),
        )
        for f in fields(exercise)
        if f.name not in EXERCISE_TEXT
    )


def _answer(spec: AnswerSpec, lang: str) -> AnswerSpec:
    """``spec`` with its values, mistaken answers and ``of:`` as what they mean in ``lang``
    (a choice's values and mistakes are option ids, kept as written)."""
    if spec.kind == "choice":
        return spec
    of = spec.of
    return replace(
        spec,
        value=tuple(_typed(v, spec, lang) for v in spec.value),
        mistakes=tuple(
            replace(m, answer=tuple(_typed(a, spec, lang) for a in m.answer)) for m in spec.mistakes
        ),
        of=None if of is None else Located(repr(_formula_key(of.text, lang)), of.pos),
    )


def _typed(item: Located, spec: AnswerSpec, lang: str) -> Located:
    """An answer as a learner's tokens in ``lang``: numbers by value and decimals, a comma
    and a semicolon between items alike; a text that is no tokens (``undefined``) as is."""
    try:
        found = tokens(item.text, lang, frozenset(spec.letters), frozenset())
    except Unread:
        return item
    key = tuple(
        ("num", t.value, t.decimals)
        if t.kind == "num"
        else ("sep",)
        if t.text in (",", ";")
        else (t.kind, t.text)
        for t in found
    )
    return Located(repr(key), item.pos)
