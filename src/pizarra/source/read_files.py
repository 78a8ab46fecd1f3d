"""The files a notebook's code reads relative to itself, carried into the course.

A notebook runs in its own folder, so ``open('data/heights.csv')`` or
``'../../styles/custom.css'`` names a file beside it. A lesson's cells run in the
lesson's folder (read-only), so ``pizarra import`` copies each such file there: a file
under the notebook's folder (or the book's) keeps its relative path and the code is
unchanged; one above it (``../``) is copied without the leading ``../`` steps and the
string in the code is rewritten to that path, with a note. Only string literals that
name an existing file are taken, found by reading the code with :mod:`ast` (never
running it); files in hidden folders, beyond :data:`MAX_UP` folders up, or too large
are left out, with a note. The notebook is untrusted: nothing else is read.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

MAX_UP = 3
"""How many folders above the notebook's (or the book's) a read file may be."""
MAX_FILE_BYTES = 50_000_000
MAX_TOTAL_BYTES = 200_000_000
MAX_FILES = 200
_MAGIC = re.compile(r"^\s*[%!]")
_REMOTE = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


@dataclass
class ReadFiles:
    """What the import found so far, over all cells of one lesson."""

    folder: Path
    """The notebook's folder: paths in its code are relative to it."""
    root: Path
    """The folder whose files keep their place (the notebook's, or the book's)."""
    book: bool = False
    """Whether the files under ``root`` are copied anyway (a book's are, with the rest)."""
    files: dict[str, bytes] = field(default_factory=dict)
    """Relative to the lesson's folder -> contents."""
    total: int = 0

    def code(self, source: str, cell: int, notes: list[str]) -> str:
        """``source`` with paths above the root rewritten; the files it reads recorded."""
        try:
            tree = ast.parse("\n".join("" if _MAGIC.match(s) else s for s in source.split("\n")))
        except (SyntaxError, ValueError):
            return source
        edits: list[tuple[int, int, int, str]] = []
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            target = self._take(node.value, cell, notes)
            if target is None or target == node.value:
                continue
            if node.end_lineno != node.lineno or node.end_col_offset is None:
                continue
            edits.append((node.lineno, node.col_offset, node.end_col_offset, target))
        return _rewrite(source, edits, cell, notes)

    def _take(self, value: str, cell: int, notes: list[str]) -> str | None:
        """The path the lesson's code should use for ``value``, or None if not a file."""
        if not value or len(value) > 500 or "\n" in value or "\0" in value:
            return None
        if _REMOTE.match(value) or value.startswith(("/", "~")):
            return None
        pure = PurePosixPath(value.replace("\\", "/"))
        try:
            path = (self.folder / pure).resolve()
            if not path.is_file():
                return None
        except (OSError, ValueError):
            return None
        root = self.root.resolve()
        if path.is_relative_to(root):
            if self.book or not path.is_relative_to(self.folder.resolve()):
                return None  # a book's other files are copied with it
            shown = path.relative_to(root)
            place = PurePosixPath(path.relative_to(self.folder.resolve()).as_posix())
        else:
            ups = [part for part in pure.parts if part == ".."]
            above = root
            for _ in ups:
                above = above.parent
            if len(ups) > MAX_UP or not path.is_relative_to(above):
                notes.append(f"cell {cell}: {value!r} is not copied: too far above the notebook")
                return None
            shown = path.relative_to(above)
            place = PurePosixPath(shown.as_posix())
        if any(part.startswith(".") for part in shown.parts):
            notes.append(f"cell {cell}: {value!r} is not copied: it is in a hidden folder")
            return None
        key = place.as_posix()
        if key not in self.files:
            size = path.stat().st_size
            if (
                size > MAX_FILE_BYTES
                or self.total + size > MAX_TOTAL_BYTES
                or len(self.files) >= MAX_FILES
            ):
                notes.append(f"cell {cell}: {value!r} is not copied: too large")
                return None
            self.files[key] = path.read_bytes()
            self.total += size
            notes.append(f"cell {cell}: copied {value!r}, which the code reads, to {key}")
        return key if ".." in pure.parts else value


def _rewrite(
    source: str, edits: list[tuple[int, int, int, str]], cell: int, notes: list[str]
) -> str:
    """Replace each simple string literal (one quote, no prefix, no escapes)."""
    lines = source.split("\n")
    for line, start, end, target in sorted(edits, reverse=True):
        text = lines[line - 1]
        # ast's offsets count UTF-8 bytes
        raw = text.encode()
        literal = raw[start:end].decode(errors="replace")
        quote = literal[:1]
        if quote not in ("'", '"') or literal[1:-1] != literal[1:-1].replace("\\", ""):
            notes.append(f"cell {cell}: {literal} is not rewritten: write it as {target!r}")
            continue
        if literal[-1:] != quote or quote in target:
            continue
        lines[line - 1] = (raw[:start] + f"{quote}{target}{quote}".encode() + raw[end:]).decode()
        notes.append(f"cell {cell}: the path {literal} is now {quote}{target}{quote}")
    return "\n".join(lines)
