"""The kernel: one Python interpreter that runs a lesson's cells in order, in one namespace.

It is the child end of :mod:`pizarra.check.kernel.execute` and runs under
:mod:`pizarra.check.kernel.launcher`. Requests arrive as JSON lines on fd 0 and answers
leave as JSON lines on fd 3; both are moved to private, non-inheritable descriptors
first, and fd 0 becomes ``/dev/null``, so a cell (or a process it starts) reads nothing
and cannot write into the protocol. What a
cell prints goes to the real fds 1 and 2, read by the parent; after each cell the kernel
writes the request's marker to both, so the parent knows where the cell's output ends.

As in Jupyter, a cell whose last statement is a bare expression shows that value's
``text/plain`` form (IPython's pretty printer, 79 columns), unless the line ends with
``;``; the value is kept in ``_``. pandas gets a notebook's display defaults
(:mod:`pizarra.check.kernel.jupyter_defaults`), and a matplotlib animation left as a
value is shown as its frames (:mod:`pizarra.check.kernel.animation`).
IPython's ``%magic`` and ``!shell`` lines go through
:mod:`pizarra.check.kernel.magics`. Figures left open by a cell (or shown with
``plt.show()``) are captured as SVG by :mod:`pizarra.check.kernel.figures`.
"""

from __future__ import annotations

import ast
import base64
import builtins
import contextlib
import importlib.util
import io
import json
import linecache
import os
import sys
import tokenize
import traceback
import types
from collections.abc import Callable
from typing import Any

from pizarra.check.kernel import jupyter_defaults
from pizarra.check.kernel.animation import (
    AnimationError,
    is_animation,
    shown_as_frames,
    take_frames,
)
from pizarra.check.kernel.magics import MissingPackage, Shell, transform, uses_ipython_syntax

REQUEST_FD = 0
RESPONSE_FD = 3


def serve() -> None:
    """Answer requests until the parent closes the request pipe."""
    requests = os.fdopen(os.dup(REQUEST_FD), "rb")
    responses = os.fdopen(os.dup(RESPONSE_FD), "wb")
    os.close(RESPONSE_FD)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, REQUEST_FD)
    os.close(null)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as the kernel
    jupyter_defaults.install()
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = builtins  # the module, as in Jupyter (not this module's dict)
    sys.modules["__main__"] = main
    sys.path.insert(0, "")  # as in Jupyter: a module beside the lesson, or a cell wrote, imports
    for line in requests:
        request = json.loads(line)
        answer = run_cell(request["code"], request["name"], main.__dict__, request["raises"])
        _flush()
        marker = request["marker"].encode()
        os.write(1, marker)
        os.write(2, marker)
        responses.write(json.dumps(answer).encode() + b"\n")
        responses.flush()


def run_cell(code: str, name: str, namespace: dict[str, Any], raises: bool) -> dict[str, Any]:
    """Run one cell; ``{"ok": bool, "figures": [...], "missing": [package, ...]}``.

    A cell tagged ``raises-exception`` (``raises``) may raise: the exception's last line
    is printed as part of its output, as a reader of the notebook would see it.
    """
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    ok = True
    missing: list[str] = []
    html = ""
    try:
        html = _execute(code, name, namespace)
    except MissingPackage as exc:
        _flush()
        sys.stderr.write(f"{exc}\n")
        ok, missing = False, exc.packages
    except BaseException as exc:  # a cell's SystemExit is its error too, as in IPython
        _flush()
        if raises:
            sys.stdout.write("".join(traceback.format_exception_only(exc)))
        else:
            traceback.print_exception(type(exc), exc, _cell_frames(exc.__traceback__))
            ok = False
    figures = _take_figures() if "matplotlib.pyplot" in sys.modules else []
    answer: dict[str, Any] = {"ok": ok, "figures": figures, "missing": missing}
    if html and ok:
        answer["html"] = html
    return answer


def _execute(code: str, name: str, namespace: dict[str, Any]) -> str:
    """Run the cell; the ``text/html`` of its value when that is a table Jupyter shows."""
    if uses_ipython_syntax(code):
        code = transform(code)
        namespace.setdefault("get_ipython", _shell(namespace))
    try:
        tree = ast.parse(code, name)
    except SyntaxError as exc:
        exc.__traceback__ = None
        raise
    last = tree.body[-1] if tree.body else None
    if not isinstance(last, ast.Expr) or _ends_with_semicolon(code, last.lineno):
        exec(compile(tree, name, "exec", dont_inherit=True), namespace)
        return ""
    body = ast.Module(tree.body[:-1], type_ignores=[])
    exec(compile(body, name, "exec", dont_inherit=True), namespace)
    value = eval(compile(ast.Expression(last.value), name, "eval", dont_inherit=True), namespace)
    if is_animation(value):
        try:
            take_frames(value)
        except AnimationError as error:
            _raise_at(error, name, last.lineno)
        namespace["_"] = value
        return ""
    if shown_as_frames(value):
        return ""
    if value is not None:
        namespace["_"] = value
        _flush()
        sys.stdout.write(_plain_text(value) + "\n")
    return jupyter_defaults.table_html(value)


