"""``--update-outputs``: write each lesson whose output blocks changed, atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pizarra.build import Report
from pizarra.check.update_outputs import update_outputs


def write_updated_outputs(report: Report) -> list[Path]:
    """Rewrite the lessons whose ``{output}`` blocks differ from what their cells print."""
    if report.course is None:
        return []
    changed = []
    for lesson in report.course.lessons():
        text = update_outputs(lesson, report.outcomes.get(lesson.path, []))
        if text is None:
            continue
        fd, temp = tempfile.mkstemp(dir=lesson.path.parent, prefix=f".{lesson.path.name}.")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            os.chmod(temp, lesson.path.stat().st_mode & 0o777)
            os.replace(temp, lesson.path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        changed.append(lesson.path)
    return changed
