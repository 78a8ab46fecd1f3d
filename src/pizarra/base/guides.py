"""``pizarra help [TOPIC]``: the guides for authors, from the installed package.

A hint names ``pizarra help authoring``, not a file of pizarra's repository, which a
``pip install`` does not bring. The wheel carries the guides (written into it by the
build, ``setup.py``); a source checkout reads them from its ``docs/`` folder.
"""

from __future__ import annotations

from pathlib import Path

TOPICS = {
    "authoring": "writing lessons: syntax, code cells, what `pizarra check` proves",
    "explorers": "interactive figures declared in a lesson",
    "math": "the TeX formulas accept and how statements are decided",
}


def guide(topic: str) -> str | None:
    """The text of the guide ``topic``, or None when it is not installed."""
    if topic not in TOPICS:
        return None
    package = Path(__file__).parents[1]
    for folder in (package / "docs", package.parents[1] / "docs"):
        path = folder / f"{topic}.md"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None
