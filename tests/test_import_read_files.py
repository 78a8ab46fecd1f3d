"""A notebook's code reads files relative to itself: the import carries them along."""

from __future__ import annotations

from pathlib import Path

import pytest

from pizarra.cli import main
from pizarra.source.importer import import_file

READS = Path(__file__).parent / "fixtures" / "import" / "reads"
NOTEBOOK = READS / "lessons" / "unit" / "reader.ipynb"


def test_files_beside_and_above_the_notebook_are_copied_and_paths_above_rewritten() -> None:
    imported = import_file(NOTEBOOK)
    files = dict(imported.files)
    assert files["data/heights.csv"] == (NOTEBOOK.parent / "data" / "heights.csv").read_bytes()
    assert files["styles/custom.css"] == (READS / "styles" / "custom.css").read_bytes()
    assert 'open("data/heights.csv")' in imported.text  # beside it: unchanged
    assert 'css_file = "styles/custom.css"' in imported.text
    assert '"../../styles/custom.css"' not in imported.text
    # a hidden folder's file is never carried, nor is a path that names no file
    assert not any("key.txt" in name or "none.csv" in name for name in files)
    assert 'hidden = "../../.secret/key.txt"' in imported.text
    assert any("hidden folder" in note for note in imported.notes)
    assert any('is now "styles/custom.css"' in note for note in imported.notes)


def test_a_book_lesson_reads_the_books_files_where_they_are(tmp_path: Path) -> None:
    imported = import_file(NOTEBOOK, root=READS)
    assert dict(imported.files) == {}  # the book's other files are copied with it
    assert '"../../styles/custom.css"' in imported.text


def test_the_imported_lesson_runs_its_reading_cells_in_its_own_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson = tmp_path / "out" / "reader.md"
    assert main(["import", str(NOTEBOOK), "-o", str(lesson)]) == 0
    assert (tmp_path / "out" / "styles" / "custom.css").is_file()
    capsys.readouterr()
    site = tmp_path / "site"
    assert main(["build", "--no-cache", str(lesson), "-o", str(site)]) == 0, capsys.readouterr().err
    page = (site / "reader" / "index.html").read_text(encoding="utf-8")
    assert "350" in page and "color: navy" in page
