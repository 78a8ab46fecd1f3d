"""The last line of defence: a bug in pizarra becomes a diagnostic, never a traceback.

Every stage reports the problems it expects as :class:`~pizarra.base.errors.Diagnostic`
values. Anything else a stage raises while handling one formula or one lesson is a
bug, but the author still deserves a ``file:line`` message naming what was being
done, and the rest of the course still gets checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pizarra.base.errors import Diagnostic, SourcePos

T = TypeVar("T")

BUG_HINT = "this is a bug in pizarra, not in the lesson; please report it with this message"
MAX_EXCERPT = 160


def internal_error(pos: SourcePos, what: str, exc: BaseException, excerpt: str = "") -> Diagnostic:
    """The diagnostic for ``exc``, raised while doing ``what`` at ``pos``."""
    lines = [excerpt if len(excerpt) <= MAX_EXCERPT else excerpt[: MAX_EXCERPT - 3] + "..."]
    lines.append(f"{type(exc).__name__}: {_summary(exc)}")
    return Diagnostic(
        pos, f"internal error while {what}", hint=BUG_HINT, detail="\n".join(filter(None, lines))
    )


def guarded(
    run: Callable[[], T],
    fallback: T,
    pos: SourcePos,
    what: str,
    found: list[Diagnostic],
    excerpt: str = "",
) -> T:
    """``run()``, or ``fallback`` with an internal-error diagnostic added to ``found``."""
    try:
        return run()
    except Exception as exc:
        found.append(internal_error(pos, what, exc, excerpt))
        return fallback


def _summary(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= MAX_EXCERPT else text[: MAX_EXCERPT - 3] + "..."
