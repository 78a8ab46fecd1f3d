"""Putting formulas for names: a readout's ``top`` or ``p_gato`` becomes the formula
that computes it from the parameters, so its value is enclosed as soundly as any."""

from __future__ import annotations

from collections.abc import Mapping

from pizarra.source.explorers.expr import BinOp, Call, Expr, MaxOf, Neg, Pow, Power, Var


def substitute(node: Expr, mapping: Mapping[str, Expr]) -> Expr:
    """``node`` with each variable named in ``mapping`` replaced by its formula; the
    same formula object is reused at every occurrence (enclosed once, see ``reals``)."""
    memo: dict[int, Expr] = {}

    def walk(n: Expr) -> Expr:
        done = memo.get(id(n))
        if done is not None:
            return done
        result: Expr
        if isinstance(n, Var):
            result = mapping.get(n.name, n)
        elif isinstance(n, Neg):
            result = Neg(walk(n.operand))
        elif isinstance(n, Pow):
            result = Pow(walk(n.base), n.exponent)
        elif isinstance(n, Call):
            result = Call(n.name, walk(n.argument))
        elif isinstance(n, Power):
            result = Power(walk(n.base), walk(n.exponent))
        elif isinstance(n, MaxOf):
            result = MaxOf(tuple(walk(a) for a in n.args))
        elif isinstance(n, BinOp):
            result = BinOp(n.op, walk(n.left), walk(n.right))
        else:
            result = n
        memo[id(n)] = result
        return result

    return walk(node)
