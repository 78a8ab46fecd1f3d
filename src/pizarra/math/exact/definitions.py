"""Functions a lesson defines in its front matter, read by the claims' own parser.

::

    functions:
      g: "x^2 + 1"                  # one letter in the body: it is the parameter
      clip(x): "max(0, min(1, x))"  # parameters named explicitly
      "\\\\phi(t)": "2t - 1"

Claims that apply them (``g(3) = 10``, ``\\operatorname{clip}(2) = 1``) are then
decided exactly. Definitions are TeX read by the same safe parser as claims (no
eval, no sympify); the bare words ``max``, ``min``, ``exp``, ``ln``, ``log``,
``floor``, ``ceil`` may be written without a backslash.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pizarra.math.exact.ast import Node, has_plus_minus, letters
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.lexer import lex
from pizarra.math.exact.parser import parse_side
from pizarra.math.exact.vocabulary import GREEK, STANDARD_FUNCTIONS, WORD_FUNCTIONS

MAX_DEFINITION = 300
"""Longest definition (characters)."""

_NAME = re.compile(r"^\\?([A-Za-z]+)(?:\(([A-Za-z](?:\s*,\s*[A-Za-z])*)\))?$")
_WORD = re.compile(r"(?<![\\A-Za-z])(" + "|".join(sorted(WORD_FUNCTIONS)) + r")(?![A-Za-z])")


@dataclass(frozen=True)
class Function:
    """A function the lesson defines (``g(x): x^2 + 1``)."""

    params: tuple[str, ...]
    """Parameter letters, in order."""
    body: Node
    """The definition, parsed by the same reader as claims."""
    source: str
    """The definition as written (part of the verdict cache key)."""


def parse_definition(
    key: str, body: str, others: frozenset[str] = frozenset(), lang: str = "en"
) -> tuple[str, Function] | str:
    """The name and function ``key: body`` defines, or what is wrong with it.

    ``others`` are the names of the lesson's other functions (a body may use them).
    Numerals are read in the lesson's ``lang``, as its claims are (``0{,}5`` is a half
    in Spanish), so a definition and a claim never read the same digits differently.
    """
    match = _NAME.match(key.strip())
    if match is None:
        return f"{key!r} is not a function name: write a name like g, clip or g(x)"
    name = match.group(1)
    if key.strip().startswith("\\") and name not in GREEK:
        return f"{key!r}: only Greek letters are written with a backslash"
    if len(body) > MAX_DEFINITION:
        return f"the definition of {name} is longer than {MAX_DEFINITION} characters"
    tex = _WORD.sub(lambda word: "\\" + word.group(1), body)
    named = tuple(p.strip() for p in match.group(2).split(",")) if match.group(2) else ()
    known = others | {name} | (STANDARD_FUNCTIONS - set(named))
    node = parse_side(lex(tex, lang), known, frozenset(named))
    if isinstance(node, Unsupported):
        return f"the definition of {name} cannot be read: {node.reason}"
    if has_plus_minus(node):
        return f"the definition of {name} has \\pm: a function has one value, write two functions"
    free = sorted(letters(node))
    if named:
        params = named
    elif len(free) == 1:
        params = (free[0],)
    else:
        return f"say which letter is the parameter of {name}: write {name}(x) as the key"
    extra = sorted(set(free) - set(params))
    if extra:
        return f"the definition of {name} uses letters that are not parameters: {', '.join(extra)}"
    return name, Function(params, node, body)
