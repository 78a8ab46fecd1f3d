"""The math font and stylesheet every site ships.

Nothing third-party is copied into the repository: pip installs the ziamath wheel, which
ships the STIX Two Math font. This module finds it, subsets it to a small woff2 (cached,
because subsetting takes about a second) and returns the files the site's ``assets/``
folder needs for math.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
from collections.abc import Iterable
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from pizarra.base.cache import Cache, cache_dir
from pizarra.base.fileio import write_atomic

FONT_FAMILY = "pizarra math"
"""The CSS family name of the shipped math font."""

STYLESHEETS = ("math.css",)
"""The math stylesheets, in the order pages must link them."""

CodeRanges = tuple[tuple[int, int], ...]
"""Inclusive code point ranges."""


@dataclass(frozen=True)
class FontFace:
    """One woff2 file of the math font and the code points it keeps."""

    file: str
    """File name in the site's ``assets/`` folder."""
    ranges: CodeRanges
    """Code points kept by the subset (with the glyphs the MATH table reaches from them)."""
    lazy: bool
    """Declare ``ranges`` as the face's ``unicode-range``, so browsers fetch the file only
    for a page that shows one of its characters."""


MATH_FONT = FontFace(
    file="math.woff2",
    ranges=(
        (0x0020, 0x007E),  # ASCII
        (0x00A0, 0x00FF),  # Latin-1: accented words inside \text{}, ×, ·, ¬
        (0x02C6, 0x02DD),  # spacing accents math-core draws \hat, \check, \breve, \dot with
        (0x0391, 0x03F6),  # Greek
        (0x2000, 0x206F),  # spaces, dashes, quotes, ′, invisible operators (U+2061-2064)
        (0x210E, 0x210F),  # ℎ (the math italic h) and ℏ
        (0x2190, 0x22FF),  # arrows and mathematical operators
        (0x2300, 0x23FF),  # miscellaneous technical: ⌈⌉⌊⌋ and the ⏜-⏡ over/under brackets
        (0x27E8, 0x27FF),  # ⟨ ⟩ and the long arrows (⟺)
        (0x1D434, 0x1D467),  # math italic Latin: every single-letter <mi> is drawn with these
        (0x1D5A0, 0x1D5D3),  # sans-serif Latin: 𝖳 (\mathsf T), the transpose in AI texts
        (0x1D6A4, 0x1D6A5),  # dotless italic i, j
        (0x1D6E2, 0x1D71B),  # math italic Greek
    ),
    lazy=False,
)
"""The face every page with math loads."""

EXTRA_FONT = FontFace(
    file="math-extra.woff2",
    ranges=(
        (0x0100, 0x017F),  # Latin Extended-A
        (0x02B0, 0x02C5),  # modifier letters: superscript letters in prose (ʰ ʲ ʳ ʷ ʸ)
        (0x02DE, 0x02FF),  # modifier letters: ˡ ˢ ˣ (eˣ in a label)
        (0x0300, 0x036F),  # combining accents
        (0x2070, 0x209F),  # superscript and subscript digits in prose (log₂, x²)
        (0x20D0, 0x20F0),  # combining marks for symbols
        (0x2100, 0x210D),  # letterlike: ℂ, ℋ...
        (0x2110, 0x214F),  # letterlike: ℒ, ℓ, ℕ, ℝ, ℤ...
        (0x25A0, 0x25FF),  # geometric shapes (△, □, ○)
        (0x27C0, 0x27E7),  # miscellaneous math symbols A
        (0x2980, 0x29FF),  # miscellaneous math symbols B
        (0x2A00, 0x2AFF),  # supplemental operators (⩽ ⩾ ⨯)
        (0x1D400, 0x1D433),  # bold
        (0x1D468, 0x1D59F),  # bold italic, script, fraktur, double-struck
        (0x1D5D4, 0x1D6A3),  # bold and italic sans-serif, monospace
        (0x1D6A6, 0x1D6E1),  # bold Greek
        (0x1D71C, 0x1D7FF),  # bold italic, sans-serif Greek, math digits
    ),
    lazy=True,
)
"""The rest of the math font's useful repertoire, fetched only by pages that use it."""

FONT_FACES = (MATH_FONT, EXTRA_FONT)
"""Every face of the math font, in the order the stylesheet declares them; their ranges
do not overlap."""


class SetupError(Exception):
    """A file the installed packages should provide is missing or broken."""


