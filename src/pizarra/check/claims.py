"""Check every numeric claim of a lesson in exact real arithmetic.

Each relation between closed numeric expressions must be true; relations with
letters count as checked only when proved for every value in their domains, and as
assumed when all they say is what the lesson declared about a letter (``x > 0``). The
arithmetic lives in :mod:`pizarra.math.exact`; this module reads the lesson, places
each failure at its ``file:line`` and counts the outcomes for ``pizarra check``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial
from typing import Literal

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.base.guard import guarded
from pizarra.check.math import own_text
from pizarra.check.verdicts import VerdictCache
from pizarra.math.exact.ast import has_plus_minus
from pizarra.math.exact.context import DOMAINS, Context
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.definitions import Function, parse_definition
from pizarra.math.exact.judge import Status, Verdict, judge_formula, states_nothing
from pizarra.math.exact.lexer import lex
from pizarra.math.exact.parser import parse_side
from pizarra.math.exact.prose import scopes
from pizarra.math.exact.statements import split_links
from pizarra.source.blocks import MathItem
from pizarra.source.model import Lesson

ZERO_TO_THE_ZERO = "zero_to_the_zero"
BARE_COMMA = "bare_comma"
REDEFINITION = "redefinition"
"""The ``conventions`` key that gives ``0^0`` a value."""
UNDEFINED_WORDS = frozenset({"undefined", "indefinido"})
"""Convention values that leave ``0^0`` without a value, explicitly."""
LOG = "log"
"""The ``conventions`` key that gives ``\\log`` without a base its base."""
LOG_BASES = ("10", "e", "2")
MAX_DIGITS = 4000
"""Longest number a formula may hold (Python reads at most 4,300 digits into an int)."""
LONG_NUMBER_HINT = "write it as a power or a product, e.g. 10^{5000} or 2^{20000}"
_NUMBER_RUN = re.compile(r"\d(?:\d|\s|\\,|\{,\}|[.,])*")


@dataclass(frozen=True)
class ClaimCounts:
    """How many claims (links of relations) a check judged, by outcome."""

    checked: int = 0
    """Claims proved true."""
    assumed: int = 0
    """Claims true only because they restate a declared assumption (``x > 0``, ``x``
    positive): counted apart so that "checked" never includes what was assumed."""
    unchecked: int = 0
    """Claims outside what pizarra can decide (letters not proved, unknown notation)."""
    failed: int = 0
    """Claims found false, or with a side that has no real value."""

    def __add__(self, other: ClaimCounts) -> ClaimCounts:
        return ClaimCounts(
            self.checked + other.checked,
            self.assumed + other.assumed,
            self.unchecked + other.unchecked,
            self.failed + other.failed,
        )

    @classmethod
    def of(cls, records: Iterable[ClaimRecord]) -> ClaimCounts:
        """How many of ``records`` have each status."""
        statuses = [r.status for r in records]
        return cls(
            checked=statuses.count(Status.CHECKED),
            assumed=statuses.count(Status.ASSUMED),
            unchecked=statuses.count(Status.UNCHECKED),
            failed=statuses.count(Status.FAILED),
        )

    def summary(self) -> str:
        """``claims: 12 checked, 2 assumed, 3 unchecked, 0 failed``."""
        return (
            f"claims: {self.checked} checked, {self.assumed} assumed, "
            f"{self.unchecked} unchecked, {self.failed} failed"
        )


@dataclass(frozen=True)
class ClaimRecord:
    """One judged claim at its place in the lesson: what reports and ``check --claims`` list."""

    pos: SourcePos
    """Where the relation stands in the lesson file."""
    claim: str
    """``left relation right`` as written."""
    status: Status
    """Checked, assumed, unchecked or failed."""
    reason: str
    """Why it was not checked, why it failed, or which declaration it restates; empty when
    checked."""
    hint: str
    """How to fix a failure; empty otherwise."""


def claim_records(
    lesson: Lesson, cache: VerdictCache | None = None
) -> tuple[list[ClaimRecord], list[Diagnostic]]:
    """Every claim of ``lesson`` with its verdict and position, in source order, plus the
    problems found in the lesson's declarations (``variables``, ``conventions``)."""
    start = SourcePos(lesson.display_path, 1, 1)
    context, diagnostics = _context(
        lesson.conventions, lesson.variables, start, lesson.lang, lesson.functions
    )
    records: list[ClaimRecord] = []
    readable = ["" if _too_long_number(item.tex) else item.tex for item in lesson.math]
    scoped, redefined = scopes(
        readable,
        context,
        lambda i, offset: _position(lesson.source_text, lesson.math[i], offset),
        str(lesson.conventions.get(REDEFINITION, "")).strip(),
    )
    diagnostics += redefined
    kept = None
    if cache is not None:
        pairs = [
            (i.tex, s.context)
            for i, s in zip(lesson.math, scoped, strict=True)
            if not states_nothing(i.tex)
        ]
        kept = _Kept(cache, pairs)
    for item, scope in zip(lesson.math, scoped, strict=True):
        too_long = _too_long_number(item.tex)
        if too_long:
            diagnostics.append(Diagnostic(item.pos, too_long, LONG_NUMBER_HINT))
            continue
        excerpt = ("$$" if item.display else "$") + item.tex
        none: list[Verdict] = []
        verdicts = guarded(
            partial(_judge, item.tex, scope.context, kept),
            none,
            item.pos,
            "checking this formula",
            diagnostics,
            excerpt,
        )
        records += [
            ClaimRecord(
                _position(own_text(lesson, item), item, verdict.offset),
                verdict.claim,
                verdict.status,
                verdict.message,
                verdict.hint,
            )
            for verdict in map(scope.relabel, verdicts)
        ]
    return records, diagnostics