def _raise_at(error: Exception, name: str, line: int) -> None:
    """Raise ``error`` from line ``line`` of the cell, so its traceback points there."""
    statement = ast.Raise(ast.Name("error", ast.Load()))
    module = ast.fix_missing_locations(ast.Module([statement], type_ignores=[]))
    ast.increment_lineno(module, line - 1)
    exec(compile(module, name, "exec", dont_inherit=True), {"error": error})


def _cell_frames(tb: types.TracebackType | None) -> types.TracebackType | None:
    """Drop the kernel's own frames from the start of a traceback."""
    while tb is not None and not tb.tb_frame.f_code.co_filename.startswith("<cell-"):
        tb = tb.tb_next
    return tb


def _ends_with_semicolon(code: str, first_line: int) -> bool:
    """IPython's rule: a final ``;`` (before any comment) hides the value.

    Only the last statement, from ``first_line`` (1-based) on, is tokenized.
    """
    tail = "".join(code.splitlines(keepends=True)[first_line - 1 :])
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(tail).readline))
    except (tokenize.TokenError, SyntaxError):
        return False
    ignored = {tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT, tokenize.ENDMARKER}
    ignored |= {tokenize.INDENT, tokenize.DEDENT}
    meaningful = [t for t in tokens if t.type not in ignored]
    return bool(meaningful) and meaningful[-1].string == ";"


def _shell(namespace: dict[str, Any]) -> Callable[[], Shell]:
    shell = Shell(namespace)
    return lambda: shell


_pretty: Callable[..., str] | None = None


def prepare() -> None:
    """Load the pretty printer and compile the tokenizer's patterns ahead of the first
    cell that shows a value. Done in the zygote, once for every kernel forked from it:
    each kernel would spend about 10 ms on them otherwise."""
    global _pretty
    if _pretty is None:
        _pretty = _load_pretty()
    _ends_with_semicolon("None\n", 1)


def _plain_text(value: object) -> str:
    """Jupyter's ``text/plain``: IPython's pretty printer with its notebook defaults."""
    global _pretty
    if _pretty is None:
        _pretty = _load_pretty()
    return _pretty(value, max_width=79, max_seq_length=1000)


def _load_pretty() -> Callable[..., str]:
    """``IPython.lib.pretty.pretty``, without importing the IPython package when possible.

    Importing ``IPython`` costs more than a second; ``lib/pretty.py`` needs only the
    standard library and two trivial names, so it is loaded from its file with those two
    supplied. If that file ever changes shape, the package is imported after all.
    """
    loaded = sys.modules.get("IPython.lib.pretty")
    if loaded is not None:
        return loaded.pretty  # type: ignore[no-any-return]
    spec = importlib.util.find_spec("IPython")
    if spec is None or not spec.submodule_search_locations:
        return lambda value, **_: repr(value)
    path = os.path.join(next(iter(spec.submodule_search_locations)), "lib", "pretty.py")
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    supplied = {
        "from IPython.utils.decorators import undoc\n": "undoc = lambda f: f\n",
        "from IPython.utils.py3compat import PYPY\n": "PYPY = False\n",
    }
    if all(line in source for line in supplied):
        for line, replacement in supplied.items():
            source = source.replace(line, replacement)
        module = types.ModuleType("_pizarra_ipython_pretty")
        module.__file__ = path
        exec(compile(source, path, "exec"), module.__dict__)
        return module.pretty  # type: ignore[no-any-return]
    from IPython.lib.pretty import pretty

    return pretty


def _take_figures() -> list[dict[str, Any]]:
    from pizarra.check.kernel.figures import take_figures

    answers: list[dict[str, Any]] = []
    for svg, width, height, *frame in take_figures():
        answer = {"svg": base64.b64encode(svg).decode("ascii"), "width": width, "height": height}
        if frame and frame[0] is not None:
            answer["frame"], answer["frames"] = frame[0]
        answers.append(answer)
    return answers


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()


if __name__ == "__main__":
    serve()
