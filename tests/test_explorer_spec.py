"""The growth explorer's declaration: the reference instance and every error's place."""

import re
from pathlib import Path

import pytest

from pizarra.base.errors import SourcePos
from pizarra.render.explorers.growth_data import rows
from pizarra.source.explorers import parse_explorer
from pizarra.source.explorers.expr import Var, to_text

FIXTURES = Path(__file__).parent / "fixtures" / "explorers"
FENCE = SourcePos("lesson.md", 10)
BLOCK = re.compile(r"^:::\{explorer\} (\w+)\n(.*?)^:::$", re.S | re.M)


def reference_body() -> str:
    match = BLOCK.search((FIXTURES / "potencias.md").read_text(encoding="utf-8"))
    assert match is not None
    return match.group(2)


def errors(body: str, kind: str = "growth") -> list[str]:
    spec, diagnostics = parse_explorer(kind, body, FENCE, "es")
    assert spec is None
    return [d.format().splitlines()[0] for d in diagnostics]


def line_of(body: str, needle: str) -> int:
    """File line of the first body line containing ``needle`` (body starts after the fence)."""
    index = next(i for i, text in enumerate(body.splitlines()) if needle in text)
    return FENCE.line + 1 + index


def test_reference_instance() -> None:
    spec, diagnostics = parse_explorer("growth", reference_body(), FENCE, "es")
    assert diagnostics == []
    assert spec is not None
    assert spec.id == "crecimiento-atencion"
    variable = spec.variable
    assert (variable.name, variable.label, variable.unit) == (
        "n",
        "Longitud de la secuencia n",
        "tokens",
    )
    assert variable.values == (128, 256, 512, 1024, 2048, 4096, 8192)
    assert (variable.initial, variable.baseline, variable.base) == (1024, 128, 2)
    assert [(s.id, to_text(s.formula), s.line) for s in spec.series] == [
        ("linear", "n", "solid"),
        ("quadratic", "(n^2)", "dashed"),
    ]
    assert [(r.id, r.kind) for r in spec.readouts] == [
        ("n", "value"),
        ("linear", "growth"),
        ("quadratic", "growth"),
        ("scores", "value"),
    ]
    assert spec.readout("n").formula == Var("n")
    assert spec.table.caption == "Crecimiento lineal y cuadrático relativo a 128 tokens"
    assert [c.label for c in spec.table.columns] == [
        "Longitud de secuencia n",
        "Lineal n",
        "Cuadrático n²",
        "Posiciones de puntuación n²",
    ]
    table = [(r.value, *r.readouts.values()) for r in rows(spec)]
    assert table[3] == (1024, 1024, 8, 64, 1048576)
    assert table[-1] == (8192, 8192, 64, 4096, 67108864)


def test_cubic_instance_in_english() -> None:
    match = BLOCK.search((FIXTURES / "cubic-en.md").read_text(encoding="utf-8"))
    assert match is not None
    spec, diagnostics = parse_explorer(match.group(1), match.group(2), FENCE, "en")
    assert diagnostics == [] and spec is not None
    assert spec.variable.values == (16, 32, 64, 128, 256, 512, 1024)
    assert [r.readouts["volume"] for r in rows(spec)][-1] == 64**3
    # Short column form takes the readout's label.
    assert spec.table.columns[0].label == "Selected side"


def test_unknown_kind() -> None:
    assert errors("x: 1", kind="spiral") == [
        "lesson.md:10:1: error: unknown explorer kind 'spiral'"
    ]


def test_invalid_yaml_points_at_the_problem() -> None:
    body = "variable:\n  name: [n\n"
    (message,) = errors(body)
    assert message.startswith("lesson.md:13:1: error: invalid YAML")


def test_empty_body() -> None:
    assert errors("") == ["lesson.md:10:1: error: empty explorer declaration"]


def test_body_size_is_bounded() -> None:
    assert "longer than" in errors("# " + "x" * 30_000)[0]


def test_unknown_key_suggests_the_close_one() -> None:
    body = reference_body().replace("readouts:", "readout:")
    line = line_of(body, "readout:")
    spec, diagnostics = parse_explorer("growth", body, FENCE, "es")
    assert spec is None
    first = diagnostics[0]
    assert first.format().splitlines()[0] == (
        f"lesson.md:{line}:1: error: unknown key 'readout' in the explorer"
    )
    assert first.hint == "did you mean 'readouts'?"


