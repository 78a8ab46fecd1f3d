"""The MyST extensions Jupyter Book authors use, from mdit-py-plugins, made safe for pizarra.

Footnotes (``[^1]`` and inline ``^[...]``), definition lists, task lists, strikethrough,
top-level amsmath environments, substitutions (``{{ name }}``) and attributes after
inline elements (``{.class}``). Two
core rules keep the raw-HTML check exact: author HTML is marked before the task-list rule
runs, so the checkboxes that rule inserts become their own ``task_checkbox`` tokens and
are never taken for HTML; and a footnote defined but never referenced leaves a
``footnote_unused`` token where it was defined, for the lowering to report.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.amsmath import amsmath_plugin
from mdit_py_plugins.attrs import attrs_block_plugin, attrs_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.substitution import substitution_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

ALLOWED_ATTRS = ("class",)
"""What ``{...}`` attributes may set; an id or any other key is refused by the lowering."""


def extensions_plugin(md: MarkdownIt) -> None:
    """Add the extensions to ``md`` (after the core plugins)."""
    md.enable("strikethrough")
    md.use(footnote_plugin).use(deflist_plugin).use(amsmath_plugin).use(substitution_plugin)
    md.use(attrs_plugin, spans=True, allowed=ALLOWED_ATTRS)
    md.use(attrs_block_plugin, allowed=ALLOWED_ATTRS)
    md.core.ruler.before("footnote_tail", "pizarra_unused_footnotes", _unused_footnotes)
    md.use(tasklists_plugin)
    # right after "inline", so before the task-list rule the plugin put there
    md.core.ruler.after("inline", "pizarra_author_html", _mark_author_html)
    md.core.ruler.after("github-tasklists", "pizarra_task_checkboxes", _task_checkboxes)


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


def _mark_author_html(state: StateCore) -> None:
    for token in state.tokens:
        for child in token.children or []:
            if child.type == "html_inline":
                child.meta["author"] = True
        if token.type == "inline":
            token.meta["task_marker"] = token.content[:3]


def _task_checkboxes(state: StateCore) -> None:
    for token in state.tokens:
        for child in token.children or []:
            if child.type == "html_inline" and not child.meta.get("author"):
                child.type = "task_checkbox"
                child.meta["checked"] = token.meta.get("task_marker") in ("[x]", "[X]")
                child.content = ""


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
