"""TeX -> MathML at build time, so pages load no math JavaScript.

Temml (pinned by ``package.json``) runs inside V8 through mini-racer: no node at build
time, real MathML Core out, with the TeX kept in an ``<annotation>``. docs/math.md
records why this converter was chosen and what it costs.

The pipeline takes any :class:`MathRenderer`; tests pass a fake one.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable

    from py_mini_racer import MiniRacer

MAX_TEX_CHARS = 10_000
"""Longer formulas are refused before Temml sees them (lesson sources are untrusted)."""

RENDER_TIMEOUT_S = 5.0
"""Wall-clock limit for one formula; the lesson formulas take about a millisecond each."""

MAX_HEAP_BYTES = 512 * 2**20
"""V8 heap limit; past it the formula fails and the engine is restarted."""

CACHE_SIZE = 4096
"""Formulas remembered per renderer; a lesson has one to two hundred distinct ones."""

_OPTIONS = (
    "throwOnError: true, annotate: true, trust: false, strict: true, "
    "maxSize: [20, 200], maxExpand: 1000"
)
"""Temml settings. ``strict`` refuses TeX that LaTeX itself would reject (accented
letters in math mode, a ``%`` comment swallowing the end); ``maxSize`` caps every
explicit size at 20 em / 200 pt; ``maxExpand`` bounds macro expansion."""

_JS_ENTRY = f"""
if (typeof console === "undefined") {{ var console = {{ log: function () {{}} }}; }}
function pizarraRender(tex, display) {{
  try {{
    return {{ mathml: temml.renderToString(tex, {{ displayMode: display, {_OPTIONS} }}) }};
  }} catch (e) {{
    return {{
      error: String(e && e.message !== undefined ? e.message : e),
      name: String(e && e.name),
      position: e && typeof e.position === "number" ? e.position : null
    }};
  }}
}}
"""

_LOCATION = re.compile(r"\s+at (?:position \d+|end of input):.*", re.DOTALL)


class MathError(Exception):
    """A formula that cannot be rendered, explained for the lesson's author."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        """One line, e.g. ``invalid LaTeX: Unsupported function name: \\fracc``."""
        self.offset = offset
        """0-based index in the TeX where Temml stopped, when it knows."""


class MathRenderer(Protocol):
    """Turns one formula into a ``<math>`` element, or raises :class:`MathError`."""

    def __call__(self, tex: str, display: bool) -> str: ...


class TemmlRenderer:
    """A :class:`MathRenderer` running Temml in one lazily started V8 context.

    Safe to share between threads: every renderer of the process uses one V8 context
    under one lock. Each remembers its last ``cache_size`` results. ``temml_js``
    defaults to the copy the set-up installed.
    """

    def __init__(self, temml_js: Path | None = None, *, cache_size: int = CACHE_SIZE) -> None:
        self._temml_js = temml_js
        self._cache_size = cache_size
        self._lock = _ENGINE_LOCK
        self._cache: OrderedDict[tuple[str, bool], str] = OrderedDict()

    def __call__(self, tex: str, display: bool) -> str:
        if len(tex) > MAX_TEX_CHARS:
            raise MathError(f"formula too long: {len(tex):,} characters (limit {MAX_TEX_CHARS:,})")
        key = (tex, display)
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                return cached
            mathml = self._render(tex, display)
            self._cache[key] = mathml
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
            return mathml

    def close(self) -> None:
        """Forget this renderer's results.

        The shared V8 context stays up until the interpreter exits: closing a
        mini-racer context while other threads of the process have used V8 can
        crash the process, and a context costs nothing while idle.
        """
        with self._lock:
            self._cache.clear()

    def __enter__(self) -> TemmlRenderer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _render(self, tex: str, display: bool) -> str:
        from pizarra import assets

        source = (self._temml_js or assets.temml_js()).resolve()
        engine = _ENGINES.get(source)
        if engine is None:
            engine = _ENGINES[source] = _Engine(source)
        try:
            return engine.render(tex, display)
        except _EngineBroken as broken:
            _ENGINES.pop(source, None)
            engine.close()
            raise MathError(str(broken)) from None


_ENGINE_LOCK = threading.Lock()
"""Guards every V8 call: two mini-racer contexts used from different threads of one
process can crash it, so all renderers share one context per Temml file."""

_ENGINES: dict[Path, _Engine] = {}


class _EngineBroken(Exception):
    """V8 ran out of memory; the context must not be reused."""


class _Engine:
    """One MiniRacer context with Temml loaded."""

    def __init__(self, temml_js: Path) -> None:
        from py_mini_racer import MiniRacer

        source = temml_js.read_text(encoding="utf-8")
        self._ctx = _new_context(MiniRacer)
        # A live context keeps mini-racer's loop thread, and so the interpreter, from
        # exiting: close it at exit at the latest.
        self._finalizer = weakref.finalize(self, self._ctx.close)
        self._ctx.set_hard_memory_limit(MAX_HEAP_BYTES)
        self._ctx.eval(source)
        self._ctx.eval(_JS_ENTRY)

    def render(self, tex: str, display: bool) -> str:
        from py_mini_racer import JSOOMException, JSTimeoutException

        try:
            result = self._ctx.call("pizarraRender", tex, display, timeout_sec=RENDER_TIMEOUT_S)
        except JSTimeoutException:
            # V8 has terminated the call and the context stays usable; closing it now
            # would race with the cancelled call's late reply.
            raise MathError(f"formula took longer than {RENDER_TIMEOUT_S:g} s to render") from None
        except JSOOMException:
            raise _EngineBroken("formula needs too much memory to render") from None
        if "mathml" in result:
            return str(result["mathml"])
        raise _math_error(str(result["name"]), str(result["error"]), result.get("position"))

    def close(self) -> None:
        self._finalizer()


def _new_context(factory: Callable[[], MiniRacer]) -> MiniRacer:
    """A context on an event loop of its own.

    mini-racer binds a new context to the asyncio loop running in the creating
    thread, if any (a server's, a test browser's): calls from other threads then
    depend on that loop staying alive, and one that ends takes the process down.
    Created from a fresh thread, the context starts and owns its own loop thread.
    """
    made: list[MiniRacer] = []
    failed: list[BaseException] = []

    def create() -> None:
        try:
            made.append(factory())
        except BaseException as exc:  # handed to the caller's thread below
            failed.append(exc)

    thread = threading.Thread(target=create, name="pizarra-temml-start")
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return made[0]


def _math_error(name: str, message: str, position: object) -> MathError:
    """Temml's exception, as one line an author can act on (no stack, no HTML)."""
    if name == "RangeError" and "call stack" in message:
        return MathError("formula is nested too deeply to render")
    text = _LOCATION.sub("", message).replace("\u0332", "")
    text = " ".join(text.split())
    offset = position if isinstance(position, int) else None
    if name == "ParseError":
        return MathError(f"invalid LaTeX: {text}", offset)
    return MathError(f"Temml failed ({name}): {text}", offset)
