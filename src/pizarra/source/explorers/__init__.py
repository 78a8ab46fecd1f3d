"""Explorer declarations -> typed specs: one parser per kind.

An ``:::{explorer} kind`` body is read here, at parse time, into the kind's spec
(:mod:`pizarra.source.explorers.spec`); drawing it is the renderer's
(:mod:`pizarra.render.explorers`). Adding a kind adds its parser to :data:`PARSERS`.
"""

from __future__ import annotations

from collections.abc import Callable

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.source.explorers.distribution_parse import parse_distribution
from pizarra.source.explorers.function_parse import parse_function
from pizarra.source.explorers.growth_parse import parse_growth
from pizarra.source.explorers.spec import ExplorerSpec

Parser = Callable[[str, SourcePos, str], tuple[ExplorerSpec | None, list[Diagnostic]]]
"""YAML body, fence position, language -> spec or diagnostics."""

PARSERS: dict[str, Parser] = {
    "growth": parse_growth,
    "function": parse_function,
    "distribution": parse_distribution,
}
"""Known kinds by directive argument."""


def parse_explorer(
    kind: str, body: str, pos: SourcePos, lang: str
) -> tuple[ExplorerSpec | None, list[Diagnostic]]:
    """Validate an ``:::{explorer} kind`` body; YAML line N is at file line ``pos.line + N``."""
    parse = PARSERS.get(kind.strip())
    if parse is None:
        known = ", ".join(sorted(PARSERS))
        message = f"unknown explorer kind {kind.strip()!r}"
        return None, [Diagnostic(pos, message, f"known kinds: {known}")]
    return parse(body, pos, lang)
