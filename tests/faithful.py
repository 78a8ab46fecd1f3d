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
_WRAPPERS = {
    "div",
    "span",
    "mark",
    "section",
    "figure",
    "figcaption",
    "aside",
    "details",
    "summary",
}


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
    """Parse, check references and render one case as the body of a lesson.

    A case is markup without a folder: its images name files it does not ship, so they
    are not looked for (a lesson's own are, and a missing one is an error there)."""
    path = Path("case.md")
    lesson, diagnostics = parse_lesson(path, "case.md", FRONT + case.source, local_files=False)
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
    whitespace collapsed and case folded, wrappers dropped, formulas as ``<math>`` with
    their TeX, equation numbers and permalinks dropped, footnote back-links' glyph."""
    reader = _Canonical()
    reader.feed(html)
    reader.close()
    text = "".join(reader.out).replace("\ufe0e", "")
    # pizarra's equation numbers and footnote back-links, the suites' permalinks
    text = re.sub(r"<skip>.*?</skip>", "", text)
    # amsmath rows' numbers, written as \tag{n}; a space before \end or \\ means nothing in TeX
    text = re.sub(r"\s*\\tag\{\d+\}", " ", text)
    text = re.sub(r"\s+(\\end\{|\\\\)", r"\1", text)
    text = re.sub(r'<a href="[^"]*" title="Permalink to this equation">¶</a>', "", text)
    text = re.sub(r'(<a href="#fnref[^"]*">)[^<]*(</a>)', r"\1\2", text).casefold()
    text = re.sub(r"\s*\x00\s*", "", text)  # the space around a wrapper is the wrapper's
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r" ?(<[^>]*>) ?", r"\1", text).strip()
    return re.sub(r"<math><math>(.*?)</math></math>", r"<math>\1</math>", text)


class _Canonical(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self._stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = dict(attrs).get("class") or ""
        if "eq-number" in classes.split() or "footnote-backref" in classes.split():
            self._stack.append("skip")
            self.out.append("<skip>")
            return
        if tag == "math" or (
            tag in ("span", "div")
            and {"math", "math-display", "math-inline"} & set(classes.split())
        ):
            self._stack.append("math")
            self.out.append("<math>")
            return
        if tag in _WRAPPERS or (tag == "a" and not dict(attrs).get("href")):
            self._stack.append("")
            self.out.append("" if "pre" in self._stack else "\x00")
            return
        kept = [(k, "" if v in (None, k) else v) for k, v in attrs if k in _KEPT]
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
        if name == "skip":
            self.out.append("</skip>")
        elif not name:
            self.out.append("" if "pre" in self._stack else "\x00")
        else:
            self.out.append(f"</{name}>")

    def handle_data(self, data: str) -> None:
        self.out.append(data.replace("<", "&lt;").replace(">", "&gt;"))

    def handle_comment(self, data: str) -> None:
        pass


OUTCOMES = SUITES / "outcomes.txt"
_BREAK = "`+++` is MyST's block break, which MyST does not show (the plugin's renderer: <hr>)"
_TARGET = "`(label)=` is a target, invisible in MyST (the plugin's renderer prints it)"
_INDENTED = "the fixture turns indented code off; MyST, as CommonMark, keeps it: a code block"
_LANGUAGE = "MyST keeps a plain colon fence's info as its code's language (the plugin drops it)"
_DOLLARS = "MyST's dollar math settings (digits, spaces by `$`, blank lines in `$$`) make it math"
_TASK = "a task item with a tab after `[x]`: the plugin marks the item but drops its box"
MYST_DIALECT = {
    "commonmark/44": _BREAK,
    **{f"mdit_py_plugins/myst_block/{n}": _BREAK for n in (1, 2, 4)},
    **{f"mdit_py_plugins/myst_block/{n}": _TARGET for n in (5, 6, 9)},
    **{
        f"mdit_py_plugins/{name}": _INDENTED
        for name in (
            "amsmath/20",
            "attrs/32",
            "colon_fence/33",
            "deflist/15",
            "dollar_math/60",
            "footnote/18",
            "myst_block/15",
        )
    },
    **{f"mdit_py_plugins/colon_fence/{n}": _LANGUAGE for n in (20, 21, 25, 26, 27, 28, 29)},
    **{f"mdit_py_plugins/dollar_math/{n}": _DOLLARS for n in (8, 28, 46)},
    **{f"mdit_py_plugins/tasklists/{n}": _TASK for n in (5, 6)},
    "mdit_py_plugins/footnote/7": "a note referenced twice: the plugin's renderer writes [1:1] "
    "the second time, MyST (docutils) the note's number, [1]",
    "myst_spec/footnotes/1": "mystmd's own footnote markup (ids m-fn-*, a heading); same notes",
    "myst_spec/references.tables/1": "mystmd makes a first row a header with no :header-rows:; "
    "docutils (MyST-Parser, Jupyter Book) does not",
}
"""Cases where the suite's expected HTML is its renderer's choice and MyST renders the
text as pizarra does, with the reason; each is checked to still differ (``myst``)."""


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
