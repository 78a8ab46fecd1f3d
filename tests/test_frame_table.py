"""A DataFrame's rich output is shown as a table rebuilt from its cells' text: nothing of
the kernel's HTML but the table's structure reaches the page."""

from __future__ import annotations

from pathlib import Path

from pizarra.check.code_cells import check_code_cells, run_code_cells
from pizarra.check.kernel.execute import KernelRunner
from pizarra.pipeline.frame import render_site
from pizarra.pipeline.lesson import verify_lesson
from pizarra.pipeline.tools import Tools
from pizarra.render.frame_table import frame_table
from tests.support import fake_math, lesson_from, small_course

PANDAS_HTML = """<div>
<style scoped>
    .dataframe tbody tr th:only-of-type { vertical-align: middle; }
</style>
<table border="1" class="dataframe">
  <thead>
    <tr style="text-align: right;"><th></th><th>a</th><th>b</th></tr>
  </thead>
  <tbody>
    <tr><th>0</th><td>1</td><td>&lt;x&gt;</td></tr>
    <tr><th>...</th><td colspan="2" onclick="evil()">...</td></tr>
  </tbody>
</table>
<p>61 rows × 2 columns</p>
</div>"""


def test_pandas_html_becomes_a_plain_table_with_its_shape_as_caption() -> None:
    assert frame_table(PANDAS_HTML, "Tabla") == (
        '<div class="table-scroll cell-table" role="region" tabindex="0" aria-label="Tabla">\n'
        "<table>\n<caption>61 rows × 2 columns</caption>\n"
        '<thead>\n<tr><th scope="col"></th><th scope="col">a</th><th scope="col">b</th></tr>\n'
        "</thead>\n<tbody>\n"
        '<tr><th scope="row">0</th><td>1</td><td>&lt;x&gt;</td></tr>\n'
        '<tr><th scope="row">...</th><td colspan="2">...</td></tr>\n'
        "</tbody>\n</table>\n</div>\n"
    )


def test_scripts_links_styles_and_attributes_never_pass() -> None:
    hostile = (
        '<script>alert(1)</script><table style="x" onload="y"><tr>'
        '<td><a href="javascript:z">link</a><img src=x onerror=w>'
        '<style>td{}</style>"quoted"</td><td rowspan="99999">r</td></tr></table>'
        "<p><script>no()</script>after</p>"
    )
    table = frame_table(hostile, 'a "label"')
    for bad in ("script", "alert", "href", "img", "onerror", "style", "99999", "onload"):
        assert bad not in table
    assert "<td>link&quot;quoted&quot;</td><td>r</td>" in table
    assert 'aria-label="a &quot;label&quot;"' in table
    assert "<caption>after</caption>" in table


def test_html_without_a_table_gives_nothing() -> None:
    assert frame_table("<p>hello</p>", "Tabla") == ""
    assert frame_table("", "Tabla") == ""


def test_a_dataframe_shows_as_a_table_and_its_text_is_what_is_compared(
    tmp_path: Path,
) -> None:
    text = "   a    b\n0  1  <x>\n1  2    y\n"
    lesson, errors = lesson_from(
        "```{code-cell} python\nimport pandas as pd\n"
        "pd.DataFrame({'a': [1, 2], 'b': ['<x>', 'y']})\n```\n\n"
        f"```{{output}}\n{text}```\n",
        tmp_path / "curso",  # not pytest's own folder, which only root may enter
    )
    assert errors == [] and lesson is not None
    (tmp_path / "curso").mkdir(mode=0o755)
    runner = KernelRunner()
    [outcome] = run_code_cells(lesson, runner, None)
    assert outcome.result.stdout == text, outcome.result.stderr
    assert "<table" in outcome.result.html
    assert check_code_cells(lesson, [outcome]) == []
    course = small_course(lesson)
    results = [
        verify_lesson(course, e.lesson, Tools(fake_math, runner, None), False)
        for e in course.entries
        if e.lesson
    ]
    page = render_site(course, results)["prueba/index.html"].decode()
    assert '<tr><th scope="row">0</th><td>1</td><td>&lt;x&gt;</td></tr>' in page
    assert "<samp>" not in page.split('class="cell-output"')[1].split("</div>\n</div>")[0]
    assert "dataframe" not in page
