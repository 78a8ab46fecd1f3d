"""Build hook: the wheel ships the math font subsets and the compiled templates, made
here rather than committed, and the guides `pizarra help` prints.

Everything else about the package is declared in pyproject.toml.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithFonts(build_py):
    """``build_py``, then the subset math font faces and the templates compiled by Jinja
    (:mod:`pizarra.render.templating`) into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        package = Path(__file__).parent / "src" / "pizarra"
        sys.path.insert(0, str(package.parent))
        from pizarra.render.assets import PREBUILT, write_prebuilt

        built = Path(self.build_lib) / "pizarra" / "render" / PREBUILT
        for path in write_prebuilt(built, reuse=package / "render" / PREBUILT):
            self.announce(f"pizarra: wrote {path}", level=2)
        from pizarra.render.templating import FOLDER, write_template_code

        for path in write_template_code(Path(self.build_lib) / "pizarra" / "render" / FOLDER):
            self.announce(f"pizarra: wrote {path}", level=2)
        from pizarra.base.guides import TOPICS

        guides = Path(self.build_lib) / "pizarra" / "docs"  # read by `pizarra help TOPIC`
        guides.mkdir(parents=True, exist_ok=True)
        for topic in TOPICS:
            (guides / f"{topic}.md").write_bytes(
                (package.parents[1] / "docs" / f"{topic}.md").read_bytes()
            )


setup(cmdclass={"build_py": BuildWithFonts})
