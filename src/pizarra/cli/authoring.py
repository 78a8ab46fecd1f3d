"""The commands that write an author's sources: ``import`` (a notebook, a MyST file, a
whole book), ``init`` (a course to start from) and ``help`` (the guides)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def import_command(args: argparse.Namespace) -> int:
    from pizarra.base.fileio import write_atomic
    from pizarra.source.importer import NotImportable, import_file

    source: Path = args.file
    if source.is_dir():
        return _import_book(source, args.out, args.lang if args.lang != "en" else None)
    if source.suffix not in (".ipynb", ".md") or not source.is_file():
        print(f"pizarra import: {source}: give an existing .ipynb or .md file", file=sys.stderr)
        return 2
    try:
        imported = import_file(
            source, args.lesson, args.lang, tuple(args.bib), pin_outputs=args.pin_outputs
        )
    except (NotImportable, OSError, UnicodeDecodeError) as exc:
        print(f"pizarra import: {exc}", file=sys.stderr)
        return 1
    for note in imported.notes:
        print(f"pizarra import: {source}: {note}", file=sys.stderr)
    if args.out is None:
        sys.stdout.write(imported.text)
        if imported.files:
            print(
                f"pizarra import: {len(imported.files)} attached image(s) not written: "
                "give -o to write the lesson and its images",
                file=sys.stderr,
            )
    else:
        for name, data in imported.files:
            (args.out.parent / name).parent.mkdir(parents=True, exist_ok=True)
            write_atomic(args.out.parent / name, data)
        write_atomic(args.out, imported.text.encode())
        print(
            f"pizarra import: wrote {args.out}; check it with: pizarra check {args.out}",
            file=sys.stderr,
        )
    return 0


def help_command(args: argparse.Namespace) -> int:
    from pizarra.base.guides import TOPICS, guide
    from pizarra.base.suggest import did_you_mean

    if args.topic is None:
        for topic, what in TOPICS.items():
            print(f"pizarra help {topic:10}  {what}")
        return 0
    text = guide(args.topic)
    if text is None:
        known = ", ".join(TOPICS)
        hint = did_you_mean(args.topic, TOPICS, f"topics: {known}")
        reason = "no such topic" if args.topic not in TOPICS else "its guide is not installed"
        print(f"pizarra help: {args.topic}: {reason}\n  hint: {hint}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def init_command(args: argparse.Namespace) -> int:
    from pizarra.base.fileio import write_atomic

    starter = Path(__file__).parents[1] / "source" / "starter"
    folder: Path = args.folder
    files = sorted(p for p in starter.rglob("*") if p.is_file() and p.suffix in (".md", ".yaml"))
    taken = [f for f in files if (folder / f.relative_to(starter)).exists()]
    if taken or (folder / "course.yaml").exists():
        print(
            f"pizarra init: {folder} already holds a course (course.yaml); nothing written",
            file=sys.stderr,
        )
        return 2
    for file in files:
        target = folder / file.relative_to(starter)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, file.read_bytes())
    go = "" if folder == Path(".") else f"cd {folder} && "
    print(
        f"pizarra init: wrote a course in {folder}: course.yaml and "
        "lessons/01-doubling.md (math, a code cell, an explorer, a question to answer)\n"
        f"  next: {go}pizarra serve   (then edit the lesson and save: the page reloads)",
        file=sys.stderr,
    )
    return 0


def _import_book(folder: Path, out: Path | None, lang: str | None) -> int:
    from pizarra.base.fileio import write_atomic
    from pizarra.source.book import NotImportable, import_book, is_book

    if not is_book(folder):
        print(
            f"pizarra import: {folder}: a book folder has a _toc.yml (Jupyter Book) or a "
            "myst.yml (Jupyter Book 2, mystmd)",
            file=sys.stderr,
        )
        return 2
    if out is None:
        print("pizarra import: give the new course's folder: -o COURSE", file=sys.stderr)
        return 2
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        print(f"pizarra import: {out} exists and is not empty; give a new folder", file=sys.stderr)
        return 2
    try:
        book = import_book(folder, lang)
    except (NotImportable, OSError) as exc:
        print(f"pizarra import: {exc}", file=sys.stderr)
        return 1
    for note in book.notes:
        print(f"pizarra import: {note}", file=sys.stderr)
    for name, data in book.files.items():
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data)
    print(
        f"pizarra import: wrote {out}: {book.lessons} lesson(s), {book.upcoming} upcoming, "
        f"{len(book.files) - book.lessons - 1} other file(s); check it with: pizarra check {out}",
        file=sys.stderr,
    )
    return 0
