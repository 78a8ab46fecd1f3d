"""The corpus run's own count of the formulas an author wrote (bench/myst_corpus.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "bench" / "myst_corpus.py"


def corpus() -> ModuleType:
    spec = importlib.util.spec_from_file_location("myst_corpus", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_formulas_are_counted_in_prose_and_math_fences_not_in_code() -> None:
    source = (
        "Inline $a$ and $$b$$ and `f'$x$'` and ``$y$``, then $c$.\n\n"
        "```{math}\nd\n```\n\n"
        "```{code-cell} ipython3\nplt.title('$e$')\n```\n\n"
        ":::{note}\nA note with $f$.\n:::\n"
    )
    assert corpus().formulas_in(source) == 5
