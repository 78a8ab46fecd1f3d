"""Reading sources: byte-order marks, and nothing from outside the course folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from pizarra.source.course import load_course
from pizarra.source.lower import parse_lesson
from tests.support import FIXTURES, FRONT

COURSE = FIXTURES / "site" / "course"


def test_a_lesson_starting_with_a_utf8_bom_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.md"
    path.write_bytes(b"\xef\xbb\xbf" + (FRONT.format(lang="es") + "\nHola $x$.\n").encode())
    lesson, errors = parse_lesson(path, "bom.md")
    assert [d.format() for d in errors] == []
    assert lesson is not None and lesson.title == "Prueba"
    assert lesson.math[0].pos.line == 12


def test_a_course_manifest_with_a_bom_is_read(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    manifest = course / "course.yaml"
    manifest.write_bytes(b"\xef\xbb\xbf" + manifest.read_bytes())
    loaded, errors = load_course(course)
    assert [d.format() for d in errors] == []
    assert loaded is not None and loaded.title == "Curso mínimo"


def test_an_unreadable_manifest_is_a_diagnostic(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    (course / "course.yaml").write_bytes(b"title: \xff\n")
    loaded, errors = load_course(course)
    assert loaded is None
    assert [d.message for d in errors] == ["cannot read course.yaml: not UTF-8 (byte 7)"]


def test_a_lesson_symlinked_from_outside_the_course_is_an_error(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    secret = tmp_path / "secret.md"
    lesson = course / "lessons" / "01-primera.md"
    secret.write_text(lesson.read_text().replace("Primera", "Secreta"), encoding="utf-8")
    lesson.unlink()
    lesson.symlink_to(secret)
    loaded, errors = load_course(course)
    assert len(errors) == 1
    assert str(errors[0].pos).endswith("course.yaml:5:5")
    assert "leads outside the course folder" in errors[0].message
    assert loaded is None or all("Secreta" not in e.title for e in loaded.entries)


def test_a_symlink_inside_the_course_is_fine(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    lesson = course / "lessons" / "01-primera.md"
    real = course / "drafts" / "primera.md"
    real.parent.mkdir()
    lesson.rename(real)
    lesson.symlink_to(real)
    loaded, errors = load_course(course)
    assert [d.format() for d in errors] == []
    assert loaded is not None


def test_a_symlinked_course_folder_is_fine(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    link = tmp_path / "link"
    link.symlink_to(course)
    loaded, errors = load_course(link)
    assert [d.format() for d in errors] == []
    assert loaded is not None


def test_a_control_character_in_the_front_matter_is_a_diagnostic(tmp_path: Path) -> None:
    text = FRONT.format(lang="es").replace("lesson: 1", "lesson: 1\x1f")
    lesson, errors = parse_lesson(tmp_path / "x.md", "x.md", text)
    assert lesson is None or lesson.incomplete  # read for its other checks, never published
    assert [str(d.pos) for d in errors] == ["x.md:3:10"]
    assert "unacceptable character #x001f" in errors[0].message


def test_an_upcoming_lesson_lists_its_labels(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    manifest = course / "course.yaml"
    text = manifest.read_text(encoding="utf-8")
    upcoming = "    summary: Todavía no publicada.\n"
    manifest.write_text(
        text.replace(upcoming, upcoming + "    labels: [ergodicidad, 'cap:uno']\n"),
        encoding="utf-8",
    )
    loaded, errors = load_course(course)
    assert [d.format() for d in errors] == []
    assert loaded is not None and loaded.entries[1].labels == ("ergodicidad", "cap:uno")
    manifest.write_text(
        text.replace(upcoming, upcoming + "    labels: ergodicidad\n"), encoding="utf-8"
    )
    _, errors = load_course(course)
    assert [d.message for d in errors] == ["upcoming lesson 2: `labels` must be a list of labels"]


def test_a_lesson_folder_symlinked_from_outside_the_course_is_an_error(tmp_path: Path) -> None:
    """A link anywhere on the way down from the course folder counts, not only the file's."""
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    outside = tmp_path / "outside"
    (course / "lessons").rename(outside)
    (course / "lessons").symlink_to(outside)
    loaded, errors = load_course(course)
    assert errors and all("leads outside the course folder" in d.message for d in errors)
    assert loaded is None or not list(loaded.lessons())


def test_a_lesson_reached_through_a_link_inside_the_course_is_fine(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    (course / "lessons").rename(course / "drafts")
    (course / "lessons").symlink_to(course / "drafts")
    loaded, errors = load_course(course)
    assert [d.format() for d in errors] == []
    assert loaded is not None and list(loaded.lessons())