def _too_long_number(tex: str) -> str:
    """Why a formula holds a number too long to read exactly, or ""."""
    for match in _NUMBER_RUN.finditer(tex):
        digits = sum(c.isdigit() for c in match.group())
        if digits > MAX_DIGITS:
            return f"a number of {digits:,} digits is too long to check (at most {MAX_DIGITS:,})"
    return ""


def check_claims(
    lesson: Lesson, cache: VerdictCache | None = None
) -> tuple[list[Diagnostic], ClaimCounts]:
    """Diagnostics for every false claim of ``lesson``, and the counts of outcomes."""
    records, diagnostics = claim_records(lesson, cache)
    return diagnostics + failure_diagnostics(records), ClaimCounts.of(records)


def failure_diagnostics(records: Iterable[ClaimRecord]) -> list[Diagnostic]:
    """One error per false claim, at its line."""
    return [Diagnostic(r.pos, r.reason, r.hint) for r in records if r.status is Status.FAILED]


def _judge(tex: str, context: Context, kept: _Kept | None) -> list[Verdict]:
    key = None if kept is None else kept.keys.get((tex, context.fingerprint()))
    if kept is None or key is None:  # no cache, or no claim to keep
        return judge_formula(tex, context)
    verdicts = kept.verdicts.get(key)
    if verdicts is None:
        verdicts = judge_formula(tex, context)
        kept.put(key, verdicts)
    return verdicts


class _Kept:
    """The verdicts ``cache`` keeps for the formulas of one lesson, read in one query
    (one per formula cost a cold 20-lesson build 0.05 s of CPU). A formula's key holds
    its context: the functions the prose defined before it change its verdict."""

    def __init__(self, cache: VerdictCache, pairs: list[tuple[str, Context]]) -> None:
        self.cache = cache
        self.keys: dict[tuple[str, str], str] = {}
        """Each formula's key, by its TeX and its context's fingerprint."""
        groups: dict[str, tuple[Context, list[str]]] = {}
        for tex, context in pairs:
            groups.setdefault(context.fingerprint(), (context, []))[1].append(tex)
        for fingerprint, (context, texs) in groups.items():
            for tex, key in zip(texs, cache.keys(texs, context), strict=True):
                self.keys[tex, fingerprint] = key
        self.verdicts = cache.get_many(self.keys.values())
        """Verdicts by key: those kept, then those judged in this lesson."""

    def put(self, key: str, verdicts: list[Verdict]) -> None:
        self.cache.put(key, verdicts)
        self.verdicts[key] = verdicts


def iter_claims(
    tex: str,
    conventions: Mapping[str, str] | None = None,
    variables: Mapping[str, str] | None = None,
    lang: str = "en",
    functions: Mapping[str, str] | None = None,
) -> list[Verdict]:
    """Every claim of one formula with its verdict (a debugging and testing aid)."""
    context, problems = _context(
        conventions or {}, variables or {}, SourcePos("<tex>", 1, 1), lang, functions or {}
    )
    if problems:
        raise ValueError(problems[0].message)
    return judge_formula(tex, context)


