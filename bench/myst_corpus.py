"""A corpus run: MyST lectures written for Jupyter Book, imported, checked and built.

    python bench/myst_corpus.py FOLDER [NAME ...] [--front-matter-only] [--update-outputs]
                                [--timeout SECONDS] [--kernel-memory MIB]

Each lecture of FOLDER (or only the NAMEs, file names without ``.md``) becomes a
lesson of one course (so ``{doc}`` and cross-lecture ``{ref}`` can resolve; the other
lectures of FOLDER are listed as upcoming lessons with their ``doc`` name), through
``pizarra import`` or, with ``--front-matter-only``, by replacing only its front
matter. The rest of FOLDER (images, ``_static``) is copied next to them. The course
is verified, and a table is printed per lecture: markup errors (from parsing),
other errors, warnings, formulas present in the source vs typeset, code cells run vs
failed (with the first reason) vs not run for want of a package (named), and
leftovers: MyST syntax that reached the page as text.

``--update-outputs`` does what an author does after importing: it writes the
``{output}`` blocks the cells print (Jupyter Book lectures carry none), and marks
``:nondeterministic:`` the cells whose output changes between two runs (random draws
without a seed), as the error's hint says; the ``nondet`` column counts them.
``--timeout`` gives every cell that many seconds (front matter ``cell_timeout``), for
lectures with heavy simulations; ordinary builds keep pizarra's 30 s. ``--kernel-memory``
likewise gives every lecture's kernel that many MiB (front matter ``kernel_memory``).
Nothing of the lectures is kept: the course lives in a temporary folder.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import re
import shutil
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

from pizarra.base.errors import Diagnostic, Severity
from pizarra.check.code_cells import runnable_cells
from pizarra.check.kernel.execute import RunResult
from pizarra.cli import default_tools
from pizarra.pipeline.build import verify
from pizarra.pipeline.tools import Report
from pizarra.source.course import load_course
from pizarra.source.lower import parse_lesson
from pizarra.source.model import Course, Lesson

_LABELS = re.compile(r"^\(([\w:.-]+)\)=\s*$|^:label:\s*([\w:.-]+)\s*$", re.M)
"""Labels a lecture defines, so that the lectures not imported can list them."""
_CODE_DIRECTIVES = ("{code", "{sourcecode", "{raw", "{output")
"""Fences whose body is code (``{code-cell}``, ``{code-block}``...), not prose with math."""
_FENCE_LINE = re.compile(r"^(`{3,}|~{3,}|:{3,})\s*(.*)$")
_DISPLAY = re.compile(r"\$\$.+?\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)(?:[^$\n]|\n(?!\n))+?(?<!\\)\$")
LEFTOVERS = {
    "$": re.compile(r"\$"),
    "\\command": re.compile(r"\\[A-Za-z]{2,}"),
    "(label)=": re.compile(r"^\([\w:.-]+\)=\s*$", re.M),
    "+++": re.compile(r"^\+\+\+", re.M),
    "{role}`": re.compile(r"\{[\w:-]+\}`"),
    "fence": re.compile(r"^(```|:::)", re.M),
    ":option:": re.compile(r"^:[\w-]+:", re.M),
    "% comment": re.compile(r"^%", re.M),
}


class _PageText(HTMLParser):
    """The text a reader sees, outside math, code and outputs."""

    SKIP = frozenset({"math", "pre", "code", "script", "style", "samp", "svg"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.depth += 1
        elif tag in ("p", "li", "div", "br", "h2", "h3", "h4"):
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.parts.append(data)


_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)")
"""An inline code span: dollars inside it (``f'$x$'``) are code, not a formula."""


def formulas_in(source: str) -> int:
    """Formulas an author wrote, counted line by line without pizarra's parser."""
    prose: list[str] = []
    fences: list[tuple[str, bool]] = []
    fenced_math = 0
    for line in source.split("\n"):
        match = _FENCE_LINE.match(line.strip())
        if match and fences and not match.group(2) and match.group(1).startswith(fences[-1][0]):
            fences.pop()
            continue
        if match and (match.group(2) or not fences or not fences[-1][1]):
            info = match.group(2)
            code = not info.startswith("{") or info.startswith(_CODE_DIRECTIVES)
            fenced_math += info.startswith("{math}")
            fences.append((match.group(1), code))
            continue
        if not any(code for _, code in fences):
            prose.append(line)
    text = _CODE_SPAN.sub("", "\n".join(prose))
    display = len(_DISPLAY.findall(text))
    return fenced_math + display + len(_INLINE.findall(_DISPLAY.sub("", text)))


