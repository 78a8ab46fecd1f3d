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
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from pizarra.base.yaml_compose import safe_load
from pizarra.source.attachments import attached_images
from pizarra.source.fences import closes, opening_fence
from pizarra.source.html_markdown import html_to_markdown
from pizarra.source.imported_conventions import imported_conventions
from pizarra.source.jupyter_anchors import jupyter_anchors, point_links
from pizarra.source.load_option import myst_body
from pizarra.source.local_images import local_images
from pizarra.source.markdown_tidy import atx_headings, inline_environments, tight_display_math
from pizarra.source.notebook import code_cell, code_cell_count, markdown_cell
from pizarra.source.read_files import ReadFiles

_HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$")
_ANY_HEADING = re.compile(r"^(#{1,6})(\s)")
_BOLD_TITLE = re.compile(r"^\s*(\*\*|__)([^*_\n]{1,200})\1\s*$")
"""A paragraph that is one bold line: how many notebooks write their title."""
_PREAMBLE = re.compile(
    r"^\s*$|^#{2,6}\s|^\([\w:.-]+\)=\s*$|^\s*!\[|^\s*\[!\[|^\s*<|^\s*\*\*\*\s*$|^\+\+\+|^%"
)
"""Lines that may come before a title: blanks, lesser headings (a license line), labels,
images, badges, MyST block breaks (``+++``) and comments (``%``)."""
_NOTEBOOK_LINK = re.compile(r"\]\((?![a-z][a-z0-9+.-]*:)([^()\s]+?)\.ipynb(#[^()\s]*)?\)", re.I)
_MARKUP = re.compile(r"\{[\w:-]+\}`([^`]*)`|[*_`]|\[([^\]]*)\]\([^)]*\)")


_BOOK_ONLY = {
    "tableofcontents": "the course page lists the lessons",
    "nb-exec-table": "pizarra's verification report says what ran",
    "bibliography": "each lesson lists the sources it cites",
}
"""Jupyter Book directives about the book as a whole, which the course does itself."""


@dataclass(frozen=True)
class Imported:
    """A converted lesson and what the conversion had to drop."""

    text: str
    """The lesson source, front matter included."""
    notes: tuple[str, ...]
    """One line per thing dropped or guessed, for the author to review."""
    files: tuple[tuple[str, bytes], ...] = ()
    """Files to write beside the lesson (a notebook's attachments): relative path, bytes."""


class NotImportable(Exception):
    """The input cannot be read as a notebook or a MyST file."""


def import_file(
    path: Path,
    number: int = 1,
    lang: str = "en",
    bibliography: tuple[str, ...] = (),
    lessons: frozenset[str] | None = None,
    pin_outputs: bool = False,
    root: Path | None = None,
    cell_timeout: float | None = None,
) -> Imported:
    """Convert ``path`` (``.ipynb`` or ``.md``); ``bibliography`` lists .bib files for {cite};
    ``cell_timeout`` (a book's ``execute: timeout``) goes into the front matter.
    ``lessons`` names (file stems) the lessons of the course: a link to a sibling notebook
    among them becomes a lesson link, one to another notebook its text, with a note (None:
    only the notebook itself). A MyST file: see ``myst_body``. A notebook's saved outputs
    become ``{output}`` blocks (pinned: each build checks the cell still prints them)
    only with ``pin_outputs``; by default the page shows what
    the cell prints when the lesson is built, as Jupyter Book shows a re-executed
    notebook, since outputs saved under other library versions rarely match. Image files
    it shows are found beside it (under ``root``, the book's folder, when given) and
    returned in ``files`` (:mod:`pizarra.source.local_images`), and so are the files its
    code reads relative to it (:mod:`pizarra.source.read_files`).
    """
    notes: list[str] = []
    files: list[tuple[str, bytes]] = []
    if path.suffix == ".ipynb":
        reads = ReadFiles(path.parent, root or path.parent, book=root is not None)
        parts, meta_title = _notebook_parts(
            path, notes, lessons or frozenset(), files, pin_outputs, reads
        )
        files.extend(reads.files.items())
    else:
        text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
        body, meta_title = _strip_front_matter(text)
        start = 1 + text[: len(text) - len(body)].count("\n")
        parts = [_Part(myst_body(body, path, root or path.parent, notes), start, True)]
    imported = _as_lesson(
        parts,
        meta_title,
        number,
        lang,
        bibliography,
        notes,
        _title_from_name(path.stem),
        cell_timeout,
    )
    text = local_images(imported.text, path.parent, root or path.parent, notes, files)
    return replace(imported, text=text, notes=tuple(notes), files=tuple(files))


