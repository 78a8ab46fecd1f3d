"""What to do about a cell that failed on one of the kernel's bounds: no network, memory.

A lesson's kernel is offline by design (:mod:`pizarra.check.kernel.launcher`), so a cell
that downloads its data fails with ``URLError``, ``socket.gaierror``,
``ConnectionError`` and the like; and it may hold only so much memory, so a large array
raises ``MemoryError`` (NumPy's ``_ArrayMemoryError``) or the kernel is killed. The
traceback alone says neither; the hint says what the author can do.
"""

from __future__ import annotations

import re

from pizarra.check.kernel.execute import DEFAULT_MEMORY_LIMIT
from pizarra.source.syntax.front_matter import KERNEL_MEMORY_RANGE

DEFAULT_MIB = DEFAULT_MEMORY_LIMIT // 1024**2
"""MiB a lesson's kernel may allocate unless its front matter says otherwise."""

_NETWORK_ERRORS = re.compile(
    r"^(?:[\w.]+\.)?(?:URLError|gaierror|herror|ConnectionError|ConnectionRefusedError|"
    r"ConnectionResetError|ConnectionAbortedError|NewConnectionError|NameResolutionError|"
    r"MaxRetryError|RemoteDisconnected|ConnectTimeout|ConnectTimeoutError|"
    r"ProxyError|SSLError)\b"
)
_NETWORK_TEXT = re.compile(
    r"Temporary failure in name resolution|Name or service not known|"
    r"Network is unreachable|No address associated with hostname|"
    r"nodename nor servname provided|getaddrinfo failed"
)
_MEMORY_ERRORS = re.compile(r"^(?:[\w.]+\.)?(?:MemoryError|_ArrayMemoryError|OutOfMemoryError)\b")
_URL = re.compile(r"""https?://[^\s'"()<>\\]{1,300}""")


def failure_hint(last_line: str, stderr: str, code: str, memory_mib: int | None) -> str:
    """The hint for a cell whose exception is ``last_line``, or "" for any other."""
    if _NETWORK_ERRORS.match(last_line) or _NETWORK_TEXT.search(last_line):
        return offline_hint(code)
    if _MEMORY_ERRORS.match(last_line):
        return memory_hint(memory_mib)
    if last_line.startswith("OSError") and _NETWORK_TEXT.search(stderr):
        return offline_hint(code)
    return ""


def offline_hint(code: str) -> str:
    """Download the file and put it beside the lesson: the kernel has no network."""
    url = _URL.search(code)
    what = "the file it reads"
    if url is not None:
        what = (
            f"the file it reads from `{url.group(0)}`"
            if url.group(0).endswith("/")
            else f"`{url.group(0)}`"
        )
    return (
        f"a lesson's kernel has no network: download {what}, put it beside the lesson "
        "(or the notebook, before `pizarra import`, which copies the files the code "
        "names) and read it by its file name"
    )


def memory_hint(memory_mib: int | None) -> str:
    """Raise ``kernel_memory`` (naming the limit and the most it may be), or use less."""
    limit = memory_mib or DEFAULT_MIB
    high = KERNEL_MEMORY_RANGE[1]
    if limit >= high:
        return f"the lesson's kernel may allocate at most {high} MiB: use less memory"
    return (
        f"the lesson's kernel may allocate {limit} MiB: use less, or raise it in the "
        f"lesson's front matter, e.g. `kernel_memory: {min(2 * limit, high)}` (MiB, at "
        f"most {high})"
    )


def killed_hint(memory_mib: int | None) -> str:
    """For a kernel killed by SIGKILL: the memory limit is the likely cause."""
    return (
        "a kernel whose memory (its processes and shared memory together) passes the "
        f"lesson's limit is killed; {memory_hint(memory_mib)}"
    )
