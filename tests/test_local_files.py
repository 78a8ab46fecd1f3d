"""Markdown images of files beside a lesson, and links to sibling lessons by file name."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

from pizarra.cli import main


def _png() -> bytes:
    """A valid 1x1 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def _course(tmp_path: Path, first_body: str) -> Path:
    course = tmp_path / "course"
    (course / "img").mkdir(parents=True)
    (course / "img" / "a.png").write_bytes(_png())
    (course / "course.yaml").write_text(
        "title: C\nlang: en\nlessons:\n  - number: 1\n    file: 01-a.md\n"
        "  - number: 2\n    file: 02-b.md\n",
        encoding="utf-8",
    )
    front = "---\ntitle: {t}\nlesson: {n}\nlang: en\nsummary: S.\n---\n"
    (course / "01-a.md").write_text(front.format(t="A", n=1) + first_body, encoding="utf-8")
    (course / "02-b.md").write_text(
        front.format(t="B", n=2) + "(part)=\n## Part\n\nText.\n", encoding="utf-8"
    )
    return course


def test_a_markdown_image_is_copied_and_a_lesson_link_resolves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = (
        "![a green dot](img/a.png)\n\nOn to [the next](02-b.md#part), or [notebook](02-b.ipynb),"
        " or [by name](02-b).\n"
    )
    course = _course(tmp_path, body)
    out = tmp_path / "site"
    assert main(["build", str(course), "-o", str(out)]) == 0, capsys.readouterr().err
    page = next(out.glob("*a*/index.html")).read_text(encoding="utf-8")
    second = next(p for p in out.glob("*/index.html") if "b" in p.parent.name)
    assert 'src="../media/img/a.png"' in page and 'alt="a green dot"' in page
    assert (out / "media" / "img" / "a.png").read_bytes() == _png()
    assert f'href="../{second.parent.name}/#part"' in page
    assert f'href="../{second.parent.name}/">by name</a>' in page


def test_a_lesson_link_names_the_file_beside_it_when_two_share_a_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    course = tmp_path / "course"
    (course / "part").mkdir(parents=True)
    (course / "course.yaml").write_text(
        "title: C\nlang: en\nlessons:\n  - number: 1\n    file: intro.md\n"
        "  - number: 2\n    file: part/intro.md\n",
        encoding="utf-8",
    )
    front = "---\ntitle: {t}\nlesson: {n}\nslug: {s}\nlang: en\nsummary: S.\n---\n"
    (course / "intro.md").write_text(
        front.format(t="A", n=1, s="intro") + "On to [the part](part/intro.md).\n"
    )
    (course / "part" / "intro.md").write_text(
        front.format(t="B", n=2, s="part-intro")
        + "Back to [the start](../intro.md), or {doc}`here <intro>`.\n"
    )
    out = tmp_path / "site"
    assert main(["build", str(course), "-o", str(out)]) == 0, capsys.readouterr().err
    first = (out / "intro" / "index.html").read_text(encoding="utf-8")
    second = (out / "part-intro" / "index.html").read_text(encoding="utf-8")
    assert 'href="../part-intro/">the part</a>' in first
    assert 'href="../intro/">the start</a>' in second and 'href="./">here</a>' in second


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("![x](img/missing.png)\n", "no image file 'img/missing.png'"),
        ("See [it](03-c.md).\n", "no lesson '03-c' in the course"),
    ],
)
def test_a_missing_file_or_lesson_is_an_error_at_its_place(
    body: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    course = _course(tmp_path, body)
    assert main(["check", str(course)]) == 1
    err = capsys.readouterr().err
    assert "01-a.md:7:" in err and message in err, err


def test_a_named_cell_figure_is_numbered_and_numref_links_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson = tmp_path / "fig.md"
    lesson.write_text(
        "---\ntitle: F\nlesson: 1\nlang: en\nsummary: S.\n---\n"
        "```{code-cell} ipython3\n---\nmystnb:\n  figure:\n    caption: Growth\n"
        "    name: fig-growth\n  image:\n    alt: a line\n---\nx = 1\n```\n\n"
        "As {numref}`fig-growth` shows.\n",
        encoding="utf-8",
    )
    assert main(["build", "--no-cache", str(lesson), "-o", str(tmp_path / "s")]) == 0, (
        capsys.readouterr().err
    )
    page = (tmp_path / "s" / "fig" / "index.html").read_text(encoding="utf-8")
    assert '<figure class="cell" id="fig-growth">' in page
    assert 'href="#fig-growth">Figure 1</a>' in page
