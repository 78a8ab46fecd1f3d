"""Split a formula into the links of its claims.

A formula such as ``a^0=1 \\qquad\\text{y}\\qquad a^{-p}=\\frac{1}{a^p}.`` holds two
statements; a chain ``a = b = c`` is one statement with two links, ``a = b`` and
``b = c``. Each link is one claim. Only the top level of the formula is split:
commas and relations inside braces, brackets or other environments stay put.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from pizarra.math.exact.layout import CONNECTOR, EQUATION_TO_SOLVE, normalize
from pizarra.math.exact.lexer import UNICODE, Kind, Token, lex

RELATIONS = {
    "=": "=",
    "\\ne": "\\ne",
    "\\neq": "\\ne",
    "<": "<",
    "\\lt": "<",
    "\\le": "\\le",
    "\\leq": "\\le",
    "\\leqslant": "\\le",
    ">": ">",
    "\\gt": ">",
    "\\ge": "\\ge",
    "\\geq": "\\ge",
    "\\geqslant": "\\ge",
    "\\approx": "\\approx",
    "\\leqq": "\\le",
    "\\geqq": "\\ge",
    "\\nless": "\\ge",
    "\\ngtr": "\\le",
    "\\nleq": ">",
    "\\ngeq": "<",
    "\\ll": "\\ll",
    "\\gg": "\\gg",
    "\\lessapprox": "\\lessapprox",
    "\\gtrapprox": "\\gtrapprox",
    "\\lesssim": "\\lessapprox",
    "\\gtrsim": "\\gtrapprox",
    EQUATION_TO_SOLVE: "?=",
}
"""Relations that make a claim, mapped to their canonical spelling (``\\not<`` and the
other negations are rewritten by :mod:`pizarra.math.exact.layout`). The reals are
ordered, so "not less than" is "greater than or equal"."""

JUDGEMENTS = frozenset({"\\ll", "\\gg", "\\lessapprox", "\\gtrapprox"})
"""Relations that are a judgement of size, not an order: "much less than" has no
threshold, so such a claim is never checked. ``a \\ll b`` still says ``a < b``, so it
fails when ``a < b`` is false."""

BREAKS = frozenset(
    {",", ";", ".", ":", "\\quad", "\\qquad", "\\iff", "\\implies", "\\impliedby"}
    | {"\\Rightarrow", "\\Longrightarrow", "\\Leftarrow", "\\Longleftarrow"}
    | {"\\Leftrightarrow", "\\Longleftrightarrow", "\\to", "\\rightarrow", "\\mapsto"}
    | {"\\longrightarrow", "\\leftarrow", "\\gets", "\\sim", "\\equiv", "\\propto"}
    | {"\\in", "\\notin", "\\subset", "\\subseteq", "\\cong", "\\simeq", "\\colon"}
    | {CONNECTOR, "\\mid", "\\forall", "\\exists"}
)
"""Top-level tokens that end a statement without being a checked relation."""

ALIGNMENTS = frozenset(
    {"aligned", "align", "align*", "gathered", "gather", "gather*", "split", "alignedat"}
    | {"equation", "equation*", "multline", "multline*", "flalign", "flalign*"}
)
"""Environments whose rows are read as statements (``&`` dropped, ``\\\\`` ends a row)."""

_OPEN = frozenset({"{", "(", "["})
_CLOSE = frozenset({"}", ")", "]"})


@dataclass(frozen=True)
class Side:
    """One side of a relation: its tokens and where they are in the formula."""

    tokens: tuple[Token, ...]
    """The tokens, in order."""
    start: int
    """Offset of the first token."""
    end: int
    """Offset just past the last token."""

    def source(self, tex: str) -> str:
        """The author's TeX for this side."""
        return tex[self.start : self.end]


@dataclass(frozen=True)
class Link:
    """One claim: ``left relation right``."""

    left: Side
    """The side before the relation."""
    relation: str
    """Canonical relation: ``=``, ``\\ne``, ``<``, ``\\le``, ``>``, ``\\ge``, ``\\approx``,
    or ``?=`` for an equation to solve (``\\overset{?}{=}``)."""
    right: Side
    """The side after the relation."""
    offset: int
    """Offset of the relation token (to find its line)."""

    def source(self, tex: str) -> str:
        """``left relation right`` as the author wrote the sides."""
        return f"{self.left.source(tex)} {self.relation} {self.right.source(tex)}"


