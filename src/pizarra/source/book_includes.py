"""The Markdown files a book's lectures ``{include}``, copied with the book.

A book keeps shared parts (an admonition, a set of definitions) as ``.md`` files that
its toc does not list: they are no pages of their own, so the import copies them only
because a lecture, or a part it includes, names them. Paths are read as the directive
reads them (beside the including file, or from the book's folder with a leading ``/``)
and stay inside the book; the walk is bounded by the number of files a book may copy.
"""

from __future__ import annotations

import re
from pathlib import Path

_INCLUDE = re.compile(r"^ {0,3}(?:`{3,}|~{3,}|:{3,})\s*\{include\}[ \t]+(\S[^\n]*?)\s*$", re.M)
MAX_BYTES = 1_000_000
"""An included file larger than this is not read for further includes (the build refuses
it anyway, with its reason)."""


def included_files(folder: Path, sources: list[Path], limit: int) -> set[Path]:
    """The resolved paths of the ``.md`` files that ``sources`` include, at any depth."""
    root = folder.resolve()
    found: set[Path] = set()
    todo = [source.resolve() for source in sources]
    seen = set(todo)
    while todo and len(found) < limit:
        source = todo.pop()
        for name in _INCLUDE.findall(_text(source)):
            base = root if name.startswith("/") else source.parent
            path = (base / name.lstrip("/")).resolve()
            if path in seen or not path.is_relative_to(root) or not path.is_file():
                continue
            seen.add(path)
            if path.suffix == ".md":
                found.add(path)
            todo.append(path)
    return found


def _text(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            return handle.read(MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""
