"""The lesson's YAML front matter, validated field by field with positions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.base.i18n.strings import LANGUAGES, supported
from pizarra.base.suggest import did_you_mean
from pizarra.source.blocks import Source
from pizarra.source.syntax.cell_options import MAX_TIMEOUT, seconds
from pizarra.source.syntax.front_matter_fields import (
    check_conventions,
    check_functions,
    read_sources,
)
from pizarra.source.syntax.macros import read_macros
from pizarra.source.syntax.translation_fields import translation_fields
from pizarra.source.syntax.yaml_source import load_mapping

DOMAINS = ("real", "positive", "nonnegative", "nonzero", "integer", "positive_integer")
_FIELDS = {
    "title": "the lesson title (the page's h1)",
    "lesson": "the lesson's number in the course",
    "lang": f"the language: {', '.join(LANGUAGES)}",
    "summary": "one or two sentences for the course page",
    "slug": "the URL segment (default: the file name without its number)",
    "sources": "the numbered sources list: id, title, url",
    "variables": "letter -> domain for symbolic checks",
    "conventions": "declared conventions, e.g. zero_to_the_zero: '1', log: e",
    "strict_claims": "true: a statement pizarra cannot decide is an error, not a warning",
    "functions": "name -> definition of functions claims may apply, e.g. g: x^2 + 1",
    "macros": "name -> TeX for formulas, e.g. R: \\mathbb{R}",
    "bibliography": "BibTeX files (paths from the lesson) whose entries {cite} may name",
    "cell_timeout": "seconds each code cell may run unless its :timeout: says (default 30)",
    "kernel_memory": "MiB of data the lesson's kernel may allocate (default 2048, at most 8192)",
    "substitutions": "name -> Markdown that {{ name }} stands for in the text",
    "original": "a translation's original lesson file (a path from this file)",
    "original_digest": "the version of the original it follows (`pizarra translate --sync`)",
    "original_blocks": "digests of the original's paragraphs at that version (written with it)",
    "original_synced": "the day the translation was last brought in step (written with it)",
    "pin_outputs": "true: every code cell that prints needs an {output} block that pins it",
}
KERNEL_MEMORY_RANGE = (64, 8192)
"""MiB a lesson may give its kernel: enough for real lectures, still a bound."""
_REQUIRED = ("title", "lesson", "lang", "summary")
MAX_SUBSTITUTION_CHARS = 2_000
_NOTEBOOK_FIELDS = ("jupytext", "kernelspec")
"""Jupyter's own fields, kept by notebook tools; accepted and ignored."""
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class FrontMatter:
    """The validated front matter of one lesson."""

    title: str
    """Lesson title."""
    number: int
    """Lesson number."""
    lang: str
    """Language tag."""
    summary: str
    """Course-page summary."""
    slug: str | None
    """Explicit URL segment, if given."""
    sources: tuple[Source, ...]
    """Numbered sources."""
    variables: dict[str, str]
    """Letter domains."""
    conventions: dict[str, str]
    """Declared conventions."""
    functions: dict[str, str]
    """Functions the lesson defines for its claims (validated by the claims' parser)."""
    strict_claims: bool = False
    """Whether every statement must be decided (``check --strict-claims`` for one lesson)."""
    macros: dict[str, str] = field(default_factory=dict)
    """TeX macros for the lesson's formulas (name without backslash -> TeX)."""
    bibliography: tuple[str, ...] = ()
    """BibTeX files, relative to the lesson."""
    bibliography_pos: SourcePos | None = None
    """Where ``bibliography`` is declared."""
    cell_timeout: float | None = None
    """Seconds each code cell may run unless it says; None for pizarra's default."""
    kernel_memory: int | None = None
    """MiB of data the lesson's kernel may allocate; None for pizarra's default."""
    substitutions: dict[str, str] = field(default_factory=dict)
    """What each ``{{ name }}`` in the text stands for (Markdown)."""
    original: str = ""
    """A translation's original lesson file, relative to this one."""
    original_digest: str = ""
    """The original's digest when the translation was last brought in step."""
    original_blocks: tuple[str, ...] = ()
    original_synced: str = ""
    """The digests of the original's paragraphs then, to name the ones changed since."""
    pin_outputs: bool = False
    """Whether every printed output must be pinned by an ``{output}`` block."""


