"""What to install for a package a lesson imports: pizarra's extra that brings it
(``pizarra[notebook]`` for matplotlib), else the package itself.

The extras are read from pizarra's installed metadata, so the hint follows
``pyproject.toml`` and never names an extra that does not exist. The ``test`` extra is
for pizarra's own tests and is never suggested.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from pizarra.base.errors import Diagnostic, Severity
from pizarra.check.kernel.execute import RunResult
from pizarra.source.blocks import CodeCell

_EXTRA = re.compile(r"""^([A-Za-z0-9][A-Za-z0-9._-]*)[^;]*;\s*extra\s*==\s*["']([\w-]+)["']\s*$""")
_OWN = frozenset({"test"})
_MISSING = re.compile(r"^ModuleNotFoundError: No module named '([A-Za-z0-9_.]{1,100})'$")


@cache
def extras() -> dict[str, str]:
    """Distribution name (lower case, ``-`` for ``_``) -> the extra of pizarra bringing it."""
    from importlib.metadata import PackageNotFoundError, requires

    try:
        lines = requires("pizarra") or []
    except PackageNotFoundError:
        return {}
    found: dict[str, str] = {}
    for line in lines:
        match = _EXTRA.match(line)
        if match and match.group(2) not in _OWN:
            found.setdefault(_normal(match.group(1)), match.group(2))
    return found


def install_command(packages: tuple[str, ...]) -> str:
    """``pip install …`` for ``packages`` (top-level module names)."""
    known = extras()
    wanted: list[str] = []
    for package in packages:
        extra = known.get(_normal(package))
        name = f"'pizarra[{extra}]'" if extra else package
        if name not in wanted:
            wanted.append(name)
    return f"pip install {' '.join(wanted)}"


def missing_module(last_line: str) -> str | None:
    """The top-level module a ``ModuleNotFoundError`` line names, or None."""
    match = _MISSING.match(last_line.strip())
    return match.group(1).split(".")[0] if match else None


def _normal(name: str) -> str:
    return name.lower().replace("_", "-")


def not_installed(result: RunResult) -> RunResult:
    """A cell stopped by ``ModuleNotFoundError`` for a package not installed where pizarra
    runs is a cell that needs that package, as an install line says: not run, and the
    lesson's later cells not checked (a warning), rather than an error in the lesson."""
    if result.exit_code != 1 or result.missing_packages:
        return result
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    module = missing_module(lines[-1]) if lines else None
    if module is None:
        return result
    from importlib.util import find_spec

    try:
        installed = find_spec(module) is not None
    except (ImportError, ValueError):
        installed = True  # cannot tell: the error stays an error
    return result if installed else replace(result, missing_packages=(module,))


def missing_warning(cell: CodeCell, packages: tuple[str, ...]) -> Diagnostic:
    """A warning: the lesson needs packages that are not installed, so its cells from
    here on are not run (nor compared); nothing is claimed about them."""
    names = ", ".join(packages)  # names read by a strict pattern: letters, digits, ._-
    return Diagnostic(
        cell.pos,
        f"not run: the lesson needs {names}, not installed where pizarra runs; "
        "this cell and the ones after it are not checked",
        hint=f"install it (`{install_command(packages)}`) to run and check them",
        severity=Severity.WARNING,
    )
