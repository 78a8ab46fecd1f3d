"""Run the ecosystem's test suites through pizarra and say what became of each case.

A case is *same* when pizarra's HTML equals the suite's up to pizarra's wrappers, ids,
classes and whitespace; *refused* when the lesson has an error; *warned* when it differs
with a warning; *silent* when it differs with no word to the author: the outcome that
must not happen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import yaml
from markdown_it.utils import read_fixture_file

from pizarra.base.errors import Severity
from pizarra.check.references import check_references
from pizarra.render.pages import render_lesson_body
from pizarra.source.lower import parse_lesson
from tests.support import FIXTURES, fake_math, small_course

SUITES = FIXTURES / "suites"
FRONT = "---\ntitle: Prueba\nlesson: 1\nlang: en\nsummary: Una prueba.\n---\n"
_KEPT = {"href", "src", "alt", "start", "title", "type", "checked", "disabled", "colspan"}
_VOID = {"br", "hr", "img", "input"}
_WRAPPERS = {"div", "span", "section", "figure", "figcaption", "aside", "details", "summary"}


@dataclass(frozen=True)
class Case:
    suite: str
    name: str
    source: str
    expected: str


@dataclass(frozen=True)
class Outcome:
    kind: str
    """``same``, ``refused``, ``warned`` or ``silent``."""
    got: str
    want: str
    messages: tuple[str, ...]


def cases() -> Iterator[Case]:
    """Every case of the three suites, named ``suite/file/number``."""
    spec = json.loads((SUITES / "commonmark" / "commonmark.json").read_text(encoding="utf-8"))
    for example in spec:
        yield Case(
            "commonmark", f"commonmark/{example['example']}", example["markdown"], example["html"]
        )
    for path in sorted((SUITES / "mdit_py_plugins").glob("*.md")):
        for number, (_, _, source, expected) in enumerate(read_fixture_file(path), start=1):
            yield Case("mdit_py_plugins", f"mdit_py_plugins/{path.stem}/{number}", source, expected)
    for path in sorted((SUITES / "myst_spec").glob("*.yml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for number, case in enumerate(data.get("cases", []), start=1):
            if "myst" in case and "html" in case:
                yield Case(
                    "myst_spec",
                    f"myst_spec/{path.stem}/{number}",
                    case["myst"] + "\n",
                    case["html"],
                )


def run(case: Case) -> Outcome:
    """Parse, check references and render one case as the body of a lesson."""
    path = Path("case.md")
    lesson, diagnostics = parse_lesson(path, "case.md", FRONT + case.source)
    got = ""
    if lesson is not None:
        course = small_course(lesson)
        diagnostics += check_references(course, lesson)
        got = str(render_lesson_body(course, lesson, fake_math))
    messages = tuple(d.format() for d in diagnostics)
    want = normalize(case.expected)
    got = normalize(got)
    if any(d.severity == Severity.ERROR for d in diagnostics):
        kind = "refused"
    elif got == want:
        kind = "same"
    else:
        kind = "warned" if diagnostics else "silent"
    return Outcome(kind, got, want, messages)


def normalize(html: str) -> str:
    """The HTML as a canonical string: tags with their meaningful attributes, text with
    whitespace collapsed, wrappers dropped, formulas as ``<math>`` with their TeX."""
    reader = _Canonical()
    reader.feed(html)
    reader.close()
    text = "".join(reader.out)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r" ?(<[^>]*>) ?", r"\1", text).strip()


class _Canonical(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self._stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = dict(attrs).get("class") or ""
        if tag == "math" or (tag in ("span", "div") and "math" in classes.split()):
            self._stack.append("math")
            self.out.append("<math>")
            return
        if tag in _WRAPPERS or (tag == "a" and not dict(attrs).get("href")):
            self._stack.append("")
            return
        kept = [(k, v or "") for k, v in attrs if k in _KEPT]
        kept += [("class", c) for c in classes.split() if c.startswith("language-")]
        if tag not in _VOID:
            self._stack.append(tag)
        self.out.append("<" + tag + "".join(f' {k}="{v}"' for k, v in sorted(kept)) + ">")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        name = self._stack.pop() if self._stack else tag
        if name:
            self.out.append(f"</{name}>")

    def handle_data(self, data: str) -> None:
        self.out.append(data.replace("<", "&lt;").replace(">", "&gt;"))

    def handle_comment(self, data: str) -> None:
        pass


OUTCOMES = SUITES / "outcomes.txt"
MYST_DIALECT = {"commonmark/44": "`+++` is MyST's block break, dropped as MyST does"}
"""Cases where MyST itself reads the CommonMark text otherwise, with the reason."""


def outcomes() -> dict[str, str]:
    """Each case's outcome now, by name (``myst`` for :data:`MYST_DIALECT` cases)."""
    found = {}
    for case in cases():
        kind = run(case).kind
        found[case.name] = "myst" if kind == "silent" and case.name in MYST_DIALECT else kind
    return found


def recorded() -> dict[str, str]:
    lines = OUTCOMES.read_text(encoding="utf-8").splitlines()
    return dict(line.split(" ", 1) for line in lines if line and not line.startswith("#"))


def write_outcomes() -> None:
    """Rewrite :data:`OUTCOMES` from what pizarra does now (``python -m tests.faithful``)."""
    found = outcomes()
    head = "# case outcome (see README.md); regenerate with: python -m tests.faithful\n"
    OUTCOMES.write_text(head + "".join(f"{k} {v}\n" for k, v in found.items()), "utf-8")


if __name__ == "__main__":
    write_outcomes()
