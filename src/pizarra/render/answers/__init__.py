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
    """A label or an option: text, with ``$...$`` set as math."""
    parts: list[Markup | str] = []
    last = 0
    for match in _MATH.finditer(text):
        parts.append(escape(text[last : match.start()]))
        parts.append(Markup(math(match.group(1), False)))
        last = match.end()
    parts.append(escape(text[last:]))
    return Markup("").join(parts)


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
