"""``{answer} choice``: one option (radio buttons) or several (check boxes).

The page sends the chosen option ids joined by commas (``a,c``); a question test
writes them the same way.
"""

from __future__ import annotations

from pizarra.check.answers.common import CORRECT, Judgement, Key


def chosen(text: str) -> list[str]:
    return [part.strip(" ") for part in text.split(",") if part.strip(" ")]


def judge(key: Key, text: str) -> Judgement:
    picked = chosen(text)
    if not picked:
        return Judgement("unread", "choose")
    if any(p not in key["options"] for p in picked) or len(set(picked)) != len(picked):
        return Judgement("unread", "unknown_option")
    if not key["several"] and len(picked) > 1:
        return Judgement("unread", "choose_one")
    if set(picked) == set(key["value"]):
        return CORRECT
    for mistake in key["mistakes"]:
        if set(picked) == set(mistake["answer"]):
            return Judgement("incorrect", "", mistake["feedback"])
    if key["several"] and set(picked) < set(key["value"]):
        return Judgement("incorrect", "missing_items")
    return Judgement("incorrect")
