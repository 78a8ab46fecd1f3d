"""Read an ``:::{answer} kind`` body (YAML) into an :class:`AnswerSpec`, every key located.

Only the shape is checked here (known keys, texts, lists, verdict names); what a
value means is decided by :mod:`pizarra.check.answers`, which reports it at its line.
"""

from __future__ import annotations

from yaml.nodes import Node, ScalarNode, SequenceNode

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.source.answers.spec import (
    KINDS,
    VERDICTS,
    AnswerSpec,
    Located,
    Mistake,
    Option,
    QuestionTest,
)
from pizarra.source.explorers.yamlread import Reader

MAX_BODY = 20_000
"""Longest declaration read, in characters."""
MAX_ITEMS = 64
"""Most items of any list in a declaration (tests, mistakes, options, value items)."""
MAX_TEXT = 500
"""Longest text (a value, a feedback, a label)."""

_COMMON = ("mistakes", "hint", "tests", "form")
_OPTIONAL = {
    "number": ("approx", "of", *_COMMON),
    "expression": ("letters", "where", "of", *_COMMON),
    "choice": ("options", "hint", "mistakes", "tests"),
    "set": ("letters", *_COMMON),
    "list": ("letters", *_COMMON),
    "interval": ("letters", *_COMMON),
}
_BOOL_TAG = "tag:yaml.org,2002:bool"


def parse_answer(
    kind: str, body: str, pos: SourcePos, number: int
) -> tuple[AnswerSpec | None, list[Diagnostic]]:
    """The answer declared by ``body``; YAML line N is at file line ``pos.line + N``."""
    reader = Reader(pos)
    kind = kind.strip()
    if kind not in KINDS:
        reader.error(
            pos,
            f"unknown answer type {kind!r}" if kind else "{answer} needs its type after its name",
            "write :::{answer} followed by one of " + ", ".join(KINDS),
        )
        return None, reader.diagnostics
    if len(body) > MAX_BODY:
        reader.error(pos, f"answer declaration longer than {MAX_BODY} characters")
        return None, reader.diagnostics
    root = reader.compose(body)
    if root is None:
        return None, reader.diagnostics
    required = ("label", "value", "options") if kind == "choice" else ("label", "value")
    optional = tuple(k for k in _OPTIONAL[kind] if k not in required)
    keys = reader.mapping(root, f"the {kind} answer", required, optional)
    if keys is None:
        return None, reader.diagnostics
    spec = _spec(reader, kind, keys, pos, number)
    return (None if reader.diagnostics else spec), reader.diagnostics


def _spec(
    reader: Reader, kind: str, keys: dict[str, Node], pos: SourcePos, number: int
) -> AnswerSpec:
    several = kind == "choice" and isinstance(keys["value"], SequenceNode)
    value = _items(reader, keys["value"], "value", scalar_ok=kind != "set" and kind != "list")
    letter_items = _items(reader, keys.get("letters"), "letters")
    for item in letter_items:
        if not (len(item.text) == 1 and item.text.isascii() and item.text.isalpha()):
            reader.error(item.pos, f"a letter is one letter a-z or A-Z, not {item.text!r}")
    letters = tuple(item.text for item in letter_items)
    of = keys.get("of")
    return AnswerSpec(
        kind=kind,
        label=_text(reader, keys["label"], "label"),
        value=value,
        pos=pos,
        number=number,
        approx=_flag(reader, keys.get("approx"), "approx"),
        form=_items(reader, keys.get("form"), "form"),
        letters=letters,
        where=_items(reader, keys.get("where"), "where"),
        of=None if of is None else _located(reader, of, "of"),
        options=_options(reader, keys.get("options")),
        several=several,
        mistakes=_mistakes(reader, keys.get("mistakes"), kind),
        hint=_text(reader, keys["hint"], "hint") if "hint" in keys else "",
        tests=_tests(reader, keys.get("tests")),
    )


def _text(reader: Reader, node: Node, what: str) -> str:
    return reader.text(node, what, MAX_TEXT) or ""


def _located(reader: Reader, node: Node, what: str) -> Located:
    return Located(_text(reader, node, what), reader.pos(node, reader.value_offset(node)))


def _items(
    reader: Reader, node: Node | None, what: str, scalar_ok: bool = True
) -> tuple[Located, ...]:
    """A text or a list of texts, each located."""
    if node is None:
        return ()
    if isinstance(node, ScalarNode) and scalar_ok:
        return (_located(reader, node, what),)
    items = reader.sequence(node, what, MAX_ITEMS)
    return tuple(_located(reader, item, f"an item of {what}") for item in items or ())


def _flag(reader: Reader, node: Node | None, what: str) -> bool:
    if node is None:
        return False
    if not isinstance(node, ScalarNode) or node.tag != _BOOL_TAG:
        reader.error(reader.pos(node), f"{what} must be true or false")
        return False
    return str(node.value).lower() in ("true", "yes", "on")


def _entries(
    reader: Reader,
    node: Node | None,
    what: str,
    required: tuple[str, ...],
    optional: tuple[str, ...],
) -> list[tuple[Node, dict[str, Node]]]:
    if node is None:
        return []
    found = []
    for item in reader.sequence(node, what, MAX_ITEMS) or ():
        keys = reader.mapping(item, f"an item of {what}", required, optional)
        if keys is not None:
            found.append((item, keys))
    return found


def _options(reader: Reader, node: Node | None) -> tuple[Option, ...]:
    options = []
    for item, keys in _entries(reader, node, "options", ("id", "text"), ()):
        option_id = _text(reader, keys["id"], "id")
        if option_id and not (option_id.isascii() and option_id.replace("-", "").isalnum()):
            reader.error(
                reader.pos(keys["id"]), f"an option id is letters, digits and -, not {option_id!r}"
            )
        options.append(Option(option_id, _text(reader, keys["text"], "text"), reader.pos(item)))
    return tuple(options)


def _mistakes(reader: Reader, node: Node | None, kind: str) -> tuple[Mistake, ...]:
    found = []
    for item, keys in _entries(reader, node, "mistakes", ("answer", "feedback"), ()):
        answer = _items(reader, keys["answer"], "answer", scalar_ok=kind not in ("set", "list"))
        found.append(Mistake(answer, _text(reader, keys["feedback"], "feedback"), reader.pos(item)))
    return tuple(found)


def _tests(reader: Reader, node: Node | None) -> tuple[QuestionTest, ...]:
    found = []
    for item, keys in _entries(reader, node, "tests", ("input", "verdict"), ("feedback",)):
        verdict = _text(reader, keys["verdict"], "verdict")
        if verdict and verdict not in VERDICTS:
            reader.error(
                reader.pos(keys["verdict"]),
                f"unknown verdict {verdict!r}",
                "write one of " + ", ".join(VERDICTS),
            )
        feedback = _text(reader, keys["feedback"], "feedback") if "feedback" in keys else None
        text = _input_text(keys["input"])
        if text is None:
            reader.error(reader.pos(keys["input"]), "input must be a text")
            continue
        found.append(QuestionTest(text, verdict, feedback, reader.pos(item)))
    return tuple(found)


def _input_text(node: Node) -> str | None:
    """A test's input as typed: may be empty (a learner may press the button on nothing)."""
    if not isinstance(node, ScalarNode) or len(str(node.value)) > MAX_TEXT:
        return None
    return str(node.value)
