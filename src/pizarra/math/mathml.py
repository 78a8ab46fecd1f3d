"""TeX -> MathML at build time, so pages load no math JavaScript.

math-core (a Rust converter with a Python wheel, pinned in ``pyproject.toml``) turns
each formula into MathML Core, with the TeX kept in an ``<annotation>``. It needs no
JavaScript engine, no Node and no stylesheet, and converts hundreds of thousands of
formulas a second, so results are not cached. docs/math.md records why this converter
was chosen and what it costs.

The pipeline takes any :class:`MathRenderer`; tests pass a fake one.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from pizarra.math import tex_compat, tex_hints

if TYPE_CHECKING:
    from math_core import LatexToMathML

MAX_TEX_CHARS = 10_000
"""Longer formulas are refused before math-core sees them (lesson sources are untrusted)."""

MAX_EXPANDED = 10_000
"""Bound on a formula's size with every author macro expanded. math-core recurses once
per nesting level, so nesting must stay bounded for its stack: 10,000 characters of the
deepest TeX (``{{{...}}}``, ``\\sqrt\\sqrt...``) convert safely, and no expansion can
nest deeper than its size."""

MAX_MACRO_CHARS = 1_000
"""Longest accepted macro definition."""

MAX_EXPANSIONS = 1_000
"""Macro expansions allowed in one formula (a macro may expand to itself)."""

MACRO_NAME = re.compile(r"[A-Za-z]+")
"""What a macro may be called: letters only, as in ``\\R`` or ``\\vect``."""

_TOKEN = re.compile(r"\\(?:[A-Za-z]+|.)|.", re.DOTALL)
"""One TeX token: a control word, a control symbol (``\\\\``, ``\\{``) or one character."""

_DEFINITIONS = frozenset(
    {"def", "gdef", "edef", "xdef", "let", "newcommand", "renewcommand", "providecommand"}
)
"""Commands that define macros; refused inside formulas (``macros:`` is the place)."""

_MAY_DEFINE = re.compile(r"\\(?:[gex]?def|let|newcommand|renewcommand|providecommand)")
"""A cheap first look for :data:`_DEFINITIONS`; the tokenizer decides."""

_POSITION = re.compile(r"^(\d+): (.*)$", re.DOTALL)

_GROUPED_NUMBER = re.compile(r'<mn>(\d+)</mn>((?:<mo rspace="0">[,.]</mo><mn>\d+</mn>)+)')
"""``2{,}048`` as math-core writes it: digits, a comma with no space after, digits."""
_GROUP_PARTS = re.compile(r'<mo rspace="0">([,.])</mo><mn>(\d+)</mn>')


class MathError(Exception):
    """A formula that cannot be rendered, explained for the lesson's author."""

    def __init__(self, message: str, offset: int | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        """One line, e.g. ``invalid LaTeX: Unknown command "\\fracc".``."""
        self.offset = offset
        """0-based index in the TeX where the converter stopped, when it knows."""
        self.hint = hint
        """What to do about it, when more specific than the generic hint."""


class MathRenderer(Protocol):
    """Turns one formula into a ``<math>`` element, or raises :class:`MathError`."""

    def __call__(self, tex: str, display: bool) -> str: ...


class MacroError(Exception):
    """An author macro that cannot be used: a bad name, too long, or defined by itself."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name
        """The macro's name, without the backslash."""
        self.message = message
        """One line for the author."""


class MathCoreRenderer:
    """A :class:`MathRenderer` backed by math-core, with the author's ``macros``.

    Thread-safe: every call converts with local state. Raises :class:`MacroError`
    for macros that :func:`macro_problems` would report.
    """

    def __init__(self, macros: Mapping[str, str] | None = None) -> None:
        self.macros: dict[str, str] = dict(sorted((macros or {}).items()))
        """The author's macros, name (no backslash) -> replacement TeX."""
        problems = macro_problems(self.macros)
        if problems:
            raise problems[0]
        self._weights = _macro_weights(self.macros)
        self._converter: LatexToMathML | None = None
        self._derived: dict[tuple[tuple[str, str], ...], MathCoreRenderer] = {}

    def with_macros(self, macros: Mapping[str, str]) -> MathCoreRenderer:
        """A renderer that also knows ``macros`` (they win over this one's)."""
        merged = {**self.macros, **macros}
        if merged == self.macros:
            return self
        key = tuple(sorted(merged.items()))
        derived = self._derived.get(key)
        if derived is None:
            derived = self._derived[key] = MathCoreRenderer(merged)
        return derived

    def __call__(self, tex: str, display: bool) -> str:
        if len(tex) > MAX_TEX_CHARS:
            raise MathError(f"formula too long: {len(tex):,} characters (limit {MAX_TEX_CHARS:,})")
        if self._weights or _MAY_DEFINE.search(tex):
            self._check_expansion(tex)
        from math_core import LatexError

        rewritten = tex_compat.rewrite(tex, display)
        try:
            mathml = self._convert().convert_with_local_state(rewritten.tex, displaystyle=display)
        except LatexError as exc:
            error = _math_error(str(exc), len(rewritten.tex))
            if error.offset is not None:
                error.offset = rewritten.source_offset(error.offset)
                error.hint = tex_hints.hint_at(tex, error.offset)
            raise error from None
        if rewritten.tex != tex:
            mathml = _annotate(mathml, rewritten.tex, tex)
        return _GROUPED_NUMBER.sub(_one_number, mathml)

    def _check_expansion(self, tex: str) -> None:
        """Refuse definitions, and formulas whose expansion could nest too deeply."""
        size = 0
        for match in _TOKEN.finditer(tex):
            name = match.group()[1:]
            if name in _DEFINITIONS:
                raise MathError(
                    f"\\{name} is not allowed inside a formula",
                    match.start(),
                    hint="define macros under `macros:` in the front matter or course.yaml",
                )
            size += self._weights.get(name, 1) if match.group().startswith("\\") else 1
        if size > MAX_EXPANDED:
            raise MathError(
                f"formula too long once its macros are expanded (limit {MAX_EXPANDED:,} characters)"
            )

    def _convert(self) -> LatexToMathML:
        if self._converter is None:
            from math_core import LatexToMathML

            self._converter = LatexToMathML(
                annotation=True,
                fancy_error=False,
                macros=self.macros or None,
                max_expansions=MAX_EXPANSIONS,
            )
        return self._converter


def with_macros(math: MathRenderer, macros: Mapping[str, str]) -> MathRenderer:
    """``math`` extended by ``macros``; renderers that know no macros are returned as is."""
    if macros and isinstance(math, (MathCoreRenderer, Remembering)):
        return math.with_macros(macros)
    return math


class Remembering:
    """``math`` converting each formula once: a lesson's formulas are converted when
    they are checked and again when its page is rendered, most of them unchanged by
    :func:`pizarra.render.math_numbers.display_numerals` in between. One per lesson, so it
    holds one lesson's MathML at most; a formula that fails is tried again."""

    def __init__(self, math: MathRenderer) -> None:
        self.math = math
        self._seen: dict[tuple[str, bool], str] = {}
        self._derived: dict[tuple[tuple[str, str], ...], Remembering] = {}

    def with_macros(self, macros: Mapping[str, str]) -> Remembering:
        """This one, remembering apart what ``macros`` make of each formula."""
        derived = with_macros(self.math, macros)
        if derived is self.math:
            return self
        key = tuple(sorted(macros.items()))
        if key not in self._derived:
            self._derived[key] = Remembering(derived)
        return self._derived[key]

    def __call__(self, tex: str, display: bool) -> str:
        key = (tex, display)
        mathml = self._seen.get(key)
        if mathml is None:
            mathml = self._seen[key] = self.math(tex, display)
        return mathml


def macro_problems(macros: Mapping[str, str]) -> list[MacroError]:
    """What is wrong with a set of author macros, one error per macro at most."""
    problems = []
    for name, body in macros.items():
        if not MACRO_NAME.fullmatch(name):
            problems.append(MacroError(name, f"invalid macro name {name!r}: use letters only"))
        elif len(body) > MAX_MACRO_CHARS:
            limit = f"limit {MAX_MACRO_CHARS:,} characters"
            problems.append(MacroError(name, f"macro \\{name} is too long ({limit})"))
        elif any(t.group()[1:] in _DEFINITIONS for t in _TOKEN.finditer(body)):
            problems.append(MacroError(name, f"macro \\{name} must not define other macros"))
    if not problems:
        cycle = _cycle(macros)
        if cycle is not None:
            problems.append(MacroError(cycle, f"macro \\{cycle} expands to itself"))
    return problems


def _uses(body: str, macros: Mapping[str, str]) -> list[str]:
    return [t.group()[1:] for t in _TOKEN.finditer(body) if t.group()[1:] in macros]


def _cycle(macros: Mapping[str, str]) -> str | None:
    """A macro that reaches itself through its own expansion, or None."""
    state: dict[str, int] = {}

    def visit(name: str) -> bool:
        if state.get(name) == 1:
            return True
        if state.get(name) == 2:
            return False
        state[name] = 1
        found = any(visit(used) for used in _uses(macros[name], macros))
        state[name] = 2
        return found

    return next((name for name in sorted(macros) if visit(name)), None)


def _macro_weights(macros: Mapping[str, str]) -> dict[str, int]:
    """For each macro, a bound on the size of its full expansion (macros are acyclic).

    Arguments are counted where they are written, so a bound on a formula is the sum of
    its tokens' weights: its plain tokens count 1, each macro its own bound.
    """
    weights: dict[str, int] = {}

    def weight(name: str) -> int:
        if name not in weights:
            total = 0
            for token in _TOKEN.finditer(macros[name]):
                used = token.group()[1:]
                total += weight(used) if used in macros else 1
            weights[name] = min(total, MAX_EXPANDED + 1)
        return weights[name]

    for name in macros:
        weight(name)
    return weights


def _one_number(match: re.Match[str]) -> str:
    """One ``<mn>`` for a grouped number, as TeX sets it and screen readers should read it."""
    rest = "".join(sep + digits for sep, digits in _GROUP_PARTS.findall(match.group(2)))
    return f"<mn>{match.group(1)}{rest}</mn>"


def _annotate(mathml: str, converted: str, tex: str) -> str:
    """The author's TeX in the ``<annotation>``, not the form math-core was given."""
    given = f">{html.escape(converted, quote=False)}</annotation>"
    at = mathml.rfind(given)
    if at < 0:
        return mathml
    return f"{mathml[:at]}>{html.escape(tex, quote=False)}</annotation>{mathml[at + len(given) :]}"


def _math_error(text: str, length: int) -> MathError:
    """math-core's ``"<offset>: <message>"`` as one line an author can act on."""
    match = _POSITION.match(text.strip())
    offset: int | None = None
    if match is not None:
        offset, text = min(int(match.group(1)), length), match.group(2)
    return MathError(f"invalid LaTeX: {' '.join(text.split())}", offset)
