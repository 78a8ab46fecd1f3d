"""How shown code numbers and emphasises its lines: ``:linenos:``, ``:lineno-start: N``
and ``:emphasize-lines: 1,3-5``, as Sphinx's ``code-block`` and MyST-NB's ``code-cell``
take them (``:number-lines: N`` is the docutils ``code`` directive's name for the first
two).

Only the page shows the numbers: the code, its copy and what a screen reader reads are
the code alone (:mod:`pizarra.render.code_listing`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pizarra.base.errors import Diagnostic, Severity, SourcePos

OPTIONS = {
    "linenos": "number the lines from 1",
    "lineno-start": "number the lines from this number",
    "number-lines": "number the lines (from the number given, else 1)",
    "emphasize-lines": "lines to emphasise, counted from 1, e.g. 1,3-5",
}
MAX_START = 1_000_000
_RANGE = re.compile(r"^\s*(\d*)\s*(?:(-)\s*(\d*)\s*)?$")


@dataclass(frozen=True)
class CodeLines:
    """What the options asked for."""

    start: int | None
    """The first line's number; None when the lines are not numbered."""
    emphasized: frozenset[int]
    """Lines to emphasise, 1 for the block's first whatever the numbers shown, as Sphinx."""


def read_code_lines(
    options: dict[str, Any], at: Callable[[str], SourcePos], count: int
) -> tuple[CodeLines | None, list[Diagnostic]]:
    """The line options among ``options`` (raw text, or YAML values), for code of ``count``
    lines; None when none of them is given. ``at(name)`` is where an option is written."""
    errors: list[Diagnostic] = []
    start = None
    if "linenos" in options:
        if options["linenos"] in ("", None, True):
            start = 1
        elif options["linenos"] is not False:
            errors.append(_error(at("linenos"), "linenos", options["linenos"], "is a flag"))
    for name in ("number-lines", "lineno-start"):
        if name in options:
            value = options[name]
            first = 1 if name == "number-lines" and value in ("", None) else _positive(value)
            if first is None:
                errors.append(_error(at(name), name, value, "must be a positive whole number"))
            start = first or start
    emphasized: frozenset[int] = frozenset()
    if "emphasize-lines" in options:
        emphasized = _emphasized(options["emphasize-lines"], at("emphasize-lines"), count, errors)
    if start is None and not emphasized:
        return None, errors
    return CodeLines(start, emphasized), errors


def _positive(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    text = str(value).strip()
    return int(text) if text.isdigit() and 0 < int(text) <= MAX_START else None


def _emphasized(value: Any, pos: SourcePos, count: int, errors: list[Diagnostic]) -> frozenset[int]:
    """Sphinx's line list: ``3``, ``3-5``, ``-5`` (from 1), ``3-`` (to the end), by commas."""
    lines: set[int] = set()
    for part in str(value).split(","):
        match = _RANGE.match(part)
        if match is None or not (match[1] or match[3]):
            errors.append(_error(pos, "emphasize-lines", value, "lists lines such as 1,3-5"))
            return frozenset()
        first = int(match[1] or 1)
        last = int(match[3] or count) if match[2] else first
        if first == 0 or last < first:
            errors.append(_error(pos, "emphasize-lines", value, "lists lines such as 1,3-5"))
            return frozenset()
        lines.update(range(first, min(last, count) + 1))
        if last > count:
            errors.append(
                Diagnostic(
                    pos,
                    f"option :emphasize-lines: names line {last}, but the code has {count} lines",
                    hint="lines are counted from 1 at the code's first line",
                    severity=Severity.WARNING,
                )
            )
    return frozenset(lines)


def _error(pos: SourcePos, name: str, value: Any, rule: str) -> Diagnostic:
    return Diagnostic(
        pos, f"option :{name}: {rule}, not {value!r}", hint=f"for example {_EXAMPLES[name]}"
    )


_EXAMPLES = {
    "linenos": "`:linenos:` alone, or `:lineno-start: 10`",
    "lineno-start": "`:lineno-start: 10`",
    "number-lines": "`:number-lines: 10`",
    "emphasize-lines": "`:emphasize-lines: 1,3-5`",
}