def test_formula_error_names_the_column() -> None:
    body = reference_body().replace("formula: n^2", "formula: 2n^2")
    line = line_of(body, "formula: 2n^2")
    col = body.splitlines()[line - FENCE.line - 1].index("2n^2") + 2
    assert errors(body) == [
        f"lesson.md:{line}:{col}: error: series formula: unexpected 'n' in formula"
    ]


def test_quoted_formula_column_skips_the_quote() -> None:
    body = reference_body().replace("formula: n^2", 'formula: "n^m"')
    line = line_of(body, "n^m")
    col = body.splitlines()[line - FENCE.line - 1].index("n^m") + 3
    assert errors(body) == [
        f"lesson.md:{line}:{col}: error: series formula: unknown name 'm' in formula"
    ]


def test_initial_must_be_in_the_domain() -> None:
    body = reference_body().replace("initial: 1024", "initial: 1000")
    line = line_of(body, "initial:")
    assert errors(body) == [
        f"lesson.md:{line}:12: error: initial must be one of 128, 256, 512, 1024, 2048, 4096, 8192"
    ]


def test_domain_is_bounded() -> None:
    body = reference_body().replace("from: 7, to: 13", "from: 7, to: 100")
    assert "at most 25 values" in errors(body)[0]
    body = reference_body().replace("base: 2,", "base: 1,")
    assert "domain base must be between 2 and 1000" in errors(body)[0]


def test_summary_fields_must_be_readouts() -> None:
    body = reference_body().replace("{scores}", "{puntos}")
    line = line_of(body, "summary:")
    assert errors(body) == [
        f"lesson.md:{line}:10: error: summary field {{puntos}} is not a readout"
    ]


def test_every_plotted_value_must_be_in_the_table() -> None:
    body = reference_body().replace("    - readout: quadratic\n      label: Cuadrático n²\n", "")
    line = line_of(body, "columns:")
    assert errors(body) == [
        f"lesson.md:{line + 1}:5: error: the table must show the growth of series 'quadratic': "
        "every plotted value"
    ]


def test_series_need_distinct_line_styles() -> None:
    body = reference_body().replace("line: dashed", "line: solid")
    line = line_of(body, "label: Cuadrático n²") + 1
    assert errors(body) == [f"lesson.md:{line}:11: error: two series use the line style 'solid'"]


def test_unknown_line_style() -> None:
    body = reference_body().replace("line: dashed", "line: wavy")
    assert "line must be one of solid, dashed, dotted" in errors(body)[0]


def test_growth_readout_needs_a_series() -> None:
    body = reference_body().replace("growth: quadratic", "growth: cubic")
    line = line_of(body, "growth: cubic")
    assert errors(body) == [f"lesson.md:{line}:13: error: no series 'cubic'"]


def test_log_axes_need_positive_growth() -> None:
    body = reference_body().replace("formula: n^2", "formula: n-200")
    assert "series growth at n = 256 is not positive" in errors(body)[0]


def test_division_by_zero_at_the_baseline() -> None:
    body = reference_body().replace("formula: n^2", "formula: 1/(n-128)")
    assert "series formula at n = 128: division by zero" in errors(body)[0]


def test_readout_needs_value_or_growth() -> None:
    body = reference_body().replace("    value: n^2\n", "")
    assert "exactly one of 'value' or 'growth'" in errors(body)[0]


def test_missing_key_is_reported_at_its_mapping() -> None:
    body = reference_body().replace("  baseline: 128\n", "")
    line = line_of(body, "name: n")
    assert errors(body) == [f"lesson.md:{line}:3: error: variable is missing the key 'baseline'"]


def test_bad_id() -> None:
    body = reference_body().replace("id: crecimiento-atencion", "id: Crecimiento atención")
    assert "is not a valid id" in errors(body)[0]


@pytest.mark.parametrize("bad", ["[1, 2]", "{a: 1}", "''"])
def test_texts_must_be_texts(bad: str) -> None:
    body = reference_body().replace("label: Longitud seleccionada", f"label: {bad}")
    assert "readout label must" in errors(body)[0]


def test_all_errors_are_reported_at_once() -> None:
    body = (
        reference_body()
        .replace("formula: n^2", "formula: n^^2")
        .replace("caption: ", "captio: ")
        .replace("{scores}", "{x}")
    )
    assert len(errors(body)) >= 3
