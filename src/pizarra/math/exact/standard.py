"""Standard functions of the field that a lesson may use without defining them.

``\\sigma`` (the logistic sigmoid), ReLU, ``\\tanh``, the standard normal CDF ``\\Phi``,
``\\operatorname{erf}``, ``\\operatorname{sign}``, the softmax of explicit numbers (one
component at a time: ``\\operatorname{softmax}(1, 2, 3)_3``) and log-sum-exp
(``\\operatorname{LSE}(0, 0) = \\ln 2``). Each value is an exact expression in ``exp``,
``log`` and ``erf`` of exact numbers, so comparisons are decided by the same proven
interval bounds as ``e`` and logarithms (:mod:`pizarra.math.exact.intervals`), and an
equality is checked only when it holds exactly (``\\sigma(0) = \\frac{1}{2}``).

A lesson's own definition of one of these names (in the front matter or in its
prose) overrides it, and a letter declared under ``variables:`` is never one of them.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy

from pizarra.math.exact.real import sign
from pizarra.math.exact.vocabulary import MANY_ARGUMENTS, ONE_ARGUMENT
from pizarra.math.exact.vocabulary import STANDARD_FUNCTIONS as NAMES

__all__ = ["NAMES", "call_standard", "is_symbolic"]

MAX_LIST = 50
"""Most numbers a softmax or log-sum-exp is computed for."""
SYMBOLIC = frozenset({"sigmoid", "tanh", "logsumexp"})
"""Functions kept as expressions of letters (they are ``exp`` and ``log``, defined
everywhere), so identities such as ``\\sigma(-x) = 1 - \\sigma(x)`` can be proved."""


def call_standard(name: str, args: Sequence[sympy.Expr]) -> sympy.Expr:
    """The value of standard function ``name`` (a key of :data:`NAMES`) at ``args``.

    Raises ``ValueError`` with a short reason when the call is outside what is decided.
    """
    kind = ONE_ARGUMENT.get(name) or MANY_ARGUMENTS[name]
    if kind == "softmax":
        return _softmax(args)
    if kind == "logsumexp":
        if not 1 <= len(args) <= MAX_LIST:
            raise ValueError(f"log-sum-exp of 1 to {MAX_LIST} numbers is decided")
        return sympy.log(sympy.Add(*(sympy.exp(a) for a in args)))
    if len(args) != 1:
        raise ValueError(f"{name} takes one argument")
    (x,) = args
    closed = not x.free_symbols
    if kind == "sigmoid":
        return 1 / (1 + sympy.exp(-x))
    if kind == "tanh":
        return (sympy.exp(2 * x) - 1) / (sympy.exp(2 * x) + 1)
    if not closed:
        raise ValueError(f"{name} of an expression with letters")
    if kind == "relu":
        return x if sign(x) > 0 else sympy.Integer(0)
    if kind == "sign":
        return sympy.Integer(sign(x))
    if kind == "erf":
        return _erf(x)
    return (1 + _erf(x / sympy.sqrt(2))) / 2


def is_symbolic(name: str) -> bool:
    """Whether ``name`` is computed for arguments with letters too."""
    return (ONE_ARGUMENT.get(name) or MANY_ARGUMENTS.get(name)) in SYMBOLIC


def _softmax(args: Sequence[sympy.Expr]) -> sympy.Expr:
    """``args[0]`` is the component (1-based), the rest the numbers."""
    if len(args) < 2:
        raise ValueError("softmax gives a vector: write one component, softmax(z)_i")
    index, values = args[0], args[1:]
    if len(values) > MAX_LIST:
        raise ValueError(f"softmax of more than {MAX_LIST} numbers")
    if not index.is_Integer or not 1 <= int(index) <= len(values):
        raise ValueError("a softmax component that is not one of its numbers")
    shift = values[int(index) - 1]
    return 1 / sympy.Add(*(sympy.exp(v - shift) for v in values))


def _erf(x: sympy.Expr) -> sympy.Expr:
    """``erf(x)``: exact at 0 and odd; otherwise kept as sympy's ``erf`` of an exact
    number, which :mod:`pizarra.math.exact.intervals` encloses with a proven series bound."""
    if x.free_symbols:
        raise ValueError("erf of an expression with letters")
    direction = sign(x)
    if direction == 0:
        return sympy.Integer(0)
    return -sympy.erf(-x, evaluate=False) if direction < 0 else sympy.erf(x, evaluate=False)
