"""Interactive explorers: declared in a lesson, rendered on the server, enhanced in the browser.

Each kind (``growth``...) is one module with a state resolver and a renderer, plus a
small dependency-free ES module and a stylesheet; its parser is in
:mod:`pizarra.source.explorers`. This package is the renderer's only door to them: it
dispatches on the kind, so adding a kind touches only :data:`ASSETS` and its own files.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files

from markupsafe import Markup

from pizarra.render.explorers import distribution, function, growth, states
from pizarra.render.explorers.growth_data import GrowthState
from pizarra.source.blocks import Explorer
from pizarra.source.explorers.distribution_spec import DistributionSpec
from pizarra.source.explorers.spec import ExplorerSpec, GrowthSpec

__all__ = [
    "ExplorerStateError",
    "asset_names",
    "explorer_assets",
    "render_explorer",
    "resolve_state",
    "state_pages",
    "state_params",
]

ExplorerState = GrowthState | states.State
"""Every kind's state: a growth value, or one index per parameter."""


class ExplorerStateError(Exception):
    """A query that selects no state; the server answers 400 with :attr:`message`."""

    def __init__(self, message: str, param: str):
        super().__init__(message)
        self.message = message
        """What is allowed, in the lesson's language."""
        self.param = param
        """The query parameter at fault."""


ASSETS: dict[str, tuple[str, ...]] = {
    "growth": ("explorer-growth.js", "explorer-growth.css"),
    "function": ("explorer-function.js", "explorer-growth.css", "explorer-function.css"),
    "distribution": (
        "explorer-distribution.js",
        "explorer-growth.css",
        "explorer-distribution.css",
    ),
}
"""The files (in this package) each kind's pages need, by kind: scripts then stylesheets
(``explorer-growth.css`` holds what every kind's frame, controls and table share)."""

_ASSET_FILES = {
    "explorer-growth.js": "growth.js",
    "explorer-growth.css": "growth.css",
    "explorer-function.js": "function.js",
    "explorer-function.css": "function.css",
    "explorer-distribution.js": "distribution.js",
    "explorer-distribution.css": "distribution.css",
}


def state_pages(spec: ExplorerSpec) -> tuple[tuple[str, dict[str, str]], ...]:
    """Each state but the initial one: its page's file name and the query that selects it.

    The build writes these pages beside the lesson, so an explorer's links work on
    any static host; the initial state is the lesson page itself. A growth explorer
    has at most 25 states, any other kind at most
    :data:`~pizarra.source.explorers.shared_spec.MAX_STATES`.
    """
    if isinstance(spec, GrowthSpec):
        name = spec.variable.name
        values = growth.state_values(spec)
        return tuple((growth.state_page(spec, v), {name: str(v)}) for v in values)
    return states.state_pages(spec.id, spec.params)


def state_params(spec: ExplorerSpec) -> tuple[str, ...]:
    """The query parameter names that select a state (``("n",)``)."""
    if isinstance(spec, GrowthSpec):
        return growth.params(spec)
    return tuple(p.name for p in spec.params)


def resolve_state(spec: ExplorerSpec, query: Mapping[str, str]) -> ExplorerState:
    """The state ``query`` selects; raises :class:`ExplorerStateError` for a bad value."""
    try:
        if isinstance(spec, GrowthSpec):
            return growth.resolve(spec, query)
        return states.resolve(spec.params, spec.lang, query)
    except (growth.StateError, states.StateError) as exc:
        raise ExplorerStateError(exc.message, exc.param) from None


def render_explorer(
    explorer: Explorer, lang: str, query: Mapping[str, str] | None = None
) -> Markup:
    """The explorer's complete HTML for the state in ``query`` (initial when absent)."""
    spec = explorer.spec
    state = resolve_state(spec, query or {})
    if isinstance(spec, GrowthSpec):
        assert isinstance(state, GrowthState)
        return growth.render(spec, lang, state)
    assert isinstance(state, tuple)
    if isinstance(spec, DistributionSpec):
        return distribution.render(spec, lang, state)
    return function.render(spec, lang, state)


def explorer_assets() -> dict[str, bytes]:
    """Every kind's asset files by the name they get in the site's ``assets/`` folder."""
    package = files(__package__)
    return {name: package.joinpath(source).read_bytes() for name, source in _ASSET_FILES.items()}


def asset_names(kind: str) -> tuple[str, ...]:
    """The assets a page with an explorer of ``kind`` links (``.js`` as ``type=module``)."""
    return ASSETS.get(kind, ())