def parse_front_matter(
    text: str | None, origin: SourcePos
) -> tuple[FrontMatter | None, list[Diagnostic]]:
    """Validate ``text`` (the YAML between ``---`` lines; None if there is none)."""
    if text is None:
        return None, [
            Diagnostic(
                origin.shifted(col=1),
                "the lesson has no front matter",
                hint="start the file with ---, title:, lesson:, lang:, summary:, then ---",
            )
        ]
    doc, errors = load_mapping(text, origin, "the front matter")
    if doc is None:
        return None, errors
    values, where = doc.values, doc.key_pos
    for key in values:
        if key not in _FIELDS and key not in _NOTEBOOK_FIELDS:
            errors.append(
                Diagnostic(
                    where.get(str(key), origin),
                    f"unknown front matter field {key!r}",
                    hint=did_you_mean(
                        str(key),
                        [*_FIELDS, *_NOTEBOOK_FIELDS],
                        "known fields: " + ", ".join(_FIELDS),
                    ),
                )
            )
    for key in _REQUIRED:
        if key not in values:
            errors.append(
                Diagnostic(
                    origin, f"the front matter lacks `{key}`", hint=f"add `{key}:` ({_FIELDS[key]})"
                )
            )
    if errors:
        return None, errors

    def text_field(key: str) -> str:
        value = values[key]
        if not isinstance(value, str) or not value.strip():
            errors.append(
                Diagnostic(where[key], f"`{key}` must be non-empty text", hint=_FIELDS[key])
            )
            return ""
        return value.strip()

    title, summary = text_field("title"), text_field("summary")
    number = values["lesson"]
    if not isinstance(number, int) or isinstance(number, bool) or not 0 < number < 10_000:
        errors.append(
            Diagnostic(
                where["lesson"],
                f"`lesson` must be a positive whole number, not {number!r}",
                hint="write e.g. `lesson: 7`, the number course.yaml gives it",
            )
        )
        number = 0
    lang = values["lang"]
    if not isinstance(lang, str) or not supported(lang):
        errors.append(
            Diagnostic(
                where["lang"],
                f"unsupported language {lang!r}",
                hint="pizarra speaks: " + ", ".join(LANGUAGES),
            )
        )
        lang = "en"
    slug = values.get("slug")
    if slug is not None and (not isinstance(slug, str) or not _SLUG.match(slug)):
        errors.append(
            Diagnostic(
                where["slug"],
                "`slug` must be lower-case words joined by -",
                hint="for example `slug: potencias`",
            )
        )
        slug = None
    sources = read_sources(values.get("sources", []), doc, origin, errors)
    variables = _string_map(values.get("variables", {}), "variables", where, origin, errors)
    for name, domain in variables.items():
        if domain not in DOMAINS:
            errors.append(
                Diagnostic(
                    where["variables"],
                    f"unknown domain {domain!r} for variable {name!r}",
                    hint="domains: " + ", ".join(DOMAINS),
                )
            )
    conventions = _string_map(values.get("conventions", {}), "conventions", where, origin, errors)
    bib = values.get("bibliography", [])
    bib = [bib] if isinstance(bib, str) else bib
    if not isinstance(bib, list) or not all(isinstance(b, str) and b.strip() for b in bib):
        errors.append(
            Diagnostic(
                where["bibliography"],
                "`bibliography` must be a file name or a list of them",
                hint="e.g. `bibliography: references.bib`",
            )
        )
        bib = []
    check_conventions(conventions, where.get("conventions", origin), errors)
    functions = _string_map(values.get("functions", {}), "functions", where, origin, errors)
    check_functions(functions, text, origin, where.get("functions", origin), errors, lang)
    macros = read_macros(values.get("macros"), where.get("macros", origin), errors)
    strict_claims = values.get("strict_claims", False)
    if not isinstance(strict_claims, bool):
        errors.append(
            Diagnostic(
                where["strict_claims"],
                f"`strict_claims` must be true or false, not {strict_claims!r}",
                hint="write `strict_claims: true` to make undecided statements errors",
            )
        )
    pin_outputs = values.get("pin_outputs", False)
    if not isinstance(pin_outputs, bool):
        errors.append(
            Diagnostic(
                where["pin_outputs"],
                f"`pin_outputs` must be true or false, not {pin_outputs!r}",
                hint="write `pin_outputs: true` to require an {output} block for every output",
            )
        )
    cell_timeout = values.get("cell_timeout")
    if cell_timeout is not None and seconds(cell_timeout) is None:
        errors.append(
            Diagnostic(
                where["cell_timeout"],
                "`cell_timeout` must be a number of seconds between 0 and "
                f"{MAX_TIMEOUT:g}, not {cell_timeout!r}",
                hint="for example `cell_timeout: 120`; a cell's own `:timeout:` still wins",
            )
        )
    kernel_memory = values.get("kernel_memory")
    low, high = KERNEL_MEMORY_RANGE
    if kernel_memory is not None and not (
        isinstance(kernel_memory, int)
        and not isinstance(kernel_memory, bool)
        and low <= kernel_memory <= high
    ):
        errors.append(
            Diagnostic(
                where["kernel_memory"],
                f"`kernel_memory` must be a whole number of MiB between {low} and {high}, "
                f"not {kernel_memory!r}",
                hint="for example `kernel_memory: 4096` for a lesson whose cells hold 3 GiB",
            )
        )
    substitutions = _string_map(values.get("substitutions"), "substitutions", where, origin, errors)
    if any(len(v) > MAX_SUBSTITUTION_CHARS for v in substitutions.values()):
        errors.append(
            Diagnostic(
                where["substitutions"],
                f"a substitution is longer than {MAX_SUBSTITUTION_CHARS:,} characters",
            )
        )
    original, original_digest, original_blocks, synced = translation_fields(values, where, errors)
    if errors:
        return None, errors
    return (
        FrontMatter(
            title,
            number,
            lang,
            summary,
            slug,
            sources,
            variables,
            conventions,
            functions,
            strict_claims,
            macros,
            tuple(bib),
            where.get("bibliography"),
            seconds(cell_timeout) if cell_timeout is not None else None,
            kernel_memory,
            substitutions,
            original,
            original_digest,
            original_blocks,
            synced,
            pin_outputs,
        ),
        [],
    )


def _string_map(
    raw: Any, key: str, where: dict[str, SourcePos], origin: SourcePos, errors: list[Diagnostic]
) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(
        isinstance(k, str) and isinstance(v, (str, int)) and not isinstance(v, bool)
        for k, v in raw.items()
    ):
        errors.append(
            Diagnostic(
                where.get(key, origin),
                f"`{key}` must map names to text",
                hint=f"one `name: value` line per entry, indented under `{key}:`",
            )
        )
        return {}
    return {k: str(v) for k, v in raw.items()}