def _title_from_name(stem: str) -> str:
    """A title from a file name: ``01_02_Phugoid_Oscillation`` -> ``Phugoid Oscillation``."""
    words = re.sub(r"^[\d._-]+", "", stem).replace("_", " ").replace("-", " ").split()
    return " ".join(words) or stem


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


def _notebook_parts(
    path: Path,
    notes: list[str],
    lessons: frozenset[str],
    files: list[tuple[str, bytes]],
    pin_outputs: bool = False,
    reads: ReadFiles | None = None,
) -> tuple[list[_Part], str]:
    import nbformat

    try:
        notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    except Exception as exc:  # nbformat raises many kinds for a malformed file
        raise NotImportable(f"{path}: not a readable notebook ({exc})") from exc
    kernel = notebook.metadata.get("kernelspec", {})
    language = kernel.get("language", "python") if isinstance(kernel, dict) else "python"
    if isinstance(language, str) and language.lower() not in ("python", "python3", ""):
        raise NotImportable(f"{path}: its kernel runs {language}; pizarra's cells run Python")
    parts, code_cells = [], 0
    anchors = jupyter_anchors([c.source for c in notebook.cells if c.cell_type == "markdown"])
    try:
        for index, cell in enumerate(notebook.cells, start=1):
            source = cell.source.rstrip("\n") if isinstance(cell.source, str) else ""
            if cell.cell_type == "markdown":
                source = atx_headings(html_to_markdown(source, f"cell {index}", notes))
                source = point_links(inline_environments(source), anchors, index, notes)
                source = _notebook_links(source, lessons, index, notes)
                source = attached_images(cell, source, path.stem, index, notes, files)
                parts.append(_Part(markdown_cell(source, index, notes), 1, True, index))
            elif cell.cell_type == "code":
                meta, outputs = cell.get("metadata", {}), cell.get("outputs", [])
                meta = _with_raises(meta, outputs, index, notes)
                if not pin_outputs:
                    outputs = []
                if reads is not None:
                    source = reads.code(source, index, notes)
                parts.append(_Part(code_cell(source, meta, outputs, index, notes), 1, False, index))
                code_cells += 1
            else:
                notes.append(
                    f"cell {index}: dropped a {cell.cell_type} cell (not markdown or code)"
                )
    except ValueError as exc:
        raise NotImportable(f"{path}: {exc}") from exc
    if code_cell_count("\n\n".join(part.text for part in parts)) != code_cells:
        raise NotImportable(f"{path}: its cells would not stay apart in a lesson")
    title = notebook.metadata.get("title", "")
    return parts, title if isinstance(title, str) else ""


def _with_raises(meta: Any, outputs: list[Any], index: int, notes: list[str]) -> Any:
    """A cell whose saved output is an error shows that error: it is tagged
    ``raises-exception``, as Jupyter Book wants, so the cells after it still run."""
    if not any(isinstance(o, dict) and o.get("output_type") == "error" for o in outputs):
        return meta
    meta = dict(meta) if isinstance(meta, dict) else {}
    tags = meta.get("tags")
    tags = list(tags) if isinstance(tags, list) else []
    if "raises-exception" not in tags:
        tags.append("raises-exception")
        notes.append(f"cell {index}: its saved output is an error: tagged `raises-exception`")
    meta["tags"] = tags
    return meta


def _notebook_links(text: str, lessons: frozenset[str], index: int, notes: list[str]) -> str:
    """``[text](other.ipynb)`` -> ``[text](other.md)`` when ``other`` is a lesson of the
    course; else its text alone (the notebook is not part of the site)."""

    def link(match: re.Match[str]) -> str:
        name = match.group(1)
        if name.rsplit("/", 1)[-1] in lessons:
            return f"]({name}.md{match.group(2) or ''})"
        notes.append(
            f"cell {index}: the link to {name}.ipynb is kept as text: that notebook is not"
            " imported into this course"
        )
        return "]"

    replaced = _NOTEBOOK_LINK.sub(link, text)
    if replaced == text:
        return text
    return re.sub(r"(?<!!)\[([^\[\]]*)\](?!\(|\[)", r"\1", replaced)


