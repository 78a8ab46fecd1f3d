"""Answers learners type, judged exactly: one module per answer type, registered here.

A type's module has ``judge(key, text) -> Judgement``. The page runs the same
judgement in ``render/answers/answers.js`` on the same key; a parity test holds
them equal over every declared answer and a generated corpus of inputs.
Soundness: what cannot be decided exactly is "unchecked", never "correct".
"""

from __future__ import annotations

from collections.abc import Callable

from pizarra.check.answers import choice, collection, expression, interval, number
from pizarra.check.answers.common import Judgement, Key

__all__ = ["JUDGES", "Judgement", "judge"]

JUDGES: dict[str, Callable[[Key, str], Judgement]] = {
    "number": number.judge,
    "expression": expression.judge,
    "choice": choice.judge,
    "set": collection.judge,
    "list": collection.judge,
    "interval": interval.judge,
}
"""The judge of each answer type (the keys are :data:`~pizarra.source.answers.spec.KINDS`)."""


def judge(key: Key, text: str) -> Judgement:
    """The verdict on ``text`` typed into the field whose key is ``key``."""
    return JUDGES[key["type"]](key, text)
