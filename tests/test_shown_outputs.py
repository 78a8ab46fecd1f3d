"""A cell with no ``{output}`` block shows what this build's run printed, as Jupyter
Book shows a re-executed notebook; ``--strict`` or ``pin_outputs: true`` requires a block."""

from __future__ import annotations

from pathlib import Path

import pytest

from pizarra.cli import main

LESSON = """---
title: Shown
lesson: 1
lang: en
summary: S.
{extra}---
```{{code-cell}} python
print("from the run")
```
"""


def test_the_page_shows_the_run_and_the_report_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "shown.md").write_text(LESSON.format(extra=""), encoding="utf-8")
    assert main(["build", "--no-cache", str(tmp_path / "shown.md"), "-o", str(tmp_path / "s")]) == 0
    page = (tmp_path / "s" / "shown" / "index.html").read_text(encoding="utf-8")
    assert "Output of this build&#39;s run (shown, not pinned in the lesson)" in page
    assert "<samp>from the run\n</samp>" in page
    report = (tmp_path / "s" / "shown" / "verification" / "index.html").read_text("utf-8")
    assert "no {output} block to pin and compare it" in report
    assert "0 error(s), 0 warning(s)" in capsys.readouterr().err


@pytest.mark.parametrize(("extra", "flags"), [("", ["--strict"]), ("pin_outputs: true\n", [])])
def test_pinning_can_be_required(
    extra: str, flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "shown.md").write_text(LESSON.format(extra=extra), encoding="utf-8")
    assert main(["check", "--no-cache", *flags, str(tmp_path / "shown.md")]) == 1
    err = capsys.readouterr().err
    line = 7 + extra.count("\n")
    assert (
        f"shown.md:{line}:1: error: the code cell prints output but no {{output}} block pins it"
        in err
    )
    assert err.count("no {output} block pins it") == 1
