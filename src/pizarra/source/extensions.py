"""The MyST extensions Jupyter Book authors use, from mdit-py-plugins, made safe for pizarra.

Footnotes (``[^1]`` and inline ``^[...]``), definition lists, strikethrough,
top-level amsmath environments, substitutions (``{{ name }}``) and attributes after
inline elements (``{.class}``, ``{#label}``), from mdit-py-plugins; task lists by a rule
of pizarra's own (a checkbox token, never HTML). A footnote defined but never referenced
leaves a ``footnote_unused`` token where it was defined, for the lowering to report.
A page has one list of footnotes, at its end: :func:`without_footnote_list` takes out the
copy a directive body's parse would append.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.amsmath import amsmath_plugin
from mdit_py_plugins.attrs import attrs_block_plugin, attrs_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.substitution import substitution_plugin

ALLOWED_ATTRS = ("class",)
"""What ``{...}`` attributes may set; an id or any other key is refused by the lowering."""


def extensions_plugin(md: MarkdownIt) -> None:
    """Add the extensions to ``md`` (after the core plugins)."""
    md.enable("strikethrough")
    md.use(footnote_plugin).use(deflist_plugin).use(amsmath_plugin).use(substitution_plugin)
    md.use(attrs_plugin, spans=True, allowed=ALLOWED_ATTRS)
    md.use(attrs_block_plugin, allowed=ALLOWED_ATTRS)
    md.core.ruler.before("footnote_tail", "pizarra_unused_footnotes", _unused_footnotes)
    md.core.ruler.after("inline", "pizarra_task_lists", _task_lists)


MAX_DISPLAY_LINES = 200
"""Lines a ``$$`` block may span."""


def bounded_display_math(md: MarkdownIt) -> None:
    """A ``$$`` block's end is looked for only up to the next line that starts with ``$$``
    (its closing line, or another formula's opening) and at most :data:`MAX_DISPLAY_LINES`
    lines on. Blank lines are allowed inside, as MyST allows them, so without this an
    unclosed ``$$`` would look to the end of the file, and many of them would take
    quadratic time; bounded so, the lines looked at by successive blocks do not overlap.
    """
    ruler = md.block.ruler
    rule = ruler.__rules__[ruler.__find__("math_block")]
    find_end = rule.fn

    def math_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        limit = min(end, start + MAX_DISPLAY_LINES)
        line = start + 1
        while line < limit:
            at = state.bMarks[line] + state.tShift[line]
            if state.src.startswith("$$", at):
                limit = line + 1
                break
            line += 1
        return bool(find_end(state, start, limit, silent))

    ruler.at("math_block", math_block, {"alt": rule.alt})


_TASK = re.compile(r"\[([ xX])\][ \t]")


def _task_lists(state: StateCore) -> None:
    """``- [ ] item`` and ``- [x] item``: a checkbox token first in the item's text.

    One pass with a stack of the open lists, so each item finds its list in constant
    time (mdit-py-plugins' rule searches back from every item: quadratic in a long list).
    """
    tokens = state.tokens
    lists: list[Token] = []
    for index, token in enumerate(tokens):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            lists.append(token)
        elif token.type in ("bullet_list_close", "ordered_list_close") and lists:
            lists.pop()
        elif (
            token.type == "inline"
            and index >= 2
            and tokens[index - 1].type == "paragraph_open"
            and tokens[index - 2].type == "list_item_open"
            and token.children
            and token.children[0].type == "text"
            and (match := _TASK.match(token.children[0].content)) is not None
        ):
            box = Token("task_checkbox", "input", 0)
            box.meta["checked"] = match.group(1) != " "
            first = token.children[0]
            first.content = first.content[match.end() :]
            token.content = token.content[match.end() :]
            token.children.insert(0, box)
            tokens[index - 2].attrSet("class", "task-list-item")
            if lists:
                lists[-1].attrSet("class", "contains-task-list")


def _unused_footnotes(state: StateCore) -> None:
    refs = state.env.get("footnotes", {}).get("refs", {})
    tokens: list[Token] = []
    for token in state.tokens:
        if token.type == "footnote_reference_open" and refs.get(":" + token.meta["label"]) == -1:
            marker = Token("footnote_unused", "", 0)
            marker.map, marker.meta = token.map, {"label": token.meta["label"]}
            tokens.append(marker)
        tokens.append(token)
    state.tokens = tokens


def without_footnote_list(tokens: list[Token]) -> list[Token]:
    """A directive's body is parsed with the page's env, so ``footnote_tail`` appends the
    page's footnotes to it again (the same ids twice on the page): cut, as the page's own
    list, after its last block, is the one."""
    for index, token in enumerate(tokens):
        if token.type == "footnote_block_open":
            return tokens[:index]  # footnote_tail puts the list last
    return tokens
