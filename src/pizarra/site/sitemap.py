"""``sitemap.xml``: every course and lesson page of every edition, each with its
``xhtml:link`` alternates in the other languages (as search engines read hreflang).

A sitemap must give absolute URLs, and the site is built without knowing where it will
be hosted: it is written only when ``course.yaml`` says where the site lives (``url:``).
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from pizarra.source.model import Alternate, Course

NAME = "sitemap.xml"
MAX_URLS = 50_000
"""URLs one sitemap may list (the protocol's limit)."""


def sitemap(course: Course) -> dict[str, bytes]:
    """``{"sitemap.xml": ...}`` for ``course`` and its editions; empty without ``url``."""
    if not course.url:
        return {}
    editions = course.alternates or (Alternate(course.lang, "", _slugs(course)),)
    pages: list[tuple[int | None, Alternate]] = []
    for edition in editions:
        pages.append((None, edition))
        pages += [(number, edition) for number in sorted(edition.slugs)]
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ]
    for number, edition in pages[:MAX_URLS]:
        lines.append(f"  <url><loc>{_escape(_url(course.url, edition, number))}</loc>")
        for other in editions if len(editions) > 1 else ():
            if number is None or number in other.slugs:
                href = quoteattr(_url(course.url, other, number))
                lines.append(
                    f'    <xhtml:link rel="alternate" hreflang="{other.lang}" href={href}/>'
                )
        lines.append("  </url>")
    lines.append("</urlset>\n")
    return {NAME: "\n".join(lines).encode("utf-8")}


def _slugs(course: Course) -> dict[int, str]:
    return {e.number: e.lesson.slug for e in course.entries if e.lesson is not None}


def _url(base: str, edition: Alternate, number: int | None) -> str:
    return base + edition.site_dir + (f"{edition.slugs[number]}/" if number is not None else "")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
