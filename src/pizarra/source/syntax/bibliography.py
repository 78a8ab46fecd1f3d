"""``bibliography:`` in the front matter: BibTeX files whose entries ``{cite}`` may name.

Read with pybtex (the BibTeX library Sphinx's own bibtex extension uses); only the
entries the lesson cites join its sources list, after the front matter's own
``sources``, each shown as "Authors (year). Title. Venue." and linked when the entry
has a ``url`` or a ``doi``. A .bib file is untrusted: its size, what its macros expand
to (:mod:`~pizarra.source.syntax.bibliography_parse`) and the text its cited entries
render are bounded, each limit an error with a position.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePath

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.source.blocks import Citation, Source
from pizarra.source.syntax.bibliography_parse import TooLong, parse_bibtex

MAX_BIB_BYTES = 2_000_000
MAX_SHOWN_CHARS = 200_000
"""Most BibTeX text a lesson's sources list renders (pybtex's LaTeX reader takes about
4 µs a character): a hundred references of 2,000 characters."""
_SHOWN = ("journal", "booktitle", "publisher", "howpublished", "year", "title")


def cited_entries(
    files: Iterable[str],
    lesson_file: Path,
    root: Path,
    citations: Iterable[Citation],
    known: set[str],
    pos: SourcePos,
) -> tuple[list[Source], list[Diagnostic]]:
    """Sources for the cited keys not in ``known``, from the bibliography ``files``."""
    from pybtex.database import BibliographyData
    from pybtex.scanner import PybtexSyntaxError

    errors: list[Diagnostic] = []
    entries: dict[str, object] = {}
    for name in files:
        path = (lesson_file.parent / name).resolve()
        if not path.is_relative_to(root.resolve()) or path.suffix != ".bib":
            errors.append(Diagnostic(pos, f"{name!r} is not a .bib file inside the course"))
            continue
        try:
            raw = path.read_bytes()
            if len(raw) > MAX_BIB_BYTES:
                errors.append(Diagnostic(pos, f"{name} is larger than {MAX_BIB_BYTES:,} bytes"))
                continue
            data: BibliographyData = parse_bibtex(raw.decode("utf-8"))
        except TooLong as exc:
            at = SourcePos(str(PurePath(pos.path).parent / name), exc.line, 1)
            errors.append(
                Diagnostic(
                    at,
                    f"{name}: {exc.message}",
                    hint=exc.hint,
                )
            )
            continue
        except OSError as exc:
            errors.append(Diagnostic(pos, f"cannot read {name}: {exc.strerror}"))
            continue
        except (PybtexSyntaxError, UnicodeDecodeError, ValueError) as exc:
            errors.append(Diagnostic(pos, f"{name} is not valid BibTeX: {exc}"))
            continue
        entries.update(data.entries)
    sources: list[Source] = []
    shown = 0
    for citation in citations:
        key = citation.key
        entry = entries.get(key)
        if key in known or entry is None:
            continue
        known.add(key)
        shown += _shown_chars(entry)
        if shown > MAX_SHOWN_CHARS:
            errors.append(
                Diagnostic(
                    pos,
                    f"the cited entries' titles, names and venues are longer than"
                    f" {MAX_SHOWN_CHARS:,} characters in all (at {key!r})",
                    hint="cite fewer entries, or shorten their fields in the .bib file",
                )
            )
            break
        sources.append(Source(key, _reference(entry), _url(entry), pos))
    return sources, errors


def _shown_chars(entry: object) -> int:
    """How much text :func:`_reference` renders for ``entry``, before rendering it."""
    from pybtex.database import Entry

    assert isinstance(entry, Entry)
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = sum(len(part) for person in people for part in person.last_names)
    return names + sum(len(entry.fields.get(field, "")) for field in _SHOWN)


def _reference(entry: object) -> str:
    from pybtex.database import Entry
    from pybtex.richtext import Text

    assert isinstance(entry, Entry)

    def plain(field: str) -> str:
        value = entry.fields.get(field, "")
        return str(Text.from_latex(value).render_as("text")).strip() if value else ""

    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [
        " ".join(Text.from_latex(part).render_as("text") for part in person.last_names)
        for person in people
    ]
    who = names[0] + " et al." if len(names) > 3 else ", ".join(names)
    venue = plain("journal") or plain("booktitle") or plain("publisher") or plain("howpublished")
    year = plain("year")
    title = plain("title")
    title += "" if title.endswith((".", "?", "!")) else "."
    parts = [f"{who} ({year})." if who and year else who or year, title]
    if venue:
        parts.append(venue + ".")
    return " ".join(p for p in parts if p.strip(". "))


def _url(entry: object) -> str:
    from pybtex.database import Entry

    assert isinstance(entry, Entry)
    url = str(entry.fields.get("url", "")).strip()
    if url.startswith(("https://", "http://")) and " " not in url:
        return url
    doi = str(entry.fields.get("doi", "")).strip()
    return f"https://doi.org/{doi}" if doi and " " not in doi else ""
