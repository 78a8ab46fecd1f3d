"""Prose tokens -> HTML: markdown-it's renderer with pizarra's math, roles and tables.

Every rule escapes source text; only MathML from the math renderer (which escapes
its own input) is inserted as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markupsafe import Markup, escape

from pizarra.base.i18n.strings import t
from pizarra.check.xref import Resolved
from pizarra.math.mathml import MathRenderer
from pizarra.render.highlight import highlight
from pizarra.source.blocks import Ref
from pizarra.source.markdown import parser


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
        return self._ctx(env).math(tokens[idx].content, False)

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
            fragment = token.meta.get("fragment")
            if isinstance(fragment, str) and isinstance(found, Resolved) and "#" not in href:
                href += fragment
            return f'<a href="{escapeHtml(href)}">'
        return self.renderToken(tokens, idx, options, env)

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
        attr = f' class="language-{escapeHtml(language)} hl"' if language else ""
        return f'<pre tabindex="0"><code{attr}>{highlight(token.content, language)}</code></pre>\n'


def fence_language(token: Token) -> str:
    """The language a fenced code block names (the first word of its info), or ""."""
    words = token.info.split(maxsplit=1)
    return words[0] if words else ""


def _cite(ctx: ProseContext, key: str) -> str:
    number = ctx.source_number(key)
    if number is None:
        return f'<span class="cite">[{escapeHtml(key)}]</span>'
    return f'<a class="cite" href="#fuente-{number}">[{number}]</a>'


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
