"""Worker processes of a run: how many, started by fork, ended with pizarra."""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


PR_SET_PDEATHSIG = 1
"""Linux's prctl option: a signal the kernel sends a process when its parent dies."""


def end_with_parent(parent: int) -> None:
    """A worker ends when pizarra does, even killed: otherwise it would wait forever for
    a lesson to verify, or to hand back its result."""
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):  # not Linux: no such call
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # pizarra ended before the signal was asked for
        os._exit(1)


def fork_context() -> BaseContext:
    """Fork: workers inherit the parsed course and the tools instead of unpickling them."""
    import multiprocessing

    return multiprocessing.get_context("fork")
