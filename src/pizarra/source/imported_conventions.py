"""The conventions an imported notebook or lecture is read with, declared in its front matter.

pizarra's own lessons read ``\\log`` as base 10 and a bare ``2,048`` as ambiguous, and say
so. Notebooks and Jupyter Book lectures are written otherwise, and the lesson declares
it rather than leaving their prose to fail:

- ``log: e``: in the mathematics these sources write (analysis, statistics, economics,
  machine learning; QuantEcon's lectures throughout) and in the code beside it
  (``numpy.log``, ``math.log``), ``\\log`` without a base is the natural logarithm;
- ``bare_comma: thousands_or_list`` (a language with a decimal point): English prose
  writes ``20,000`` for twenty thousand and ``j = 1,2`` for a list of indices
  (:mod:`pizarra.math.exact.numerals`). A Spanish lesson keeps its decimal comma rule;
- ``redefinition: replaces``: a notebook reuses ``f`` for each example (``f(x) = x^2``,
  then ``f(x) = |x|``), each replacing the last from there on
  (:mod:`pizarra.math.exact.prose`), where a lesson of pizarra's would be told to pick
  another name.

They are written into the front matter, where the author sees them and may change them.
"""

from __future__ import annotations

from pizarra.base.i18n.numbers import decimal_symbol
from pizarra.math.exact.numerals import THOUSANDS_OR_LIST
from pizarra.math.exact.prose import REPLACES


def imported_conventions(lang: str) -> dict[str, str]:
    """The ``conventions:`` of a lesson imported in ``lang``."""
    conventions = {"log": "e"}
    if decimal_symbol(lang) == ".":
        conventions["bare_comma"] = THOUSANDS_OR_LIST
    conventions["redefinition"] = REPLACES
    return conventions
