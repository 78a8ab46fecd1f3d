"""The ``growth`` explorer's HTML: the Jinja template ``growth.html``, autoescape on.

The markup is complete without JavaScript: links to every state (each state is a
page of its own, so this works from any static host), the chart, the readouts,
the summary and the data table all show the selected state. ``growth.js`` only
swaps the links for a range input and rewrites the same elements in place.

Classes start with ``px-``; ``data-*`` attributes are what the script reads.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Template

from pizarra.render.templating import growth_environment

NAME = "growth.html"
"""The template, beside this module."""
PARTS = "growth_parts.html"
"""Its macros for the markup every state of one explorer shares."""


@cache
def growth_template() -> Template:
    """The compiled template (from the install when it was compiled there)."""
    return growth_environment().get_template(NAME)


@cache
def growth_parts() -> Any:
    """The macros of :data:`PARTS`, called from Python (each returns Markup)."""
    return growth_environment().get_template(PARTS).module


@cache
def growth_environment_template(name: str) -> Template:
    """Another explorer kind's template (``function.html``...), from the same environment."""
    return growth_environment().get_template(name)
