"""A budget for parsing one lesson: markdown-it's work is bounded, not only the file size.

markdown-it-py spends 5 to 60 µs on each block and each place where its inline rules are
tried (an emphasis mark, an entity, a dollar, a table cell), and some of its rules grow
faster than the text: within 2,000,000 bytes, 330,000 ``*a **a`` took 81 s, 300,000
``&amp;`` 35 s (``myst_role`` copies the rest of the paragraph at each mark), a table of
20 × 20,000 cells 47 s and 666,000 one-letter paragraphs about 15 s. A lesson of the
bundled course has about 400 blocks and 1,000 marks; the limits below are fifty times
that, and keep the parse of a lesson to about a second and its build to a few.

Work is counted as it is done, by a block rule tried first at each block, a look ahead
at each table, an inline rule tried after plain text, and markdown-it's own inline step
wrapped to count per paragraph. Past a limit, :class:`OverBudget` stops the parse; the
lesson gets one error at the line where it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline

MAX_BLOCKS = 20_000
"""Blocks and table cells in one lesson, directive bodies included."""
MAX_MARKS = 50_000
"""Places in one lesson where inline syntax may start (see the module's docstring)."""
MAX_PARAGRAPH_MARKS = 20_000
"""The same in one paragraph (or heading, or table cell): emphasis is paired per paragraph,
in time that grows faster than the number of marks."""
ENV_KEY = "pizarra.budget"


class OverBudget(Exception):
    """The parse stopped at a limit; ``line`` is 0-based in the text being parsed."""

    def __init__(self, message: str, hint: str, line: int):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.line = line


@dataclass
class Budget:
    """What one lesson's parses have spent so far (kept in markdown-it's ``env``)."""

    blocks: int = 0
    marks: int = 0
    paragraph_marks: int = 0
    line: int = 0
    """The 0-based line of the paragraph whose inline syntax is being read."""
    stopped: bool = False
    """Set once a limit was passed: the rest of the lesson is not parsed."""
    code_chars: int = 0
    """Characters of code to highlight so far (:mod:`pizarra.source.syntax.highlighting`)."""
    code_reported: bool = False

    def spend_blocks(self, count: int, line: int) -> None:
        self.blocks += count
        if self.blocks > MAX_BLOCKS:
            raise OverBudget(
                f"the lesson has more than {MAX_BLOCKS:,} blocks and table cells",
                "split it into several lessons, or a table into smaller ones",
                line,
            )

    def spend_mark(self) -> None:
        self.marks += 1
        self.paragraph_marks += 1
        if self.paragraph_marks > MAX_PARAGRAPH_MARKS:
            raise OverBudget(
                f"this paragraph has more than {MAX_PARAGRAPH_MARKS:,} places where inline"
                " markup may start (emphasis, entities, math, roles, links)",
                "split it into paragraphs; write a long run of symbols in a code block",
                self.line,
            )
        if self.marks > MAX_MARKS:
            raise OverBudget(
                f"the lesson has more than {MAX_MARKS:,} places where inline markup may"
                " start (emphasis, entities, math, roles, links)",
                "split it into several lessons",
                self.line,
            )


def add_budget(md: MarkdownIt) -> None:
    """Make ``md`` count its work in ``env[ENV_KEY]`` when a :class:`Budget` is there."""
    first = md.block.ruler.get_all_rules()[0]
    md.block.ruler.before(first, "pizarra_budget", _count_block)
    md.inline.ruler.after("text", "pizarra_budget", _count_mark)
    md.core.ruler.at("inline", _inline)


def _budget(env: Any) -> Budget | None:
    budget = env.get(ENV_KEY) if isinstance(env, dict) else None
    return budget if isinstance(budget, Budget) else None


def _count_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    budget = _budget(state.env)
    if budget is None or silent:
        return False
    budget.spend_blocks(1, start)
    if start + 1 < end and "|" in _line(state, start) and "-" in _line(state, start + 1):
        line = start  # a table may start here: its cells are counted before it is read
        while line < end and not state.isEmpty(line):
            budget.spend_blocks(max(1, _line(state, line).count("|")), start)
            line += 1
    return False


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def _count_mark(state: StateInline, silent: bool) -> bool:
    budget = _budget(state.env)
    if budget is not None:
        budget.spend_mark()
    return False


def _inline(state: StateCore) -> None:
    """markdown-it's core ``inline`` step, telling the budget which paragraph it reads."""
    budget = _budget(state.env)
    for token in state.tokens:
        if token.type == "inline":
            if budget is not None:
                budget.paragraph_marks = 0
                budget.line = token.map[0] if token.map else budget.line
            if token.children is None:
                token.children = []
            state.md.inline.parse(token.content, state.md, state.env, token.children)
