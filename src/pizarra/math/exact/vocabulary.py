"""The TeX commands the claim reader knows, by role."""

from __future__ import annotations

_GREEK_NAMES = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda "
    "mu nu xi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi "
    "Sigma Phi Psi Omega "
)
GREEK = frozenset(_GREEK_NAMES.split())
"""Greek letters usable as variables (``\\pi`` is a constant, so it is not here)."""

MULTIPLY = frozenset({"\\cdot", "\\times", "*"})
DIVIDE = frozenset({"/", "\\div"})
FRACTIONS = frozenset({"\\frac", "\\dfrac", "\\tfrac", "\\cfrac"})
BINOMIALS = frozenset({"\\binom", "\\dbinom", "\\tbinom"})
BARS = frozenset({"|", "\\vert", "\\lvert", "\\rvert", "\\mid"})
PLUS_MINUS = frozenset({"\\pm", "\\mp"})
CLOSERS = {"(": ")", "[": "]", "{": "}"}
FLOORS = {"\\lfloor": ("\\rfloor", "floor"), "\\lceil": ("\\rceil", "ceil")}
LOGS = {"\\log": "log", "\\ln": "ln", "\\lg": "lg", "\\exp": "exp", "\\tanh": "tanh"}
"""Functions written as operators: ``\\log_2 8``, ``\\ln e^{5}``, ``\\exp(2)``."""
EXTREMES = {"\\max": "max", "\\min": "min"}
SERIES = {"\\sum": "sum", "\\prod": "prod"}
NOT_FACTORS = MULTIPLY | DIVIDE | PLUS_MINUS | {"\\right", "\\rfloor", "\\rceil", "\\%"}
"""Commands that never start a factor of an implicit product."""
WORD_FUNCTIONS = frozenset({"max", "min", "exp", "ln", "log", "floor", "ceil"})
"""Bare words a front-matter definition may use for built-in functions (``max(0, x)``)."""

BUILTINS = frozenset(
    {"log", "ln", "lg", "exp", "binom", "factorial", "floor", "ceil", "max", "min", "percent"}
)
"""Names of the functions pizarra knows without a definition."""
ONE_ARGUMENT = {
    "sigma": "sigmoid",
    "sigmoid": "sigmoid",
    "ReLU": "relu",
    "relu": "relu",
    "tanh": "tanh",
    "Phi": "normal_cdf",
    "erf": "erf",
    "sign": "sign",
    "sgn": "sign",
}
"""Names (as the parser reads them) of the functions of one number, and what they are."""
MANY_ARGUMENTS = {"softmax": "softmax", "LSE": "logsumexp", "logsumexp": "logsumexp"}
"""Names of the functions of a list of numbers."""
STANDARD_FUNCTIONS = frozenset(ONE_ARGUMENT) | frozenset(MANY_ARGUMENTS)
"""Every name of a standard function (:mod:`pizarra.math.exact.standard`)."""
