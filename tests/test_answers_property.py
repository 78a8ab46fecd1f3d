"""Soundness against an independent oracle: random expressions, written as learners write
them, are judged right only when exact arithmetic on their own tree says they are.

The oracle evaluates the generated tree with :class:`fractions.Fraction` directly (never
through pizarra's reader); for expressions in letters it evaluates at rational points,
which can prove two expressions different but never the same, so the test asks only
that what differs somewhere is never "correct".
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from pizarra.base.errors import SourcePos
from pizarra.check.answers import judge
from pizarra.check.answers.keys import build_key
from pizarra.source.answers.spec import AnswerSpec, Located

POS = SourcePos("p.md", 1, 1)
Tree = Any  # ("num", Fraction) | ("x",) | (op, left, right) | ("pow", base, int) | ("neg", t)


def key(kind: str, value: str, lang: str, **extra: Any) -> dict[str, Any]:
    where = tuple(Located(w, POS) for w in extra.pop("where", ()))
    spec = AnswerSpec(kind, "label", (Located(value, POS),), POS, where=where, **extra)
    built, errors = build_key(spec, lang, 1)
    assert built is not None, errors
    return dict(built)


def tree(rng: random.Random, depth: int, letter: bool) -> Tree:
    if depth == 0 or rng.random() < 0.25:
        if letter and rng.random() < 0.5:
            return ("x",)
        return ("num", Fraction(rng.randint(0, 12)))
    roll = rng.random()
    if roll < 0.15:
        return ("neg", tree(rng, depth - 1, letter))
    if roll < 0.3:
        return ("pow", tree(rng, depth - 1, letter), rng.randint(-3, 3))
    return (rng.choice("+-*/"), tree(rng, depth - 1, letter), tree(rng, depth - 1, letter))


class NoValue(Exception):
    pass


def evaluate(t: Tree, x: Fraction) -> Fraction:
    kind = t[0]
    if kind == "num":
        return t[1]
    if kind == "x":
        return x
    if kind == "neg":
        return -evaluate(t[1], x)
    if kind == "pow":
        base = evaluate(t[1], x)
        if base == 0 and t[2] <= 0:
            raise NoValue
        return base ** t[2]
    a, b = evaluate(t[1], x), evaluate(t[2], x)
    if kind == "/" and b == 0:
        raise NoValue
    return {"+": a + b, "-": a - b, "*": a * b}[kind] if kind != "/" else a / b


def write(t: Tree, rng: random.Random, lang: str) -> str:
    kind = t[0]
    if kind == "num":
        return str(t[1].numerator)
    if kind == "x":
        return "x"
    if kind == "neg":
        return rng.choice(["-", "−"]) + "(" + write(t[1], rng, lang) + ")"
    if kind == "pow":
        exponent = str(t[2]) if t[2] >= 0 else rng.choice([f"({t[2]})", f"{{{t[2]}}}", str(t[2])])
        return "(" + write(t[1], rng, lang) + ")" + rng.choice(["^", "**"]) + exponent
    left, right = write(t[1], rng, lang), write(t[2], rng, lang)
    if kind == "/" and rng.random() < 0.3:
        return f"\\frac{{{left}}}{{{right}}}"
    sign = {"+": ["+"], "-": ["-", "−"], "*": ["*", "·", "×", "\\cdot"], "/": ["/", "÷"]}[kind]
    return f"({left}){rng.choice(sign)}({right})"


def test_numbers_are_correct_exactly_when_their_value_is() -> None:
    rng = random.Random(2026)
    targets = [
        key("number", v, lang)
        for v, lang in [("7/3", "es"), ("-2", "en"), ("0", "es"), ("1/16", "en")]
    ]
    values = [Fraction(7, 3), Fraction(-2), Fraction(0), Fraction(1, 16)]
    counted = {"correct": 0, "wrong": 0}
    for _ in range(3000):
        t = tree(rng, 4, letter=False)
        try:
            oracle: Fraction | None = evaluate(t, Fraction(0))
        except (NoValue, ZeroDivisionError):
            oracle = None
        index = rng.randrange(len(targets))
        verdict = judge(targets[index], write(t, rng, targets[index]["lang"])).verdict
        if oracle == values[index]:
            assert verdict == "correct"
            counted["correct"] += 1
        else:
            assert verdict != "correct"
            counted["wrong"] += 1
    assert counted["correct"] >= 30 and counted["wrong"] >= 2000


def test_expressions_that_differ_somewhere_are_never_correct() -> None:
    rng = random.Random(7)
    keys = [
        (key("expression", "1/x^2", "es", letters=("x",), where=["x != 0"]), lambda x: 1 / x**2),
        (key("expression", "x^2+2x+1", "en", letters=("x",)), lambda x: x**2 + 2 * x + 1),
        (
            key("expression", "(x-1)/(x+2)", "en", letters=("x",), where=["x > 0"]),
            lambda x: (x - 1) / (x + 2),
        ),
    ]
    points = [Fraction(n, d) for n, d in [(1, 3), (2, 1), (5, 7), (3, 2), (11, 5), (7, 1)]]
    seen = {"correct": 0, "differs": 0}
    for _ in range(3000):
        t = tree(rng, 4, letter=True)
        chosen, expected = keys[rng.randrange(len(keys))]
        verdict = judge(chosen, write(t, rng, chosen["lang"])).verdict
        differs = False
        for x in points:
            try:
                if evaluate(t, x) != expected(x):
                    differs = True
                    break
            except (NoValue, ZeroDivisionError):
                continue
        if differs:
            seen["differs"] += 1
            assert verdict != "correct"
        elif verdict == "correct":
            seen["correct"] += 1
    assert seen["differs"] >= 2000
