"""``pizarra translate --sync``: record in a translation which version of its original it
follows (``original_digest``, and its paragraphs' digests in ``original_blocks``), once
it says the same mathematics (the parity check passes). ``check`` then warns when the
original changes, naming the paragraphs changed since."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pizarra.base.errors import Diagnostic, Severity, SourcePos
from pizarra.base.fileio import write_atomic
from pizarra.check.translation import check_translation
from pizarra.source.course import MANIFEST
from pizarra.source.lesson_file import read_lesson_file
from pizarra.source.translations import block_digest, paragraphs, source_digest

FIELDS = ("original_digest", "original_blocks", "original_synced")
"""The front matter fields the tool writes (and replaces)."""

PER_LINE = 8
"""Paragraph digests per line of ``original_blocks``."""


def sync_translation(path: Path) -> list[Diagnostic]:
    """Write the original's current version into the translation at ``path``; nothing is
    written, and the reasons are returned, when it is not a translation in step."""
    root = _course_root(path)
    translation, found = read_lesson_file(path, root)
    if translation is None or any(d.severity is Severity.ERROR for d in found):
        return found
    at = SourcePos(translation.display_path, 1, 1)
    if not translation.original:
        return [
            Diagnostic(
                at,
                "not a translation: its front matter names no `original`",
                hint="add `original: ../lessons/07-....md` (the file it translates)",
            )
        ]
    original_path = path.parent / translation.original
    original, more = read_lesson_file(original_path, root)
    if original is None:
        return more or [Diagnostic(at, f"cannot read its original {translation.original!r}")]
    problems = [
        d for d in check_translation(original, translation, False) if d.severity is Severity.ERROR
    ]
    if problems:
        return problems
    text = path.read_text(encoding="utf-8")
    write_atomic(path, _with_version(text, original.source_text).encode("utf-8"))
    return []


def _course_root(path: Path) -> Path | None:
    """The course folder above a translation (the nearest with ``course.yaml``)."""
    for folder in path.resolve().parents:
        if (folder / MANIFEST).is_file():
            return folder
    return None


def _with_version(text: str, original: str) -> str:
    """``text`` with its ``original_digest`` and ``original_blocks`` for ``original``."""
    lines = text.split("\n")
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
    head, body = lines[1:end], lines[end:]
    kept: list[str] = []
    skipping = False
    for line in head:
        if any(line.startswith(f"{name}:") for name in FIELDS):
            skipping = True
            continue
        if skipping and line.startswith((" ", "\t")):
            continue
        skipping = False
        kept.append(line)
    digests = [block_digest(chunk) for _, chunk in paragraphs(original)]
    today = datetime.now(UTC).date().isoformat()
    written = [f"original_digest: {source_digest(original)}", f"original_synced: {today}"]
    written.append("original_blocks: >-")
    written += [
        "  " + " ".join(digests[i : i + PER_LINE]) for i in range(0, len(digests), PER_LINE)
    ] or ["  ''"]
    at = next((i + 1 for i, line in enumerate(kept) if line.startswith("original:")), len(kept))
    return "\n".join([lines[0], *kept[:at], *written, *kept[at:], *body])
