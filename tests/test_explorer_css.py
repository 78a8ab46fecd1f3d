"""The explorer's colours meet WCAG AA contrast in light and dark mode."""

import re

import pytest

from pizarra.render.explorers import explorer_assets

CSS = explorer_assets()["explorer-growth.css"].decode()
TEXT = ("--px-fg", "--px-muted", "--px-s0", "--px-s1", "--px-s2")
"""Colours used for text (the series colours also write the direct labels)."""
GRAPHICS = ("--px-axis", "--px-focus")
"""Colours of lines and the focus ring: WCAG 1.4.11 asks 3:1."""


def palette(dark: bool) -> dict[str, str]:
    blocks = re.findall(r"\.px-explorer \{([^}]*)\}", CSS)
    light = dict(re.findall(r"(--px-[\w-]+):\s*(#[0-9a-f]{6})", blocks[0]))
    if not dark:
        return light
    return {**light, **dict(re.findall(r"(--px-[\w-]+):\s*(#[0-9a-f]{6})", blocks[1]))}


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_dark_mode_overrides_every_colour() -> None:
    light, dark = palette(False), palette(True)
    assert set(light) == set(dark)
    assert all(light[k] != dark[k] for k in light)


@pytest.mark.parametrize("dark", [False, True])
def test_text_contrast_is_aa(dark: bool) -> None:
    colours = palette(dark)
    for name in TEXT:
        assert contrast(colours[name], colours["--px-bg"]) >= 4.5, name
    assert contrast(colours["--px-fg"], colours["--px-current"]) >= 4.5
    assert contrast(colours["--px-muted"], colours["--px-current"]) >= 4.5


@pytest.mark.parametrize("dark", [False, True])
def test_graphics_contrast_is_at_least_3(dark: bool) -> None:
    colours = palette(dark)
    for name in GRAPHICS:
        assert contrast(colours[name], colours["--px-bg"]) >= 3, name


def test_contrast_formula() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
