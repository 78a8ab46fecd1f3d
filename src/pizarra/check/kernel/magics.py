"""IPython syntax in cells: ``%line`` magics and ``!shell`` lines, as Jupyter lectures use them.

A cell with a line starting with ``%`` or ``!`` is rewritten by IPython's own input
transformer (``!ls`` becomes ``get_ipython().system('ls')``, line for line, so tracebacks
keep their line numbers), and ``get_ipython()`` in the cell's namespace answers with the
small :class:`Shell` below. Importing IPython costs about a second, so only such cells pay
for it. Supported: ``!command``, ``%time``/``%%time`` and ``%timeit``/``%%timeit`` (see
:mod:`timing`), ``%pwd``, ``%run [-i] file.py`` (as IPython runs it),
``%who``/``%whos``/``%who_ls``, ``f?`` (help, which Jupyter shows in a pager, so the
cell shows nothing), ``%%writefile`` or
``%%file`` (into the working folder's private layer, or ``~/name`` into the lesson's
private work folder), ``%matplotlib`` and ``%config InlineBackend.*`` (figures are always
captured, as SVG, so they do nothing). Any other magic is an error that names it.

A package install (``!pip install quantecon``, ``%pip install ...``) never runs: a lesson
must not change the environment it is checked in. It is read as the lesson's statement
of what it needs. If every package it names is installed, the line does nothing; if one
is missing, :class:`MissingPackage` stops the lesson there, and the cells are reported
as not run for want of that package rather than as failing.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from typing import Any

from pizarra.check.kernel.timing import TimingError, time_code, time_it

_INSTALL = re.compile(r"^\s*(?:\S*/)?(?:pip3?|conda|mamba|uv|python3?\s+-m\s+pip)\s+install\b")
_PIP = re.compile(r"^\s*(?:\S*/)?(?:pip3?|python3?\s+-m\s+pip)\s+install\b")
_REQUIREMENT = re.compile(
    r"([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(?:\[[\w,.-]*\])?(?:[=<>!~].*)?"
)
"""A requirement on the command line: a name, maybe extras and a version."""
_FLAGS = frozenset({"-U", "--upgrade", "-q", "--quiet", "-qq", "--user", "--no-deps", "--pre"})
"""pip options that change nothing about which packages a lesson needs."""


_ASSIGNED = re.compile(r"^\s*[\w.,\s]+=\s*[%!]", re.MULTILINE)
"""``files = !ls`` and ``here = %pwd``: IPython assigns what a magic returns."""
_HELP = re.compile(r"^\s*(?:\?{1,2}[\w.]+|[\w.]+\?{1,2})\s*$", re.MULTILINE)
"""``f?`` and ``f??``: IPython's help, shown in Jupyter's pager, never in the cell's output."""


def uses_ipython_syntax(code: str) -> bool:
    """True when some line starts with ``%`` or ``!``, or assigns one (cheap; decides the
    import)."""
    lines = code.splitlines()
    return any(line.lstrip().startswith(("%", "!")) for line in lines) or bool(
        _ASSIGNED.search(code) or _HELP.search(code)
    )


def transform(code: str) -> str:
    """The cell as plain Python, by IPython's transformer."""
    from IPython.core.inputtransformer2 import TransformerManager

    return str(TransformerManager().transform_cell(code))  # type: ignore[no-untyped-call]


class MagicError(RuntimeError):
    """A magic or shell line pizarra's kernel does not run."""


class MissingPackage(RuntimeError):
    """The lesson installs packages (``!pip install x``) that are not installed here."""

    def __init__(self, packages: list[str]) -> None:
        super().__init__(f"needs {', '.join(packages)}, not installed where pizarra runs")
        self.packages = packages


def install_targets(command: str) -> list[str] | None:
    """The distributions a ``pip install`` line names; None if it is not one pizarra reads.

    Requirement files, URLs, paths and index options are not read: what they install
    cannot be known from the line.
    """
    match = _PIP.match(command)
    if match is None:
        return None
    import shlex  # here, not at the top: every kernel imports this module

    try:
        words = shlex.split(command[match.end() :])
    except ValueError:
        return None
    names = []
    for word in words:
        if word in _FLAGS:
            continue
        requirement = _REQUIREMENT.fullmatch(word)
        if requirement is None or word.startswith("-"):
            return None
        names.append(requirement.group(1))
    return names or None


def check_installed(command: str) -> None:
    """Do nothing if every package an install line names is there; else raise."""
    names = install_targets(command)
    if names is None:
        raise MagicError(
            f"cells cannot install packages (`{command.strip()}`): install them where "
            "pizarra runs, and tag this cell `skip-execution`"
        )
    import importlib.metadata  # here, not at the top: it costs every kernel 15 ms

    missing = []
    for name in names:
        try:
            importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(name)
    if missing:
        raise MissingPackage(missing)


