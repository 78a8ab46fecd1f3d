"""Keys and typed inputs shared by the answer tests: hand-written and generated.

:func:`fields` gives a key for each answer type and form (Spanish and English);
:func:`inputs` the typed answers tried on a key: right ones written many ways,
wrong ones (hand-written and generated from the right value), unreadable ones,
and random strings of the characters learners type. The generation is seeded,
so the corpus is the same on every run.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from pizarra.base.errors import SourcePos
from pizarra.check.answers.keys import build_key
from pizarra.source.answers.spec import AnswerSpec, Located, Mistake, Option

POS = SourcePos("corpus.md", 1, 1)


def _spec(kind: str, value: list[str], **extra: Any) -> AnswerSpec:
    located = tuple(Located(v, POS) for v in value)
    forms = tuple(Located(f, POS) for f in extra.pop("form", ()))
    where = tuple(Located(w, POS) for w in extra.pop("where", ()))
    mistakes = tuple(
        Mistake(tuple(Located(a, POS) for a in answer), feedback, POS)
        for answer, feedback in extra.pop("mistakes", ())
    )
    options = tuple(Option(o, f"option {o}", POS) for o in extra.pop("options", ()))
    return AnswerSpec(kind, "label", located, POS, form=forms, where=where, mistakes=mistakes,
                      options=options, **extra)  # fmt: skip


SPECS: list[tuple[str, AnswerSpec]] = [
    (
        "es",
        _spec(
            "number",
            ["81"],
            form=["evaluated"],
            mistakes=[(["12"], "multiplicaste"), (["7"], "sumaste")],
        ),
    ),
    ("en", _spec("number", ["81"], form=["evaluated"], mistakes=[(["12"], "you multiplied")])),
    (
        "es",
        _spec(
            "number",
            ["1/16"],
            form=["evaluated"],
            mistakes=[(["16"], "recíproco"), (["-1/16"], "signo")],
        ),
    ),
    ("en", _spec("number", ["1/16"], form=["simplified"])),
    ("es", _spec("number", ["\\frac{3}{4}"], form=["fraction"])),
    ("en", _spec("number", ["-2"])),
    ("es", _spec("number", ["0,25"], form=["decimal"])),
    ("es", _spec("number", ["15,62"], approx=True, mistakes=[(["15,63"], "redondeo")])),
    ("en", _spec("number", ["-921.03"], approx=True)),
    (
        "es",
        _spec("number", ["undefined"], mistakes=[(["no-real"], "no es una raíz"), (["0"], "cero")]),
    ),
    ("en", _spec("number", ["no-real"], mistakes=[(["undefined"], "not a division")])),
    ("es", _spec("number", ["5"], mistakes=[(["-5"], "la raíz principal")])),
    (
        "es",
        _spec(
            "expression",
            ["1/x^2"],
            letters=("x",),
            where=["x != 0"],
            form=["no-negative-exponents"],
            mistakes=[(["x^2"], "signo del exponente"), (["x^-8"], "multiplicaste")],
        ),
    ),
    (
        "en",
        _spec(
            "expression",
            ["x^2+2*x*y+y^2"],
            letters=("x", "y"),
            mistakes=[(["x^2+y^2"], "cross term")],
        ),
    ),
    ("en", _spec("expression", ["x^(1/2)"], letters=("x",), where=["x > 0"])),
    ("es", _spec("expression", ["1/(x+1)"], letters=("x",), where=["x != 0"])),
    ("en", _spec("expression", ["a^3 b^-2"], letters=("a", "b"), where=["a != 0", "b != 0"])),
    ("es", _spec("choice", ["c"], options=["a", "b", "c", "d"], mistakes=[(["a"], "convención")])),
    (
        "en",
        _spec(
            "choice",
            ["a", "c"],
            options=["a", "b", "c"],
            several=True,
            mistakes=[(["a", "b"], "b is")],
        ),
    ),
    ("es", _spec("set", ["7", "-7"], letters=("x",), mistakes=[(["7"], "falta la negativa")])),
    ("en", _spec("set", ["1/2", "-3"], letters=("x",))),
    ("es", _spec("list", ["2", "4", "8"], form=["evaluated"])),
    ("es", _spec("interval", ["[-2; 3)"], letters=("x",), mistakes=[(["(-2; 3)"], "incluido")])),
    ("en", _spec("interval", ["(0, inf)"], letters=("x",))),
    ("es", _spec("interval", ["(-inf; 1/2]"], letters=("x",))),
]


def fields() -> list[dict[str, Any]]:
    """Every key of :data:`SPECS`, built as the build builds them."""
    found = []
    for number, (lang, spec) in enumerate(SPECS, start=1):
        key, errors = build_key(spec, lang, number)
        assert key is not None, errors
        found.append(dict(key))
    return found


HAND = [
    "", " ", "81", "81.", "3^4", "3**4", "3⁴", "3·3·3·3", "3×3×3×3", "12", "7", "64", "-81", "81/1",
    "162/2", "1/16", "0,0625", "0.0625", "2^-4", "2^(-4)", "4^-2", "\\frac{1}{16}",
    "\\dfrac{1}{16}",
    "64^(-2/3)", "64^{-2/3}", "1/(64^(2/3))", "16", "-1/16", "−1/16", "1/-16", "2/32", "16^-1",
    "16.384", "1.5", "1,5", "1,000", "1 000", "2 3", "1/2x", "1/(2x)", "x/2", "√16", "sqrt(16)",
    "\\sqrt{16}", "\\sqrt[3]{64}", "(-8)^(1/3)", "(-8)^{1/3}", "sqrt(-9)", "√-9", "0^-2",
    "0^0",
    "1/0", "2^(1/2)", "sqrt 2", "2^100000", "2^1000", "10^-3", "x", "y", "z", "ochenta",
    "undefined",
    "no definido", "No está definido.", "indefinido", "no real", "no tiene valor real", "not real",
    "no real value", "Undefined", "0", "5", "-5", "|−5|", "1/x^2", "x^-2", "x^(-2)", "x^{-2}",
    "x^3 x^-5", "x^3·x^(-5)", "x^3*x^-5", "1/x^3", "x^2/x^4", "(x^2)^(-1)", "x/x^3", "1/(x·x)",
    "x^2", "x^-8", "(x+1)/(x^3+x^2)", "sqrt(x^2)/x^3", "1/x/x", "x^-1/x", "x^(1/2)", "sqrt(x)",
    "√x", "x^(2/4)", "(x^2)^(1/4)", "x^0.5", "x^0,5", "(x+y)^2", "x^2+y^2", "x^2+2xy+y^2",
    "x^2+2·x·y+y^2", "(x+y)(x+y)", "(y+x)^2", "x^2+xy+y^2", "1/(x+1)", "x/(x^2+x)", "2/(2x+2)",
    "(x+1)^-1", "1/(1+x)", "a^3/b^2", "a^3 b^(-2)", "a^3/(b b)", "a^2/b^3", "c", "a", "b", "a,c",
    "c,a", "a,b", "a,b,c", "d", "e", "", "7, -7", "7; -7", "7 y -7", "x = 7, x = -7",
    "x=7 o x=-7",
    "±7", "\\pm 7", "7", "-7, 7", "7, 7, -7", "7, -7, 0", "1/2; -3", "0.5, -3", "0,5; -3",
    "-3, 1/2",
    "2, 4, 8", "2; 4; 8", "8, 4, 2", "2^1, 2^2, 2^3", "[-2; 3)", "[-2, 3)", "(-2; 3)", "[-2; 3]",
    "-2 <= x < 3", "-2 ≤ x < 3", "3 > x >= -2", "(0, inf)", "(0; ∞)", "(0, \\infty)", "x > 0",
    "0 < x", "[0, inf)", "(0, inf]", "(-inf; 1/2]", "x <= 1/2", "x ≤ 0,5", "(-∞; 0,5]", "]0, 3[",
    "15,62", "15,6", "15,624", "15,615", "15,63", "15.62", "15,626", "−921.03", "-921.03",
    "-921.0", "-921.034", "-921.04", "((((((((((1))))))))))", "(" * 45 + "1" + ")" * 45,
    "2^3^2", "-3^2", "(-3)^2", "+81", "--81", "81)", "(81", "\\left(81\\right)", "\\frac12",
    "\\unknown", "\\,81", "81\\,", "1e3", "0x51", "81!", "81%", "81 €", "٨١", "８１", "81\u200b",
    "\ufeff81", "81\n", "\t81", "∞", "-∞", "pm", "y", "o", "and", "0,25", "1/4", "25/100", "0.25",
    "\\frac{3}{4}", "3/4", "6/8", "0,75", "-2", "−2", "-4/2", "(-2)", "-(2)", "2",
]  # fmt: skip
"""Typed answers written by hand: the forms of the issue, mistakes, and trouble."""

_ALPHABET = [*"0123456789+-*/^()., ;x=<>[]", "√", "²", "⁻", "·", "−", "∞", "\\frac", "{", "}", "y "]


def _generated(key: dict[str, Any], rng: random.Random) -> list[str]:
    """Wrong and right values near the key's, and random strings of learners' characters."""
    found: list[str] = []
    comma = key["lang"] == "es"
    for text in key["value"]:
        for _ in range(6):
            a, b = rng.randint(-40, 90), rng.randint(1, 20)
            found.append(f"{a}/{b}")
            found.append(f"{text}+{rng.randint(1, 9)}")
            found.append(f"({text})*{rng.randint(2, 9)}")
            found.append(f"-({text})")
            found.append(f"1/({text})")
            found.append(f"({text})^{rng.randint(2, 3)}")
            decimal = Fraction(rng.randint(-9999, 9999), 100)
            digits = f"{float(decimal):.2f}"
            found.append(digits.replace(".", ",") if comma else digits)
        found.append(f"({text})")
        found.append(f"{text}·1")
        found.append(f"{text}/1")
    for _ in range(12):
        found.append("".join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 12))))
    return found


def inputs(key: dict[str, Any], seed: int) -> list[str]:
    """Every input tried on ``key``."""
    return HAND + _generated(key, random.Random(seed))


WRONG_BY_HAND: dict[int, list[str]] = {
    0: ["12", "64", "7", "27", "243", "-81", "80", "82", "81,5", "8,1", "3^4+1", "4^3", "9"],
    2: ["16", "-16", "-1/16", "1/4", "4", "1/8", "8", "-128/3", "1/32", "0,625", "0,00625", "1/64"],
    7: ["15,6", "15,64", "15,60", "16", "15", "15,7", "-15,62", "156,2", "1,562"],
    9: ["0", "1", "no real", "no tiene valor real", "-2", "infinito"],
    10: ["0", "undefined", "not defined", "-3", "3", "9"],
    11: ["-5", "25", "-25", "0", "no definido", "sqrt(-5)^2"],
    12: ["x^2", "x^-8", "x^8", "x^(-15)", "1/x^8", "x", "1/x", "2/x^2", "1/(2x^2)", "x^-2+1"],
    13: ["x^2+y^2", "x^2+xy+y^2", "(x+y)^3", "x^2-2xy+y^2", "2x+2y", "x^2+2y+y^2", "(x-y)^2"],
    14: ["x", "x^2", "x^(1/3)", "x^(-1/2)", "1/sqrt(x)", "2sqrt(x)", "sqrt(2x)"],
    15: ["1/x", "1/(x-1)", "x+1", "1/(x+2)", "x/(x+1)", "-1/(x+1)"],
    17: ["a", "b", "d", "a,c"],
    18: ["a", "c", "b", "a,b", "b,c", "a,b,c"],
    19: ["7", "-7", "7, 7", "49", "7, -7, 0", "±49", "x = 7"],
    22: ["(-2; 3)", "[-2; 3]", "(-2; 3]", "[-3; 2)", "[2; 3)", "x < 3", "x >= -2"],
    23: ["[0, inf)", "(1, inf)", "(-inf, 0)", "x < 0", "x >= 0", "(0, 1)"],
}
"""Wrong answers written by hand, by the index of their key in :data:`SPECS`."""


def _shifted(text: str, k: int) -> str:
    return f"({text})+{k}"


def wrong_answers(seed: int = 7) -> list[tuple[dict[str, Any], str]]:
    """Typed answers known wrong by construction, with their keys (at least 300)."""
    rng = random.Random(seed)
    keys = fields()
    found: list[tuple[dict[str, Any], str]] = []
    for index, key in enumerate(keys):
        found += [(key, text) for text in WRONG_BY_HAND.get(index, [])]
        kind, value = key["type"], key["value"]
        if kind == "expression" or (kind == "number" and value[0] not in ("undefined", "no-real")):
            text = value[0]
            if key["approx"]:
                found += [(key, _decimal(text, rng, key["lang"])) for _ in range(10)]
                continue
            for k in range(1, 6):
                found.append((key, _shifted(text, k)))
                found.append((key, f"({text})*{k + 1}"))
            found.append((key, f"-({text})"))
            found.append((key, f"({text})^2"))
        elif kind == "number":
            found += [(key, str(rng.randint(-50, 50))) for _ in range(5)]
        elif kind in ("set", "list"):
            for k in range(1, 6):
                found.append((key, "; ".join([*value[:-1], f"({value[-1]})+{k}"])))
                found.append((key, "; ".join([*value, f"({value[0]})+{k * 100}"])))
            found.append((key, "; ".join(value[1:])))
            if kind == "list":
                found.append((key, "; ".join(reversed(value))))
        elif kind == "choice":
            options = key["options"]
            for mask in range(1, 2 ** len(options)):
                picked = [o for i, o in enumerate(options) if mask >> i & 1]
                if set(picked) != set(value) and (key["several"] or len(picked) == 1):
                    found.append((key, ",".join(picked)))
    return found


def _decimal(text: str, rng: random.Random, lang: str) -> str:
    """A decimal with the digits of ``text`` that differs from it by at least one unit."""
    places = len(text.replace(",", ".").split(".")[1])
    value = Fraction(text.replace(",", "."))
    step = Fraction(rng.choice([-1, 1]) * rng.randint(1, 300), 10**places)
    shown = f"{float(value + step):.{places}f}"
    return shown.replace(".", ",") if lang == "es" else shown
