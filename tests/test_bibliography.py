"""BibTeX files are untrusted: what their @string macros expand to is bounded while
they are read, and every limit is an error at the .bib file's line."""

from __future__ import annotations

from pathlib import Path

import pytest

from pizarra.source.lower import parse_lesson
from pizarra.source.syntax.bibliography_parse import MAX_FIELD_CHARS

LESSON = "---\ntitle: T\nlesson: 1\nlang: en\nsummary: S.\nbibliography: refs.bib\n---\n"


def doubling(times: int) -> str:
    """A few hundred bytes asking for 2 ** (times + 1) characters."""
    lines = ['@string{s0 = "xx"}']
    lines += [f"@string{{s{i} = s{i - 1} # s{i - 1}}}" for i in range(1, times)]
    return "\n".join(lines) + f"\n@misc{{k, title = s{times - 1}}}\n"


def errors_for(tmp_path: Path, bib: str, body: str = "See {cite}`k`.\n") -> list[str]:
    (tmp_path / "refs.bib").write_text(bib)
    _, errors = parse_lesson(tmp_path / "l.md", "l.md", LESSON + body)
    return [f"{e.pos}: {e.message} | {e.hint}" for e in errors]


@pytest.mark.parametrize("times", [16, 40])
def test_doubling_string_macros_stop_at_the_first_value_too_long(
    tmp_path: Path, times: int
) -> None:
    # s13 is the first macro longer than 10,000 characters (2 ** 14 = 16,384): line 14
    assert errors_for(tmp_path, doubling(times)) == [
        "refs.bib:14:1: refs.bib: 's13' is longer than 10,000 characters"
        " | shorten it; an @string macro counts as the text it stands for"
    ]


def test_a_long_field_written_out_is_an_error_at_its_line(tmp_path: Path) -> None:
    bib = "@misc{a, title = {A}}\n@misc{k,\n  title = {" + "x" * MAX_FIELD_CHARS + "y}}\n"
    [error] = errors_for(tmp_path, bib)
    assert error.startswith("refs.bib:3:1: refs.bib: 'title' is longer than 10,000 characters")


def test_macros_used_many_times_are_bounded_in_all(tmp_path: Path) -> None:
    bib = '@string{long = "' + "x" * 9_000 + '"}\n'
    bib += "".join(f"@misc{{e{i}, title = long}}\n" for i in range(300))
    [error] = errors_for(tmp_path, bib)
    # the 223rd use passes 2,000,000 characters: line 1 + 223
    assert error.startswith(
        "refs.bib:224:1: refs.bib: its @string macros expand to more than 2,000,000 characters"
    )


def test_the_cited_references_are_bounded_in_all(tmp_path: Path) -> None:
    bib = "".join(f"@misc{{e{i}, title = {{{'t' * 9_000}}}}}\n" for i in range(30))
    cites = " ".join(f"{{cite}}`e{i}`" for i in range(30))
    [error] = errors_for(tmp_path, bib, cites + "\n")
    assert error.startswith(
        "l.md:6:1: the cited entries' titles, names and venues are longer than 200,000"
        " characters in all (at 'e22')"
    )


def test_ordinary_macros_still_expand(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(
        '@string{jr = "Journal of Results"}\n'
        "@article{k, author = {Ada Lovelace}, title = {Notes}, journal = jr # { (2nd series)},"
        " year = 1843, month = sep}\n"
    )
    lesson, errors = parse_lesson(tmp_path / "l.md", "l.md", LESSON + "See {cite}`k`.\n")
    assert errors == [] and lesson is not None
    assert [s.title for s in lesson.sources] == [
        "Lovelace (1843). Notes. Journal of Results (2nd series)."
    ]
