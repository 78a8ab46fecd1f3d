"""Fences written around text that pizarra did not write (outputs, notebook code).

A fixed three-backtick fence around text that itself holds a line of three backticks
ends early, and what follows is read as markdown: a printed output could become a code
cell. CommonMark closes a fence only with a run of the same character at least as long
as the opening one, so a fence longer than every run of its character inside the text
cannot be closed from within.

The line readers below follow CommonMark's rules for a top-level fence (at most three
spaces before it; a closing run of the same character, at least as long, and nothing
after it but spaces), so that a rewrite of a lesson sees the fences a reader will.
"""

from __future__ import annotations

import re

_OPENING = re.compile(r"^ {0,3}(`{3,}|~{3,}|:{3,})(.*)$")


def fence_for(text: str, char: str = "`") -> str:
    """A fence of ``char`` longer than any run of ``char`` in ``text`` (at least three)."""
    longest = max((len(run) for run in re.findall(re.escape(char) + "+", text)), default=0)
    return char * max(3, longest + 1)


def opening_fence(line: str) -> tuple[str, str] | None:
    """``(fence, info)`` when ``line`` opens a top-level fence, else None."""
    match = _OPENING.match(line.rstrip("\n"))
    if match is None:
        return None
    fence, info = match.group(1), match.group(2)
    if fence[0] == "`" and "`" in info:
        return None  # CommonMark: a backtick fence's info string holds no backtick
    return fence, info.strip()


def closes(line: str, fence: str) -> bool:
    """Whether ``line`` closes the fence that ``fence`` opened."""
    stripped = line.rstrip()
    body = stripped.lstrip(" ")
    return (
        len(stripped) - len(body) <= 3 and len(body) >= len(fence) and body == fence[0] * len(body)
    )
