"""Debian's Chromium as the benchmarks start it (headless, no network chatter)."""

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
