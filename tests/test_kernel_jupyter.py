"""The kernel sets up what a Jupyter kernel does: pandas' notebook display defaults, and a
plain error, at the cell's line, for an animation a static page cannot show."""

from __future__ import annotations

from pizarra.check.kernel.execute import CellRequest, KernelRunner, RunResult
from pizarra.check.kernel.jupyter_defaults import ANIMATION

RUN = KernelRunner()

ANIMATE = (
    "import matplotlib.pyplot as plt\n"
    "from matplotlib.animation import FuncAnimation\n"
    "fig, ax = plt.subplots()\n"
    "line, = ax.plot([0, 1], [0, 1])\n"
    "def step(k):\n"
    "    line.set_ydata([0, k])\n"
    "    return (line,)\n"
    "FuncAnimation(fig, step, frames=3){end}\n"
)


def run(*codes: str) -> list[RunResult]:
    return RUN([CellRequest(code, 60) for code in codes], 120)


def test_an_animation_left_as_the_value_is_an_error_at_its_line() -> None:
    [result] = run(ANIMATE.format(end=""))
    assert not result.ok
    assert 'File "<cell-1>", line 8' in result.stderr
    assert f"NotImplementedError: {ANIMATION}" in result.stderr
    assert "FuncAnimation at 0x" not in result.stdout


def test_an_animation_hidden_with_a_semicolon_shows_its_first_frame() -> None:
    [result] = run(ANIMATE.format(end=";"))
    assert result.ok and result.stdout == ""
    assert len(result.figures) == 1


def test_pandas_has_a_notebooks_display_defaults_even_if_imported_later() -> None:
    first, second = run(
        "import numpy as np\n",
        "import pandas as pd\n"
        "print(pd.get_option('display.max_columns'), pd.get_option('display.width'))\n",
    )
    assert first.ok and second.ok
    assert second.stdout == "20 80\n"


def test_a_frame_wider_than_a_terminal_wraps_its_columns_as_in_jupyter() -> None:
    [result] = run(
        "import pandas as pd\npd.DataFrame({f'column_{i}': [i * 1000, i] for i in range(15)})\n"
    )
    assert result.ok and "..." not in result.stdout
    assert all(f"column_{i}" in result.stdout for i in range(15))
    assert all(len(line) <= 80 for line in result.stdout.splitlines())
    assert "\\\n" in result.stdout  # wrapped across lines, as pandas does in a notebook
    assert result.stdout.endswith("\n")


def test_a_frame_of_thirty_columns_is_cut_where_jupyter_cuts_it() -> None:
    [result] = run(
        "import pandas as pd\ndf = pd.DataFrame({f'c{i}': [i] for i in range(30)})\ndf\n"
    )
    assert result.ok
    assert "c9" in result.stdout and "c20" in result.stdout and "..." in result.stdout
    assert "[1 rows x 30 columns]" in result.stdout
