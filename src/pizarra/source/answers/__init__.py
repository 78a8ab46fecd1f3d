"""Answer fields of exercises: ``:::{answer} kind`` bodies read into :class:`AnswerSpec`."""

from pizarra.source.answers.parse import parse_answer
from pizarra.source.answers.spec import AnswerSpec

__all__ = ["AnswerSpec", "parse_answer"]
