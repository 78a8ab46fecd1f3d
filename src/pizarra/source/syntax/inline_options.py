"""Options in a directive's braces, as mystmd reads them: ``{tip .class #id key=value}``.

They mean what the same options mean as lines (``#id`` is ``:label:``, ``.class`` adds to
``:class:``, ``key=value`` or ``key="a value"`` is ``:key: value``), so each directive's
own option checks apply to them: an unknown key is the usual error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pizarra.base.errors import Diagnostic, SourcePos

_PART = re.compile(
    r"""\.(?P<cls>[\w-]+)(?=\s|$)
    | \#(?P<id>[\w:.~-]+)(?=\s|$)
    | (?P<qkey>[\w:.-]+)="(?P<qval>(?:\\.|[^\\"])*)"(?=\s|$)
    | (?P<key>[\w:.-]+)=(?P<val>[^\s"]*)(?=\s|$)
    | (?P<bad>\S+)""",
    re.VERBOSE,
)
_BRACES = re.compile(r'\{(?:[^"}]|"(?:\\.|[^\\"])*")*\}')
"""The braces end at the first ``}`` outside double quotes (a quoted value may hold one)."""
_OPEN_QUOTE = re.compile(r'\{(?:[^"}]|"(?:\\.|[^\\"])*")*"')
_HINT = 'write options in the braces as .class, #label, key=value or key="a value"'


@dataclass(frozen=True)
class InlineOption:
    """One option written in the braces."""

    name: str
    """``class``, ``id`` (for ``#id``) or the key."""
    value: str
    pos: SourcePos
    """Where it is written on the fence line."""


@dataclass(frozen=True)
class Header:
    """A directive's fence info split up: ``{name options} argument``."""

    name: str
    options: tuple[InlineOption, ...]
    argument: str


def read_header(info: str, pos: SourcePos) -> tuple[Header | None, list[Diagnostic]]:
    """Split a fence's info, whose ``{`` is at ``pos``; None if it names no directive."""
    braces = _BRACES.match(info)
    if braces is None:
        if info.startswith("{") and "}" in info and (quote := _OPEN_QUOTE.match(info)):
            at = pos.shifted(0, col=pos.col + quote.end() - 1)
            return None, [Diagnostic(at, "unclosed quote in the directive's braces", _HINT)]
        return None, []
    end = braces.end() - 1
    inner, argument = info[1:end], info[end + 1 :].strip()
    words = inner.split(maxsplit=1)
    name = words[0].lower() if words else ""
    start = len(inner) - len(inner.lstrip()) + len(name)
    options: list[InlineOption] = []
    errors: list[Diagnostic] = []
    classes: list[str] = []  # .a .b is one :class: a b, where .a is
    for match in _PART.finditer(inner, start):
        at = pos.shifted(0, col=pos.col + 1 + match.start())
        if match["bad"] is not None:
            errors.append(Diagnostic(at, f"cannot read {match['bad']!r} in {{{name} ...}}", _HINT))
        elif match["cls"] is not None:
            if not classes:
                options.append(InlineOption(".", "", at))
            classes.append(match["cls"])
        elif match["id"] is not None:
            options.append(InlineOption("id", match["id"], at))
        elif match["qkey"] is not None:
            options.append(InlineOption(match["qkey"], match["qval"].replace('\\"', '"'), at))
        else:
            options.append(InlineOption(match["key"], match["val"], at))
    found = tuple(
        InlineOption("class", " ".join(classes), o.pos) if o.name == "." else o for o in options
    )
    return Header(name, found, argument), errors
