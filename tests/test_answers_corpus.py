"""Soundness over a corpus: no wrong answer is judged correct; right ones are, many ways."""

from __future__ import annotations

from collections import Counter

from pizarra.check.answers import judge
from tests.answers.corpus import fields, inputs, wrong_answers


def test_no_wrong_answer_is_judged_correct() -> None:
    corpus = wrong_answers()
    assert len(corpus) >= 300
    verdicts = Counter(judge(key, text).verdict for key, text in corpus)
    judged_correct = [
        (key["value"], text) for key, text in corpus if judge(key, text).verdict == "correct"
    ]
    assert judged_correct == []
    assert verdicts["incorrect"] > verdicts["unread"] + verdicts["unchecked"]


def test_every_generated_input_gets_a_verdict_without_raising() -> None:
    keys = fields()
    seen = Counter()
    for index, key in enumerate(keys):
        for text in inputs(key, index):
            seen[judge(key, text).verdict] += 1
    assert sum(seen.values()) > 5000
    assert set(seen) == {"correct", "incorrect", "unchecked", "unread"}


def test_each_key_accepts_its_own_value() -> None:
    for key in fields():
        typed = ",".join(key["value"]) if key["type"] == "choice" else "; ".join(key["value"])
        assert judge(key, typed).verdict == "correct", key["value"]