def _as_lesson(
    parts: list[_Part],
    meta_title: str,
    number: int,
    lang: str,
    bibliography: tuple[str, ...],
    notes: list[str],
    fallback: str = "",
    cell_timeout: float | None = None,
) -> Imported:
    tidy = _Tidy(meta_title, notes)
    if not tidy.title:
        tidy.take_title(parts)
    tidy.demote = any(
        tidy.title_at != (n, at) and _HEADING.match(line).group(1).strip() != tidy.title  # type: ignore[union-attr]
        for n, part in enumerate(parts)
        if part.markdown
        for at, line in _h1_lines(part)
    )
    kept = [tidy.markdown(part, n) if part.markdown else part.text for n, part in enumerate(parts)]
    if tidy.demote:
        notes.append("headings moved down a level: the title is the page's only level-1 heading")
    title = " ".join(tidy.title.split())  # one line, whatever the notebook's metadata holds
    if not title:
        title = fallback or "Untitled lesson"
        notes.append(
            f"no title found: took {title!r} from the file name; set `title:` to change it"
        )
    front: dict[str, object] = {
        "title": title,
        "lesson": number,
        "lang": lang,
        "summary": tidy.summary or title,
    }
    front["conventions"] = imported_conventions(lang)
    if cell_timeout is not None:
        front["cell_timeout"] = int(cell_timeout) if cell_timeout.is_integer() else cell_timeout
    if bibliography:
        front["bibliography"] = list(bibliography)
    head = (
        "---\n" + yaml.safe_dump(front, allow_unicode=True, sort_keys=False, width=1000) + "---\n"
    )
    body = tight_display_math("\n\n".join(part for part in kept if part.strip())) + "\n"
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
        self.demote = False
        self.title_at: tuple[int, int] | None = None
        """(part, line) of the heading or bold line that is the title, removed."""

    def take_title(self, parts: list[_Part]) -> None:
        """The title is the first thing the notebook says, when that is a ``#`` heading
        or a bold line; lesser headings, labels, images and blanks may come before it."""
        for number, part in enumerate(parts):
            if not part.markdown:
                return
            for at, line in _outside_fences(part.text):
                heading = _HEADING.match(line)
                bold = _BOLD_TITLE.match(line)
                if heading or bold:
                    self.title = (heading.group(1) if heading else bold.group(2)).strip()  # type: ignore[union-attr]
                    self.title_at = (number, at)
                    return
                if not _PREAMBLE.match(line):
                    return

    def markdown(self, part: _Part, number: int = -1) -> str:
        kept: list[str] = []
        fence: str | None = None
        dropping = unwrapping = False
        for at, line in enumerate(part.text.split("\n")):
            index = at + part.first_line
            if self.title_at == (number, at):
                continue
            if fence is not None:
                if closes(line, fence):
                    fence = None
                    if dropping or unwrapping:
                        dropping = unwrapping = False
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
                if name == "{only":  # Sphinx's builder condition: the site is the html one
                    where = f"cell {part.cell}" if part.cell else f"line {index}"
                    unwrapping = "html" in rest.split() and "not" not in rest.split()
                    dropping = not unwrapping
                    shown = "kept its content" if unwrapping else "dropped it"
                    self.notes.append(f"{where}: {{only}} {rest.strip()}: {shown}")
                    continue
                if name[1:] in _BOOK_ONLY:
                    dropping = True
                    where = f"cell {part.cell}" if part.cell else f"line {index}"
                    self.notes.append(f"{where}: dropped {name}}}: {_BOOK_ONLY[name[1:]]}")
                    continue
                kept.append(line)
                continue
            heading = _HEADING.match(line)
            if heading and heading.group(1).strip() == self.title and not self.summary:
                continue
            if self.demote and _ANY_HEADING.match(line) and not line.startswith("######"):
                line = "#" + line
            if (
                self.title
                and not self.summary
                and line.strip()
                and not line.startswith(
                    ("#", "(", "%", "+++", ">", "-", "* ", "***", "|", "$", "[", "!")
                )
            ):
                self.summary = _plain(line)
            kept.append(line)
        return "\n".join(kept).strip("\n")


def _plain(line: str) -> str:
    text = _MARKUP.sub(lambda m: m.group(1) or m.group(2) or "", line).strip()
    text = re.sub(r"\$[^$]*\$", "", text)
    sentence = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    return " ".join(sentence.split())[:200]


def _outside_fences(text: str) -> Iterator[tuple[int, str]]:
    """The lines of ``text`` (0-based) not inside a fence."""
    fence: str | None = None
    for at, line in enumerate(text.split("\n")):
        if fence is not None:
            if closes(line, fence):
                fence = None
            continue
        opening = opening_fence(line)
        if opening is not None:
            fence = opening[0]
            continue
        yield at, line


def _h1_lines(part: _Part) -> list[tuple[int, str]]:
    return [(at, line) for at, line in _outside_fences(part.text) if _HEADING.match(line)]
