"""Errors are values: every problem an author can cause carries a source position.

Stages collect :class:`Diagnostic` values instead of raising, so one run reports
every error at once; the CLI is the single place that turns them into an exit code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path


@dataclass(frozen=True, order=True)
class SourcePos:
    """A place in a source file, as an author's editor shows it."""

    path: str
    """The file, as given on the command line or relative to the course folder."""
    line: int
    """1-based line number."""
    col: int = 1
    """1-based column number."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    def shifted(self, lines: int = 0, col: int | None = None) -> SourcePos:
        """The position ``lines`` further down, optionally at another column."""
        return SourcePos(self.path, self.line + lines, self.col if col is None else col)


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a source, ready to show to its author."""

    pos: SourcePos
    """Where the problem is."""
    message: str
    """What is wrong, in one sentence."""
    hint: str = ""
    """How to fix it; may be empty when the message says it all."""
    detail: str = ""
    """Extra lines shown under the message (a diff, a traceback)."""
    severity: Severity = Severity.ERROR
    """Errors fail the run; warnings fail it only with ``--strict``."""

    def format(self) -> str:
        """``file:line:col: message`` then the detail and the hint, indented."""
        head = f"{self.pos}: {self.severity.value}: {self.message}"
        parts = [head]
        if self.detail:
            parts.extend("    " + line for line in self.detail.rstrip("\n").splitlines())
        if self.hint:
            parts.append(f"    hint: {self.hint}")
        return "\n".join(parts)


@dataclass
class Diagnostics:
    """A collector passed through the stages of one run."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, pos: SourcePos, message: str, hint: str = "", detail: str = "") -> None:
        self.items.append(Diagnostic(pos, message, hint, detail))

    def warning(self, pos: SourcePos, message: str, hint: str = "", detail: str = "") -> None:
        self.items.append(Diagnostic(pos, message, hint, detail, Severity.WARNING))

    def extend(self, diagnostics: list[Diagnostic]) -> None:
        self.items.extend(diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity is Severity.ERROR]

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=lambda d: (d.pos, d.message))

    def __bool__(self) -> bool:
        return bool(self.items)


class PizarraError(Exception):
    """A run that cannot go on; carries the diagnostics that stopped it."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.format() for d in diagnostics))


def display_path(path: Path, root: Path | None = None) -> str:
    """A path as authors typed it: relative to ``root`` (or the cwd) when inside it."""
    resolved = path.resolve()
    # The working directory has no symlinks to resolve (POSIX ``getcwd``).
    for base in (root.resolve() if root is not None else None, Path.cwd()):
        if base is not None and resolved.is_relative_to(base):
            return str(resolved.relative_to(base))
    return str(path)
