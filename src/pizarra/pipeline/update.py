"""``--update-outputs``: write each lesson whose output blocks changed, atomically."""

from __future__ import annotations

from pathlib import Path

from pizarra.base.errors import Diagnostic
from pizarra.base.fileio import write_atomic
from pizarra.check.kernel.execute import CodeRunner
from pizarra.check.update_outputs import confirm_changes, update_outputs
from pizarra.pipeline.tools import Report


def write_updated_outputs(
    report: Report, runner: CodeRunner
) -> tuple[list[Path], list[Diagnostic]]:
    """Rewrite the lessons whose ``{output}`` blocks differ from what their cells print.

    A changed output is written only when a second run of the lesson agrees with it;
    every cell whose runs differ is returned as an error.
    """
    if report.course is None:
        return [], []
    changed, errors = [], []
    for lesson in report.course.lessons():
        outcomes, unstable = confirm_changes(lesson, report.outcomes.get(lesson.path, []), runner)
        errors += unstable
        text = update_outputs(lesson, outcomes)
        if text is None:
            continue
        write_atomic(lesson.path, text.encode(), lesson.path.stat().st_mode & 0o777)
        changed.append(lesson.path)
    return changed, errors
