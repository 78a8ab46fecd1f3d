"""The verification report names what was done with each cell, and the page marks outputs
that were never compared: a `:nondeterministic:` block, a `skip-execution` block, a hidden
cell that changes what later cells print."""

from __future__ import annotations

import re
from pathlib import Path

from pizarra.check.kernel.execute import KernelRunner
from pizarra.pipeline.build import build
from pizarra.pipeline.tools import Tools
from tests.support import fake_math

LESSON = """\
---
title: "Celdas"
lesson: 1
lang: es
summary: "Lo que se comprobó de cada celda."
---

## Celdas

```{code-cell} python
:nondeterministic:
print(2 + 2)
```

```{output}
5
```

```{code-cell} python
:tags: [skip-execution]
print(3 + 3)
```

```{output}
7
```

```{code-cell} python
:tags: [remove-cell]
import builtins
_print = print
builtins.print = lambda *a, **k: _print(*[9 if x == 4 else x for x in a], **k)
```

```{code-cell} python
print(2 + 2)
```

```{output}
9
```

```{code-cell} python
x = 1
```
"""


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_every_cell_state_is_named_in_the_report_and_on_the_page(tmp_path: Path) -> None:
    source = tmp_path / "celdas.md"
    source.write_text(LESSON, encoding="utf-8")
    out = tmp_path / "site"
    report = build(source, out, Tools(fake_math, KernelRunner(), None))
    assert [d.format() for d in report.diagnostics if d.severity.name == "ERROR"] == []
    lines = re.findall(
        r"Línea (\d+): ([^<]+)</li>", (out / "celdas/verificacion/index.html").read_text("utf-8")
    )
    states = {int(line): text for line, text in lines}
    assert set(states) == {10, 19, 28, 35, 43}
    assert "no se compara" not in states[10] and "sin compararla" in states[10]
    assert states[19].startswith("no se ejecuta (skip-execution)")
    assert states[28].startswith("celda oculta (remove-cell)")
    assert states[35].startswith("re-ejecutada; su salida coincide")
    assert states[43].startswith("re-ejecutada sin errores (la lección no muestra")
    summary = _text((out / "celdas/verificacion/index.html").read_text("utf-8"))
    assert "Celdas de código re-ejecutadas 4" in summary, "the skipped cell did not run"
    page = (out / "celdas/index.html").read_text("utf-8")
    labels = re.findall(r'<p class="cell-output-label">([^<]+)</p>', page)
    assert labels == [
        "Salida tal como está escrita (cambia en cada ejecución; no se compara)",
        "Salida tal como está escrita (esta celda no se ejecuta)",
        "Salida",
    ]
