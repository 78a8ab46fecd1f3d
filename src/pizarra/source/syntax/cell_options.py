"""A code cell's options, in either MyST form: ``:name: value`` lines or a YAML header.

MyST-NB (and so Jupyter Book) accepts both::

    :tags: [hide-input]          ---
                                 tags: [hide-input]
                                 caption: Growth of n²
                                 ---

Values are read with the same safe YAML reader as the front matter, so ``:tags:`` takes a
flow list (``[a, b]``) or a bare word. The ``mystnb:`` mapping that Jupyter Book lectures
use for figures (``mystnb: {figure: {caption: ..}, image: {alt: ..}}``) is read too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

from pizarra.base.errors import Diagnostic, Severity, SourcePos
from pizarra.base.suggest import did_you_mean
from pizarra.base.yaml_compose import TOO_DEEP_HINT, TooDeep, safe_load
from pizarra.source.code_lines import OPTIONS as LINE_OPTIONS
from pizarra.source.code_lines import CodeLines, read_code_lines
from pizarra.source.syntax.inline_options import InlineOption
from pizarra.source.syntax.options import inline_options, split_options
from pizarra.source.syntax.yaml_source import load_mapping

CELL_TAGS = frozenset(
    {
        "hide-input",
        "hide-output",
        "remove-input",
        "remove-output",
        "remove-cell",
        "skip-execution",
        "raises-exception",
        "nondeterministic",
    }
)
"""The cell tags pizarra honours (MyST-NB's names, plus ``nondeterministic``)."""

DEFAULT_TIMEOUT = 30.0
MAX_TIMEOUT = 600.0

OPTIONS = {
    "tags": "a list of cell tags, e.g. `[hide-input]`",
    "timeout": "seconds the cell may run",
    "caption": "the caption of the figures the cell draws",
    "alt": "the text alternative of the figures the cell draws",
    "nondeterministic": "the output changes between runs: shown, never compared",
    "mystnb": "Jupyter Book's figure options (`figure: {caption: ..}`, `image: {alt: ..}`)",
    **{name: LINE_OPTIONS[name] for name in ("linenos", "lineno-start", "emphasize-lines")},
}


@dataclass(frozen=True)
class CellOptions:
    """What a cell's options say, validated."""

    tags: frozenset[str]
    """Known tags only (unknown ones were reported)."""
    timeout: float | None
    """Seconds the cell may run; None when it does not say (the lesson's default)."""
    caption: str
    """Figure caption, or empty."""
    alt: str
    """Figure text alternative, or empty."""
    content: str
    """The code after the options."""
    content_offset: int
    """How many lines the options took."""
    name: str = ""
    """The label of the cell's figure (``mystnb: {figure: {name}}``), or empty."""
    lines: CodeLines | None = None
    """How the code's lines are shown (``:lineno-start:``...); None: plain."""


def read_cell_options(
    body: str, body_pos: SourcePos, inline: tuple[InlineOption, ...] = ()
) -> tuple[CellOptions, list[Diagnostic]]:
    """Split ``body`` into options and code, with an error at each bad option; ``inline``
    are those written in the braces, ``{code-cell .class key=value}``."""
    lines = body.splitlines(keepends=True)
    if lines and lines[0].rstrip() == "---":
        return _yaml_header(lines, body_pos, inline)
    split, errors = split_options(body, body_pos, OPTIONS, inline)
    values: dict[str, Any] = {}
    for name, raw in split.options.items():
        try:
            values[name] = safe_load(raw) if name in ("tags", "mystnb") else raw
        except TooDeep as exc:
            errors.append(Diagnostic(body_pos, f"option :{name}: is {exc.problem}", TOO_DEEP_HINT))
        except yaml.YAMLError:
            errors.append(Diagnostic(body_pos, f"option :{name}: is not valid YAML: {raw!r}"))
    positions = {
        name: body_pos.shifted(index, col=body_pos.col)
        for index, line in enumerate(lines[: split.content_offset])
        for name in values
        if line.startswith(f":{name}:")
    } | {o.name: o.pos for o in inline if o.name in values}
    return _validate(values, positions, body_pos, split.content, split.content_offset, errors)


def _yaml_header(
    lines: list[str], body_pos: SourcePos, inline: tuple[InlineOption, ...]
) -> tuple[CellOptions, list[Diagnostic]]:
    given, inline_errors = inline_options(inline, OPTIONS)
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if end is None:
        error = Diagnostic(
            body_pos,
            "the cell's YAML header (`---`) is never closed",
            hint="end the options with a `---` line before the code",
        )
        return _validate({}, {}, body_pos, "".join(lines), 0, [*inline_errors, error])
    doc, errors = load_mapping("".join(lines[1:end]), body_pos.shifted(1), "the cell's options")
    errors = inline_errors + errors
    content = "".join(lines[end + 1 :])
    if doc is None:
        return _validate({}, {}, body_pos, content, end + 1, errors)
    for key, pos in doc.key_pos.items():
        if key not in OPTIONS:
            known = ", ".join(sorted(OPTIONS))
            hint = did_you_mean(key, OPTIONS, f"known: {known}")
            errors.append(Diagnostic(pos, f"unknown cell option {key!r}", hint=hint))
        elif key in given:
            errors.append(Diagnostic(pos, f"cell option {key!r} given twice"))
    values = given | {k: v for k, v in doc.values.items() if k in OPTIONS and k not in given}
    positions = doc.key_pos | {o.name: o.pos for o in inline if o.name in given}
    return _validate(values, positions, body_pos, content, end + 1, errors)


def _validate(
    values: dict[str, Any],
    positions: dict[str, SourcePos],
    body_pos: SourcePos,
    content: str,
    offset: int,
    errors: list[Diagnostic],
) -> tuple[CellOptions, list[Diagnostic]]:
    def at(name: str) -> SourcePos:
        return positions.get(name, body_pos)

    tags = _tags(values.get("tags"), at("tags"), errors)
    if "nondeterministic" in values:
        tags.add("nondeterministic")
    timeout = _timeout(values["timeout"], at("timeout"), errors) if "timeout" in values else None
    figure = _mystnb(values.get("mystnb"), at("mystnb"), errors)
    caption = _text(values.get("caption", figure.get("caption")), "caption", at, errors)
    alt = _text(values.get("alt", figure.get("alt")), "alt", at, errors)
    name = figure.get("name")
    name = name if isinstance(name, str) else ""
    lines, line_errors = read_code_lines(values, at, len(content.splitlines()))
    errors.extend(line_errors)
    options = CellOptions(frozenset(tags), timeout, caption, alt, content, offset, name, lines)
    return options, errors


def _tags(value: Any, pos: SourcePos, errors: list[Diagnostic]) -> set[str]:
    if value is None:
        return set()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(t, str) for t in items):
        errors.append(
            Diagnostic(pos, "cell tags must be a list of words", hint="write `:tags: [hide-input]`")
        )
        return set()
    known = set()
    for tag in items:
        if tag in CELL_TAGS:
            known.add(tag)
        elif tag == "hide-cell":  # MyST-NB: the whole cell behind toggles
            known.update(("hide-input", "hide-output"))
        else:
            errors.append(
                Diagnostic(
                    pos,
                    f"pizarra does not know the cell tag {tag!r}; it has no effect",
                    hint="known tags: " + ", ".join(sorted(CELL_TAGS)),
                    severity=Severity.WARNING,
                )
            )
    return known


