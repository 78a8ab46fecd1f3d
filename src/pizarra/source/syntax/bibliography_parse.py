"""BibTeX read with pybtex, with what ``@string`` macros expand to bounded while reading.

pybtex expands macros eagerly, as it reads: ``@string{s1 = s0 # s0}`` stores the doubled
text, so forty such lines (a few hundred bytes) ask for 2⁴⁰ characters, and a title of
262,144 characters takes 9 s to render. The parser below is pybtex's own, with its value
reader replaced by one that stops at the first value (a field or an ``@string``) longer
than :data:`MAX_FIELD_CHARS` and at the macro text beyond :data:`MAX_EXPANSION_CHARS`
in the whole file, before it is joined.
"""

from __future__ import annotations

from pybtex.database import BibliographyData
from pybtex.database.input.bibtex import LowLevelParser, Parser

MAX_FIELD_CHARS = 10_000
"""Longest value of a field, macros expanded: ten times a long abstract."""
MAX_EXPANSION_CHARS = 2_000_000
"""Most text that macros may add to one file, all uses together: as much as the file."""


class TooLong(Exception):
    """A value or the file's macro expansions would pass their limit; at ``line``."""

    hint = "shorten it; an @string macro counts as the text it stands for"

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.message = message
        self.line = line


class _BoundedReader(LowLevelParser):  # type: ignore[misc]
    expanded = 0

    def parse_value(self) -> None:
        parts: list[str] = []
        length = 0
        while not parts or self.optional([self.HASH]):
            part = self.parse_value_part()
            length += len(part)
            if length > MAX_FIELD_CHARS:
                name = self.current_field_name or "a value"
                raise TooLong(
                    f"{name!r} is longer than {MAX_FIELD_CHARS:,} characters", self.lineno
                )
            parts.append(part)
        self.current_value = parts

    def substitute_macro(self, name: str) -> str:
        value: str = super().substitute_macro(name)
        self.expanded += len(value)
        if self.expanded > MAX_EXPANSION_CHARS:
            raise TooLong(
                f"its @string macros expand to more than {MAX_EXPANSION_CHARS:,} characters",
                self.lineno,
            )
        return value


class _BoundedParser(Parser):  # type: ignore[misc]
    def parse_string(self, text: str) -> BibliographyData:
        """pybtex 0.25's ``Parser.parse_string``, reading with :class:`_BoundedReader`."""
        self.unnamed_entry_counter = 1
        self.command_start = 0
        reader = _BoundedReader(
            text,
            keyless_entries=self.keyless_entries,
            handle_error=self.handle_error,
            want_entry=self.data.want_entry,
            filename=self.filename,
            macros=self.macros,
        )
        for entry in reader:
            kind = entry[0].lower()
            if kind == "preamble":
                self.process_preamble(*entry[1])
            elif kind != "string":
                self.process_entry(entry[0], *entry[1])
        return self.data


def parse_bibtex(text: str) -> BibliographyData:
    """The entries of ``text``; raises :class:`TooLong`, or what pybtex raises."""
    return _BoundedParser().parse_string(text)
