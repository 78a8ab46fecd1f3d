"""Directive options: ``:name: value`` lines at the top of a directive body (MyST style),
or a YAML block between ``---`` lines."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.base.suggest import did_you_mean
from pizarra.source.syntax.yaml_source import load_mapping

if TYPE_CHECKING:
    from pizarra.source.syntax.context import Directive
    from pizarra.source.syntax.inline_options import InlineOption

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


INLINE_READ = "pizarra_inline_read"
"""Set in a fence token's ``meta`` once a rule has read the options in its braces."""


def directive_options(
    directive: Directive, allowed: dict[str, str]
) -> tuple[DirectiveBody, list[Diagnostic]]:
    """A directive's options, from its braces and from the top of its body."""
    directive.token.meta[INLINE_READ] = True
    return split_options(directive.body, directive.body_pos, allowed, directive.inline)


def split_options(
    body: str,
    body_pos: SourcePos,
    allowed: dict[str, str],
    inline: tuple[InlineOption, ...] = (),
) -> tuple[DirectiveBody, list[Diagnostic]]:
    """Take the leading option lines off ``body``, validating names against ``allowed``.

    ``allowed`` maps each option name to a human description used in hints.
    ``body_pos`` is the position of the body's first line. ``inline`` are the options
    written in the directive's braces: they count as lines written first.
    """
    options, errors = inline_options(inline, allowed)
    lines = body.splitlines(keepends=True)
    if lines and lines[0].rstrip() == "---":
        return _yaml_options(lines, body_pos, allowed, options, errors)
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
            errors.append(_unknown(name, pos, allowed))
            continue
        if name in options:
            errors.append(Diagnostic(pos, f"option :{name}: given twice"))
            continue
        options[name] = value
    return DirectiveBody(options, "".join(lines[taken:]), taken), errors


def inline_options(
    inline: tuple[InlineOption, ...], allowed: dict[str, str]
) -> tuple[dict[str, str], list[Diagnostic]]:
    """The options of a directive's braces, checked as option lines are.

    ``#id`` is ``:label:``, or ``:name:`` where the directive calls its label so.
    """
    options: dict[str, str] = {}
    errors: list[Diagnostic] = []
    for option in inline:
        name = option.name
        if name == "id":
            name = "name" if "name" in allowed and "label" not in allowed else "label"
        if name not in allowed:
            errors.append(_unknown(name, option.pos, allowed))
        elif name in options:
            errors.append(Diagnostic(option.pos, f"option :{name}: given twice"))
        else:
            options[name] = option.value
    return options, errors


def _unknown(name: str, pos: SourcePos, allowed: dict[str, str]) -> Diagnostic:
    known = ", ".join(f":{k}:" for k in sorted(allowed)) or "none"
    hint = did_you_mean(name, allowed, f"options allowed here: {known}", lambda k: f"`:{k}:`")
    return Diagnostic(pos, f"unknown option :{name}:", hint=hint)


def _yaml_options(
    lines: list[str],
    body_pos: SourcePos,
    allowed: dict[str, str],
    options: dict[str, str],
    errors: list[Diagnostic],
) -> tuple[DirectiveBody, list[Diagnostic]]:
    """Options as a YAML block between ``---`` lines, as MyST also allows; ``options``
    and ``errors`` hold those of the braces."""
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if end is None:
        error = Diagnostic(
            body_pos,
            "the directive's options block has no closing ---",
            hint="close the options with a line of ---",
        )
        return DirectiveBody(options, "".join(lines), 0), [*errors, error]
    doc, yaml_errors = load_mapping("".join(lines[1:end]), body_pos.shifted(1), "the options")
    errors = errors + yaml_errors
    for name, value in (doc.values if doc else {}).items():
        pos = doc.key_pos.get(name, body_pos) if doc else body_pos
        if name not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            errors.append(Diagnostic(pos, f"unknown option {name}", hint=f"options: {known}"))
        elif isinstance(value, (dict, list)):
            errors.append(Diagnostic(pos, f"option {name} must be a single value"))
        elif name in options:
            errors.append(Diagnostic(pos, f"option {name} given twice"))
        else:
            options[name] = "" if value is True or value is None else str(value)
    return DirectiveBody(options, "".join(lines[end + 1 :]), end + 1), errors


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
