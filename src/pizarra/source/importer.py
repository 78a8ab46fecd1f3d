"""``pizarra import``: a Jupyter notebook or a jupytext MyST file -> a pizarra lesson.

The lesson keeps the body as written (pizarra reads the MyST that Jupyter Book
lectures use) and gets pizarra's front matter: the title from the notebook's
metadata or its first ``#`` heading (which is removed, since the page prints the
title), the number and language given, and a summary from the first paragraph.
What pizarra refuses and cannot keep (raw HTML blocks) is dropped with a note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

_FENCE = re.compile(r"^(`{3,}|:{3,})\s*(\{[^}]*\})?\s*(.*)$")
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
    if path.suffix == ".ipynb":
        body, meta_title = _notebook_body(path)
        first_line = 1
    else:
        text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
        body, meta_title = _strip_front_matter(text)
        first_line = 1 + text[: len(text) - len(body)].count("\n")
    return _as_lesson(body, meta_title, number, lang, bibliography, first_line)


def _strip_front_matter(text: str) -> tuple[str, str]:
    if not text.startswith("---\n"):
        return text, ""
    end = text.find("\n---\n", 4)
    if end < 0:
        return text, ""
    try:
        meta = yaml.safe_load(text[4:end]) or {}
    except yaml.YAMLError:
        meta = {}
    title = meta.get("title", "") if isinstance(meta, dict) else ""
    return text[end + 5 :], title if isinstance(title, str) else ""


def _notebook_body(path: Path) -> tuple[str, str]:
    import nbformat

    try:
        notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    except Exception as exc:  # nbformat raises many kinds for a malformed file
        raise NotImportable(f"{path}: not a readable notebook ({exc})") from exc
    parts = []
    for cell in notebook.cells:
        source = cell.source.rstrip("\n")
        if cell.cell_type == "markdown":
            parts.append(source)
        elif cell.cell_type == "code":
            parts.append(_code_cell(source, cell.get("metadata", {}), cell.get("outputs", [])))
    title = notebook.metadata.get("title", "")
    return "\n\n".join(parts) + "\n", title if isinstance(title, str) else ""


def _code_cell(source: str, metadata: dict[str, Any], outputs: list[Any]) -> str:
    tags = metadata.get("tags") or []
    head = f":tags: [{', '.join(tags)}]\n" if tags else ""
    text = "```{code-cell} python\n" + head + source + "\n```"
    shown = ""
    for output in outputs:
        if output.get("output_type") == "stream" and output.get("name") == "stdout":
            shown += output.get("text", "")
        elif output.get("output_type") == "execute_result":
            shown += output.get("data", {}).get("text/plain", "") + "\n"
    if shown.strip():
        text += "\n\n```{output}\n" + shown.rstrip("\n") + "\n```"
    return text


def _as_lesson(
    body: str,
    meta_title: str,
    number: int,
    lang: str,
    bibliography: tuple[str, ...],
    first_line: int,
) -> Imported:
    lines = body.split("\n")
    notes: list[str] = []
    kept: list[str] = []
    title, summary = meta_title, ""
    fence: str | None = None
    dropping = False
    for index, line in enumerate(lines, start=first_line):
        match = _FENCE.match(line.strip())
        if fence is None and match and match.group(2):
            fence = match.group(1)
            name = match.group(2)
            if name == "{code-cell}" and not match.group(3).strip():
                line = f"{fence}{{code-cell}} python"  # the language of the lecture's kernel
            if name == "{raw}" and match.group(3).strip().lower() == "html":
                dropping = True
                notes.append(
                    f"line {index}: dropped a {{raw}} html block (raw HTML is not allowed)"
                )
                continue
        elif (
            fence is not None
            and line.strip() == fence[0] * len(line.strip())
            and len(line.strip()) >= len(fence)
        ):
            fence = None
            if dropping:
                dropping = False
                continue
        if dropping:
            continue
        heading = _HEADING.match(line) if fence is None else None
        if heading and not title:
            title = heading.group(1).strip()
            continue
        if heading and heading.group(1).strip() == title and not summary:
            continue
        if (
            fence is None
            and title
            and not summary
            and line.strip()
            and not line.startswith(("#", "(", "%", "+++", ">", "-", "*", "|", "$"))
        ):
            summary = _plain(line)
        kept.append(line)
    if not title:
        title = "Untitled lesson"
        notes.append("no title found: set `title:` in the front matter")
    front: dict[str, object] = {
        "title": title,
        "lesson": number,
        "lang": lang,
        "summary": summary or title,
    }
    if bibliography:
        front["bibliography"] = list(bibliography)
    head = (
        "---\n" + yaml.safe_dump(front, allow_unicode=True, sort_keys=False, width=1000) + "---\n"
    )
    return Imported(head + "\n".join(kept).lstrip("\n"), tuple(notes))


def _plain(line: str) -> str:
    text = _MARKUP.sub(lambda m: m.group(1) or m.group(2) or "", line).strip()
    text = re.sub(r"\$[^$]*\$", "", text)
    sentence = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    return " ".join(sentence.split())[:200]
