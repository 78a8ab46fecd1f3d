"""What a notebook kernel sets up that a plain interpreter does not, as the kernel does it.

- pandas chooses its display defaults at import from whether it runs in a terminal: in
  one, ``display.max_columns`` is 0 (fit the terminal), so a frame wider than 80
  characters loses columns to ``...``. In a Jupyter kernel it is 20, with lines wrapped
  at ``display.width`` 80. Our kernel's ``__main__`` has no file and no IPython kernel
  object, so pandas takes it for a terminal; :func:`install` sets Jupyter's values as
  soon as pandas is imported, before any cell can change them.
- ``HTML(anim.to_jshtml())`` shows a matplotlib animation's frames, as the animation
  left as a value does: :func:`install` patches matplotlib when it is imported
  (:func:`pizarra.check.kernel.animation.install`).
- a DataFrame left as a cell's value shows as a table: :func:`table_html` sends its
  ``text/html``, which the site rebuilds from its cells (:mod:`pizarra.render.frame_table`).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Callable, Sequence

PANDAS_OPTIONS = {"display.max_columns": 20, "display.width": 80}
"""pandas' defaults in a Jupyter kernel (``pandas.core.config_init``, not a terminal)."""


class _AfterImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself; wraps the loader of module ``name`` to call ``then`` on it."""

    def __init__(self, name: str, then: Callable[[types.ModuleType], None]) -> None:
        self.name, self.then = name, then

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name != self.name:
            return None
        for finder in sys.meta_path:
            if isinstance(finder, _AfterImport) or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _Loader(spec.loader, self.then)
                return spec
        return None


class _Loader(importlib.abc.Loader):
    def __init__(self, loader: importlib.abc.Loader, then: Callable[[types.ModuleType], None]):
        self.loader, self.then = loader, then

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        self.loader.exec_module(module)
        self.then(module)


def _pandas_defaults(pandas: types.ModuleType) -> None:
    for option, value in PANDAS_OPTIONS.items():
        pandas.set_option(option, value)


def _animation_frames(_: types.ModuleType) -> None:
    from pizarra.check.kernel import animation

    animation.install()


def install() -> None:
    """Set pandas' Jupyter defaults, and show animations' players as their frames, when
    pandas and ``matplotlib.animation`` are imported (at once if they already are)."""
    for name, then in (("pandas", _pandas_defaults), ("matplotlib.animation", _animation_frames)):
        module = sys.modules.get(name)
        if module is not None:
            then(module)
        elif not any(isinstance(f, _AfterImport) and f.name == name for f in sys.meta_path):
            sys.meta_path.insert(0, _AfterImport(name, then))


MAX_HTML = 512 * 1024
"""Characters of a table's HTML sent back; a longer one is shown as text only."""


def table_html(value: object) -> str:
    """A pandas DataFrame's ``text/html`` (its table, as Jupyter shows it), else ""."""
    pandas = sys.modules.get("pandas")
    if pandas is None or not isinstance(value, pandas.DataFrame):
        return ""
    try:
        html = value._repr_html_()
    except Exception:
        return ""
    return html if isinstance(html, str) and len(html) <= MAX_HTML else ""
