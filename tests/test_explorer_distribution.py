"""The ``distribution`` explorer: probabilities as formulas, errors at their line, states."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pytest

from pizarra.base.errors import SourcePos
from pizarra.render.explorers import render_explorer, state_pages
from pizarra.source.blocks import Explorer
from pizarra.source.explorers import parse_explorer
from pizarra.source.explorers.distribution_spec import DistributionSpec
from pizarra.source.explorers.shared_parse import state_envs, value_at

FIXTURE = Path(__file__).parent / "fixtures" / "explorers" / "softmax.md"
BLOCK = re.compile(r"^:::\{explorer\} (\w+)\n(.*?)^:::$", re.S | re.M)


def body(edit: tuple[str, str] | None = None) -> str:
    match = BLOCK.search(FIXTURE.read_text(encoding="utf-8"))
    assert match is not None
    return match.group(2) if edit is None else match.group(2).replace(*edit)


def parse(text: str) -> tuple[DistributionSpec | None, list[str]]:
    spec, diagnostics = parse_explorer("distribution", text, SourcePos("s.md", 3), "es")
    assert spec is None or isinstance(spec, DistributionSpec)
    return spec, [f"{d.pos.line}:{d.pos.col}: {d.message}" for d in diagnostics]


def softmax(scores: list[float], temperature: float) -> list[float]:
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    return [w / sum(weights) for w in weights]


def test_probabilities_sum_to_one_and_match_a_float_softmax() -> None:
    spec, errors = parse(body())
    assert errors == [] and spec is not None
    for env in state_envs(spec.params):
        shares = [value_at(c.probability, env, 12) for c in spec.categories]
        assert abs(sum(shares) - 1) <= Fraction(3, 10**12)
        expected = softmax([2, 1, 0.1], float(env["T"]))
        assert [float(s) for s in shares] == pytest.approx(expected, abs=1e-11)


def test_entropy_and_top_are_correctly_rounded() -> None:
    spec, _ = parse(body())
    assert spec is not None
    readouts = {r.id: r for r in spec.texts.readouts}
    env = {"T": Fraction(1)}
    shares = softmax([2, 1, 0.1], 1)
    entropy = -sum(p * math.log2(p) for p in shares)
    assert value_at(readouts["h"].formula, env, 2) == Fraction(round(entropy * 100), 100)
    assert value_at(readouts["top"].formula, env, 1) == Fraction(round(shares[0] * 1000), 10)


def test_every_state_but_the_initial_one_has_a_page() -> None:
    spec, _ = parse(body())
    assert spec is not None
    assert [name for name, _ in state_pages(spec)] == [
        "softmax-T-0.25.html",
        "softmax-T-0.5.html",
        "softmax-T-2.html",
        "softmax-T-4.html",
        "softmax-T-8.html",
    ]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("weight: exp(score / T)", "weight: score - 1"), "weight at T = 0.25 is not positive"),
        (("weight: exp(score / T)", "weight: exp(score / Q)"), "unknown name 'Q'"),
        (
            ("{id: pez, label: pez, score: 0.1}", "{id: pez, label: pez, score: 0.1, x: 1}"),
            "unknown key 'x'",
        ),
        (("{id: pez, label: pez,", "{id: perro, label: pez,"), "duplicate category id 'perro'"),
        (("value: p_gato / p_pez", "value: p_gato / p_vaca"), "unknown name 'p_vaca'"),
        (("when: top > 0.9", "when: top + p_gato == 2 * top"), "when at T = 0.25: cannot decide"),
        (("probability: Probabilidad", "probabilidad: Probabilidad"), "unknown key"),
    ],
)
def test_errors_point_at_their_line(edit: tuple[str, str], message: str) -> None:
    spec, errors = parse(body(edit))
    assert spec is None
    assert any(message in e for e in errors), errors


def test_render_without_javascript_shows_the_state() -> None:
    spec, _ = parse(body())
    assert spec is not None
    html = str(render_explorer(Explorer("distribution", spec, spec.pos), "es", {"T": "8"}))
    assert "las tres palabras están casi igualadas" in html
    assert 'aria-valuetext="8"' in html
    assert ">37,4\u00a0%<" in html