def front_matter_only(text: str, number: int) -> str:
    """The lecture with only its front matter replaced (title from the first heading)."""
    if text.startswith("---\n"):
        text = text[text.find("\n---\n", 4) + 5 :]
    match = re.search(r"^# (.+)$", text, re.M)
    title = match.group(1).strip() if match else "Untitled"
    if match:
        text = text[: match.start()] + text[match.end() :]
    head = f'---\ntitle: "{title}"\nlesson: {number}\nlang: en\nsummary: "{title}."\n---\n'
    return head + text


def make_course(
    folder: Path,
    names: list[str],
    out: Path,
    plain: bool,
    timeout: float | None,
    memory: int | None = None,
) -> None:
    for item in folder.iterdir():
        if item.suffix != ".md" and not item.name.startswith("."):
            copy = shutil.copytree if item.is_dir() else shutil.copy
            copy(item, out / item.name)
    entries = []
    for number, name in enumerate(names, start=1):
        source = folder / f"{name}.md"
        if plain:
            text = front_matter_only(source.read_text(encoding="utf-8"), number)
        else:
            from pizarra.source.importer import import_file

            bibs = tuple(str(b.relative_to(folder)) for b in sorted(folder.rglob("*.bib")))
            text = import_file(source, number, "en", bibs).text
        if timeout is not None:
            text = text.replace("---\n", f"---\ncell_timeout: {timeout:g}\n", 1)
        if memory is not None:
            text = text.replace("---\n", f"---\nkernel_memory: {memory}\n", 1)
        (out / f"{name}.md").write_text(text, encoding="utf-8")
        entries.append(f"  - number: {number}\n    file: {name}.md\n")
    others = sorted(p.stem for p in folder.glob("*.md") if p.stem not in names)
    for number, name in enumerate(others, start=len(names) + 1):
        text = (folder / f"{name}.md").read_text(encoding="utf-8")
        labels = sorted({a or b for a, b in _LABELS.findall(text)})
        entries.append(
            f"  - number: {number}\n    title: {name}\n    summary: Not imported.\n"
            f"    doc: {name}\n    labels: {json.dumps(labels)}\n"
        )
    (out / "course.yaml").write_text(
        "title: Corpus\nlang: en\nlessons:\n" + "".join(entries), encoding="utf-8"
    )


UNSTABLE = "the code cell's output changes between runs"


def cell_indexes(report: Report, unstable: list[Diagnostic]) -> dict[Path, set[int]]:
    """For each lesson, the places (among its code cells) of the cells whose runs differed."""
    found: dict[Path, set[int]] = collections.defaultdict(set)
    lessons = report.course.lessons() if report.course else []
    for lesson in lessons:
        places = {cell.pos: i for i, cell in enumerate(lesson.code_cells())}
        for d in unstable:
            if d.pos in places:
                found[lesson.path].add(places[d.pos])
    return found


def mark_nondeterministic(indexes: dict[Path, set[int]]) -> None:
    """Mark those cells ``:nondeterministic:``, found again in the file as it is now."""
    for path, places in indexes.items():
        lesson, _ = parse_lesson(path, str(path))
        if lesson is None:
            continue
        fences = [c.pos.line for i, c in enumerate(lesson.code_cells()) if i in places]
        lines = path.read_text(encoding="utf-8").split("\n")
        for line in sorted(fences, reverse=True):
            if line < len(lines) and lines[line].strip() == "---":
                lines.insert(line + 1, "nondeterministic: true")
            else:
                lines.insert(line, ":nondeterministic:")
        path.write_text("\n".join(lines), encoding="utf-8")


def leftovers(html: str) -> collections.Counter[str]:
    scan = _PageText()
    scan.feed(html)
    text = "".join(scan.parts)
    found: collections.Counter[str] = collections.Counter()
    for name, pattern in LEFTOVERS.items():
        found[name] += len(pattern.findall(text))
    return +found