def _position(source: str, item: MathItem, offset: int) -> SourcePos:
    """The line of the relation at ``offset``; the formula's column when on its first line.

    The lines are counted from the formula's first character of content, found in
    the source, so the result is right whether or not ``item.tex`` keeps the
    blank lines after a ``$$`` that stands alone on its line.
    """
    content = len(item.tex) - len(item.tex.lstrip())
    first = _content_line(source, item)
    if first is None:
        first = item.tex.count("\n", 0, content)
    lines = first + item.tex.count("\n", content, max(offset, content))
    return item.pos.shifted(lines, None if lines == 0 else 1)


def _content_line(source: str, item: MathItem) -> int | None:
    """How many lines below its delimiter a formula's content starts, read from the source."""
    lines = _lines(source)
    index = item.pos.line - 1
    delimiter = "$$" if item.display else "$"
    if not 0 <= index < len(lines) or not lines[index][item.pos.col - 1 :].startswith(delimiter):
        return None
    if lines[index][item.pos.col - 1 + len(delimiter) :].strip():
        return 0
    below = index + 1
    while below < len(lines) and not lines[below].strip():
        below += 1
    return below - index


@lru_cache(maxsize=4)
def _lines(source: str) -> list[str]:
    """The lesson's lines, split once per lesson rather than once per formula."""
    return source.splitlines()


def _context(
    conventions: Mapping[str, str],
    variables: Mapping[str, str],
    start: SourcePos,
    lang: str = "en",
    definitions: Mapping[str, str] | None = None,
) -> tuple[Context, list[Diagnostic]]:
    """The evaluation context a lesson declares, with problems found in the declaration."""
    diagnostics: list[Diagnostic] = []
    functions: dict[str, Function] = {}
    names = frozenset(key.split("(")[0].lstrip("\\").strip() for key in definitions or {})
    for key, body in (definitions or {}).items():
        parsed = parse_definition(key, body, names, lang)
        if isinstance(parsed, str):
            diagnostics.append(Diagnostic(start, f"functions: {parsed}", 'e.g. g: "x^2 + 1"'))
        else:
            functions[parsed[0]] = parsed[1]
    log_base = str(conventions.get(LOG, "10")).strip()
    if log_base not in LOG_BASES:
        message = f"conventions: {LOG} must be 10, e or 2"
        diagnostics.append(Diagnostic(start, message, "e.g. log: e"))
        log_base = "10"
    domains: dict[str, str] = {}
    for name, domain in variables.items():
        if domain in DOMAINS:
            domains[name] = domain
        else:
            known = ", ".join(DOMAINS)
            message = f"variables: {name} has unknown domain {domain!r}"
            diagnostics.append(Diagnostic(start, message, f"use one of: {known}"))
    zero: Fraction | Literal["undefined"] | None = None
    if ZERO_TO_THE_ZERO in conventions:
        zero = _convention_value(str(conventions[ZERO_TO_THE_ZERO]))
        if zero is None:
            message = f"conventions: {ZERO_TO_THE_ZERO} must be a number or 'undefined'"
            diagnostics.append(Diagnostic(start, message, f'e.g. {ZERO_TO_THE_ZERO}: "1"'))
    bare_comma = str(conventions.get(BARE_COMMA, "")).strip()
    context = Context(zero, domains, lang, log_base, functions, bare_comma)  # type: ignore[arg-type]
    return context, diagnostics


def _convention_value(text: str) -> Fraction | Literal["undefined"] | None:
    """The declared value of ``0^0``: a closed numeric TeX expression or "undefined"."""
    if text.strip().lower() in UNDEFINED_WORDS:
        return "undefined"
    if split_links(text) or len(text) > 100:
        return None
    node = parse_side(lex(text))
    if isinstance(node, Unsupported) or has_plus_minus(node):
        return None  # \pm is two values; a convention is one
    from pizarra.math.exact.evaluate import Undefined, ZeroToTheZero, evaluate

    value = evaluate(node, Context())
    if isinstance(value, Undefined | ZeroToTheZero | Unsupported) or not value.is_Rational:
        return None
    return Fraction(int(value.p), int(value.q))
