"""What a lesson declares that changes how its formulas read (no sympy needed to hold it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from pizarra.math.exact.definitions import Function

DOMAINS: Mapping[str, Mapping[str, bool]] = {
    "real": {"real": True},
    "positive": {"positive": True},
    "nonnegative": {"nonnegative": True},
    "nonzero": {"real": True, "nonzero": True},
    "integer": {"integer": True},
    "positive_integer": {"integer": True, "positive": True},
}
"""Front-matter domain names and the sympy assumptions they give a letter."""


@dataclass(frozen=True)
class Context:
    """What a lesson declares that changes how a formula reads or what it is worth."""

    zero_to_the_zero: Fraction | Literal["undefined"] | None = None
    """The value of ``0^0``; None when the lesson declares no convention."""
    domains: Mapping[str, str] = field(default_factory=dict)
    """Letter name -> domain name (a key of :data:`DOMAINS`); undeclared letters are real."""
    lang: str = "en"
    """The lesson's language: how numerals are read."""
    log_base: Literal["10", "e", "2"] = "10"
    """The base of ``\\log`` written without one."""
    functions: Mapping[str, Function] = field(default_factory=dict)
    """Functions the lesson defines, by name."""
    bare_comma: str = ""
    """The ``bare_comma`` convention (:mod:`pizarra.math.exact.numerals`), or ""."""

    def fingerprint(self) -> str:
        """Everything that changes a verdict, as text (for the verdict cache key)."""
        functions = sorted((name, f.params, f.source) for name, f in self.functions.items())
        parts = [self.zero_to_the_zero, sorted(self.domains.items()), self.lang, self.log_base]
        parts.append(self.bare_comma)
        return repr([*parts, functions])