def page_html(course: Course, lesson: Lesson) -> str:
    from pizarra.render.pages import render_lesson_body

    try:
        return str(render_lesson_body(course, lesson, lambda tex, display: "<math></math>"))
    except Exception as exc:  # a page that cannot render counts as one leftover
        return f"<p>$render failed: {exc}</p>"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("names", nargs="*")
    parser.add_argument("--front-matter-only", action="store_true")
    parser.add_argument(
        "--update-outputs",
        action="store_true",
        help="write the {output} blocks first, as an author would with check --update-outputs",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        help="seconds each cell may run (written as cell_timeout; default: pizarra's 30)",
    )
    parser.add_argument(
        "--kernel-memory",
        type=int,
        help="MiB each lecture's kernel may allocate (written as kernel_memory; default 2048)",
    )
    args = parser.parse_args()
    names = args.names or sorted(p.stem for p in args.folder.glob("*.md"))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_course(
            args.folder, names, root, args.front_matter_only, args.timeout, args.kernel_memory
        )
        _, parse_errors = load_course(root)
        tools = default_tools(no_cache=False)
        report = verify(root, tools)
        nondet: collections.Counter[str] = collections.Counter()
        if args.update_outputs:
            from pizarra.pipeline.update import write_updated_outputs

            for _ in range(4):
                unstable = [d for d in report.diagnostics if d.message.startswith(UNSTABLE)]
                indexes = cell_indexes(report, unstable)
                changed, more = write_updated_outputs(report, tools.runner)
                for path, places in cell_indexes(report, more).items():
                    indexes[path] |= places
                if not changed and not indexes:
                    break
                mark_nondeterministic(indexes)
                nondet.update({p.stem: len(places) for p, places in indexes.items()})
                report = verify(root, tools)
        course = report.course
        lessons = {p.stem: p for p in (root / f"{n}.md" for n in names)}
        rows = []
        for name, path in lessons.items():
            shown = str(path)
            markup = [
                d for d in parse_errors if d.pos.path == shown and d.severity is Severity.ERROR
            ]
            others = [
                d
                for d in report.diagnostics
                if d.pos.path == shown and d.severity is Severity.ERROR and d not in markup
            ]
            warnings = [
                d
                for d in report.diagnostics
                if d.pos.path == shown and d.severity is Severity.WARNING
            ]
            lesson = next((x for x in course.lessons() if x.path == path), None) if course else None
            present = formulas_in((args.folder / f"{name}.md").read_text(encoding="utf-8"))
            math_errors = sum(1 for d in others if "formula" in d.hint or "Temml" in d.hint)
            typeset = len(lesson.math) - math_errors if lesson else 0
            outcomes = report.outcomes.get(path, [])
            runnable = len(runnable_cells(lesson)) if lesson else 0
            packages = sorted({p for o in outcomes for p in o.result.missing_packages})
            failed = [o for o in outcomes if not o.result.ok and not o.result.missing_packages]
            ran = sum(1 for o in outcomes if o.result.ok)
            why = collections.Counter(reason(o.result) for o in failed)
            left = leftovers(page_html(course, lesson)) if course and lesson else {"unparsed": 1}
            rows.append(
                Row(
                    name,
                    (
                        len(markup),
                        len(others),
                        len(warnings),
                        present,
                        typeset,
                        runnable,
                        ran,
                        len(failed),
                        runnable - ran - len(failed) if packages else 0,
                        nondet[name],
                        sum(left.values()),
                    ),
                    left,
                    why,
                    packages,
                    collections.Counter(d.message.split(":")[0][:50] for d in warnings),
                )
            )
            for d in markup + others:
                print(d.format().splitlines()[0], file=sys.stderr)
    print_table(rows)
    return 0


@dataclasses.dataclass(frozen=True)
class Row:
    """One lecture's line of the table, and what explains it."""

    name: str
    counts: tuple[int, ...]
    leftovers: collections.Counter[str] | dict[str, int]
    failures: collections.Counter[str]
    packages: list[str]
    warnings: collections.Counter[str]


COLUMNS = (
    "markup", "other", "warn", "formulas", "typeset", "cells", "ran", "failed", "no-pkg",
    "nondet", "leftover",
)  # fmt: skip


def reason(result: RunResult) -> str:
    """Why a cell failed, in one short line."""
    if result.timed_out:
        return f"timed out after {result.duration:.0f} s"
    return (result.stderr.strip().splitlines() or ["?"])[-1][:60]


def print_table(rows: list[Row]) -> None:
    print(f"{'lecture':18} " + " ".join(f"{c:>{max(len(c), 5)}}" for c in COLUMNS))
    for name, counts in [(r.name, r.counts) for r in rows] + [
        ("total", tuple(sum(col) for col in zip(*(r.counts for r in rows), strict=True)))
    ]:
        cells = " ".join(f"{v:>{max(len(c), 5)}}" for v, c in zip(counts, COLUMNS, strict=True))
        print(f"{name:18} {cells}")
    for row in rows:
        if row.leftovers:
            items = ", ".join(f"{k} x{v}" for k, v in row.leftovers.items())
            print(f"leftovers in {row.name}: {items}")
        for why, count in row.failures.most_common(4):
            print(f"failed cells in {row.name}: {count} x {why}")
        if row.packages:
            print(f"not run in {row.name}: {row.counts[8]} cells, needs {', '.join(row.packages)}")
        for what, count in row.warnings.most_common():
            print(f"warnings in {row.name}: {count} x {what}")


if __name__ == "__main__":
    sys.exit(main())
