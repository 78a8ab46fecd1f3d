"""A translation's front matter fields: the original it translates, and which version of it."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from pizarra.base.errors import Diagnostic, SourcePos

_DIGEST = re.compile(r"^[0-9a-f]{12,64}$")
_BLOCK = re.compile(r"^[0-9a-f]{8}$")


def translation_fields(
    values: dict[str, Any], where: dict[str, SourcePos], errors: list[Diagnostic]
) -> tuple[str, str, tuple[str, ...], str]:
    """``original``, ``original_digest`` and ``original_blocks``: which lesson a
    translation follows, and since which version."""
    original = values.get("original", "")
    digest = values.get("original_digest", "")
    if not isinstance(original, str) or (original and not original.strip().endswith(".md")):
        errors.append(
            Diagnostic(
                where["original"],
                "`original` must be the path of the original lesson file",
                hint="e.g. `original: ../lessons/07-potencias-para-la-ia.md`",
            )
        )
        original = ""
    if not isinstance(digest, str) or (digest and not _DIGEST.match(digest)):
        errors.append(
            Diagnostic(
                where["original_digest"],
                "`original_digest` must be the hexadecimal digest pizarra wrote",
                hint="run `pizarra translate --sync` to write it",
            )
        )
        digest = ""
    if digest and not original:
        errors.append(
            Diagnostic(
                where["original_digest"],
                "`original_digest` without `original`",
                hint="name the original lesson file with `original:`",
            )
        )
    blocks = values.get("original_blocks", "")
    words = blocks.split() if isinstance(blocks, str) else None
    if words is None or len(words) > 20_000 or not all(_BLOCK.match(w) for w in words):
        errors.append(
            Diagnostic(
                where["original_blocks"],
                "`original_blocks` must be the digests pizarra wrote",
                hint="run `pizarra translate --sync` to write them again",
            )
        )
        words = []
    return original.strip(), digest, tuple(words), _synced(values, where, errors)


def _synced(values: dict[str, Any], where: dict[str, SourcePos], errors: list[Diagnostic]) -> str:
    """``original_synced``: the day the translation was last brought in step (ISO date)."""
    raw = values.get("original_synced", "")
    text = raw.isoformat() if isinstance(raw, date) else raw
    if text == "":
        return ""
    try:
        date.fromisoformat(text if isinstance(text, str) and len(text) == 10 else "x")
    except ValueError:
        errors.append(
            Diagnostic(
                where["original_synced"],
                "`original_synced` must be the date pizarra wrote (YYYY-MM-DD)",
                hint="run `pizarra translate --sync` to write it",
            )
        )
        return ""
    return str(text)
