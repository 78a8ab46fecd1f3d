"""Math assets: the font source, its subset and cache, the CSS."""

from __future__ import annotations

import re
import sqlite3
import time
from io import BytesIO
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from pizarra.render import assets

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def site(cache: Path) -> dict[str, bytes]:
    return assets.site_assets(cache=cache)


def font(data: bytes) -> TTFont:
    return TTFont(BytesIO(data))


def test_cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PIZARRA_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert assets.cache_dir() == tmp_path / "xdg" / "pizarra"  # never the project's folder
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert assets.cache_dir() == Path.home() / ".cache" / "pizarra"
    monkeypatch.setenv("PIZARRA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert assets.cache_dir() == tmp_path / "elsewhere"


def test_font_source_is_stix_two_math() -> None:
    source = font(assets.math_font_source().read_bytes())
    assert "MATH" in source
    assert source["name"].getDebugName(1) == "STIX Two Math"


def ranges_overlap(a: assets.CodeRanges, b: assets.CodeRanges) -> bool:
    return bool(assets.codepoints(a) & assets.codepoints(b))


def test_faces_split_the_required_repertoire() -> None:
    main, extra = assets.MATH_FONT.ranges, assets.EXTRA_FONT.ranges
    assert not ranges_overlap(main, extra)
    for ranges in (main, extra):
        assert all(lo <= hi for lo, hi in ranges)
    covered = assets.codepoints(main) | assets.codepoints(extra)
    required = (
        (0x20, 0x7E),
        (0xA0, 0xFF),
        (0x391, 0x3A9),
        (0x3B1, 0x3C9),
        (0x2190, 0x22FF),
        (0x2300, 0x23FF),
        (0x27E8, 0x27FF),
        (0x1D400, 0x1D7FF),
    )
    assert assets.codepoints(required) <= covered
    assert {0x23DC, 0x23DF, 0x1D5B3, 0x1D44E, 0x210E, 0x27FA} <= assets.codepoints(main)
    assert not assets.MATH_FONT.lazy
    assert assets.EXTRA_FONT.lazy


def test_the_faces_cover_every_character_of_the_bundled_course_the_font_has() -> None:
    """A character outside every face makes each build subset the font again (seconds,
    and a fresh install is meant to subset nothing)."""
    font_has = assets._font_codepoints(assets.math_font_source().read_bytes())
    covered = set().union(*(assets.codepoints(face.ranges) for face in assets.FONT_FACES))
    bundled = REPO / "src" / "pizarra" / "source" / "bundled"
    missing = {
        f"U+{ord(ch):04X} in {path.relative_to(bundled)}"
        for path in bundled.rglob("*")
        if path.is_file() and path.suffix in (".md", ".yaml", ".yml", ".bib")
        for ch in set(path.read_text(encoding="utf-8"))
        if ord(ch) in font_has and ord(ch) not in covered
    }
    assert not missing


def test_site_assets_files(site: dict[str, bytes]) -> None:
    assert set(site) == {"math.css", "math.woff2", "math-extra.woff2"}
    assert set(assets.STYLESHEETS) <= set(site)
    for name in ("math.woff2", "math-extra.woff2"):
        assert site[name][:4] == b"wOF2"
    css = site["math.css"].decode()
    urls = set(re.findall(r"""url\(['"]?([^'")]+)['"]?\)""", css))
    local = {url for url in urls if not url.startswith(("data:", "%23", "#"))}
    assert local == {"math.woff2", "math-extra.woff2"}


def test_subset_keeps_the_math_table_and_the_lesson_glyphs(site: dict[str, bytes]) -> None:
    main = font(site["math.woff2"])
    assert "MATH" in main
    cmap = main.getBestCmap()
    for char in "a=−×⋅≠≥⟺⋯⏟(√|𝑎𝖳ℎ\u00a0é":
        assert ord(char) in cmap, f"U+{ord(char):04X}"
    variants = main["MATH"].table.MathVariants
    assert variants.VertGlyphCount > 0
    assert variants.HorizGlyphCount > 0
    assert "ssty" in {r.FeatureTag for r in main["GSUB"].table.FeatureList.FeatureRecord}
    assert main["name"].getDebugName(13).startswith("This Font Software is licensed under the SIL")
    assert len(site["math.woff2"]) < 130_000
    extra = font(site["math-extra.woff2"])
    assert "MATH" in extra
    assert 0x1D400 in extra.getBestCmap()
    assert 0x1D5B3 not in extra.getBestCmap()


def surd_widths(data: bytes) -> tuple[float, float]:
    """The text-size surd's advance and the widest variant or assembly part, in em."""
    face = font(data)
    surd = face.getBestCmap()[0x221A]
    advance = face["hmtx"].metrics
    em = face["head"].unitsPerEm
    variants = face["MATH"].table.MathVariants
    build = variants.VertGlyphConstruction[variants.VertGlyphCoverage.glyphs.index(surd)]
    glyphs = [record.VariantGlyph for record in build.MathGlyphVariantRecord]
    assert len(glyphs) >= 4, "the subset lost the surd's size variants"
    assert build.GlyphAssembly is not None, "the subset lost the surd's assembly"
    glyphs += [part.glyph for part in build.GlyphAssembly.PartRecords]
    return advance[surd][0] / em, max(advance[g][0] for g in glyphs) / em


def test_subset_keeps_the_radical_construction(site: dict[str, bytes]) -> None:
    # docs/math.md explains the space Chromium leaves after a radical with these numbers.
    base, widest = surd_widths(site["math.woff2"])
    assert round(base, 3) == 0.794
    assert round(widest - base, 3) == 0.418


SMALL = assets.FontFace("small.woff2", ((0x41, 0x5A), (0x221A, 0x221A)), lazy=False)
"""A face that subsets in a fraction of a second: A-Z and the radical."""


def fonts_cached(root: Path) -> int:
    with sqlite3.connect(root / "fonts.sqlite3") as db:
        return int(db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])


