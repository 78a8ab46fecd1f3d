"""YAML composed into nodes (which keep their line and column) quickly, worded as before.

Front matter, ``course.yaml`` and explorer declarations are composed, not loaded, so
every diagnostic can point at a key. libyaml (PyYAML's C parser) composes a lesson's
front matter in 0.1 ms where the pure-Python parser takes 12, with the same nodes and
marks; but it words problems differently, so after an error the pure-Python parser
runs again and its exception, whose wording the diagnostics quote, is the one raised.

Nesting is bounded before anything is composed: PyYAML's composer and constructor
recurse once per level, so ``[[[[…`` a few thousand deep is a ``RecursionError``, and
the pure-Python scanner takes 34 s over 20,000 open brackets. The parser's event
stream is flat, so it is read first and stopped at the first level too deep.
"""

from __future__ import annotations

from typing import Any

import yaml

MAX_DEPTH = 50
"""Deepest nesting of lists and mappings read; pizarra's own settings use four levels."""


class TooDeep(yaml.MarkedYAMLError):
    """The text nests lists or mappings deeper than :data:`MAX_DEPTH`; marked where."""

    def __init__(self, mark: Any):
        super().__init__(
            problem=f"nested too deeply (more than {MAX_DEPTH} levels)", problem_mark=mark
        )


TOO_DEEP_HINT = "flatten the nesting: pizarra's settings need a few levels at most"

_OPEN = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSE = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def compose(text: str) -> yaml.Node | None:
    """The root node of ``text`` (None when empty); raises :class:`yaml.YAMLError`.

    Raises :class:`TooDeep` (a :class:`yaml.MarkedYAMLError`) for nesting deeper than
    :data:`MAX_DEPTH`, whichever parser runs.
    """
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            _check_depth(text, fast)
            return yaml.compose(text, Loader=fast)
        except TooDeep:
            raise
        except yaml.MarkedYAMLError as exc:
            if "maximum nesting depth" in str(exc.problem):  # libyaml's own limit, 1,000
                _too_deep_before(text, exc.problem_mark)
        except yaml.YAMLError:
            pass
    _check_depth(text, yaml.SafeLoader)
    return yaml.compose(text, Loader=yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """``yaml.safe_load`` with the nesting bound of :func:`compose`."""
    node = compose(text)
    if node is None:
        return None
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _too_deep_before(text: str, mark: Any) -> None:
    """Raise :class:`TooDeep` where the pure-Python parser would, for text libyaml found
    1,000 levels deep at ``mark``: the levels past :data:`MAX_DEPTH` open before it, so
    the pure-Python parser reads only that far (all of it would take seconds)."""
    end = mark.index + 1 if mark is not None else len(text)
    try:
        _check_depth(text[:end], yaml.SafeLoader)
    except TooDeep:
        raise
    except yaml.YAMLError:
        pass
    raise TooDeep(mark)


def _check_depth(text: str, loader: type[Any]) -> None:
    depth = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, _OPEN):
            depth += 1
            if depth > MAX_DEPTH:
                raise TooDeep(event.start_mark)
        elif isinstance(event, _CLOSE):
            depth -= 1
