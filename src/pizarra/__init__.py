"""pizarra: verified, interactive math lessons as a static site.

Kept tiny: ``pizarra --help`` imports only this and the CLI's argument parser, and every
code-cell kernel imports this package, so not even :mod:`pathlib` is imported here.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from pathlib import Path

    BUNDLED: Path
    """The bundled course, Math for AI: what commands use when given no source."""


def __getattr__(name: str) -> object:
    if name == "BUNDLED":
        from pathlib import Path

        return Path(__file__).parent / "source" / "bundled" / "math-for-ai"
    raise AttributeError(f"module 'pizarra' has no attribute {name!r}")
