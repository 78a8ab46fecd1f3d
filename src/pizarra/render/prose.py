"""Prose tokens -> HTML: markdown-it's renderer with pizarra's math, roles and tables.

Every rule escapes source text; only MathML from the math renderer (which escapes
its own input) is inserted as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from markdown_it.common.utils import escapeHtml, unescapeAll
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markupsafe import Markup, escape
from mdit_py_plugins.footnote import index as footnote

from pizarra.base.i18n.strings import t
from pizarra.check.xref import Resolved
from pizarra.math.mathml import MathRenderer
from pizarra.render.code_listing import code_pre
from pizarra.render.punctuation import CLOSING, OPENING, glued
from pizarra.source.blocks import Ref
from pizarra.source.markdown import parser
from pizarra.source.syntax.download import LINK as DOWNLOAD


@dataclass(frozen=True)
class ProseContext:
    """What prose rendering needs beyond the tokens."""

    lang: str
    """UI language."""
    math: MathRenderer
    """TeX -> MathML."""
    lesson_href: Callable[[int], str | None]
    """URL of a published lesson, None for an upcoming one."""
    course_href: Callable[[int], str]
    """URL of a lesson's entry on the course page."""
    source_number: Callable[[str], int | None]
    """Number of a cited source."""
    resolve: Callable[[Ref], Resolved | str] = lambda ref: "no course"
    """Where a ``{ref}``, ``{eq}``, ``{doc}`` or label link goes (a reason when nowhere)."""


