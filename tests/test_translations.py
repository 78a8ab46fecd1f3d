"""A course in two languages: editions linked both ways, the parity check, staleness."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pizarra.base.errors import Severity
from pizarra.check.kernel.execute import KernelRunner
from pizarra.pipeline.build import build, verify
from pizarra.pipeline.tools import Tools
from pizarra.pipeline.translate import sync_translation
from pizarra.source.course import load_course
from tests.support import FIXTURES, fake_math

COURSE = FIXTURES / "translations" / "course"
TRANSLATION = Path("en") / "01-pairs.md"


def tools() -> Tools:
    return Tools(fake_math, KernelRunner(), None)


@pytest.fixture
def course(tmp_path: Path) -> Path:
    shutil.copytree(COURSE, tmp_path / "course")
    return tmp_path / "course"


def _errors(src: Path) -> list[str]:
    report = verify(src, tools(), search=False)
    return [d.format() for d in report.diagnostics if d.severity is Severity.ERROR]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_course_has_an_edition_per_translated_language() -> None:
    course, errors = load_course(COURSE)
    assert course is not None and not errors
    (edition,) = course.editions
    assert (edition.lang, edition.site_dir, edition.title) == ("en", "en/", "A test course")
    assert [e.lesson.slug for e in edition.entries if e.lesson] == ["pairs"]
    assert edition.entries[1].title == "Logarithms" and not edition.entries[1].published
    assert [(a.lang, a.site_dir, dict(a.slugs)) for a in course.alternates] == [
        ("es", "", {1: "pares"}),
        ("en", "en/", {1: "pairs"}),
    ]


def test_a_faithful_translation_passes_though_its_numbers_are_written_otherwise() -> None:
    assert _errors(COURSE) == []


def test_a_changed_number_in_a_table_fails_at_its_line_naming_the_original(course: Path) -> None:
    _edit(course / TRANSLATION, "| 8192 | 67,108,864 |", "| 8192 | 67,108,865 |")
    (error,) = _errors(course)
    assert re.match(r"\S*en/01-pairs\.md:19:10: error:", error)
    assert "the original has 67.108.864 here (line 18)" in error
    assert "67,108,865" in error


def test_formulas_are_compared_as_mathematics(course: Path) -> None:
    _edit(course / TRANSLATION, "4{,}194{,}304", "4{,}194{,}305")
    (error,) = [e for e in _errors(course) if "original" in e]  # the claim is false too
    assert ":13:" in error and "the original has $2048^2=4\\,194\\,304$ here (line 12)" in error


def test_a_decimal_is_the_same_number_written_either_way(course: Path) -> None:
    _edit(course / TRANSLATION, "is 0.25 and", "is 0.35 and")
    (error,) = _errors(course)
    assert "the original has 0,25 here (line 20)" in error


def test_a_missing_citation_is_an_error(course: Path) -> None:
    _edit(course / TRANSLATION, " {cite}`vaswani`", "")
    errors = _errors(course)
    assert any("reference of the original is missing" in e for e in errors)


def test_words_may_differ_freely(course: Path) -> None:
    _edit(course / TRANSLATION, "Half of them is", "One half of all of them comes to")
    assert _errors(course) == []


def test_sync_records_the_original_and_check_warns_once_it_changes(course: Path) -> None:
    assert sync_translation(course / TRANSLATION) == []
    text = (course / TRANSLATION).read_text(encoding="utf-8")
    assert re.search(r"^original_digest: [0-9a-f]{16}$", text, re.MULTILINE)
    report = verify(course, tools(), search=False)
    assert not report.diagnostics
    _edit(course / "lessons" / "01-pares.md", "La mitad es", "Exactamente la mitad es")
    report = verify(course, tools(), search=False)
    (warning,) = report.diagnostics
    assert warning.severity is Severity.WARNING
    assert "translation behind its original" in warning.message
    assert "the paragraph at line 12" in warning.detail


def test_sync_refuses_a_translation_that_differs(course: Path) -> None:
    _edit(course / TRANSLATION, "| 1024 | 1,048,576 |", "| 1024 | 1,048,577 |")
    before = (course / TRANSLATION).read_text(encoding="utf-8")
    problems = sync_translation(course / TRANSLATION)
    assert problems and "1.048.576" in problems[0].message
    assert (course / TRANSLATION).read_text(encoding="utf-8") == before


def test_the_site_has_a_tree_per_language_linked_both_ways(tmp_path: Path) -> None:
    out = tmp_path / "site"
    report = build(COURSE, out, tools())
    assert not report.failed(), [d.format() for d in report.diagnostics]
    spanish = (out / "pares" / "index.html").read_text(encoding="utf-8")
    english = (out / "en" / "pairs" / "index.html").read_text(encoding="utf-8")
    assert '<link rel="alternate" hreflang="en" href="../en/pairs/">' in spanish
    assert '<a href="../en/pairs/" hreflang="en" lang="en">English</a>' in spanish
    assert '<link rel="alternate" hreflang="es" href="../../pares/">' in english
    assert '<a href="../../pares/" hreflang="es" lang="es">Español</a>' in english
    assert '<html lang="en">' in english
    assert (out / "en" / "index.html").is_file() and (out / "en" / "pagefind").is_dir()
    assert "Logarithms" in (out / "en" / "index.html").read_text(encoding="utf-8")
    assert "translation-behind" in english  # never synced: readers are told


def test_ids_and_anchors_come_from_the_page_language(tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert not build(COURSE, out, tools()).failed()
    english = (out / "en" / "pairs" / "index.html").read_text(encoding="utf-8")
    course = (out / "en" / "index.html").read_text(encoding="utf-8")
    assert '<main id="content"' in english and 'href="#content"' in english
    assert 'id="sources"' in english and 'href="#source-1"' in english
    assert 'id="lesson-1"' in course and 'id="upcoming"' in course
    spanish_ids = re.compile(r'(?:id|href)="[^"]*(?:contenido|fuente|pregunta|leccion|proximo)')
    assert not spanish_ids.search(english + course)
    assert '<main id="contenido"' in (out / "pares" / "index.html").read_text(encoding="utf-8")


def test_the_sitemap_lists_every_page_with_its_alternates(tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert not build(COURSE, out, tools()).failed()
    text = (out / "sitemap.xml").read_text(encoding="utf-8")
    locs = re.findall(r"<loc>([^<]+)</loc>", text)
    base = "https://example.org/curso/"
    assert locs == [base, base + "pares/", base + "en/", base + "en/pairs/"]
    assert f'<xhtml:link rel="alternate" hreflang="en" href="{base}en/pairs/"/>' in text
    assert text.count('hreflang="es"') == 4


def test_no_sitemap_without_the_site_url(course: Path, tmp_path: Path) -> None:
    _edit(course / "course.yaml", "url: https://example.org/curso/\n", "")
    out = tmp_path / "site"
    assert not build(course, out, tools()).failed()
    assert not (out / "sitemap.xml").exists()


def test_a_bad_site_url_is_an_error(course: Path) -> None:
    _edit(course / "course.yaml", "https://example.org/curso/", "example.org")
    assert any("`url` must be the site's address" in e for e in _errors(course))


def test_the_bundled_english_lessons_keep_their_originals_mathematics() -> None:
    from pizarra.pipeline.editions import parity
    from pizarra.source.course import BUNDLED

    course, errors = load_course(BUNDLED)
    assert course is not None and not errors
    (english,) = course.editions
    assert [lesson.number for lesson in english.lessons()] == [7, 8, 9]
    assert parity(course, english) == []  # in step, too: no staleness warning


def test_a_changed_number_in_a_table_of_english_lesson_7_fails_at_its_line(
    tmp_path: Path,
) -> None:
    from pizarra.pipeline.editions import parity
    from pizarra.source.course import BUNDLED

    copy = tmp_path / "math-for-ai"
    shutil.copytree(BUNDLED, copy)
    english = copy / "en" / "07-powers-for-ai.md"
    row = "| $3$ | $Cn^3$ | $2^3=8$ | cubic |"
    line = english.read_text(encoding="utf-8").split("\n").index(row) + 1
    _edit(english, row, "| $5$ | $Cn^3$ | $2^3=8$ | cubic |")
    course, _ = load_course(copy)
    assert course is not None
    found = [d for d in parity(course, course.editions[0]) if d.severity is Severity.ERROR]
    assert [(d.pos.line, d.pos.col) for d in found] == [(line, 3)]
    assert "the original has $3$ here (line" in found[0].message


def test_translate_sync_from_the_command_line(course: Path) -> None:
    from pizarra.cli import main

    assert main(["translate", "--sync", str(course / TRANSLATION)]) == 0
    _edit(course / TRANSLATION, "| 1024 | 1,048,576 |", "| 1024 | 1,048,577 |")
    assert main(["translate", "--sync", str(course / TRANSLATION)]) == 1


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        ("  label: Sequence length n\n", "  label: Length of the sequence n\n", None),
        ("domain: {base: 2, from: 7, to: 13}", "domain: {base: 2, from: 7, to: 12}", "explorer"),
        ('("length n", n),', '("the length n", n),', None),
        ("num=7, base=2", "num=8, base=2", "code"),
        ("{cite}`numpy-power`", "{cite}`numpy-sqrt`", "reference"),
        ("That is three factors; 3⁴ has four.", "Three factors only; 3⁴ has four.", None),
        ('input: "eighty-one"', 'input: "eighty one"', None),
        ("text: Raising to the cube", "text: Cubing the base", None),
        ("  - answer: dividir\n", "  - answer: cubo\n", "question"),
        ("value: convencion\n", "value: uno\n", "question"),
        ("    verdict: unread\n", "    verdict: incorrect\n", "question"),
    ],
)
def test_words_are_free_and_declarations_are_kept(
    tmp_path: Path, old: str, new: str, kind: str | None
) -> None:
    from pizarra.pipeline.editions import parity
    from pizarra.source.course import BUNDLED

    copy = tmp_path / "math-for-ai"
    shutil.copytree(BUNDLED, copy)
    _edit(copy / "en" / "07-powers-for-ai.md", old, new)
    course, _ = load_course(copy)
    assert course is not None
    found = [d.message for d in parity(course, course.editions[0]) if d.severity is Severity.ERROR]
    if kind is None:
        assert found == []
    else:
        assert found and all(f" {kind} " in message for message in found), found


@pytest.mark.parametrize(
    ("old", "new", "changed"),
    [
        ("one: halving, other: halvings}", "one: halving step, other: halving steps}", False),
        ("text: It is the starting point", "text: This is the starting point", False),
        ("caption: log₂ x and ln x at each", "caption: log₂ x and ln x for each", False),
        ("{id: hace, count: mitades,", "{id: hace, count: natural,", True),
        ("      - when: n == 2\n", "      - when: n == 4\n", True),
    ],
)
def test_an_explorers_counted_words_and_chosen_texts_are_words(
    tmp_path: Path, old: str, new: str, changed: bool
) -> None:
    from pizarra.pipeline.editions import parity
    from pizarra.source.course import BUNDLED

    copy = tmp_path / "math-for-ai"
    shutil.copytree(BUNDLED, copy)
    _edit(copy / "en" / "08-logarithms.md", old, new)
    course, _ = load_course(copy)
    assert course is not None
    found = [d.message for d in parity(course, course.editions[0]) if d.severity is Severity.ERROR]
    if changed:
        assert len(found) == 1 and " explorer " in found[0], found
    else:
        assert found == []


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        ("value: 3.32\n", "value: 3.33\n", "question"),
        ("value: 3.32\n", "value: 3,32\n", "question"),
        ("  - answer: 0.38\n", "  - answer: 0.39\n", "question"),
        ("of: 300\\ln 0.05\n", "of: 300\\ln 0.06\n", "question"),
        ("of: 300\\ln 0.05\n", "of: 300\\ln \\frac{5}{100}\n", "question"),
        ("value: [3, 4]\n", "value: [3, 5]\n", "question"),
        ("value: [base-quinto]\n", "value: [cero]\n", "question"),
        ("That is 10/2: the logarithm does not", "Ten halves: the logarithm does not", None),
        ('  - input: "8 and 16"\n', '  - input: "8; 16"\n', None),
    ],
)
def test_answer_values_compare_as_numbers_in_each_language(
    tmp_path: Path, old: str, new: str, kind: str | None
) -> None:
    """``3,32`` in Spanish is ``3.32`` in English; another value, or a Spanish decimal comma
    in English (two numbers there), is a difference. Feedback and inputs are words."""
    from pizarra.pipeline.editions import parity
    from pizarra.source.course import BUNDLED

    copy = tmp_path / "math-for-ai"
    shutil.copytree(BUNDLED, copy)
    course, _ = load_course(copy)
    assert course is not None
    assert [d for d in parity(course, course.editions[0]) if d.severity is Severity.ERROR] == []
    _edit(copy / "en" / "08-logarithms.md", old, new)
    course, _ = load_course(copy)
    assert course is not None
    found = [d.message for d in parity(course, course.editions[0]) if d.severity is Severity.ERROR]
    if kind is None:
        assert found == []
    else:
        assert found and all(f" {kind} " in message for message in found), found


def test_a_translation_behind_tells_readers_since_when(course: Path, tmp_path: Path) -> None:
    assert sync_translation(course / TRANSLATION) == []
    synced = re.search(
        r"^original_synced: (\d{4}-\d\d-\d\d)$", (course / TRANSLATION).read_text("utf-8"), re.M
    )
    assert synced is not None
    _edit(course / "lessons" / "01-pares.md", "La mitad es", "Exactamente la mitad es")
    report = build(course, tmp_path / "site", tools())
    (warning,) = report.diagnostics
    assert f"since {synced.group(1)} (version" in warning.message
    english = (tmp_path / "site" / "en" / "pairs" / "index.html").read_text("utf-8")
    from pizarra.base.i18n.dates import long_date

    assert f"brought up to date on {long_date(synced.group(1), 'en')}:" in english
    assert '<a href="../../pares/" hreflang="es">Read the original</a>' in english


def test_a_bad_sync_date_is_an_error(course: Path) -> None:
    _edit(
        course / TRANSLATION,
        "original: ../lessons/01-pares.md\n",
        "original: ../lessons/01-pares.md\noriginal_synced: yesterday\n",
    )
    assert any("`original_synced` must be the date" in e for e in _errors(course))


def test_a_report_page_links_to_the_report_in_the_other_language(tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert not build(COURSE, out, tools()).failed()
    report = (out / "en" / "pairs" / "verification" / "index.html").read_text("utf-8")
    assert '<a href="../../../pares/verificacion/" hreflang="es" lang="es">Español</a>' in report
    spanish = (out / "pares" / "verificacion" / "index.html").read_text("utf-8")
    assert '<link rel="alternate" hreflang="en" href="../../en/pairs/verification/">' in spanish


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        (
            "  score: Score\n  probability: Probability\n",
            "  score: Logit\n  probability: P\n",
            None,
        ),
        ("value: 3612.22\n", "value: 3612.23\n", "question"),
        ("  - answer: 0.3679\n", "  - answer: 0.3680\n", "question"),
        ("of: 2000\\,e^{0.6}\n", "of: 2000\\,e^{0.7}\n", "question"),
        (
            "  - {id: nube, label: cloud, score: 0.1}",
            "  - {id: nube, label: cloud, score: 0.2}",
            "explorer",
        ),
    ],
)
def test_english_lesson_9_keeps_its_answers_decimals_and_translates_its_table_headers(
    tmp_path: Path, old: str, new: str, kind: str | None
) -> None:
    """A Spanish answer's ``3612,22`` is the English ``3612.22``: a changed digit is an
    error, and so is a changed score; the headers of a distribution's table are words."""
    from pizarra.pipeline.editions import parity
    from pizarra.source.course import BUNDLED

    copy = tmp_path / "math-for-ai"
    shutil.copytree(BUNDLED, copy)
    _edit(copy / "en" / "09-exponentials-and-softmax.md", old, new)
    course, _ = load_course(copy)
    assert course is not None
    found = [d.message for d in parity(course, course.editions[0]) if d.severity is Severity.ERROR]
    if kind is None:
        assert found == []
    else:
        assert any(f" {kind} " in message for message in found), found