@dataclass
class _Statement:
    sides: list[list[Token]] = field(default_factory=lambda: [[]])
    relations: list[Token] = field(default_factory=list)

    def links(self) -> list[Link]:
        found: list[Link] = []
        sides = [_side(tokens) for tokens in self.sides]
        for index, relation in enumerate(self.relations):
            left, right = sides[index], sides[index + 1]
            if left is not None and right is not None:
                canonical = RELATIONS[relation.text]
                found.append(Link(left, canonical, right, relation.start))
        return found


def _side(tokens: list[Token]) -> Side | None:
    return Side(tuple(tokens), tokens[0].start, tokens[-1].end) if tokens else None


def may_have_links(tex: str) -> bool:
    """False when ``tex`` spells no relation at all, so it has no link: most formulas of
    a lesson (``2^{10}``, ``n``) are told so without being lexed."""
    return _RELATION_MARK.search(tex) is not None


def split_links(tex: str, lang: str = "en") -> list[Link]:
    """Every claim link of the formula ``tex`` (numerals read in ``lang``), in order."""
    return links_of(lex(tex, lang))


def links_of(tokens: list[Token]) -> list[Link]:
    """:func:`split_links` of a formula already lexed (``tokens`` is not changed)."""
    return _split(normalize(tokens))


_RELATION_MARK = re.compile(
    "|".join(
        re.escape(spelling) + ("(?![A-Za-z])" if spelling.startswith("\\") else "")
        for spelling in sorted(
            {*RELATIONS, *(c for c, (_, text) in UNICODE.items() if text in RELATIONS)}
        )
    )
)
"""What a formula must contain for one of its tokens to be a relation: a spelling of
one, a command as a whole name (``\\le`` is not in ``\\left``; ``=`` is in
``\\overset{?}{=}``)."""

_MARKS = (Kind.CHAR, Kind.COMMAND, Kind.BEGIN, Kind.END)
"""The kinds of token that can break, align, relate, list or nest: the others
(letters, numbers, words) only ever join the side being read."""
_LISTS = frozenset({",", ";", CONNECTOR})
"""Separators that can also list values (``x \\ne 0, 1``)."""
LISTED = "a list of values"
"""What a listing separator becomes inside a side: the parser refuses it, with this name."""
_CONTINUES = frozenset({"+", "-", "\\pm", "\\mp", "\\cdot", "\\times"})
_SKIPPED_AT_ROW_START = frozenset({"&", "\\quad", "\\qquad"})


def _continuation(tokens: list[Token], index: int) -> int | None:
    """After a row break at ``index``: where a row that continues the expression resumes.

    ``&+ 3`` or ``&\\quad - 2`` continue the previous row's last side; None otherwise.
    """
    j = index + 1
    while j < len(tokens) and tokens[j].text in _SKIPPED_AT_ROW_START:
        j += 1
    following = tokens[j] if j < len(tokens) else None
    if following is not None and following.kind in (Kind.CHAR, Kind.COMMAND):
        return j if following.text in _CONTINUES else None
    return None


def _split(tokens: list[Token]) -> list[Link]:
    links: list[Link] = []
    statement = _Statement()
    last_side: list[Token] = []
    row = _Row()
    row_start = False
    depth = 0
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if depth > 0:
            depth = max(0, depth + _depth_change(token))
            statement.sides[-1].append(token)
            continue
        if token.kind not in _MARKS:
            statement.sides[-1].append(token)  # a letter, number, word...: no rule below
            row_start = False
            continue
        row_break = _is(token, "\\\\")
        if row_break:
            resume = _continuation(tokens, index - 1)
            if resume is not None and row.chain is not None:
                _finish(statement, links, last_side, row)  # a note after the chain
                statement = row.resume(links)
                index = resume
                continue
            if resume is not None and statement.sides[-1]:
                index = resume
                continue
        if row_break or _alignment(token):
            last_side = _finish(statement, links, last_side, row)
            statement = _Statement()
            row_start = row_break
            row = _Row()
            continue
        if _is(token, "&"):
            if not _cell_break(statement, tokens, index - 1, row_start):
                continue
            last_side = _finish(statement, links, last_side, row)
            statement = _Statement()
        elif _is_relation(token):
            if row_start and not statement.sides[-1] and not statement.relations:
                statement.sides[-1] = list(last_side)
            statement.relations.append(token)
            statement.sides.append([])
        elif _value_list(statement, tokens, index - 1):
            statement.sides[-1].append(replace(token, text=LISTED))
        elif _ends_statement(tokens, index - 1):
            last_side = _finish(statement, links, last_side, row)
            statement = _Statement()
        else:
            depth = max(0, depth + _depth_change(token))
            statement.sides[-1].append(token)
        row_start = False
    _finish(statement, links, last_side, row)
    return links


