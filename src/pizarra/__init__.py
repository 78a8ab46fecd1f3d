"""pizarra: verified, interactive math lessons as a static site.

Kept tiny: ``pizarra --help`` imports only this and the CLI's argument parser.
"""

from pathlib import Path

BUNDLED = Path(__file__).parent / "bundled" / "math-for-ai"
"""The bundled course, Math for AI: what commands use when given no source."""