class Shell:
    """What ``get_ipython()`` returns inside a cell."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.namespace = namespace

    def system(self, command: str) -> None:
        if _INSTALL.match(command):
            check_installed(command)
            return
        import subprocess

        sys.stdout.flush()
        sys.stderr.flush()
        subprocess.run(command, shell=True, check=False)

    def run_line_magic(self, name: str, line: str) -> object:
        if name == "matplotlib" or (name == "config" and line.startswith("InlineBackend.")):
            return (
                None  # figures are always captured, as SVG: the inline backend's options are moot
            )
        if name == "time":
            return time_code(line, self.namespace, "<magic-time>")
        if name == "timeit":
            return _timing(lambda: time_it(line, None, self.namespace))
        if name == "pwd":
            return os.getcwd()
        if name == "run":
            _run_file(line, self.namespace)
            return None
        if name in ("who", "whos", "who_ls"):
            return _namespace_listing(name, line, self.namespace)
        if name in ("pinfo", "pinfo2"):
            return None  # Jupyter pages help outside the cell's output
        if name in ("pip", "conda", "mamba") and line.split()[:1] == ["install"]:
            check_installed(f"pip {line}" if name == "pip" else f"{name} {line}")
            return None
        raise MagicError(f"the %{name} magic is not available in pizarra's kernel")

    def run_cell_magic(self, name: str, line: str, cell: str) -> object:
        if name in ("writefile", "file"):
            _writefile(line, cell)
            return None
        if name == "time":
            return time_code(cell, self.namespace, "<magic-time>")
        if name == "timeit":
            return _timing(lambda: time_it(line, cell, self.namespace))
        raise MagicError(f"the %%{name} cell magic is not available in pizarra's kernel")


def _writefile(line: str, cell: str) -> None:
    """``%%writefile [-a] name``: the cell's text into a file, with IPython's message.

    A relative name lands in the working folder: the lesson's, read-only (the write fails
    there), or an empty temporary one; ``~/name`` is always the private work folder.
    """
    import shlex

    words = shlex.split(line)
    append = bool(words) and words[0] in ("-a", "--append")
    names = words[1:] if append else words
    if len(names) != 1:
        raise MagicError("%%writefile needs one file name (and maybe -a)")
    path = os.path.expanduser(names[0])
    exists = os.path.exists(path)
    verb = "Appending to" if append and exists else "Overwriting" if exists else "Writing"
    print(f"{verb} {names[0]}")
    with open(path, "a" if append else "w", encoding="utf-8") as handle:
        handle.write(cell)


def _run_file(line: str, namespace: dict[str, Any]) -> None:
    """``%run [-i] file.py [args]`` as IPython runs it: the file as ``__main__``, with
    ``sys.argv`` its name and arguments, then its names copied into the cell's namespace;
    with ``-i``, in that namespace itself. A file that cannot be read is the cell's error
    (IPython only logs it, and the cells after it would fail further away)."""
    import builtins
    import shlex

    words = shlex.split(line)
    inside = words[:1] == ["-i"]
    words = words[1:] if inside else words
    if not words or words[0].startswith("-") or not words[0].endswith(".py"):
        raise MagicError("%run takes a Python file (and maybe -i), as in `%run script.py`")
    path = os.path.expanduser(words[0])
    try:
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise MagicError(f"%run cannot read {words[0]}: {getattr(exc, 'strerror', exc)}") from None
    scope = namespace if inside else {"__name__": "__main__", "__builtins__": builtins}
    scope["__file__"] = path
    saved, sys.argv = sys.argv, [path, *words[1:]]
    try:
        exec(compile(source, path, "exec", dont_inherit=True), scope)  # in the sandboxed kernel
    finally:
        sys.argv = saved
    if not inside:
        namespace.update((k, v) for k, v in scope.items() if k not in ("__builtins__", "__file__"))


def _namespace_listing(name: str, line: str, namespace: dict[str, Any]) -> object:
    """``%who``, ``%whos`` and ``%who_ls`` by IPython's own code, over the cell's names
    (those pizarra puts there, ``get_ipython``, hidden as IPython hides its own)."""
    from types import SimpleNamespace

    from IPython.core.magics.namespace import NamespaceMagics

    hidden = {key: namespace[key] for key in ("get_ipython",) if key in namespace}
    shell = SimpleNamespace(user_ns=namespace, user_ns_hidden=hidden, configurables=[])
    magics = NamespaceMagics(shell=shell)  # type: ignore[no-untyped-call]
    return getattr(magics, name)(line)


def _timing(run: Callable[[], object]) -> object:
    """A timing magic whose options cannot be read is the plain error a magic gives."""
    try:
        return run()
    except TimingError as exc:
        raise MagicError(str(exc)) from None