def _cell_break(statement: _Statement, tokens: list[Token], index: int, row_start: bool) -> bool:
    """An ``&`` next to a relation (``a &= b``, ``a &=& b``) only aligns; between two
    cells of a table it separates them."""
    if row_start or not statement.sides[-1]:
        return False
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    return following is None or not (_is_relation(following) or _is(following, "&"))


@dataclass
class _Row:
    """The chain of the row being read, once a cell or separator has ended it."""

    chain: _Statement | None = None
    """The row's first statement with a relation, when it is finished."""
    first: int = 0
    """Index of its first link among the formula's links."""
    count: int = 0
    """How many links it emitted."""

    def resume(self, links: list[Link]) -> _Statement:
        """The chain, reopened for a row that continues its expression (``&+ 4``)."""
        assert self.chain is not None
        del links[self.first : self.first + self.count]
        chain, self.chain = self.chain, None
        return chain


def _finish(
    statement: _Statement, links: list[Link], last_side: list[Token], row: _Row
) -> list[Token]:
    """Emit the statement's links; return the side a continuation row starts from.

    A row that starts with ``&=`` continues the row's *chain*: its first statement
    with a relation. What follows the chain in the same row (a note after ``&&``,
    ``& \\text{expand}``, ``&& (2)``, even a note with its own relation) is not part
    of the expression, so it never becomes the side the next row continues.
    """
    found = statement.links()
    if statement.relations and row.chain is None and statement.sides[-1]:
        row.chain, row.first, row.count = statement, len(links), len(found)
        links.extend(found)
        return statement.sides[-1]
    links.extend(found)
    if row.chain is not None or not statement.sides[-1]:
        return last_side
    return statement.sides[-1]


def _value_list(statement: _Statement, tokens: list[Token], index: int) -> bool:
    """``\\sqrt{4} \\ne -2, 2`` or ``= 2 \\text{ or } -2``: values listed after a relation.

    Judging only the first value would certify ``\\sqrt{4} \\ne -2`` for a claim about
    both; the side keeps the separator instead, which leaves the claim unchecked.
    """
    if not statement.relations or tokens[index].text not in _LISTS:
        return False
    depth = 0
    for position, token in enumerate(tokens[index + 1 :]):
        if depth == 0 and (_is_break(token) or _is(token, "\\\\") or _is(token, "&")):
            return position > 0
        if depth == 0 and (_is_relation(token) or _alignment(token)):
            return False
        if position == 0 and token.kind is Kind.TEXT:
            return False
        depth = max(0, depth + _depth_change(token))
    return len(tokens) > index + 1


def _ends_statement(tokens: list[Token], index: int) -> bool:
    """A separator: a comma, semicolon, ``\\quad``, an arrow, a connector word...

    A point right before a digit (``.5``) is part of a number, not a full stop; a
    ``\\quad`` next to a binary operator (``2 +\\quad 2``, ``2 \\quad + 2``) is a space
    inside an expression, so the side keeps it and is not read.
    """
    token = tokens[index]
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    if _is(token, ".") and following is not None and following.kind is Kind.NUMBER:
        return following.start > token.end
    if token.text in _SKIPPED_AT_ROW_START and token.kind is Kind.COMMAND:
        before = tokens[index - 1] if index > 0 else None
        if before is not None and before.text in _CONTINUES and before.kind is not Kind.TEXT:
            return False
        if following is not None and following.text in _INFIX and following.kind is Kind.COMMAND:
            return False
        if following is not None and following.text == "+" and following.kind is Kind.CHAR:
            return False
    return _is_break(token)


_INFIX = frozenset({"\\cdot", "\\times", "\\div"})


def _depth_change(token: Token) -> int:
    if token.kind is Kind.BEGIN:
        return 1
    if token.kind is Kind.END:
        return -1
    if token.kind is Kind.COMMAND and token.text in ("\\left", "\\{", "\\langle"):
        return 1
    if token.kind is Kind.COMMAND and token.text in ("\\right", "\\}", "\\rangle"):
        return -1
    if token.kind is Kind.CHAR and token.text in _OPEN:
        return 1
    if token.kind is Kind.CHAR and token.text in _CLOSE:
        return -1
    return 0


def _is(token: Token, text: str) -> bool:
    return token.kind in (Kind.CHAR, Kind.COMMAND) and token.text == text


def _is_relation(token: Token) -> bool:
    return token.kind in (Kind.CHAR, Kind.COMMAND) and token.text in RELATIONS


def _is_break(token: Token) -> bool:
    return token.kind in (Kind.CHAR, Kind.COMMAND) and token.text in BREAKS


def _alignment(token: Token) -> bool:
    return token.kind in (Kind.BEGIN, Kind.END) and token.text in ALIGNMENTS
