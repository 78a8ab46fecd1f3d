"""Interactive explorers: declared in a lesson, rendered on the server, enhanced in the browser.

Each kind (``growth``...) is one module with a parser, a state resolver and a
renderer, plus a small dependency-free ES module and a stylesheet. This package
is the pipeline's only door to them: it dispatches on the kind, so adding a kind
touches only :data:`KINDS` and its own files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.resources import files

from markupsafe import Markup

from pizarra.errors import Diagnostic, SourcePos
from pizarra.explorers import growth
from pizarra.explorers.growth_data import GrowthState
from pizarra.explorers.growth_parse import parse_growth
from pizarra.explorers.spec import ExplorerSpec
from pizarra.model import Explorer

__all__ = [
    "ExplorerStateError",
    "asset_names",
    "explorer_assets",
    "parse_explorer",
    "render_explorer",
    "resolve_state",
    "state_pages",
    "state_params",
]

ExplorerState = GrowthState
"""Every kind's state; a union once a second kind exists."""


class ExplorerStateError(Exception):
    """A query that selects no state; the server answers 400 with :attr:`message`."""

    def __init__(self, message: str, param: str):
        super().__init__(message)
        self.message = message
        """What is allowed, in the lesson's language."""
        self.param = param
        """The query parameter at fault."""


@dataclass(frozen=True)
class Kind:
    """What the package needs to know about one explorer kind."""

    parse: Callable[[str, SourcePos, str], tuple[ExplorerSpec | None, list[Diagnostic]]]
    """YAML body, fence position, language -> spec or diagnostics."""
    assets: tuple[str, ...]
    """Files (in this package) the kind's pages need: scripts then stylesheets."""


KINDS: dict[str, Kind] = {
    "growth": Kind(parse_growth, ("explorer-growth.js", "explorer-growth.css")),
}
"""Known kinds by directive argument."""

_ASSET_FILES = {"explorer-growth.js": "growth.js", "explorer-growth.css": "growth.css"}


def parse_explorer(
    kind: str, body: str, pos: SourcePos, lang: str
) -> tuple[ExplorerSpec | None, list[Diagnostic]]:
    """Validate an ``:::{explorer} kind`` body; YAML line N is at file line ``pos.line + N``."""
    entry = KINDS.get(kind.strip())
    if entry is None:
        known = ", ".join(sorted(KINDS))
        message = f"unknown explorer kind {kind.strip()!r}"
        return None, [Diagnostic(pos, message, f"known kinds: {known}")]
    return entry.parse(body, pos, lang)


def state_pages(spec: ExplorerSpec) -> tuple[tuple[str, dict[str, str]], ...]:
    """Each state but the initial one: its page's file name and the query that selects it.

    The build writes these pages beside the lesson, so an explorer's links work on
    any static host; the initial state is the lesson page itself.
    """
    name = spec.variable.name
    return tuple((growth.state_page(spec, v), {name: str(v)}) for v in growth.state_values(spec))


def state_params(spec: ExplorerSpec) -> tuple[str, ...]:
    """The query parameter names that select a state (``("n",)``)."""
    return growth.params(spec)


def resolve_state(spec: ExplorerSpec, query: Mapping[str, str]) -> ExplorerState:
    """The state ``query`` selects; raises :class:`ExplorerStateError` for a bad value."""
    try:
        return growth.resolve(spec, query)
    except growth.StateError as exc:
        raise ExplorerStateError(exc.message, exc.param) from None


def render_explorer(
    explorer: Explorer, lang: str, query: Mapping[str, str] | None = None
) -> Markup:
    """The explorer's complete HTML for the state in ``query`` (initial when absent)."""
    state = resolve_state(explorer.spec, query or {})
    return growth.render(explorer.spec, lang, state)


def explorer_assets() -> dict[str, bytes]:
    """Every kind's asset files by the name they get in the site's ``assets/`` folder."""
    package = files(__package__)
    return {name: package.joinpath(source).read_bytes() for name, source in _ASSET_FILES.items()}


def asset_names(kind: str) -> tuple[str, ...]:
    """The assets a page with an explorer of ``kind`` links (``.js`` as ``type=module``)."""
    entry = KINDS.get(kind)
    return entry.assets if entry is not None else ()
