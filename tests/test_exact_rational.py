"""The fraction-only path agrees with the general path wherever it decides."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pizarra.math.exact import judge
from pizarra.math.exact.context import Context
from pizarra.math.exact.statements import split_links
from pizarra.source.lower import parse_lesson

CORPUS = Path(__file__).parent / "fixtures" / "claims" / "corpus"


def _side(node: judge.Node | judge.Unsupported) -> judge.Side:
    free = frozenset() if isinstance(node, judge.Unsupported) else judge.letters(node)
    return judge.Side(node, free)


def test_fraction_path_agrees_with_the_general_path() -> None:
    decided = 0
    for path in sorted(CORPUS.glob("*/*.md")):
        lesson, _ = parse_lesson(path, path.name)
        assert lesson is not None
        context = Context(lang=lesson.lang)
        for item in lesson.math:
            for link in split_links(item.tex, lesson.lang):
                left, right = (
                    _side(judge.parse_side(link.left.tokens)),
                    _side(judge.parse_side(link.right.tokens)),
                )
                claim = link.source(item.tex)
                fast = judge._between_fractions(claim, link.relation, left, right)
                if fast is not None:
                    decided += 1
                    general = judge._decide(item.tex, claim, link, left, right, context)
                    assert fast[:2] == general[:2], claim
    assert decided > 100


def test_plain_fractions_are_checked_without_sympy() -> None:
    code = (
        "import sys\n"
        "from pizarra.check.claims import iter_claims\n"
        "verdicts = iter_claims('512^2=262\\\\,144 \\\\quad \\\\frac{3}{4}=75\\\\%', lang='es')\n"
        "assert [v.status.value for v in verdicts] == ['checked', 'checked'], verdicts\n"
        "assert 'sympy' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


ROOTS = [
    "\\sqrt{49} = 7",
    "\\sqrt{49} = -7",
    "\\sqrt{50} = 7",
    "\\sqrt[3]{-8} = -2",
    "\\sqrt[3]{-8} = 2",
    "\\sqrt[4]{-16} = 2",
    "\\sqrt[2]{\\frac{9}{4}} = 1.5",
    "\\sqrt{0} = 0",
    "64^{-2/3} = \\frac{1}{16}",
    "64^{2/3} = 16",
    "64^{2/3} = 15",
    "(-8)^{2/3} = 4",
    "(-8)^{1/3} = -2",
    "(-8)^{1/2} = 2",
    "0^{-1/2} = 0",
    "8^{1/3} > 1.9",
    "8^{1/3} \\approx 2.01",
    "27^{1/3} \\ne 3",
    "\\sqrt[3]{10^{300}} = 10^{100}",
    "\\sqrt[0]{4} = 1",
    "\\sqrt[1.5]{4} = 2",
    "\\sqrt[65]{2^{65}} = 2",
    "\\sqrt[64]{2^{64}} = 2",
    "\\sqrt{\\frac{1}{4}} = \\frac{1}{2}",
    "\\sqrt[3]{\\frac{1}{8}} = \\frac{1}{2}",
    "\\sqrt[1]{5} = 5",
    "1^{100000} = 1",
    "1^{100001} = 1",
    "4^{50000} = 4^{50000}",
    "4^{37501/2} = 4^{37501/2}",
    "0.5^{90000} = 0.5^{90000}",
    " \\cdot ".join(["\\frac{1}{2^{60000}}"] * 4) + " = 0",
    "2.5 \\approx 3",
    "3.5 \\approx 3",
    "3.6 \\approx 3",
    "22.5 \\approx 2.5 \\times 3^{2}",
    "3\\% = (1+2)\\%",
    "2^{66666} \\cdot 2^{66666} \\cdot 2^{66666} = 2^{66666} \\cdot 2^{66666} \\cdot 2^{66666}",
    "2^{66666} \\cdot 2^{66666} \\cdot 2^{66667} = 2^{66666} \\cdot 2^{66666} \\cdot 2^{66667}",
]


def test_exact_roots_agree_with_the_general_path() -> None:
    decided = 0
    context = Context()
    for tex in ROOTS:
        (link,) = split_links(tex, "en")
        left = _side(judge.parse_side(link.left.tokens))
        right = _side(judge.parse_side(link.right.tokens))
        claim = link.source(tex)
        fast = judge._between_fractions(claim, link.relation, left, right)
        general = judge._decide(tex, claim, link, left, right, context)
        if fast is not None:
            decided += 1
            assert fast[:2] == general[:2], claim
    assert decided == 27


def test_long_numbers_are_shortened_in_messages() -> None:
    from pizarra.math.exact.rational import describe_integer

    n = 12345678901234567890123456789012345678901234567
    assert describe_integer(10**39) == "1" + "0" * 39
    assert describe_integer(10**40) == "100000000000...000000 (41 digits)"
    assert describe_integer(n) == "123456789012...234567 (47 digits)"
    assert describe_integer(-n) == "-12345678901...234567 (47 digits)"
    assert describe_integer(2**11999).endswith("...314688 (3613 digits)")
    assert describe_integer(2**12000) == "a number of about 3613 digits"
    assert describe_integer(2**20000) == "a number of about 6021 digits"