def math_font_source() -> Path:
    """STIX Two Math as shipped inside the installed ziamath wheel.

    Found through the wheel's file list rather than ``importlib.resources``, which
    would import ziamath (slow, and it warns about a deprecated API on import).
    """
    try:
        dist = importlib.metadata.distribution("ziamath")
    except importlib.metadata.PackageNotFoundError:
        raise SetupError("ziamath is not installed: run the set-up (`make setup`)") from None
    for file in dist.files or ():
        if file.name.startswith("STIXTwoMath") and file.suffix in (".otf", ".ttf"):
            path = Path(str(dist.locate_file(file)))
            if path.is_file():
                return path
    raise SetupError("the ziamath install has no STIXTwoMath font: reinstall it with pip")


def codepoints(ranges: CodeRanges) -> frozenset[int]:
    """Every code point of ``ranges``."""
    return frozenset(cp for lo, hi in ranges for cp in range(lo, hi + 1))


def math_font_woff2(
    face: FontFace, extra_text: str = "", cache: Cache | Path | None = None
) -> bytes:
    """One face of the subset STIX Two Math as woff2: prebuilt, cached, or made now.

    ``extra_text`` adds the characters no face covers (a build passes its lessons'
    text, so no glyph a page shows is dropped); characters the font lacks are ignored,
    so they leave the key alone. The wheel ships the faces without extra characters
    (:func:`write_prebuilt`, run when the wheel is built), so a fresh install subsets
    nothing; other subsets take seconds once, then come from the ``fonts`` cache.
    """
    font_bytes = math_font_source().read_bytes()
    base = codepoints(face.ranges)
    extra = {ord(ch) for ch in extra_text} - base
    for other in FONT_FACES:
        extra -= codepoints(other.ranges)
    if extra:
        extra &= _font_codepoints(font_bytes)
    key = _cache_key(font_bytes, face.ranges, sorted(extra))
    prebuilt = _prebuilt(face, key)
    if prebuilt is not None:
        return prebuilt
    store = cache if isinstance(cache, Cache) else Cache(cache or cache_dir())
    data = store.get(FONT_KIND, key)
    if data is None:
        data = subset_font(font_bytes, base | extra)
        store.put(FONT_KIND, key, data)
        store.flush()
    return data


FONT_KIND = "fonts"
"""The :class:`~pizarra.base.cache.Cache` kind of font subsets."""

PREBUILT = "fonts"
"""The package folder of the faces made when the wheel is built."""

_KEYS = "keys.json"


def prebuilt_folder() -> Path:
    """Where the package keeps the faces made when the wheel was built."""
    return Path(__file__).parent / PREBUILT


def _prebuilt(face: FontFace, key: str) -> bytes | None:
    """The face shipped in the package, if it was made with exactly ``key``."""
    folder = prebuilt_folder()
    try:
        keys = json.loads((folder / _KEYS).read_text(encoding="utf-8"))
        if keys.get(face.file) != key:
            return None
        return (folder / face.file).read_bytes()
    except (OSError, ValueError, AttributeError):
        return None


def write_prebuilt(folder: Path, reuse: Path | None = None) -> list[Path]:
    """Subset every face (no extra characters) into ``folder``, with their keys.

    The wheel build runs this (``setup.py``), and ``make setup`` for a checkout. Faces
    already in ``reuse`` (an earlier output) under the same key are copied, not redone.
    """
    font_bytes = math_font_source().read_bytes()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        old = json.loads((reuse / _KEYS).read_text(encoding="utf-8")) if reuse else {}
    except (OSError, ValueError):
        old = {}
    keys = {}
    written = []
    for face in FONT_FACES:
        keys[face.file] = _cache_key(font_bytes, face.ranges, [])
        target = folder / face.file
        data = None
        if reuse is not None and old.get(face.file) == keys[face.file]:
            try:
                data = (reuse / face.file).read_bytes()
            except OSError:
                data = None
        if data is None:
            data = subset_font(font_bytes, codepoints(face.ranges))
        write_atomic(target, data)
        written.append(target)
    font = hashlib.sha256(font_bytes).hexdigest()
    table = {"font": font, "ranges": _as_ranges(_read_codepoints(font_bytes))}
    index: dict[str, object] = {**keys, _CODEPOINTS: table}
    write_atomic(folder / _KEYS, json.dumps(index, indent=1, sort_keys=True).encode())
    return [*written, folder / _KEYS]


def _font_codepoints(font_bytes: bytes) -> frozenset[int]:
    """The characters the font has: from the package's prebuilt table when it was made
    from these very bytes (reading the font's cmap costs a build 0.03 s), else read."""
    kept = _prebuilt_codepoints(font_bytes)
    return kept if kept is not None else _read_codepoints(font_bytes)


def _read_codepoints(font_bytes: bytes) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    return frozenset(TTFont(BytesIO(font_bytes), lazy=True).getBestCmap())