class ProseRenderer(RendererHTML):
    """markdown-it's HTML renderer plus rules named after pizarra's token types."""

    def _ctx(self, env: dict[str, Any]) -> ProseContext:
        ctx = env["pizarra"]
        assert isinstance(ctx, ProseContext)
        return ctx

    def math_inline(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        mathml = self._ctx(env).math(tokens[idx].content, False)
        before, after = _glued(tokens, idx)
        return glued(before, mathml, after)

    def text(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        content = tokens[idx].content
        lead = len(_glued(tokens, idx - 1)[1]) if idx > 0 else 0
        tail = len(_glued(tokens, idx + 1)[0]) if idx + 1 < len(tokens) else 0
        return escapeHtml(content[lead : len(content) - tail])

    def math_inline_double(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return self._ctx(env).math(tokens[idx].content, True)

    def math_block(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        mathml = self._ctx(env).math(tokens[idx].content.strip("\n"), True)
        return f'<div class="math-display" tabindex="0">{mathml}</div>\n'

    def math_block_label(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        return str(
            equation_html(self._ctx(env), token.content, token.meta["anchor"], token.meta["number"])
        )

    def myst_target(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        anchor = tokens[idx].meta.get("anchor", "")
        return f'<span id="{escapeHtml(anchor)}"></span>\n' if anchor else ""

    def myst_line_comment(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return ""

    def myst_block_break(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return ""

    def link_open(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        ref = token.meta.get("ref")
        if isinstance(ref, Ref):
            found = self._ctx(env).resolve(ref)
            href = found.href if isinstance(found, Resolved) else ref.label
            filled = found.text if isinstance(found, Resolved) and ref.kind == "link-empty" else ""
            fragment = token.meta.get("fragment")
            if isinstance(fragment, str) and isinstance(found, Resolved) and "#" not in href:
                href += fragment
            return f'<a href="{escapeHtml(href)}">{escapeHtml(filled)}'
        if token.meta.get("unsafe"):
            return "<a>"
        return self.renderToken(tokens, idx, options, env)

    def html_block(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return _html(tokens[idx])

    def html_inline(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return _html(tokens[idx])

    def image(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        if tokens[idx].meta.get("unsafe"):
            return ""
        return super().image(tokens, idx, options, env)

    def amsmath(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        """Numbered environments carry their ``\\tag`` numbers and their labels' ids."""
        token = tokens[idx]
        tex = str(token.meta.get("tex") or token.content).strip("\n")
        targets = "".join(
            f'<span id="{escapeHtml(a)}"></span>' for a in token.meta.get("anchors", ())
        )
        mathml = self._ctx(env).math(tex, True)
        return f'{targets}<div class="math-display" tabindex="0">{mathml}</div>\n'

    def colon_fence(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        """A colon fence that names no directive is a code block, as MyST shows it."""
        return self.fence(tokens, idx, options, env)

    def caption_number(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return f'<span class="caption-number">{escapeHtml(tokens[idx].content)}</span> '

    def substitution_block(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        inline = self.renderInline(tokens[idx].children or [], options, env)
        return f"<p>{inline}</p>\n"

    def substitution_inline(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return escapeHtml("{{ " + tokens[idx].content + " }}")  # undefined: refused when read

    def task_checkbox(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        done = bool(tokens[idx].meta.get("checked"))
        label = escapeHtml(t(self._ctx(env).lang, "task_done" if done else "task_open"))
        checked = " checked" if done else ""
        return f'<input type="checkbox" disabled{checked} aria-label="{label}"> '

    footnote_ref = footnote.render_footnote_ref
    footnote_block_open = footnote.render_footnote_block_open
    footnote_block_close = footnote.render_footnote_block_close
    footnote_open = footnote.render_footnote_open
    footnote_close = footnote.render_footnote_close
    footnote_anchor = footnote.render_footnote_anchor

    def footnote_caption(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        """The note's number, the same at each of its references (not "[1:1]")."""
        return f"[{int(tokens[idx].meta['id']) + 1}]"

    footnote_anchor_name = footnote.render_footnote_anchor_name

    def text_special(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return escapeHtml(tokens[idx].content)

    def myst_role(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        token, ctx = tokens[idx], self._ctx(env)
        if "lesson" in token.meta:
            text = token.meta.get("lesson_text")
            return str(lesson_link(ctx, int(token.meta["lesson"]), text))
        if "cite" in token.meta:
            return ", ".join(_cite(ctx, key) for key in token.meta["cite"])
        ref = token.meta.get("ref")
        if isinstance(ref, Ref):
            found = ctx.resolve(ref)
            if isinstance(found, str):
                return f'<span class="ref">{escapeHtml(ref.text or ref.label)}</span>'
            return f'<a class="ref ref-{ref.kind}" href="{escapeHtml(found.href)}">' + (
                f"{escapeHtml(found.text)}</a>"
            )
        if DOWNLOAD in token.meta:
            href, text = token.meta[DOWNLOAD]
            return f'<a href="{escapeHtml(href)}">{escapeHtml(text)}</a>'
        if "math" in token.meta:
            return ctx.math(str(token.meta["math"]), False)
        if "element" in token.meta:
            tag, text, title = token.meta["element"]
            attr = f' title="{escapeHtml(title)}"' if title else ""
            return f"<{tag}{attr}>{escapeHtml(text)}</{tag}>"
        if "index_anchor" in token.meta:
            anchor = escapeHtml(str(token.meta["index_anchor"]))
            return f'<span id="{anchor}">{escapeHtml(str(token.meta["text"]))}</span>'
        if "text" in token.meta:
            return escapeHtml(str(token.meta["text"]))
        return escapeHtml(token.content)

    def table_open(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        label = escape(t(self._ctx(env).lang, "table"))
        return (
            f'<div class="table-scroll" role="region" tabindex="0" aria-label="{label}">\n'
            + self.renderToken(tokens, idx, options, env)
        )

    def table_close(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return self.renderToken(tokens, idx, options, env) + "</div>\n"

    def fence(self, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        language = fence_language(token)
        code = f"{code_pre(token.content, language, token.meta.get('lines'))}\n"
        caption, anchor = token.meta.get("caption", ""), token.meta.get("anchor", "")
        if not caption and not anchor:
            return code
        ident = f' id="{escapeHtml(anchor)}"' if anchor else ""
        title = f"<figcaption>{escapeHtml(caption)}</figcaption>\n" if caption else ""
        return f'<figure class="code-listing"{ident}>\n{title}{code}</figure>\n'


def _html(token: Token) -> str:
    """A source's HTML never reaches the page: a comment is dropped, anything else (refused
    when the lesson was read) is shown as text."""
    return "" if token.meta.get("comment") else escapeHtml(token.content)


def _glued(tokens: Sequence[Token], idx: int) -> tuple[str, str]:
    """The punctuation right before and right after the inline formula ``tokens[idx]``
    (``(`` and ``)`` in ``($x$)``), rendered with it in one box that never breaks
    between them: a browser may otherwise break the line between a formula and its comma.
    Empty when ``tokens[idx]`` is no inline formula; a text token between two formulas
    gives each its own punctuation, never a character twice."""
    if tokens[idx].type != "math_inline":
        return "", ""
    before = after = ""
    if idx + 1 < len(tokens) and tokens[idx + 1].type == "text":
        match = CLOSING.match(tokens[idx + 1].content)
        after = match.group() if match else ""
    if idx > 0 and tokens[idx - 1].type == "text":
        text = tokens[idx - 1].content
        closed = CLOSING.match(text) if idx > 1 and tokens[idx - 2].type == "math_inline" else None
        taken = len(closed.group()) if closed else 0
        match = OPENING.search(text, taken)
        before = match.group() if match else ""
    return before, after


def fence_language(token: Token) -> str:
    """The language a fenced code block names (the first word of its info), or ""."""
    words = unescapeAll(token.info).split(maxsplit=1)
    return words[0] if words else ""


def _cite(ctx: ProseContext, key: str) -> str:
    number = ctx.source_number(key)
    if number is None:
        return f'<span class="cite">[{escapeHtml(key)}]</span>'
    anchor = t(ctx.lang, "id_source", n=number)
    return f'<a class="cite" href="#{anchor}">[{number}]</a>'


def equation_html(ctx: ProseContext, tex: str, anchor: str, number: int | None) -> Markup:
    """A display formula; a numbered one carries its id and its number."""
    mathml = Markup(ctx.math(tex.strip("\n"), True))
    if number is None:
        return Markup('<div class="math-display" tabindex="0">{}</div>\n').format(mathml)
    return Markup(
        '<div class="math-display math-numbered" id="{}" tabindex="0">{}'
        '<span class="eq-number">({})</span></div>\n'
    ).format(anchor, mathml, number)


def lesson_link(ctx: ProseContext, number: int, text: str | None = None) -> Markup:
    """A reference to lesson ``number``: a link if published, else a pointer to the course.

    Its text is the running-text form ("lección 8") unless the author wrote their own.
    """
    label = t(ctx.lang, "lesson_ref", n=number) if text is None else text
    href = ctx.lesson_href(number)
    if href is not None:
        return Markup('<a class="lesson-ref" href="{}">{}</a>').format(href, label)
    return Markup(
        '<a class="lesson-ref lesson-ref--upcoming" href="{}" title="{}">{} '
        '<span class="badge">{}</span></a>'
    ).format(
        ctx.course_href(number),
        t(ctx.lang, "upcoming_ref_title", n=number),
        label,
        t(ctx.lang, "status_upcoming").lower(),
    )


_RENDERER = ProseRenderer()


def render_prose(tokens: Sequence[Token], ctx: ProseContext) -> Markup:
    """HTML of a run of block tokens."""
    return Markup(_RENDERER.render(tokens, parser().options, {"pizarra": ctx}))
