"""``pizarra import BOOK_FOLDER -o COURSE``: a Jupyter Book as one pizarra course.

Jupyter Book 1 keeps its order in ``_toc.yml`` (``root``, then ``parts`` of ``chapters``
with nested ``sections``, or ``chapters``/``sections`` directly) and its settings in
``_config.yml`` (``title``, ``bibtex_bibfiles``, ``language``); Jupyter Book 2 and mystmd
keep both in ``myst.yml`` (``project.title``, ``project.toc`` of ``file``/``children``,
``project.bibliography``). The course mirrors the book's folder: each lesson is written
where its source was (``a/b.ipynb`` becomes ``a/b.md``), and every other file (images,
``_static``, ``.bib``, data) is copied beside, so the relative paths lectures use keep
working. Lessons are numbered in the toc's order; ``{doc}`` and ``{ref}`` between them
resolve inside the course, and so do links to a lesson's file without its extension
(:mod:`pizarra.source.book_page_links`); lessons of one file name in different folders get
distinct URL slugs (:mod:`pizarra.source.book_slugs`). A toc entry whose file is missing
(or is not ``.md`` or ``.ipynb``) becomes an upcoming lesson, with a note. The book's files
are untrusted: YAML is read safely and bounded, paths stay inside the book, sizes are
bounded.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pizarra.base.i18n.strings import supported
from pizarra.base.yaml_compose import safe_load
from pizarra.source.book_anchors import link_across_lessons
from pizarra.source.book_includes import included_files
from pizarra.source.book_page_links import link_pages
from pizarra.source.book_slugs import distinct_slugs
from pizarra.source.importer import Imported, NotImportable, import_file
from pizarra.source.syntax.cell_options import DEFAULT_TIMEOUT, MAX_TIMEOUT

__all__ = ["Book", "NotImportable", "import_book", "is_book"]

TOC_FILES = ("_toc.yml", "myst.yml")
_SETTINGS = ("_toc.yml", "_config.yml", "myst.yml")
_SKIPPED_DIRS = frozenset({"_build", ".git", ".github", "__pycache__", ".ipynb_checkpoints"})
MAX_FILES = 5_000
"""Files copied from a book at most (besides its lessons)."""
MAX_FILE_BYTES = 50_000_000
"""A file larger than this is not copied (a note says so)."""
MAX_LESSONS = 999


@dataclass
class Book:
    """What an import of a book writes: relative path -> bytes, and notes."""

    files: dict[str, bytes] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    lessons: int = 0
    upcoming: int = 0


def is_book(folder: Path) -> bool:
    return folder.is_dir() and any((folder / name).is_file() for name in TOC_FILES)


def import_book(folder: Path, lang: str | None = None) -> Book:
    """The course a book folder becomes; raises :class:`NotImportable` with the reason."""
    book = Book()
    title, book_lang, bibs, entries = _read_settings(folder, book.notes)
    timeout = _cell_timeout(folder, book.notes)
    lang = lang or book_lang
    if not supported(lang):
        book.notes.append(f"the book's language {lang!r} is not one pizarra speaks: using en")
        lang = "en"
    if not entries:
        raise NotImportable(f"{folder}: its table of contents lists no files")
    stems = frozenset(Path(entry).name for entry in entries)
    course_lessons: list[dict[str, Any]] = []
    used: set[Path] = set()
    for number, entry in enumerate(entries[:MAX_LESSONS], start=1):
        source = _source_of(folder, entry)
        if source is None:
            book.notes.append(
                f"{entry}: listed in the table of contents but not found as .md or .ipynb: "
                "announced as an upcoming lesson"
            )
            name = Path(entry).name
            course_lessons.append(
                {"number": number, "title": _title(name), "summary": "Coming soon.", "doc": name}
            )
            book.upcoming += 1
            continue
        used.add(source.resolve())
        relative = source.relative_to(folder).with_suffix(".md").as_posix()
        depth = relative.count("/")
        bib = tuple("../" * depth + b for b in bibs)
        try:
            imported = import_file(
                source, number, lang, (), lessons=stems, root=folder, cell_timeout=timeout
            )
        except (NotImportable, OSError, UnicodeDecodeError) as exc:
            raise NotImportable(f"{source}: {exc}") from exc
        if bib and "{cite" in imported.text:
            imported = import_file(
                source, number, lang, bib, lessons=stems, root=folder, cell_timeout=timeout
            )
        _add_lesson(book, relative, imported, source.relative_to(folder).as_posix())
        course_lessons.append({"number": number, "file": relative})
        book.lessons += 1
    if len(entries) > MAX_LESSONS:
        book.notes.append(f"only the first {MAX_LESSONS} entries of the toc were imported")
    texts = {
        entry["file"]: book.files[entry["file"]].decode()
        for entry in course_lessons
        if "file" in entry
    }
    texts = distinct_slugs(link_pages(texts, book.notes), book.notes)
    for path, text in link_across_lessons(texts, book.notes).items():
        book.files[path] = text.encode()
    _copy_rest(folder, used, book, included_files(folder, sorted(used), MAX_FILES))
    manifest = {"title": title, "lang": lang, "lessons": course_lessons}
    book.files["course.yaml"] = yaml.safe_dump(
        manifest, allow_unicode=True, sort_keys=False, width=1000
    ).encode()
    return book


def _add_lesson(book: Book, relative: str, imported: Imported, shown: str) -> None:
    book.files[relative] = imported.text.encode()
    parent = relative.rpartition("/")[0]
    for name, data in imported.files:
        book.files[f"{parent}/{name}" if parent else name] = data
    book.notes.extend(f"{shown}: {note}" for note in imported.notes)


def _read_settings(folder: Path, notes: list[str]) -> tuple[str, str, tuple[str, ...], list[str]]:
    """(title, language, .bib paths from the book's root, toc entries in order)."""
    myst = _mapping(_yaml(folder / "myst.yml"))
    if myst and not (folder / "_toc.yml").is_file():
        project = _mapping(myst.get("project"))
        entries: list[str] = []
        _walk_myst(project.get("toc"), entries)
        if not entries:
            notes.append("myst.yml has no project.toc: every .md and .ipynb, by name")
            entries = _every_source(folder)
        title = project.get("title") or _mapping(myst.get("site")).get("title") or folder.name
        bib = project.get("bibliography")
        bibs = [bib] if isinstance(bib, str) else bib if isinstance(bib, list) else []
        lang = project.get("language") or "en"
        return str(title), str(lang), _strings(bibs), _unique(entries)
    toc = _mapping(_yaml(folder / "_toc.yml"))
    config = _mapping(_yaml(folder / "_config.yml"))
    entries = []
    if isinstance(toc.get("root"), str):
        entries.append(_strip(toc["root"]))
    _walk_jb(toc, entries)
    sphinx_config = _mapping(_mapping(config.get("sphinx")).get("config"))
    lang = config.get("language") or sphinx_config.get("language") or "en"
    listed = config.get("bibtex_bibfiles")
    return (
        str(config.get("title") or folder.name),
        str(lang),
        _strings(listed if isinstance(listed, list) else []),
        _unique(entries),
    )


def _cell_timeout(folder: Path, notes: list[str]) -> float | None:
    """The seconds a cell may run by the book's ``execute: timeout`` (Jupyter Book 1's
    ``_config.yml``), within pizarra's limit; None when the book sets none. Jupyter's
    ``-1`` (no limit) becomes the limit, with a note."""
    if not (folder / "_config.yml").is_file():
        return None
    value = _mapping(_mapping(_yaml(folder / "_config.yml")).get("execute")).get("timeout")
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if value <= 0 or value > MAX_TIMEOUT:
        notes.append(
            f"_config.yml: execute timeout {value:g} s: each cell may run {MAX_TIMEOUT:g} s"
        )
        return MAX_TIMEOUT
    return float(value) if value > DEFAULT_TIMEOUT else None


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _walk_jb(node: Any, entries: list[str]) -> None:
    """``parts``/``chapters``/``sections`` in order, depth first."""
    if isinstance(node, list):
        for item in node:
            _walk_jb(item, entries)
        return
    if not isinstance(node, dict):
        return
    if isinstance(node.get("file"), str):
        entries.append(_strip(node["file"]))
    for key in ("parts", "chapters", "sections"):
        _walk_jb(node.get(key), entries)


def _walk_myst(node: Any, entries: list[str]) -> None:
    if isinstance(node, list):
        for item in node:
            _walk_myst(item, entries)
    elif isinstance(node, dict):
        if isinstance(node.get("file"), str):
            entries.append(_strip(node["file"]))
        _walk_myst(node.get("children"), entries)


def _strip(name: str) -> str:
    name = name.strip().removeprefix("./")
    for suffix in (".md", ".ipynb"):
        name = name.removesuffix(suffix)
    return name


def _unique(entries: list[str]) -> list[str]:
    return list(dict.fromkeys(entries))


def _strings(values: list[Any]) -> tuple[str, ...]:
    return tuple(v for v in values if isinstance(v, str) and ".." not in Path(v).parts)


def _source_of(folder: Path, entry: str) -> Path | None:
    if ".." in Path(entry).parts or Path(entry).is_absolute():
        return None
    root = folder.resolve()
    for suffix in (".md", ".ipynb"):
        path = folder / f"{entry}{suffix}"
        if path.is_file() and path.resolve().is_relative_to(root):
            return path
    return None


def _every_source(folder: Path) -> list[str]:
    found = sorted(
        p.relative_to(folder).with_suffix("").as_posix()
        for p in folder.rglob("*")
        if p.suffix in (".md", ".ipynb") and not _skipped(p.relative_to(folder))
    )
    return found[:MAX_LESSONS]


def _skipped(relative: Path) -> bool:
    return any(part in _SKIPPED_DIRS or part.startswith(".") for part in relative.parts[:-1])


def _copy_rest(folder: Path, used: set[Path], book: Book, included: set[Path]) -> None:
    """Every other file of the book (images, static files, .bib, data, the Markdown parts
    lectures include), bounded."""
    root = folder.resolve()
    copied = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(
            d for d in dirnames if d not in _SKIPPED_DIRS and not d.startswith(".")
        )
        for name in sorted(filenames):
            path = Path(dirpath) / name
            relative = path.relative_to(folder)
            if path.resolve() in used or (relative.as_posix() in _SETTINGS):
                continue
            if path.is_symlink() or not path.resolve().is_relative_to(root):
                continue
            if (
                path.suffix in (".md", ".ipynb")
                and relative.as_posix() not in book.files
                and path.resolve() not in included
            ):
                continue  # a page the toc does not list: Jupyter Book does not build it
            if path.stat().st_size > MAX_FILE_BYTES:
                book.notes.append(f"{relative}: not copied (larger than {MAX_FILE_BYTES:,} bytes)")
                continue
            if copied >= MAX_FILES:
                book.notes.append(f"only the first {MAX_FILES} other files were copied")
                return
            book.files.setdefault(relative.as_posix(), path.read_bytes())
            copied += 1


def _yaml(path: Path) -> Any:
    if not path.is_file():
        return None
    try:
        return safe_load(path.read_text(encoding="utf-8"))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise NotImportable(f"{where}: not valid YAML: {exc.problem}") from exc
    except (yaml.YAMLError, UnicodeDecodeError, OSError) as exc:
        raise NotImportable(f"{path}: cannot be read: {exc}") from exc


def _title(stem: str) -> str:
    return " ".join(stem.replace("_", " ").replace("-", " ").split()).capitalize() or stem