_CODEPOINTS = "codepoints"
"""The entry of ``keys.json`` with the source font's characters, as ranges."""


def _prebuilt_codepoints(font_bytes: bytes) -> frozenset[int] | None:
    try:
        keys = json.loads((prebuilt_folder() / _KEYS).read_text(encoding="utf-8"))
        table = keys[_CODEPOINTS]
        if table["font"] != hashlib.sha256(font_bytes).hexdigest():
            return None
        return codepoints(tuple((int(lo), int(hi)) for lo, hi in table["ranges"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _as_ranges(points: frozenset[int]) -> list[tuple[int, int]]:
    """``points`` as sorted runs of consecutive code points."""
    runs: list[tuple[int, int]] = []
    for point in sorted(points):
        if runs and runs[-1][1] == point - 1:
            runs[-1] = (runs[-1][0], point)
        else:
            runs.append((point, point))
    return runs


_SUBSET_OPTIONS: dict[str, object] = {
    "layout_features": ["ccmp", "locl", "ssty", "dtls", "flac", "ss01", "kern", "mark", "mkmk"],
    "name_IDs": ["*"],
    "notdef_outline": True,
    "hinting": False,
    "drop_tables": ["DSIG"],
}
"""fontTools options. The MATH table is kept, and the size variants and assembly parts
it names are closed over, by default. The features are those MathML layout uses
(``ssty`` script-size glyphs, ``dtls`` dotless i/j, ``flac`` flattened accents) plus
``ss01`` (``\\mathcal``), kerning and marks; STIX's other stylistic sets would
add 37 KB. TrueType hinting is dropped: 100 KB (a third of the file) for a difference
only older Windows rasterizers show. The name table keeps the OFL notice."""


def _cache_key(font_bytes: bytes, ranges: CodeRanges, extra: list[int]) -> str:
    import fontTools

    spec = {
        "font": hashlib.sha256(font_bytes).hexdigest(),
        "ranges": ranges,
        "extra": extra,
        "options": _SUBSET_OPTIONS,
        "fonttools": fontTools.version,
        "brotli": importlib.metadata.version("brotli"),
    }
    blob = json.dumps(spec, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def subset_font(font_bytes: bytes, keep: Iterable[int]) -> bytes:
    """Subset a math font to the code points ``keep``, as woff2 with its MATH table."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    for name, value in _SUBSET_OPTIONS.items():
        setattr(options, name, value)
    font = TTFont(BytesIO(font_bytes), recalcTimestamp=False)  # no build time: reproducible
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(unicodes=sorted(keep))
    subsetter.subset(font)
    if "MATH" not in font:
        raise SetupError("the subset math font lost its MATH table")
    font.flavor = "woff2"
    out = BytesIO()
    font.save(out)
    return out.getvalue()


def _font_face_css(face: FontFace) -> str:
    lines = [
        "@font-face {",
        f'  font-family: "{FONT_FAMILY}";',
        f'  src: url("{face.file}") format("woff2");',
        "  font-style: normal;",
        "  font-weight: normal;",
        "  font-display: swap;",
    ]
    if face.lazy:
        spans = ", ".join(f"U+{lo:X}-{hi:X}" for lo, hi in face.ranges)
        lines.append(f"  unicode-range: {spans};")
    return "\n".join([*lines, "}"]) + "\n"


def math_css() -> str:
    """pizarra's math rules: the font faces and size (math-core's MathML needs no others).

    STIX Two Math has a smaller x-height than most body fonts, hence 1.1em.
    """
    faces = "".join(_font_face_css(face) for face in FONT_FACES)
    return (
        "/* Math font: STIX Two Math (SIL Open Font License 1.1), subset by pizarra. */\n"
        + faces
        + f'math {{\n  font-family: "{FONT_FAMILY}", math;\n  font-size: 1.1em;\n}}\n'
    )


def site_assets(extra_text: str = "", cache: Cache | Path | None = None) -> dict[str, bytes]:
    """The files the site's ``assets/`` folder needs for math, by file name.

    Pages link :data:`STYLESHEETS` in order; the fonts are fetched through them.
    ``extra_text`` is passed to :func:`math_font_woff2` for the main face.
    """
    files = {"math.css": math_css().encode("utf-8")}
    for face in FONT_FACES:
        text = extra_text if face is MATH_FONT else ""
        files[face.file] = math_font_woff2(face, text, cache)
    return files


if __name__ == "__main__":
    import sys

    target = Path(sys.argv[1]) if len(sys.argv) > 1 else prebuilt_folder()
    for path in write_prebuilt(target):
        print(f"pizarra: wrote {path}", file=sys.stderr)
