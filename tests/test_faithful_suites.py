"""The CommonMark spec, mdit-py-plugins' fixtures and myst-spec's cases, run through pizarra.

Every case renders as its suite expects or is refused with an error; the recorded outcome of
each case is in ``tests/fixtures/suites/outcomes.txt``, so a change either way is seen.
"""

from __future__ import annotations

from collections import Counter

from tests.faithful import Case, cases, normalize, outcomes, recorded, run


def test_every_case_has_the_recorded_outcome() -> None:
    found, known = outcomes(), recorded()
    changed = {k: (known.get(k), v) for k, v in found.items() if known.get(k) != v}
    assert changed == {}, "outcomes changed (was, now); rerun python -m tests.faithful"
    assert set(known) == set(found)


def test_no_case_is_silently_different() -> None:
    silent = sorted(k for k, v in recorded().items() if v == "silent")
    counts = Counter(v for v in recorded().values())
    assert len(silent) <= SILENT_BUDGET, (counts, silent)


SILENT_BUDGET = 0
"""Silent cases still recorded; this only goes down, to 0."""


def test_the_suites_are_all_there() -> None:
    per_suite = Counter(case.suite for case in cases())
    assert per_suite == {"commonmark": 652, "mdit_py_plugins": 222, "myst_spec": 87}


def test_the_comparison_ignores_wrappers_ids_and_classes_only() -> None:
    assert normalize('<div class="x"><p id="a">a  <em>b</em></p></div>') == "<p>a<em>b</em></p>"
    assert normalize("<p>a</p>") != normalize("<p>b</p>")
    assert normalize('<pre><code class="language-py hl">x</code></pre>') == normalize(
        '<pre><code class="language-py">x</code></pre>'
    )


def test_a_dropped_paragraph_is_a_silent_difference() -> None:
    outcome = run(Case("t", "t/1", "Hello\n", "<p>Hello</p>\n<p>World</p>\n"))
    assert outcome.kind == "silent"
    assert run(Case("t", "t/2", "# Title\n", "<h1>Title</h1>\n")).kind == "refused"
