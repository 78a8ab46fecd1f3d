"""The image files an imported lesson shows, found beside its source.

``pizarra import nb.ipynb -o course/nb.md`` writes the lesson elsewhere than the
notebook: each Markdown image ``![alt](figures/a.png)`` whose file is beside the
notebook (under its folder, or under the book's folder) is copied to the same relative
place beside the lesson. One whose file is missing, outside that folder, or not an
image pizarra shows is replaced by its alternative text, with a note: the reader of the
notebook saw a broken image there.
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from urllib.parse import unquote

from pizarra.source.fences import closes, opening_fence
from pizarra.source.syntax.figure import IMAGE_TYPES, MAX_IMAGE_BYTES

_IMAGE = re.compile(r"!\[([^\[\]]*)\]\(\s*([^()\s]+)(?:\s+\"[^\"]*\")?\s*\)")
_REMOTE = re.compile(r"^[a-z][a-z0-9+.-]*:|^//|^#", re.IGNORECASE)


def local_images(
    text: str, folder: Path, root: Path, notes: list[str], files: list[tuple[str, bytes]]
) -> str:
    """``text`` with its images' files added to ``files`` (paths relative to ``folder``),
    and those that cannot be shown replaced by their alt text."""
    if "![" not in text:
        return text
    out: list[str] = []
    fence: str | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        if fence is not None:
            fence = None if closes(line, fence) else fence
            out.append(line)
            continue
        opening = opening_fence(line)
        if (
            opening is not None
            and not opening[1].startswith("{figure")
            and not opening[1].startswith("{image")
        ):
            fence = opening[0]
            out.append(line)
            continue
        shown = partial(_one, folder=folder, root=root, notes=notes, files=files, line=number)
        out.append(_IMAGE.sub(shown, line))
    return "\n".join(out)


def _one(
    match: re.Match[str],
    folder: Path,
    root: Path,
    notes: list[str],
    files: list[tuple[str, bytes]],
    line: int,
) -> str:
    alt, src = match.group(1), match.group(2)
    if _REMOTE.match(src) or src.startswith("attachment:"):
        return match.group(0)
    name = unquote(src.split("#", 1)[0].split("?", 1)[0])
    if any(existing == name for existing, _ in files):
        return match.group(0)  # written by the import itself (an attachment)
    try:
        file = (folder / name).resolve()
        found = file.is_file() and file.is_relative_to(root.resolve())
    except OSError:
        found = False
    problem = ""
    if not found:
        problem = "no such file beside the source"
    elif file.suffix.lower() not in IMAGE_TYPES:
        problem = f"pizarra shows {', '.join(IMAGE_TYPES)} images only"
    elif file.stat().st_size > MAX_IMAGE_BYTES:
        problem = f"larger than {MAX_IMAGE_BYTES:,} bytes"
    if problem:
        notes.append(f"line {line}: the image {src!r} is kept as its text ({problem})")
        return alt or name
    relative = Path(name).as_posix().removeprefix("./")
    if ".." in Path(relative).parts:
        return match.group(0)  # inside the book, copied with the book's files
    if all(existing != relative for existing, _ in files):
        files.append((relative, file.read_bytes()))
    return match.group(0)
