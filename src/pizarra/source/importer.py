"""``pizarra import``: a Jupyter notebook or a jupytext MyST file -> a pizarra lesson.

The lesson keeps the body as written (pizarra reads the MyST that Jupyter Book
lectures use) and gets pizarra's front matter: the title from the notebook's
metadata or its first ``#`` heading (which is removed, since the page prints the
title), the number and language given, and a summary from the first paragraph.
What pizarra refuses and cannot keep (raw HTML blocks) is dropped with a note. A
notebook's code cells become the lesson's only code cells: its outputs and markdown stay
text (:mod:`pizarra.source.notebook`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from pizarra.base.yaml_compose import safe_load
from pizarra.source.fences import closes, opening_fence
from pizarra.source.notebook import code_cell, code_cell_count, markdown_cell

_HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$")
_MARKUP = re.compile(r"\{[\w:-]+\}`([^`]*)`|[*_`]|\[([^\]]*)\]\([^)]*\)")


@dataclass(frozen=True)
class Imported:
    """A converted lesson and what the conversion had to drop."""

    text: str
    """The lesson source, front matter included."""
    notes: tuple[str, ...]
    """One line per thing dropped or guessed, for the author to review."""


class NotImportable(Exception):
    """The input cannot be read as a notebook or a MyST file."""


def import_file(
    path: Path, number: int = 1, lang: str = "en", bibliography: tuple[str, ...] = ()
) -> Imported:
    """Convert ``path`` (``.ipynb`` or ``.md``); ``bibliography`` lists .bib files for {cite}."""
    notes: list[str] = []
    if path.suffix == ".ipynb":
        parts, meta_title = _notebook_parts(path, notes)
    else:
        text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
        body, meta_title = _strip_front_matter(text)
        parts = [_Part(body, 1 + text[: len(text) - len(body)].count("\n"), True)]
    return _as_lesson(parts, meta_title, number, lang, bibliography, notes)


@dataclass(frozen=True)
class _Part:
    """A stretch of the lesson's body: markdown, which is tidied, or code, kept as is."""

    text: str
    first_line: int
    """Where it starts in the input file (for notes)."""
    markdown: bool
    cell: int = 0
    """The notebook cell it comes from (1-based), or 0 for a MyST file."""


def _strip_front_matter(text: str) -> tuple[str, str]:
    if not text.startswith("---\n"):
        return text, ""
    end = text.find("\n---\n", 4)
    if end < 0:
        return text, ""
    try:
        meta = safe_load(text[4:end]) or {}
    except yaml.YAMLError:
        meta = {}
    title = meta.get("title", "") if isinstance(meta, dict) else ""
    return text[end + 5 :], title if isinstance(title, str) else ""


def _notebook_parts(path: Path, notes: list[str]) -> tuple[list[_Part], str]:
    import nbformat

    try:
        notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    except Exception as exc:  # nbformat raises many kinds for a malformed file
        raise NotImportable(f"{path}: not a readable notebook ({exc})") from exc
    parts, code_cells = [], 0
    try:
        for index, cell in enumerate(notebook.cells, start=1):
            source = cell.source.rstrip("\n") if isinstance(cell.source, str) else ""
            if cell.cell_type == "markdown":
                parts.append(_Part(markdown_cell(source, index, notes), 1, True, index))
            elif cell.cell_type == "code":
                meta, outputs = cell.get("metadata", {}), cell.get("outputs", [])
                parts.append(_Part(code_cell(source, meta, outputs, index, notes), 1, False, index))
                code_cells += 1
    except ValueError as exc:
        raise NotImportable(f"{path}: {exc}") from exc
    if code_cell_count("\n\n".join(part.text for part in parts)) != code_cells:
        raise NotImportable(f"{path}: its cells would not stay apart in a lesson")
    title = notebook.metadata.get("title", "")
    return parts, title if isinstance(title, str) else ""


def _as_lesson(
    parts: list[_Part],
    meta_title: str,
    number: int,
    lang: str,
    bibliography: tuple[str, ...],
    notes: list[str],
) -> Imported:
    tidy = _Tidy(meta_title, notes)
    kept = [tidy.markdown(part) if part.markdown else part.text for part in parts]
    title = " ".join(tidy.title.split())  # one line, whatever the notebook's metadata holds
    if not title:
        title = "Untitled lesson"
        notes.append("no title found: set `title:` in the front matter")
    front: dict[str, object] = {
        "title": title,
        "lesson": number,
        "lang": lang,
        "summary": tidy.summary or title,
    }
    if bibliography:
        front["bibliography"] = list(bibliography)
    head = (
        "---\n" + yaml.safe_dump(front, allow_unicode=True, sort_keys=False, width=1000) + "---\n"
    )
    body = "\n\n".join(part for part in kept if part.strip()) + "\n"
    return Imported(head + body.lstrip("\n"), tuple(notes))


class _Tidy:
    """Markdown made a lesson's: its title and summary found, raw HTML dropped.

    Fences are told as CommonMark tells them (:mod:`pizarra.source.fences`), so what is
    inside one, a listing or a cell, is never taken for a heading or a directive.
    """

    def __init__(self, title: str, notes: list[str]):
        self.title = title
        self.summary = ""
        self.notes = notes

    def markdown(self, part: _Part) -> str:
        kept: list[str] = []
        fence: str | None = None
        dropping = False
        for index, line in enumerate(part.text.split("\n"), start=part.first_line):
            if fence is not None:
                if closes(line, fence):
                    fence = None
                    if dropping:
                        dropping = False
                        continue
                if not dropping:
                    kept.append(line)
                continue
            opening = opening_fence(line)
            if opening is not None:
                fence, info = opening
                name, _, rest = info.partition("}")
                if name == "{code-cell" and not rest.strip():
                    line = f"{line.rstrip()} python"  # the language of the lecture's kernel
                if name == "{raw" and rest.strip().lower() == "html":
                    dropping = True
                    where = f"cell {part.cell}" if part.cell else f"line {index}"
                    self.notes.append(
                        f"{where}: dropped a {{raw}} html block (raw HTML is not allowed)"
                    )
                    continue
                kept.append(line)
                continue
            heading = _HEADING.match(line)
            if heading and not self.title:
                self.title = heading.group(1).strip()
                continue
            if heading and heading.group(1).strip() == self.title and not self.summary:
                continue
            if (
                self.title
                and not self.summary
                and line.strip()
                and not line.startswith(("#", "(", "%", "+++", ">", "-", "*", "|", "$"))
            ):
                self.summary = _plain(line)
            kept.append(line)
        return "\n".join(kept).strip("\n")


def _plain(line: str) -> str:
    text = _MARKUP.sub(lambda m: m.group(1) or m.group(2) or "", line).strip()
    text = re.sub(r"\$[^$]*\$", "", text)
    sentence = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    return " ".join(sentence.split())[:200]
