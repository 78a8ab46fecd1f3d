"""Relations with letters that pizarra does not try to prove, told apart before any algebra.

Undeclared letters, definitions (``n = 1024``) and approximations are most of the
relations with letters in a lesson; each is unchecked for a reason that needs no
arithmetic beyond knowing whether it was proved, so it is given here, without
importing sympy.
"""

from __future__ import annotations

from pizarra.math.exact.ast import Node, Sym, has_plus_minus, letters
from pizarra.math.exact.context import Context
from pizarra.math.exact.status import Decision, Status


def declined_identity(
    relation: str, left: Node, right: Node, free: frozenset[str], context: Context
) -> Decision | None:
    """Why ``left relation right`` (with letters ``free``) is not decided, or None when
    it is worth proving."""
    lone = defined_letter(left, right)
    undeclared = sorted(free - set(context.domains))
    if undeclared and lone is not None:
        return Status.UNCHECKED, f"defines or states a value of {lone}", ""
    if undeclared:
        names = ", ".join(undeclared)
        return Status.UNCHECKED, f"letters not declared under variables: {names}", ""
    if relation == "\\approx" or has_plus_minus(left) or has_plus_minus(right):
        return Status.UNCHECKED, "an approximation or \\pm with letters is not decided", ""
    return None


def unproved(left: Node, right: Node) -> Decision | None:
    """Why a relation that is no identity stays unchecked rather than failed, or None
    when a counterexample would refute it: it defines a letter.

    A relation whose letters are all declared is a claim about every value of them,
    even when one side has none (``t^2 \\ge 1`` for a real t is false: t = 0); only
    ``\\overset{?}{=}`` marks an equation to solve."""
    lone = defined_letter(left, right)
    if lone is not None:
        return Status.UNCHECKED, f"defines or states a value of {lone}", ""
    return None


def defined_letter(left: Node, right: Node) -> str | None:
    """The letter a relation defines or constrains: ``y = 2x + 1``, ``n = 1024``, ``5 > x``.

    A lone letter on the left is a definition; on the right, only when the left
    side is a closed number (``\\sqrt{x^2} = x`` is a claim about every x).
    """
    if isinstance(left, Sym):
        return left.name
    if isinstance(right, Sym) and not letters(left):
        return right.name
    return None
