"""Read layout as the mathematics it typesets, before a formula is split into claims.

``\\boxed{a = b}`` is the claim ``a = b``; ``\\tag{3}`` and ``\\label{..}`` are labels;
``\\\\[4pt]`` is a row break with extra space; an ``array`` whose columns are only
``r``, ``c``, ``l`` (``{rcl}``) is read like ``aligned``; ``16 : 4`` (a ratio between
numbers) is a division; ``\\not=`` is ``\\ne`` and ``\\not<`` is ``\\ge``;
``\\overset{?}{=}`` marks an equation to solve; ``\\text{y}``, ``\\text{and}`` and other
connector words separate statements. Everything else is passed through unchanged, so an
unknown layout command reaches the parser and leaves its claim unchecked.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pizarra.math.exact.lexer import Kind, Token, text_words

EQUATION_TO_SOLVE = "\\qeq"
"""The relation token ``\\overset{?}{=}`` becomes: an equation, never judged."""
CONNECTOR = "\\connector"
"""The token a connector word (``\\text{ y }``) becomes: it ends a statement."""

CONNECTORS = frozenset(
    {"y", "e", "o", "u", "ni", "si", "sea", "pues", "luego", "entonces", "donde", "pero"}
    | {"aunque", "porque", "ya que", "es decir", "o sea", "por lo tanto", "por tanto"}
    | {"en general", "mientras que", "con", "para", "cuando", "tal que", "así que"}
    | {"and", "or", "if", "then", "so", "where", "but", "therefore", "thus", "hence"}
    | {"since", "because", "i.e.", "e.g.", "in general", "while", "whereas", "let"}
    | {"such that", "for", "with", "when", "that is"}
)
"""Words and phrases that join statements (Spanish and English): a ``\\text`` holding
only one of them separates two statements. Words that can be arithmetic (``de``,
``por``, ``of``, ``times``) are deliberately absent: they leave their side unchecked."""

_NEGATED = {
    "=": "\\ne",
    "<": "\\ge",
    "\\lt": "\\ge",
    ">": "\\le",
    "\\gt": "\\le",
    "\\le": ">",
    "\\leq": ">",
    "\\ge": "<",
    "\\geq": "<",
}
"""``\\not`` before a relation: its negation (the reals are ordered)."""
_LABELS = frozenset({"\\tag", "\\tag*", "\\label"})
_DROPPED = frozenset({"\\nonumber", "\\notag"})
_ARRAY_COLUMNS = re.compile(r"^[rcl]+$")


def normalize(tokens: list[Token]) -> list[Token]:
    """The tokens with layout replaced by what it means (see the module docstring).

    Each rule applies to one kind of token, so a token is only tried against its
    kind's rules: most tokens are characters, letters and numbers, which no rule but
    the braces' count and the ratio changes."""
    out: list[Token] = []
    closing: list[int] = []
    arrays: list[bool] = []
    braces = 0
    i = 0
    count = len(tokens)
    while i < count:
        token = tokens[i]
        if closing and i == closing[-1]:
            closing.pop()
            i += 1
            continue
        kind, text = token.kind, token.text
        if kind is Kind.CHAR:
            if text == "{":
                braces += 1
            elif text == "}":
                braces -= 1
            elif text == ":" and _between_numbers(tokens, i):
                out.append(replace(token, kind=Kind.COMMAND, text="\\div"))
                i += 1
                continue
        elif kind is Kind.COMMAND:
            following = tokens[i + 1] if i + 1 < count else None
            if text in _LABELS:
                i = _after_group(tokens, i + 1)
                continue
            if text in _DROPPED:
                i += 1
                continue
            if text == "\\boxed" and following is not None and _char(following, "{"):
                closing.append(_matching(tokens, i + 1))
                i += 2
                continue
            if text == "\\\\" and following is not None and _char(following, "["):
                out.append(token)
                i = _after_bracket(tokens, i + 1)
                continue
            if text in ("\\overset", "\\stackrel") and _is_question_equals(tokens, i):
                out.append(replace(token, kind=Kind.COMMAND, text=EQUATION_TO_SOLVE))
                i += 7
                continue
            negated = _NEGATED.get(following.text) if following is not None else None
            if text == "\\not" and following is not None and negated is not None:
                out.append(Token(Kind.COMMAND, negated, token.start, following.end))
                i += 2
                continue
        elif kind is Kind.BEGIN and text == "array":
            spec_end = _after_group(tokens, i + 1)
            spec = "".join(t.text for t in tokens[i + 2 : spec_end - 1])
            rows = bool(_ARRAY_COLUMNS.match(spec))
            arrays.append(rows)
            if rows:
                out.append(replace(token, text="aligned"))
                i = spec_end
                continue
        elif kind is Kind.END and text == "array" and arrays and arrays.pop():
            out.append(replace(token, text="aligned"))
            i += 1
            continue
        elif kind is Kind.TEXT and braces == 0 and _connector(token):
            out.append(replace(token, kind=Kind.COMMAND, text=CONNECTOR))
            i += 1
            continue
        out.append(token)
        i += 1
    return out


def in_labels(tokens: list[Token]) -> frozenset[int]:
    """Indexes of the tokens inside ``\\tag{..}`` and ``\\label{..}``: names, not numbers."""
    inside: set[int] = set()
    for i, token in enumerate(tokens):
        if _command(token, *_LABELS):
            inside.update(range(i + 1, _after_group(tokens, i + 1)))
    return frozenset(inside)


def _connector(token: Token) -> bool:
    if not token.text.startswith(("\\text", "\\mbox")):
        return False  # \mathrm{e} is Euler's number, \operatorname{o} a name: never a word
    words = " ".join(re.sub(r"[,;:()]", " ", text_words(token)).lower().split())
    return words.strip(".") in CONNECTORS or words in CONNECTORS or not words


def _command(token: Token, *names: str) -> bool:
    return token.kind is Kind.COMMAND and token.text in names


def _char(token: Token, text: str) -> bool:
    return token.kind is Kind.CHAR and token.text == text


def _between_numbers(tokens: list[Token], i: int) -> bool:
    return (
        0 < i < len(tokens) - 1
        and tokens[i - 1].kind is Kind.NUMBER
        and tokens[i + 1].kind is Kind.NUMBER
    )


def _is_question_equals(tokens: list[Token], i: int) -> bool:
    """``\\overset{?}{=}``: the command, then ``{ ? }`` and ``{ = }``."""
    texts = [t.text for t in tokens[i + 1 : i + 7]]
    return texts == ["{", "?", "}", "{", "=", "}"]


def _matching(tokens: list[Token], i: int) -> int:
    """Index of the ``}`` closing the ``{`` at ``i`` (or past the end)."""
    depth = 0
    for j in range(i, len(tokens)):
        if _char(tokens[j], "{"):
            depth += 1
        elif _char(tokens[j], "}"):
            depth -= 1
            if depth == 0:
                return j
    return len(tokens)


def _after_group(tokens: list[Token], i: int) -> int:
    """Index just past a braced group starting at ``i`` (``i`` itself if there is none)."""
    if i < len(tokens) and _char(tokens[i], "{"):
        return _matching(tokens, i) + 1
    return i


def _after_bracket(tokens: list[Token], i: int) -> int:
    for j in range(i, min(len(tokens), i + 8)):
        if _char(tokens[j], "]"):
            return j + 1
    return i
