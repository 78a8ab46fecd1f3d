"""Which code is highlighted: languages whose Pygments lexer was measured on hostile text.

Pygments lexers are regular expressions written for correct code. On other text some
take time that grows with the square of its length (``csharp`` on ``"a\\n"`` × 4,000:
9.9 s), and some backtrack for seconds inside one match (``devicetree`` on ``"a"`` ×
20,000: 20 s; ``systemd`` on 1,000 characters of spaces and tabs: over 2 s). A deadline
checked between tokens cannot stop a single match, and a process to kill for each block
would cost more than the highlighting. So only the lexers below highlight, each measured
by ``bench/bench_lexers.py`` on pathological inputs of :data:`MAX_CODE_CHARS`; code in any
other language Pygments knows, or longer, is shown as plain escaped text, with a warning
at its block. The reader sees the same code either way: highlighting is a nicety.
"""

from __future__ import annotations

from functools import lru_cache

from pizarra.base.errors import SourcePos
from pizarra.source.parse_budget import ENV_KEY, Budget
from pizarra.source.syntax.context import LowerContext

MAX_CODE_CHARS = 20_000
"""Longest block highlighted: at most about half a second for every lexer below."""
MAX_LESSON_CODE_CHARS = 400_000
"""Most highlighted code in one lesson (Pygments takes up to 5 µs a character)."""

HIGHLIGHTED = frozenset(
    {
        "Python",
        "Python console session",
        "Python Traceback",
        "Bash",
        "Text only",
        "JSON",
        "YAML",
        "TOML",
        "TeX",
        "S",
        "Julia",
        "Matlab",
        "SQL",
        "C",
        "C++",
        "JavaScript",
        "Rust",
        "Go",
        "Markdown",
        "HTML",
        "XML",
        "CSS",
    }
)
"""Pygments lexer names (every alias of one counts: ``py``, ``python3``...)."""


@lru_cache(maxsize=64)
def lexer_name(language: str) -> str | None:
    """The name of the Pygments lexer for ``language`` (any letter case), or None."""
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return str(get_lexer_by_name(language.lower()).name)
    except ClassNotFound:
        return None


def plain_reason(language: str, code: str) -> tuple[str, str] | None:
    """Why code that Pygments could highlight is shown plain, and a hint; or None.

    None too for a language Pygments does not know: such code was never going to be
    highlighted, and the block says what it is.
    """
    name = lexer_name(language) if language else None
    if name is None:
        return None
    if name not in HIGHLIGHTED:
        return (
            f"{language} code is shown without highlighting: its lexer can be slow",
            "pizarra highlights Python, Bash, C, JavaScript, R, Julia, TeX and a few"
            " more; write `text` as the language to show this code plain without a warning",
        )
    if len(code) > MAX_CODE_CHARS:
        return (
            f"code longer than {MAX_CODE_CHARS:,} characters is shown without highlighting",
            "split it into shorter blocks",
        )
    return None


def check_highlighting(ctx: LowerContext, language: str, code: str, pos: SourcePos) -> None:
    """A warning at ``pos`` when the renderer will show this code plain; an error at the
    block that takes the lesson past :data:`MAX_LESSON_CODE_CHARS` of highlighted code."""
    reason = plain_reason(language, code)
    if reason is not None:
        ctx.warn(pos, reason[0], hint=reason[1])
        return
    if lexer_name(language) is None:
        return
    budget = ctx.parse_env.get(ENV_KEY)
    if not isinstance(budget, Budget):
        return
    budget.code_chars += len(code)
    if budget.code_chars > MAX_LESSON_CODE_CHARS and not budget.code_reported:
        budget.code_reported = True
        ctx.error(
            pos,
            f"the lesson has more than {MAX_LESSON_CODE_CHARS:,} characters of highlighted code",
            hint="split it into several lessons, or mark long listings as `text`",
        )
