"""``--update-outputs``: write each lesson whose output blocks changed, atomically."""

from __future__ import annotations

from pathlib import Path

from pizarra.build import Report
from pizarra.check.update_outputs import update_outputs
from pizarra.fileio import write_atomic


def write_updated_outputs(report: Report) -> list[Path]:
    """Rewrite the lessons whose ``{output}`` blocks differ from what their cells print."""
    if report.course is None:
        return []
    changed = []
    for lesson in report.course.lessons():
        text = update_outputs(lesson, report.outcomes.get(lesson.path, []))
        if text is None:
            continue
        write_atomic(lesson.path, text.encode(), lesson.path.stat().st_mode & 0o777)
        changed.append(lesson.path)
    return changed
