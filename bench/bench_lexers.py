"""Lexing time of the highlighted languages on pathological code, at the longest block.

Pygments lexers are regular expressions, and some are quadratic or backtrack for
seconds on text no one writes on purpose. pizarra highlights only the lexers in
``pizarra.source.syntax.highlighting.HIGHLIGHTED``, up to ``MAX_CODE_CHARS``; this
measures each of them on twenty inputs of that length (runs of one character, of a
pair, of short lines) and prints the worst CPU time, stopping any input at 2 s. It
exits non-zero when a lexer takes more than ``--limit`` seconds: run it after a
Pygments upgrade, or before adding a lexer to the list.

    .venv/bin/python bench/bench_lexers.py [--chars N] [--limit S] [--all]

``--all`` measures every lexer Pygments has (to choose new ones; about 600).
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from types import FrameType

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_all_lexers, get_lexer_by_name

from pizarra.source.syntax.highlighting import HIGHLIGHTED, MAX_CODE_CHARS

STOP = 2.0


def inputs(n: int) -> dict[str, str]:
    """Twenty shapes of ``n`` characters; each made some lexer slow."""
    return {
        "a": "a" * n,
        "quote": "'" * n,
        "dquote": '"' * n,
        "paren-star": "(*" * (n // 2),
        "slash-star": "/*" * (n // 2),
        "lt": "<" * n,
        "space-tab": " \t" * (n // 2),
        "backslash": "\\" * n,
        "digits-dot": "1." * (n // 2),
        "hash": "#" * n,
        "brace": "{" * n,
        "dollar": "$(" * (n // 2),
        "word-space": "a " * (n // 2),
        "nl": "a\n" * (n // 2),
        "colon": ":" * n,
        "dash": "-" * n,
        "ab-nl": "ab\n" * (n // 3),
        "semi": "a;" * (n // 2),
        "indent": "  a\n" * (n // 4),
        "code": "x = (a + 'b')  # c\n" * (n // 19),
    }


class _Stop(Exception):
    pass


def _stop(signum: int, frame: FrameType | None) -> None:
    raise _Stop


def worst(alias: str, shapes: dict[str, str]) -> tuple[float, str]:
    """The slowest shape for the lexer ``alias`` and its CPU seconds (``STOP`` or more
    when stopped)."""
    lexer = get_lexer_by_name(alias, stripnl=False, ensurenl=False)
    formatter = HtmlFormatter(nowrap=True)
    slowest = (0.0, "")
    for name, text in shapes.items():
        started = time.process_time()
        signal.setitimer(signal.ITIMER_PROF, STOP)
        try:
            highlight(text, lexer, formatter)
        except _Stop:
            pass
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        slowest = max(slowest, (time.process_time() - started, name))
    return slowest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=MAX_CODE_CHARS)
    parser.add_argument("--limit", type=float, default=1.0)
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args()
    signal.signal(signal.SIGPROF, _stop)
    chosen = {name: aliases[0] for name, aliases, _, _ in get_all_lexers() if aliases}
    if not args.all:
        missing = HIGHLIGHTED - set(chosen)
        if missing:
            raise SystemExit(f"not Pygments lexer names: {sorted(missing)}")
        chosen = {name: alias for name, alias in chosen.items() if name in HIGHLIGHTED}
    shapes = inputs(args.chars)
    over = []
    print(f"lexer                          worst shape   CPU s at {args.chars:,} characters")
    for name, alias in sorted(chosen.items()):
        seconds, shape = worst(alias, shapes)
        mark = "  over" if seconds > args.limit else ""
        if mark or not args.all:
            print(f"{name:<30} {shape:<13} {seconds:6.2f}{mark}", flush=True)
        if mark:
            over.append(name)
    print(f"{len(over)} of {len(chosen)} over {args.limit} s: {', '.join(over) or 'none'}")
    sys.exit(1 if over and not args.all else 0)


if __name__ == "__main__":
    main()