def seconds(value: Any) -> float | None:
    """A time limit as written (``60``, ``"60"``), if it is one pizarra allows."""
    number = value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if number is None and isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            number = None
    return float(number) if number is not None and 0 < number <= MAX_TIMEOUT else None


def _timeout(value: Any, pos: SourcePos, errors: list[Diagnostic]) -> float | None:
    number = seconds(value)
    if number is None:
        errors.append(
            Diagnostic(
                pos,
                f"option :timeout: must be a number of seconds between 0 and {MAX_TIMEOUT:g}, "
                f"not {value!r}",
                hint="for example `:timeout: 60`",
            )
        )
    return number


def _mystnb(value: Any, pos: SourcePos, errors: list[Diagnostic]) -> dict[str, Any]:
    """``caption``, ``name`` and ``alt`` from ``mystnb: {figure: {caption, name}, image:
    {alt}}``."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        errors.append(Diagnostic(pos, "option mystnb must be a mapping"))
        return {}
    figure, image = value.get("figure"), value.get("image")
    figure = figure if isinstance(figure, dict) else {}
    image = image if isinstance(image, dict) else {}
    found = {"caption": figure.get("caption"), "alt": image.get("alt"), "name": figure.get("name")}
    return {k: v for k, v in found.items() if v is not None}


def _text(value: Any, name: str, at: Callable[[str], SourcePos], errors: list[Diagnostic]) -> str:
    if value is None:
        return ""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        errors.append(Diagnostic(at(name), f"option {name} must be text"))
        return ""
    return " ".join(str(value).split())
