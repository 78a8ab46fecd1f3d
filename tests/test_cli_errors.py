"""Every kind of author error: ``pizarra check`` prints ``file:line:col`` and exits 1."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pizarra.cli import main
from tests.support import FIXTURES

ERRORS = FIXTURES / "errors"
CASES = sorted(p.stem for p in ERRORS.glob("*.md"))


@pytest.mark.parametrize("name", CASES)
def test_check_reports_error_at_position(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(ERRORS / f"{name}.md", tmp_path / f"{name}.md")
    monkeypatch.chdir(tmp_path)
    code = main(["check", f"{name}.md"])
    err = capsys.readouterr().err
    heads = [line for line in err.splitlines() if ": error: " in line]
    expected = (ERRORS / f"{name}.expected").read_text(encoding="utf-8").splitlines()
    assert code == 1, err
    for line in expected:
        assert any(head.startswith(line) for head in heads), f"missing {line!r} in:\n{err}"
    assert len(heads) == len(expected), err
    assert "hint: " in err
    assert "pizarra check:" in err.splitlines()[-1]
