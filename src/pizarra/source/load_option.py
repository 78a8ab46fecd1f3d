"""MyST-NB's ``:load: file.py`` on a code cell, written into the cell by ``pizarra import``.

Jupyter Book replaces the code of a ``{code-cell}`` that has a ``:load:`` option with the
text of that file (relative to the page). A lesson's code lives in its own text (the
build runs it, ``--update-outputs`` writes beside it), so the importer writes the file's
text into the cell, fenced so that no line of it can close the cell, and drops the
option, with a note. The file must be inside the book's folder, text, and at most
:data:`MAX_BYTES`; otherwise the cell is left as written, with a note, and the lesson
reports the option at its line.
"""

from __future__ import annotations

import re
from pathlib import Path

from pizarra.source.fences import closes, fence_for, opening_fence
from pizarra.source.html_markdown import html_to_markdown
from pizarra.source.markdown_tidy import atx_headings

MAX_BYTES = 1_000_000
_LOAD = re.compile(r"^:load:\s*(\S.*?)\s*$")
_OPTION = re.compile(r"^:[\w-]+:")


def myst_body(body: str, path: Path, root: Path, notes: list[str]) -> str:
    """A MyST page's body as a lesson's: HTML and setext headings made Markdown, and the
    code of each ``:load:`` cell written in."""
    return inline_loads(atx_headings(html_to_markdown(body, path.name, notes)), path, root, notes)


def inline_loads(text: str, path: Path, root: Path, notes: list[str]) -> str:
    """``text`` with each ``{code-cell}`` that has ``:load: name`` holding that file's code."""
    if ":load:" not in text:
        return text
    lines, out, at = text.split("\n"), [], 0
    while at < len(lines):
        opened = opening_fence(lines[at])
        if opened is None or not opened[1].startswith("{code-cell}"):
            out.append(lines[at])
            at += 1
            continue
        fence, end = opened[0], at + 1
        while end < len(lines) and not closes(lines[end], fence):
            end += 1
        options = at + 1
        while options < end and _OPTION.match(lines[options]):
            options += 1
        loads = [(n, m) for n in range(at + 1, options) if (m := _LOAD.match(lines[n]))]
        code = _read(loads[0][1].group(1), at + 1, path, root, notes) if loads else None
        if code is None:
            out.extend(lines[at : end + 1])
        else:
            kept = [lines[n] for n in range(at + 1, options) if n != loads[0][0]]
            new_fence = fence_for(code, fence[0])
            info = lines[at].lstrip()[len(fence) :]
            out += [new_fence + info, *kept, *code.rstrip("\n").split("\n"), new_fence]
        at = end + 1
    return "\n".join(out)


def _read(name: str, line: int, path: Path, root: Path, notes: list[str]) -> str | None:
    file = (path.parent / name).resolve()
    where = f"line {line}: the code cell's :load: {name}"
    if not file.is_relative_to(root.resolve()) or not file.is_file():
        notes.append(f"{where} is not a file in the book's folder: left as written")
        return None
    if file.stat().st_size > MAX_BYTES:
        notes.append(f"{where} is over {MAX_BYTES:,} bytes: left as written")
        return None
    try:
        code = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        notes.append(f"{where} is not UTF-8 text: left as written")
        return None
    notes.append(f"{where} is written into the cell")
    return code
