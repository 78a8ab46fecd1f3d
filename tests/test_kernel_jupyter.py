"""The kernel sets up what a Jupyter kernel does: pandas' notebook display defaults, and an
animation left as a cell's value shown as its frames (a static page has no player)."""

from __future__ import annotations

from pizarra.check.kernel.animation import MAX_FRAMES, sample
from pizarra.check.kernel.execute import CellRequest, KernelRunner, RunResult

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


def test_an_animation_left_as_the_value_is_shown_as_its_frames() -> None:
    [result] = run(ANIMATE.format(end=""))
    assert result.ok and result.stdout == "" and result.stderr == ""
    assert [(f.frame, f.frames) for f in result.figures] == [(1, 3), (2, 3), (3, 3)]
    assert len({f.svg for f in result.figures}) == 3  # each frame as the update drew it


def test_a_long_animation_shows_evenly_spaced_frames_the_first_and_last_among_them() -> None:
    [result] = run(ANIMATE.replace("frames=3", "frames=200").format(end=""))
    assert result.ok
    numbers = [f.frame for f in result.figures]
    assert len(numbers) == MAX_FRAMES and numbers[0] == 1 and numbers[-1] == 200
    assert {f.frames for f in result.figures} == {200}


def test_an_update_that_builds_on_the_last_frame_is_stepped_through_every_frame() -> None:
    code = (
        "import matplotlib.pyplot as plt\n"
        "from matplotlib.animation import FuncAnimation\n"
        "fig, ax = plt.subplots()\n"
        "calls = []\n"
        "def step(k):\n"
        "    calls.append(k)\n"
        "anim = FuncAnimation(fig, step, frames=100, init_func=lambda: None)\n"
        "anim\n"
    )
    first, second = run(code, "print(len(calls), calls[-1])\n")
    assert first.ok and len(first.figures) == MAX_FRAMES
    assert second.stdout == "100 99\n"  # every frame, in order; the figure is closed


def test_an_animation_whose_update_fails_is_an_error_at_the_cells_line() -> None:
    [result] = run(ANIMATE.replace("[0, k]", "k").format(end=""))
    assert not result.ok
    assert 'File "<cell-1>", line 8' in result.stderr
    assert "AnimationError: the animation's frames could not be drawn" in result.stderr


def test_frames_are_sampled_evenly() -> None:
    assert sample(3, 60) == [0, 1, 2]
    assert sample(5, 3) == [0, 2, 4]
    assert sample(200, 1) == [0]
    assert sample(0, 60) == []
    picked = sample(200, 60)
    assert len(picked) == 60 and picked[0] == 0 and picked[-1] == 199


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


def test_an_animation_shown_as_html_video_or_player_is_its_frames_with_no_ffmpeg() -> None:
    for method in ("to_html5_video", "to_jshtml"):
        code = ANIMATE.format(end="").replace(
            "FuncAnimation(fig, step, frames=3)\n",
            "from IPython.display import HTML\n"
            f"HTML(FuncAnimation(fig, step, frames=3).{method}())\n",
        )
        [result] = run(code)
        assert result.ok and result.stdout == "", (method, result.stderr)
        assert [(f.frame, f.frames) for f in result.figures] == [(1, 3), (2, 3), (3, 3)]


def test_builtins_in_a_cell_is_the_module_as_in_jupyter() -> None:
    [result] = run("print(dir(__builtins__.bool)[:3])\nprint(__builtins__.__name__)\n")
    assert result.ok, result.stderr
    assert result.stdout == "['__abs__', '__add__', '__and__']\nbuiltins\n"
