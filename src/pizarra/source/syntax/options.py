"""Directive options: ``:name: value`` lines at the top of a directive body (MyST style)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.base.suggest import did_you_mean

_OPTION = re.compile(r"^:([A-Za-z][\w-]*):(?:\s+(.*?))?\s*$")


@dataclass(frozen=True)
class DirectiveBody:
    """A directive body split into its options and the rest."""

    options: dict[str, str]
    """Option name -> raw value (empty string for a flag)."""
    content: str
    """The body after the options."""
    content_offset: int
    """How many lines the options took (the content starts that many lines lower)."""


def split_options(
    body: str, body_pos: SourcePos, allowed: dict[str, str]
) -> tuple[DirectiveBody, list[Diagnostic]]:
    """Take the leading option lines off ``body``, validating names against ``allowed``.

    ``allowed`` maps each option name to a human description used in hints.
    ``body_pos`` is the position of the body's first line.
    """
    lines = body.splitlines(keepends=True)
    options: dict[str, str] = {}
    errors: list[Diagnostic] = []
    taken = 0
    for index, line in enumerate(lines):
        if not line.startswith(":") or line.startswith("::"):
            break  # content starts (a "::" line opens a nested colon fence)
        taken = index + 1
        pos = body_pos.shifted(index, col=body_pos.col)
        match = _OPTION.match(line.rstrip("\n"))
        if match is None:
            errors.append(
                Diagnostic(
                    pos,
                    f"malformed directive option {line.strip()!r}",
                    hint="write options as `:name: value` lines at the top of the directive",
                )
            )
            continue
        name, value = match.group(1), match.group(2) or ""
        if name not in allowed:
            known = ", ".join(f":{k}:" for k in sorted(allowed)) or "none"
            errors.append(
                Diagnostic(
                    pos,
                    f"unknown option :{name}:",
                    hint=did_you_mean(
                        name, allowed, f"options allowed here: {known}", lambda k: f"`:{k}:`"
                    ),
                )
            )
            continue
        if name in options:
            errors.append(Diagnostic(pos, f"option :{name}: given twice"))
            continue
        options[name] = value
    return DirectiveBody(options, "".join(lines[taken:]), taken), errors


def positive_number(
    value: str, name: str, pos: SourcePos, limit: float
) -> tuple[float | None, Diagnostic | None]:
    """Parse a positive number option no greater than ``limit``."""
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not 0 < number <= limit:
        return None, Diagnostic(
            pos,
            f"option :{name}: must be a number of seconds between 0 and {limit:g}, not {value!r}",
            hint=f"for example `:{name}: 60`",
        )
    return number, None
