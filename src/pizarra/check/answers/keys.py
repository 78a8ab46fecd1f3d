"""An :class:`AnswerSpec` -> the key the page and the checker judge with, or its errors.

Every value of the declaration is read here as a learner's input would be, so a
value pizarra cannot judge is an error at its line when the lesson is built, not
a field that never says "correct" in the page.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.base.i18n.strings import t
from pizarra.check.answers import collection, expression, interval, number
from pizarra.check.answers.algebra import Outside, quotient
from pizarra.check.answers.common import Key, words
from pizarra.check.answers.lexer import Unread
from pizarra.source.answers.spec import AnswerSpec

FORMS = {
    "number": ("evaluated", "simplified", "fraction", "decimal", "no-negative-exponents"),
    "expression": ("no-negative-exponents",),
    "set": ("evaluated", "simplified", "fraction", "decimal", "no-negative-exponents"),
    "list": ("evaluated", "simplified", "fraction", "decimal", "no-negative-exponents"),
    "choice": (),
    "interval": (),
}
"""The form requirements each type accepts."""

_CONDITION = re.compile(r"^\s*([A-Za-z])\s*(!=|\\ne|\\neq|≠|>=|\\ge|\\geq|≥|>)\s*0\s*$")
_DOMAIN = {"!=": "nonzero", "\\ne": "nonzero", "\\neq": "nonzero", "≠": "nonzero",
           ">": "positive", ">=": "nonnegative", "\\ge": "nonnegative", "\\geq": "nonnegative",
           "≥": "nonnegative"}  # fmt: skip


def field_id(exercise: int, spec: AnswerSpec, lang: str) -> str:
    """The element id of a field, in the page's language as its exercise's anchor is:
    ``pregunta-3-1`` in Spanish, ``question-3-1`` in English."""
    return f"{t(lang, 'id_question', n=exercise)}-{spec.number}"


def learner_words(lang: str) -> dict[str, list[str]]:
    """The words a learner may type for the special values and between items."""
    found = {}
    for name, key in (("undefined", "undefined"), ("no-real", "no_real"), ("joins", "joins")):
        listed = [words(w) for w in t(lang, f"answer_words_{key}").split("|")]
        found[name] = listed if name == "joins" else [name, *listed]
    return found


def build_key(spec: AnswerSpec, lang: str, exercise: int) -> tuple[Key | None, list[Diagnostic]]:
    """The key of one field; None (with diagnostics) when the declaration cannot be judged."""
    errors: list[Diagnostic] = []
    forms = [f.text for f in spec.form]
    for form in spec.form:
        if form.text not in FORMS[spec.kind]:
            allowed = ", ".join(FORMS[spec.kind]) or "none"
            errors.append(
                Diagnostic(
                    form.pos, f"unknown form {form.text!r} for a {spec.kind}", f"allowed: {allowed}"
                )
            )
    domains = _domains(spec, errors)
    key: dict[str, Any] = {
        "id": field_id(exercise, spec, lang),
        "type": spec.kind,
        "lang": lang,
        "value": [v.text for v in spec.value],
        "approx": spec.approx,
        "form": forms,
        "letters": domains,
        "options": [o.id for o in spec.options],
        "several": spec.several,
        "mistakes": [
            {"answer": [a.text for a in m.answer], "feedback": m.feedback} for m in spec.mistakes
        ],
        "words": learner_words(lang),
    }
    if spec.kind == "expression" and not spec.letters:
        errors.append(
            Diagnostic(spec.pos, "an expression answer needs `letters:`", "e.g. letters: [x]")
        )
    if spec.kind == "choice":
        _choice(spec, errors)
    elif not errors:
        problem = _readable(key, spec.value[0].text if spec.kind not in ("set", "list") else None)
        if problem:
            errors.append(Diagnostic(spec.value[0].pos, problem, _HINTS[spec.kind]))
        elif spec.approx and number.decimals(number.expected(key)[0]) < 0:
            errors.append(
                Diagnostic(
                    spec.value[0].pos,
                    "an approximate value is a decimal: its last digit is its precision",
                    "e.g. value: 15,62",
                )
            )
        for mistake in spec.mistakes:
            if _readable(
                key,
                mistake.answer[0].text if spec.kind not in ("set", "list") else None,
                [a.text for a in mistake.answer],
            ):
                errors.append(
                    Diagnostic(mistake.pos, "this mistake cannot be read", _HINTS[spec.kind])
                )
    return (None if errors else key), errors


_HINTS = {
    "number": "write a number as a learner would: 81, 1/16, 0,0625 (Spanish), undefined, no-real",
    "expression": "write it as a learner would, in the declared letters: 1/x^2",
    "set": "write one number per item",
    "list": "write one number per item",
    "interval": "write e.g. [-2; 3) or (0; inf)",
    "choice": "",
}


def _readable(key: Key, text: str | None, items: list[str] | None = None) -> str:
    """Why ``text`` (or ``items``) cannot be the key's kind of value ("" when it can)."""
    kind = key["type"]
    try:
        if kind == "number":
            assert text is not None
            node, v = number.read(text, key)
            if not isinstance(v, Fraction) and (node is not None or v not in number.SPECIALS):
                return f"{text!r} has no exact rational value pizarra can compute ({v})"
        elif kind == "expression":
            assert text is not None
            quotient(expression.read(text, key), key["letters"])
        elif kind == "interval":
            assert text is not None
            interval.read(text, key)
        else:
            found = collection.values(collection.items(";".join(items or key["value"]), key))
            if not isinstance(found, list):
                return f"an item has no exact rational value ({found.code})"
    except Unread as error:
        return f"{(text or '; '.join(items or key['value']))!r} cannot be read ({error.code})"
    except Outside as outside:
        return f"{text!r} is outside what pizarra can compare exactly ({outside.reason})"
    except Exception as error:  # interval verdicts raised while reading
        return f"{text!r} is not a valid {kind} ({type(error).__name__})"
    return ""


def _domains(spec: AnswerSpec, errors: list[Diagnostic]) -> dict[str, str]:
    domains = dict.fromkeys(spec.letters, "real")
    for condition in spec.where:
        match = _CONDITION.match(condition.text)
        if match is None or match.group(1) not in domains:
            errors.append(
                Diagnostic(
                    condition.pos,
                    f"unknown condition {condition.text!r}",
                    "write x != 0, x > 0 or x >= 0 for a declared letter",
                )
            )
            continue
        domains[match.group(1)] = _DOMAIN[match.group(2)]
    return domains


def _choice(spec: AnswerSpec, errors: list[Diagnostic]) -> None:
    ids = [o.id for o in spec.options]
    for option in spec.options:
        if ids.count(option.id) > 1:
            errors.append(Diagnostic(option.pos, f"two options have the id {option.id!r}"))

    def check(item: str, pos: SourcePos) -> None:
        if item not in ids:
            hint = "allowed: " + ", ".join(ids)
            errors.append(Diagnostic(pos, f"no option has the id {item!r}", hint))

    for value in spec.value:
        check(value.text, value.pos)
    for mistake in spec.mistakes:
        for answer in mistake.answer:
            check(answer.text, answer.pos)
