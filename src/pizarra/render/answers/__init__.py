"""Answer fields in the page: server-rendered, hidden until ``answers.js`` enhances them.

Without JavaScript a reader sees the question and its solution disclosure as
before; with it, each field gets its label, a "Check" button and a status region
(``role="status"``). The answer key travels in a JSON block the module reads (the
page's CSP forbids inline scripts): fine for self-study, not for exams.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from importlib.resources import files
from typing import Any

from markupsafe import Markup, escape

from pizarra.base.i18n.strings import STRINGS, t
from pizarra.check.answers.keys import build_key, field_id
from pizarra.render.punctuation import CLOSING, OPENING, glued
from pizarra.source.answers.spec import AnswerSpec
from pizarra.source.blocks import Exercise

ASSETS = ("answers.js", "answers.css")
"""What a page with answer fields links: the module, then the stylesheet."""

_MATH = re.compile(r"\$([^$]+)\$")
_HELP = {
    "number": "number",
    "expression": "expression",
    "set": "set",
    "list": "set",
    "interval": "interval",
}

MathHTML = Callable[[str, bool], str]


def answer_assets() -> dict[str, bytes]:
    """The module and the stylesheet, by the name they get in ``assets/``."""
    package = files(__package__)
    return {name: package.joinpath(name).read_bytes() for name in ASSETS}


def script_json(data: Any) -> Markup:
    """``data`` as JSON that cannot end its ``<script>`` element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def answer_strings(lang: str) -> Markup:
    """The verdicts' words and the codes' explanations, for the module."""
    strings = {
        key.removeprefix("answer_"): value
        for key, value in STRINGS[lang].items()
        if key.startswith("answer_") and not key.startswith("answer_words_")
    }
    strings |= {
        name: t(lang, f"answer_{name}") for name in ("correct", "incorrect", "unchecked", "unread")
    }
    return script_json(strings)


def _inline(text: str, math: MathHTML) -> Markup:
    """A label or an option: text, with ``$...$`` set as math, each formula kept on one
    line with the punctuation beside it (``$\\log_2 8$?``), as in the prose."""
    found = list(_MATH.finditer(text))
    ends = [0] + [m.end() for m in found]
    starts = [m.start() for m in found] + [len(text)]
    gaps = [text[a:b] for a, b in zip(ends, starts, strict=True)]
    closes = [0] + [_length(CLOSING.match(gap)) for gap in gaps[1:]]
    opens = [
        _start(OPENING.search(gap, closes[i]), len(gap)) for i, gap in enumerate(gaps[:-1])
    ] + [len(gaps[-1])]
    parts = []
    for i, gap in enumerate(gaps):
        parts.append(str(escape(gap[closes[i] : opens[i]])))
        if i < len(found):
            formula = math(found[i].group(1), False)
            parts.append(glued(gap[opens[i] :], formula, gaps[i + 1][: closes[i + 1]]))
    return Markup("".join(parts))


def _length(match: re.Match[str] | None) -> int:
    return len(match.group()) if match else 0


def _start(match: re.Match[str] | None, default: int) -> int:
    return match.start() if match else default


def _field(spec: AnswerSpec, number: int, lang: str, math: MathHTML) -> Markup:
    ident = field_id(number, spec, lang)
    status = f'<p class="answer-status" id="{ident}-status" role="status" data-answer-status></p>'
    check = escape(t(lang, "answer_check"))
    button = f'<button type="button" class="answer-check" data-answer-check>{check}</button>'
    hint = (
        f'<details class="answer-hint"><summary>{escape(t(lang, "answer_hint"))}</summary>'
        f"<p>{_inline(spec.hint, math)}</p></details>"
        if spec.hint
        else ""
    )
    if spec.kind == "choice":
        kind = "checkbox" if spec.several else "radio"
        options = "".join(
            f'<div class="answer-option"><input type="{kind}" name="{ident}" id="{ident}-{o.id}" '
            f'value="{escape(o.id)}">'
            f'<label for="{ident}-{o.id}">{_inline(o.text, math)}</label></div>'
            for o in spec.options
        )
        return Markup(
            f'<fieldset class="answer-field" data-answer-field="{ident}">'
            f"<legend>{_inline(spec.label, math)}</legend>{options}"
            f'<div class="answer-row">{button}</div>{status}{hint}</fieldset>'
        )
    letters = ", ".join(spec.letters)
    help_text = t(lang, f"answer_help_{_HELP[spec.kind]}", letters=letters)
    return Markup(
        f'<div class="answer-field" data-answer-field="{ident}">'
        f'<label for="{ident}-input">{_inline(spec.label, math)}</label>'
        f'<p class="answer-help" id="{ident}-help">{escape(help_text)}</p>'
        f'<div class="answer-row"><input type="text" id="{ident}-input" autocomplete="off" '
        f'autocapitalize="off" spellcheck="false" aria-describedby="{ident}-help {ident}-status">'
        f"{button}</div>{status}{hint}</div>"
    )


def render_answers(exercise: Exercise, lang: str, math: MathHTML) -> Markup:
    """The exercise's fields and their key; empty when it has none or a key fails
    (the check reports that, and the build stops)."""
    keys = []
    for spec in exercise.answers:
        key, _ = build_key(spec, lang, exercise.number)
        if key is None:
            return Markup("")
        keys.append(key)
    if not keys:
        return Markup("")
    fields = Markup("").join(_field(spec, exercise.number, lang, math) for spec in exercise.answers)
    return Markup(
        f'<div class="answers" data-answers data-pagefind-ignore hidden>{fields}'
        f'<script type="application/json" data-answer-key>{script_json(keys)}</script></div>'
    )
