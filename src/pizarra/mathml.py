"""TeX -> MathML at build time, so pages load no math JavaScript.

Temml (pinned by ``package.json``) runs inside QuickJS, embedded in Python: no node at
build time, real MathML Core out, with the TeX kept in an ``<annotation>``. Results are
also kept on disk, so a warm build runs no JavaScript. docs/math.md records why this
converter and this engine were chosen and what they cost.

The pipeline takes any :class:`MathRenderer`; tests pass a fake one.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import Protocol

from pizarra.fileio import write_cache

MAX_TEX_CHARS = 10_000
"""Longer formulas are refused before Temml sees them (lesson sources are untrusted)."""

RENDER_TIMEOUT_S = 5.0
"""Wall-clock limit for one formula; the lesson formulas take about a millisecond each."""

MAX_HEAP_BYTES = 256 * 2**20
"""JavaScript heap limit; past it the formula fails and the engine is restarted."""

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
function pizarraRender(tex, display) {{
  try {{
    return JSON.stringify({{
      mathml: temml.renderToString(tex, {{ displayMode: display, {_OPTIONS} }})
    }});
  }} catch (e) {{
    return JSON.stringify({{
      error: String(e && e.message !== undefined ? e.message : e),
      name: String(e && e.name),
      position: e && typeof e.position === "number" ? e.position : null
    }});
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
    """A :class:`MathRenderer` running Temml in one lazily started QuickJS engine.

    Safe to share between threads: every renderer of the process uses one engine
    under one lock. Each remembers its last ``cache_size`` results in memory and,
    given ``cache_dir``, every result on disk. ``temml_js`` defaults to the copy the
    set-up installed.
    """

    def __init__(
        self,
        temml_js: Path | None = None,
        *,
        cache_size: int = CACHE_SIZE,
        cache_dir: Path | None = None,
    ) -> None:
        self._temml_js = temml_js
        self._cache_size = cache_size
        self._cache_dir = cache_dir
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
            source = self._source()
            disk = self._disk_path(source, tex, display)
            mathml = _read(disk) if disk is not None else None
            if mathml is None:
                mathml = self._render(source, tex, display)
                if disk is not None:
                    write_cache(disk, mathml.encode())
            self._cache[key] = mathml
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
            return mathml

    def close(self) -> None:
        """Forget this renderer's results held in memory (the engine is shared)."""
        with self._lock:
            self._cache.clear()

    def __enter__(self) -> TemmlRenderer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _source(self) -> Path:
        from pizarra import assets

        return (self._temml_js or assets.temml_js()).resolve()

    def _disk_path(self, source: Path, tex: str, display: bool) -> Path | None:
        if self._cache_dir is None:
            return None
        payload = json.dumps([_engine_id(source), _OPTIONS, tex, display])
        return self._cache_dir / f"{hashlib.sha256(payload.encode()).hexdigest()}.mml"

    def _render(self, source: Path, tex: str, display: bool) -> str:
        engine = _ENGINES.get(source)
        if engine is None:
            engine = _ENGINES[source] = _Engine(source)
        try:
            return engine.render(tex, display)
        except _EngineBroken as broken:
            _ENGINES.pop(source, None)
            raise MathError(str(broken)) from None


_ENGINE_LOCK = threading.Lock()
"""Serialises every render: one engine per process, used by one caller at a time."""

_ENGINES: dict[Path, _Engine] = {}


@cache
def _engine_id(source: Path) -> str:
    """What a cached result depends on besides the formula: Temml's code."""
    return hashlib.sha256(source.read_bytes()).hexdigest()


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


class _EngineBroken(Exception):
    """The engine ran out of memory; it must not be reused."""


class _Engine:
    """Temml loaded in a QuickJS function.

    ``quickjs.Function`` runs every call on one thread of its own, so the engine
    can be called from any thread; it is synchronous (no event loop, nothing to
    tear down at exit) and enforces time and memory limits itself.
    """

    def __init__(self, temml_js: Path) -> None:
        import quickjs

        source = temml_js.read_text(encoding="utf-8")
        self._function = quickjs.Function("pizarraRender", source + _JS_ENTRY)
        self._function.set_memory_limit(MAX_HEAP_BYTES)

    def render(self, tex: str, display: bool) -> str:
        import quickjs

        self._function.set_time_limit(RENDER_TIMEOUT_S)
        try:
            answer = self._function(tex, display)
        except quickjs.JSException as exc:
            raise _limit_error(str(exc)) or MathError(
                f"Temml failed: {' '.join(str(exc).split())}"
            ) from None
        result = json.loads(str(answer))
        if "mathml" in result:
            return str(result["mathml"])
        name, message = str(result["name"]), str(result["error"])
        raise _limit_error(message) or _math_error(name, message, result.get("position"))


def _limit_error(message: str) -> Exception | None:
    """The error for a formula that hit a resource limit, or None."""
    if "interrupted" in message:
        return MathError(f"formula took longer than {RENDER_TIMEOUT_S:g} s to render")
    if "out of memory" in message:
        return _EngineBroken("formula needs too much memory to render")
    if "stack overflow" in message:
        return MathError("formula is nested too deeply to render")
    return None


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