@pytest.fixture
def no_prebuilt(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(assets, "prebuilt_folder", lambda: tmp_path / "no-prebuilt")


def test_second_build_reads_the_cache(tmp_path: Path, no_prebuilt: None) -> None:
    root = tmp_path / "cache"
    first = assets.math_font_woff2(SMALL, cache=root)
    assert fonts_cached(root) == 1
    start = time.perf_counter()
    again = assets.math_font_woff2(SMALL, cache=root)
    assert time.perf_counter() - start < 0.5
    assert again == first


def test_extra_text_adds_only_glyphs_the_font_has(tmp_path: Path, no_prebuilt: None) -> None:
    root = tmp_path / "cache"
    assets.math_font_woff2(SMALL, cache=root)
    assets.math_font_woff2(SMALL, "中", cache=root)
    assert fonts_cached(root) == 1
    added = assets.math_font_woff2(SMALL, "\u2640", cache=root)
    assert fonts_cached(root) == 2
    assert 0x2640 in font(added).getBestCmap()


def test_prebuilt_faces_skip_subsetting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assets, "FONT_FACES", (SMALL,))
    made = assets.write_prebuilt(tmp_path / "first")
    assert sorted(p.name for p in made) == ["keys.json", "small.woff2"]

    def refuse(font_bytes: bytes, keep: object) -> bytes:
        raise AssertionError("subset again")

    monkeypatch.setattr(assets, "subset_font", refuse)
    assets.write_prebuilt(tmp_path / "second", reuse=tmp_path / "first")
    monkeypatch.setattr(assets, "prebuilt_folder", lambda: tmp_path / "second")
    data = assets.math_font_woff2(SMALL, cache=tmp_path / "cache")
    assert data == (tmp_path / "first" / "small.woff2").read_bytes()
    assert not (tmp_path / "cache" / "fonts.sqlite3").exists()


def test_unwritable_cache_still_builds(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    subset = assets.subset_font(assets.math_font_source().read_bytes(), [0x41, 0x2211])
    assert subset[:4] == b"wOF2"
    small = assets.FontFace("small.woff2", ((0x41, 0x42),), lazy=False)
    assert assets.math_font_woff2(small, cache=blocker / "cache")[:4] == b"wOF2"


def test_math_css_declares_both_faces(site: dict[str, bytes]) -> None:
    css = site["math.css"].decode()
    faces = re.findall(r"@font-face \{[^}]*\}", css)
    assert len(faces) == 2
    assert all('font-family: "pizarra math";' in f and "font-display: swap;" in f for f in faces)
    assert "unicode-range" not in faces[0]
    assert "unicode-range: U+100-17F," in faces[1]
    assert re.search(r'math \{\s*font-family: "pizarra math", math;', css)


def test_the_font_s_characters_come_from_the_prebuilt_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(assets, "FONT_FACES", (assets.FontFace("s.woff2", ((0x41, 0x42),), False),))
    assets.write_prebuilt(tmp_path)
    monkeypatch.setattr(assets, "prebuilt_folder", lambda: tmp_path)
    font_bytes = assets.math_font_source().read_bytes()
    read = assets._read_codepoints(font_bytes)

    def refuse(font_bytes: bytes) -> frozenset[int]:
        raise AssertionError("the font's cmap was read again")

    monkeypatch.setattr(assets, "_read_codepoints", refuse)
    assert assets._font_codepoints(font_bytes) == read
    assert 0x2211 in read and 0x4E2D not in read
    other = font_bytes[:-1] + bytes([font_bytes[-1] ^ 1])  # another font: its own cmap
    with pytest.raises(AssertionError, match="read again"):
        assets._font_codepoints(other)


def test_a_subset_is_the_same_whenever_it_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wheel's fonts are made by the packaging step: two packagings of the same code
    give the same bytes (no build time inside)."""
    source = assets.math_font_source().read_bytes()
    first = assets.subset_font(source, [0x41, 0x2211])
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + 86_400)
    assert assets.subset_font(source, [0x41, 0x2211]) == first
    kept = TTFont(BytesIO(first))["head"].modified
    assert kept == TTFont(BytesIO(source))["head"].modified
