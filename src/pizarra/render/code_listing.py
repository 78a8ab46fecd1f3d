"""Shown code as a ``<pre>``: highlighted, its lines numbered or emphasised when asked
(:mod:`pizarra.source.code_lines`).

A numbered listing puts each line in a ``<span class="line">`` (a ``<mark>`` when
emphasised) and the stylesheet draws the numbers with a CSS counter, as generated
content with no text alternative: copying the code, or the copy button, gives the code
alone, and a screen reader reads no numbers as if they were code. The first number is
the counter's start, in an inline style the page's policy allows by its hash.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from pizarra.render.highlight import highlight
from pizarra.source.code_lines import CodeLines


def code_pre(code: str, language: str, lines: CodeLines | None = None, kind: str = "") -> Markup:
    """The ``<pre>`` of ``code`` in ``language``; ``kind`` is a class of the ``<pre>``."""
    html = highlight(code, language)
    classes = [kind] if kind else []
    style = ""
    if lines is not None:
        html = _lined(html, lines.emphasized)
        if lines.start is not None:
            classes.append("numbered")
            if lines.start != 1:
                style = f' style="counter-reset: line {lines.start - 1}"'
    pre_class = f' class="{escape(" ".join(classes))}"' if classes else ""
    code_class = f' class="language-{escape(language)} hl"' if language else ""
    return Markup(f'<pre{pre_class}{style} tabindex="0"><code{code_class}>{html}</code></pre>')


def _lined(html: Markup, emphasized: frozenset[int]) -> Markup:
    """Each line of ``html`` in an element of its own. Pygments closes its spans at each
    line's end, so every line is whole HTML; the newlines stay between the elements."""
    rows = str(html).split("\n")
    ending = "\n" if len(rows) > 1 and rows[-1] == "" else ""
    if ending:
        rows.pop()
    tags = ["mark" if n in emphasized else "span" for n in range(1, len(rows) + 1)]
    wrapped = (f'<{tag} class="line">{row}</{tag}>' for tag, row in zip(tags, rows, strict=True))
    return Markup("\n".join(wrapped) + ending)
