"""Functions a lesson defines in its prose: "Let $g(t) = 3t - 1$. Then $g(2) = 5$."

A relation ``name(params) = body`` defines ``name`` for the rest of the lesson, from
its own formula on, when

- ``name`` is a letter, a Greek letter or an ``\\operatorname``/``\\mathrm`` word that
  the front matter does not define and that is not a declared variable;
- the parameters are distinct letters, and the body uses every one of them and no
  other letter (``P(A) = 0{,}3`` or ``f(n) = C n^p`` define nothing: a probability,
  a family with free constants);
- the body is read by the claims' own parser, with the functions known so far.

A later definition of the same name with another body is an error that names both
lines; the same definition written again only restates it. A lesson that declares
``conventions: {redefinition: replaces}`` (as notebooks, which reuse ``f`` for each
example, and ``pizarra import`` declares) reads a later definition as replacing the
earlier one from its formula on, and a later ``f(x) = ...`` whose body cannot be read
(``f(x) = \\begin{cases}...``) as ending it: ``f`` is then unknown, so its uses stay
unchecked rather than judged with a function the author has left behind. The definition itself
is listed as such, never as checked. A lesson's definition overrides a standard
function of the same name (:mod:`pizarra.math.exact.standard`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.math.exact.ast import has_plus_minus, letters
from pizarra.math.exact.context import Context
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.definitions import Function
from pizarra.math.exact.judge import Status, Verdict
from pizarra.math.exact.lexer import Kind, Token, lex, text_words
from pizarra.math.exact.parser import parse_side
from pizarra.math.exact.statements import links_of, may_have_links
from pizarra.math.exact.vocabulary import BUILTINS, GREEK, STANDARD_FUNCTIONS

MAX_FORMULA = 10_000
"""Longest formula searched for definitions (as the judge's own limit)."""
RESERVED = BUILTINS | {"e", "pi", "infty"}
"""Names that are never defined in prose: constants and the built-in functions."""
REDEFINED_HINT = "give the new function another name (h, g_2), or drop one of the definitions"


@dataclass(frozen=True)
class Definition:
    """One definition found in a formula."""

    name: str
    """The function's name (``g``, ``sigma``, ``ReLU``)."""
    written: str
    """``g(t) = 3t - 1`` as the author wrote it."""
    function: Function
    """What it defines."""
    offset: int
    """Offset of its ``=`` in the formula (where its verdict is)."""


@dataclass
class Scope:
    """What one formula of a lesson is judged with."""

    context: Context
    """The lesson's context plus every function defined in its prose up to this formula."""
    defines: dict[int, str] = field(default_factory=dict)
    """The verdict message of each definition in this formula, by its relation's offset."""

    def relabel(self, verdict: Verdict) -> Verdict:
        """``verdict``, or the definition's own verdict when it is one: never checked."""
        message = self.defines.get(verdict.offset)
        if message is None:
            return verdict
        return Verdict(verdict.claim, Status.UNCHECKED, message, "", verdict.offset)


def definitions_in(tex: str, context: Context, fixed: frozenset[str]) -> list[Definition]:
    """The definitions ``tex`` writes (names in ``fixed``, the front matter's, excluded)."""
    if len(tex) > MAX_FORMULA or not may_have_links(tex):
        return []
    found = []
    known = set(context.functions) | (STANDARD_FUNCTIONS - set(context.domains))
    for link in links_of(lex(tex, context.lang, context.bare_comma)):
        head = _head(link.left.tokens) if link.relation == "=" else None
        if head is None:
            continue
        name, params = head
        if name in fixed or name in context.domains or name in RESERVED:
            continue
        body = parse_side(link.right.tokens, frozenset(known - {name}), frozenset(params))
        if isinstance(body, Unsupported) or has_plus_minus(body):
            continue
        if letters(body) != frozenset(params):
            continue
        source = link.right.source(tex)
        found.append(
            Definition(name, link.source(tex), Function(params, body, source), link.offset)
        )
        known.add(name)
    return found


def heads_in(tex: str, context: Context, fixed: frozenset[str]) -> list[tuple[str, int]]:
    """Each ``name(params) = ...`` of ``tex`` (name, offset of its ``=``), whether or not
    its body defines anything."""
    if len(tex) > MAX_FORMULA or not may_have_links(tex):
        return []
    found = []
    for link in links_of(lex(tex, context.lang, context.bare_comma)):
        head = _head(link.left.tokens) if link.relation == "=" else None
        if head is not None and head[0] not in fixed and head[0] not in context.domains:
            found.append((head[0], link.offset))
    return found


REPLACES = "replaces"
"""The ``redefinition`` convention's value: a later definition replaces the earlier."""


def scopes(
    texs: Sequence[str],
    context: Context,
    where: Callable[[int, int], SourcePos],
    redefinition: str = "",
) -> tuple[list[Scope], list[Diagnostic]]:
    """The scope of each formula of a lesson, in order, and every redefinition as an error
    (unless ``redefinition`` is :data:`REPLACES`).

    ``where(index, offset)`` is the position of ``offset`` in formula ``index``.
    """
    fixed = frozenset(context.functions)
    defined: dict[str, tuple[Definition, SourcePos]] = {}
    result: list[Scope] = []
    problems: list[Diagnostic] = []
    current = context
    for index, tex in enumerate(texs):
        scope = Scope(current)
        found = definitions_in(tex, current, fixed)
        if redefinition == REPLACES:
            offsets = {definition.offset for definition in found}
            for name, offset in heads_in(tex, current, fixed):
                left = defined.pop(name, None) if offset not in offsets else None
                if left is None:
                    continue
                functions = {k: v for k, v in current.functions.items() if k != name}
                current = replace(current, functions=functions)
                scope.context = current
                scope.defines[offset] = (
                    f"defines {name} again in a way pizarra cannot read: {left[0].written} "
                    f"(line {left[1].line}) no longer holds from here on"
                )
        for definition in found:
            pos = where(index, definition.offset)
            earlier = defined.get(definition.name)
            if (
                earlier is not None
                and redefinition == REPLACES
                and not _same(earlier[0].function, definition.function, current)
            ):
                del defined[definition.name]
                scope.defines[definition.offset] = (
                    f"redefines {_call(definition)} from here on "
                    f"(it was {earlier[0].written}, line {earlier[1].line})"
                )
                defined[definition.name] = (definition, pos)
                functions = {**current.functions, definition.name: definition.function}
                current = replace(current, functions=functions)
                scope.context = current
                continue
            if earlier is None:
                defined[definition.name] = (definition, pos)
                functions = {**current.functions, definition.name: definition.function}
                current = replace(current, functions=functions)
                scope.context = current
                scope.defines[definition.offset] = f"defines {_call(definition)} from here on"
            elif _same(earlier[0].function, definition.function, current):
                scope.defines[definition.offset] = (
                    f"restates the definition of {_call(definition)} (line {earlier[1].line})"
                )
            else:
                message = (
                    f"{definition.name} is defined twice: at line {earlier[1].line} "
                    f"({earlier[0].written}) and at line {pos.line} ({definition.written})"
                )
                problems.append(Diagnostic(pos, message, REDEFINED_HINT))
                scope.defines[definition.offset] = message
        result.append(scope)
    return result, problems


def _call(definition: Definition) -> str:
    return f"{definition.name}({', '.join(definition.function.params)})"


def _same(first: Function, second: Function, context: Context) -> bool:
    """Whether two definitions give the same values at a few exact points (``g(t) = 3t - 1``
    and ``g(x) = 3x - 1``). This only tells a restatement from a redefinition: neither is
    ever checked, and the first definition stays the one in force."""
    if len(first.params) != len(second.params):
        return False
    if first.params == second.params and "".join(first.source.split()) == "".join(
        second.source.split()
    ):
        return True
    import sympy

    from pizarra.math.exact.evaluate import evaluate

    for value in (0, 1, -2, 3, 7):
        points = [
            {p: sympy.Integer(value + 2 * j) for j, p in enumerate(f.params)}
            for f in (first, second)
        ]
        values = [
            evaluate(f.body, context, at) for f, at in zip((first, second), points, strict=True)
        ]
        if not all(isinstance(v, sympy.Expr) for v in values) or values[0] != values[1]:
            return False
    return True


def _head(tokens: Sequence[Token]) -> tuple[str, tuple[str, ...]] | None:
    """``g(t)``, ``\\sigma(z)``, ``\\operatorname{ReLU}(u)``, ``h(x, y)``: name and
    parameters; None for anything else (``g(2)``, ``f(x+1)``, ``x``)."""
    if len(tokens) < 4:
        return None
    first = tokens[0]
    if first.kind is Kind.LETTER:
        name = first.text
    elif first.kind is Kind.COMMAND and first.text[1:] in GREEK:
        name = first.text[1:]
    elif first.kind is Kind.TEXT and first.text.startswith(("\\operatorname", "\\mathrm")):
        name = text_words(first).replace(" ", "")
        if not name.isascii() or not name.isalpha():
            return None
    else:
        return None
    inner = list(tokens[1:])
    if [t.text for t in inner[:1]] == ["\\left"] and [t.text for t in inner[-2:-1]] == ["\\right"]:
        inner = inner[1:-2] + inner[-1:]
    if inner[0].text != "(" or inner[-1].text != ")":
        return None
    params: list[str] = []
    for position, token in enumerate(inner[1:-1]):
        if position % 2 == 1:
            if token.text != ",":
                return None
        elif token.kind is Kind.LETTER and token.text not in params and token.text != "e":
            params.append(token.text)
        else:
            return None
    if not params or len(inner) % 2 == 0:
        return None
    return name, tuple(params)
