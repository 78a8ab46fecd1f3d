"""What a served course keeps between rebuilds: set aside from the collector, first uses paid."""

from __future__ import annotations

import gc

from pizarra.pipeline.lesson import pay_first_use
from pizarra.pipeline.tools import Report


def settle_memory() -> None:
    """Collect the garbage of the last rebuild, then set what lives on aside from Python's
    collector (``gc.freeze``), while no page waits.

    A served course keeps its lessons' parses and results in memory: over 100,000
    objects, which each full pass of the collector went through (0.16 s for twenty
    lessons), and one came every dozen saves or so, in the middle of a rebuild. Frozen,
    they are not gone through again, so a pass here costs the objects made since the
    last one (0.002-0.009 s), and a rebuild's own passes little. What is frozen and
    later dropped is freed as usual unless it is part of a reference cycle: about ten
    objects a save."""
    gc.collect()
    gc.freeze()


def warm_up(report: Report) -> None:
    """Pay the first-use costs of verifying the course (:func:`pay_first_use`): lessons
    of the first build come from the cache, so without this the first save would."""
    pay_first_use(report.course.lessons() if report.course is not None else ())
