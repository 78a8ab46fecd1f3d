"""HTML written in a notebook's markdown cells -> Markdown, for ``pizarra import``.

Jupyter renders the HTML of markdown cells; pizarra refuses raw HTML (a lesson's
source is untrusted). What has a Markdown equivalent becomes it: ``<img>`` an image
(``![alt](src)``; a remote one, which the site's content policy would not load, a link
to it), ``<a>`` a link, ``<b>``/``<strong>``, ``<i>``/``<em>``, ``<code>``, headings,
list items, ``<hr>``. Elements whose content is not text (``<script>``, ``<style>``,
``<iframe>``...) are dropped with it; any other tag (``<table>``, ``<div>``,
``<span>``...) is dropped and its text kept. Each drop is a note for the author.
Comments are dropped silently: Jupyter does not show them either.

HTML is found as CommonMark finds it (markdown-it with HTML on), so a tag inside a
code span or a fence stays as written.
"""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

_DROPPED_WHOLE = frozenset(
    {
        "script",
        "style",
        "iframe",
        "video",
        "audio",
        "object",
        "embed",
        "svg",
        "form",
        "button",
        "input",
        "select",
        "textarea",
        "canvas",
        "noscript",
        "template",
        "head",
        "title",
        "math",
    }
)
_INLINE = {"b": "**", "strong": "**", "i": "*", "em": "*", "code": "`"}
_BREAK = frozenset({"p", "div", "table", "tr", "ul", "ol", "blockquote", "center", "section"})
_SILENT = frozenset(
    {
        "tbody",
        "thead",
        "td",
        "th",
        "br",
        "a",
        "img",
        "li",
        "hr",
        "html",
        "body",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "p",
        "span",
        "font",
        "sub",
        "sup",
    }
)
"""Tags whose loss costs nothing worth a note (their text and meaning are kept)."""


@cache
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    return md.use(dollarmath_plugin, double_inline=True)


def has_html(text: str) -> bool:
    """True when ``text`` holds HTML outside code (cheap test first)."""
    if "<" not in text:
        return False
    for token in _parser().parse(text):
        if token.type == "html_block":
            return True
        if token.type == "inline" and any(c.type == "html_inline" for c in token.children or []):
            return True
    return False


def html_to_markdown(text: str, where: str, notes: list[str]) -> str:
    """``text`` (one markdown cell) with its HTML made Markdown; ``where`` names it in notes."""
    if not has_html(text):
        return text
    lines = text.split("\n")
    dropped: set[str] = set()
    edits: list[tuple[int, int, str]] = []  # (first line, end line, replacement lines)
    for token in _parser().parse(text):
        if token.map is None:
            continue
        first, end = token.map
        if token.type == "html_block":
            edits.append((first, end, _convert(token.content, dropped, block=True)))
        elif token.type == "inline" and any(c.type == "html_inline" for c in token.children or []):
            source = "\n".join(lines[first:end])
            converter = _Converter(dropped, block=False)
            out, cursor = [], 0
            for child in token.children or []:
                if child.type == "code_inline":  # step over it: its text may look like HTML
                    at = source.find(child.markup + child.content, cursor)
                    close = at + len(child.markup + child.content) if at >= 0 else -1
                    close = source.find(child.markup, close) if close >= 0 else -1
                    if close >= 0:
                        out.append(source[cursor : close + len(child.markup)])
                        cursor = close + len(child.markup)
                if child.type != "html_inline":
                    continue
                at = source.find(child.content, cursor)
                if at < 0:
                    continue
                out.append(source[cursor:at])
                converter.reset_output()
                converter.feed(child.content)
                out.append(converter.text())
                cursor = at + len(child.content)
            out.append(source[cursor:])
            out.append(converter.close_open())
            edits.append((first, end, "".join(out)))
    for first, end, replacement in sorted(edits, reverse=True):
        lines[first:end] = replacement.split("\n") if replacement else []
    if dropped:
        names = ", ".join(f"<{name}>" for name in sorted(dropped))
        notes.append(f"{where}: dropped the HTML {names} (raw HTML is not allowed; text kept)")
    return "\n".join(lines)


def _convert(html: str, dropped: set[str], block: bool) -> str:
    converter = _Converter(dropped, block)
    converter.feed(html)
    converter.close()
    text = converter.text() + converter.close_open()
    text = "\n".join(line.strip() for line in text.split("\n"))
    text = re.sub(r"\n{3,}", "\n\n", text).strip("\n")
    return text + "\n" if text and block else text


class _Converter(HTMLParser):
    def __init__(self, dropped: set[str], block: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.dropped = dropped
        self.block = block
        self.parts: list[str] = []
        self.links: list[str | None] = []
        self.skipping: list[str] = []

    def reset_output(self) -> None:
        self.parts = []

    def text(self) -> str:
        return "".join(self.parts)

    def close_open(self) -> str:
        """Closing text for links left open at the end."""
        closing = "".join(f"]({href})" for href in reversed(self.links) if href)
        self.links = []
        return closing

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if self.skipping:
            if tag == self.skipping[-1]:
                self.skipping.append(tag)
            return
        if tag in _DROPPED_WHOLE:
            self.dropped.add(tag)
            self.skipping.append(tag)
        elif tag in _INLINE:
            self.parts.append(_INLINE[tag])
        elif tag == "img":
            self.parts.append(_image(values, inside_link=any(self.links)))
        elif tag == "a":
            href = values.get("href", "")
            self.links.append(href if href and not href.startswith("javascript:") else None)
            if self.links[-1]:
                self.parts.append("[")
        elif tag == "br":
            self.parts.append("\n" if self.block else " ")
        elif tag == "hr":
            self.parts.append("\n\n***\n\n")
        elif re.fullmatch(r"h[1-6]", tag):
            self.parts.append("\n\n" + "#" * int(tag[1]) + " ")
        elif tag == "li":
            self.parts.append("\n- ")
        else:
            if tag in _BREAK and self.block:
                self.parts.append("\n\n")
            if tag not in _SILENT:
                self.dropped.add(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in _DROPPED_WHOLE and self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            if tag == self.skipping[-1]:
                self.skipping.pop()
            return
        if tag in _INLINE:
            self.parts.append(_INLINE[tag])
        elif tag == "a" and self.links:
            href = self.links.pop()
            if href:
                self.parts.append(f"]({href})")
        elif re.fullmatch(r"h[1-6]", tag) or (tag in _BREAK and self.block):
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.block:
            data = re.sub(r"\s+", " ", data)
            if not self.parts or self.parts[-1].endswith("\n"):
                data = data.lstrip()
        self.parts.append(data)

    def handle_comment(self, data: str) -> None:
        return


def _image(attrs: dict[str, str], inside_link: bool) -> str:
    src = attrs.get("src", "").strip()
    alt = " ".join(attrs.get("alt", "").split()).replace("]", "").replace("[", "")
    if not alt:
        stem = src.rstrip("/").rsplit("/", 1)[-1].split("?")[0].rsplit(".", 1)[0]
        alt = " ".join(re.split(r"[-_]+", stem)).strip() or "image"
    if not src:
        return alt
    if re.match(r"^[a-z][a-z0-9+.-]*:", src, re.IGNORECASE):
        # The site loads only its own files (its content policy): a remote image is its
        # text, a link to it when not already inside one.
        return alt if inside_link or src.startswith("data:") else f"[{alt}]({src})"
    return f"![{alt}]({src.replace(' ', '%20')})"
