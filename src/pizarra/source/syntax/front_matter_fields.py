"""The front matter's fields with a structure of their own: conventions, function
definitions and sources, each checked where it is written."""

from __future__ import annotations

import re
from typing import Any

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.source.blocks import Source
from pizarra.source.syntax.yaml_source import YamlDoc

CONVENTIONS = {
    "zero_to_the_zero": "the value of 0^0: a number, or 'undefined'",
    "log": "the base of \\log written without one: 10, e or 2",
    "bare_comma": "thousands_or_list: 20,000 groups thousands, j = 1,2 is a list (English)",
    "redefinition": "replaces: a function defined again in the text replaces the earlier one",
}
LOG_BASES = ("10", "e", "2")
_URL = re.compile(r"^https?://[^\s<>\"]+$")


def check_conventions(
    conventions: dict[str, str], pos: SourcePos, errors: list[Diagnostic]
) -> None:
    """Each convention must be one pizarra knows, with a value it reads."""
    for key, value in conventions.items():
        if key not in CONVENTIONS:
            errors.append(
                Diagnostic(
                    pos,
                    f"unknown convention {key!r}",
                    hint="conventions: "
                    + "; ".join(f"{name} ({what})" for name, what in CONVENTIONS.items()),
                )
            )
        elif key == "bare_comma" and value.strip() != "thousands_or_list":
            errors.append(
                Diagnostic(
                    pos,
                    f"conventions: bare_comma must be thousands_or_list, not {value!r}",
                    hint="`bare_comma: thousands_or_list` reads 20,000 as twenty thousand"
                    " and j = 1,2 as a list",
                )
            )
        elif key == "redefinition" and value.strip() != "replaces":
            errors.append(
                Diagnostic(
                    pos,
                    f"conventions: redefinition must be replaces, not {value!r}",
                    hint="`redefinition: replaces` lets f(x) = ... be defined again further on",
                )
            )
        elif key == "log" and value.strip() not in LOG_BASES:
            errors.append(
                Diagnostic(
                    pos,
                    f"conventions: log must be 10, e or 2, not {value!r}",
                    hint="e.g. `log: e` when \\log means the natural logarithm",
                )
            )


def check_functions(
    functions: dict[str, str],
    text: str,
    origin: SourcePos,
    pos: SourcePos,
    errors: list[Diagnostic],
    lang: str,
) -> None:
    """Each definition must read as a function (the same parser, numerals in ``lang``)."""
    from pizarra.math.exact.definitions import parse_definition

    names = frozenset(key.split("(")[0].lstrip("\\").strip() for key in functions)
    for key, body in functions.items():
        result = parse_definition(key, body, names, lang)
        if isinstance(result, str):
            where = _entry_pos(text, origin, pos, key)
            errors.append(Diagnostic(where, f"functions: {result}", hint='e.g. `g: "x^2 + 1"`'))


def _entry_pos(text: str, origin: SourcePos, section: SourcePos, key: str) -> SourcePos:
    """Where the entry ``key`` of the mapping under ``section`` is written (else ``section``)."""
    lines = text.split("\n")
    start = section.line - origin.line + 1
    for index in range(start, len(lines)):
        line = lines[index]
        if line.strip() and not line[:1].isspace():
            break
        if line.strip().lstrip("'\"").startswith(key):
            return SourcePos(section.path, origin.line + index, len(line) - len(line.lstrip()) + 1)
    return section


def read_sources(
    raw: Any, doc: YamlDoc, origin: SourcePos, errors: list[Diagnostic]
) -> tuple[Source, ...]:
    """``sources``: a list of entries with exactly ``id``, ``title`` and an http(s) ``url``."""
    pos = doc.key_pos.get("sources", origin)
    if not isinstance(raw, list):
        errors.append(
            Diagnostic(
                pos,
                "`sources` must be a list of entries with id, title and url",
                hint="each entry: `- id: ...`, then `title: ...` and `url: ...` indented under it",
            )
        )
        return ()
    sources: list[Source] = []
    seen: set[str] = set()
    for index, entry in enumerate(raw, start=1):
        pos = doc.item("sources", index - 1, origin)
        if not (
            isinstance(entry, dict)
            and set(entry) == {"id", "title", "url"}
            and all(isinstance(entry[k], str) and entry[k].strip() for k in ("id", "title", "url"))
        ):
            errors.append(
                Diagnostic(
                    pos,
                    f"source {index} must have exactly `id`, `title` and `url` (all text)",
                    hint="- id: vaswani2017\n      title: Attention Is All You Need\n      url: https://arxiv.org/abs/1706.03762",
                )
            )
            continue
        key = entry["id"].strip()
        if key in seen:
            errors.append(
                Diagnostic(
                    pos, f"source id {key!r} is used twice", hint="give each source its own id"
                )
            )
        if not _URL.match(entry["url"].strip()):
            errors.append(
                Diagnostic(
                    pos,
                    f"source {key!r} needs an http(s) url",
                    hint="write the full address, starting with https://",
                )
            )
        seen.add(key)
        sources.append(Source(key, entry["title"].strip(), entry["url"].strip(), pos))
    return tuple(sources)
