"""pizarra's Jinja environments, whose templates are compiled when pizarra is packaged.

Jinja compiles a template's source to Python code the first time a process renders
it: about 50 ms for pizarra's templates, paid by the main process and again by every
lesson worker of a build. The packaging step (``setup.py`` for the wheel, ``make
setup`` for a checkout) compiles them ahead of time into the package's
``templates_code/`` folder, in Jinja's own bytecode format, and :class:`ShippedCode`
hands them to Jinja.

Each file holds its template's source checksum and the Python version it was made
for, and is named after the environment's options and Jinja's version; Jinja
compiles from source as before when any of them differs (an edited template, another
Python, a changed option). A build never writes there: the folder belongs to the
install.
"""

from __future__ import annotations

import hashlib
import pickle
import shutil
import sys
from pathlib import Path

import jinja2
from jinja2 import BytecodeCache, Environment, PackageLoader, StrictUndefined, select_autoescape
from jinja2.bccache import Bucket

FOLDER = "templates_code"
"""The package folder of the compiled templates."""

SUFFIX = ".jinja-code"


SYNTAX = (
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
)
"""The environment's options that change how a source is read (those Jinja's lexer
is cached by)."""


class ShippedCode(BytecodeCache):
    """Jinja's bytecode cache, read from ``folder``; written only when ``writable``.

    A template's code is looked for under a key of its name and of everything else
    the code depends on: Jinja's version and the environment's options (:func:`_shape`),
    so code made under other options is never taken. Not the file's path, as Jinja's
    default key is: an install moves the files.
    """

    def __init__(self, folder: Path, writable: bool = False) -> None:
        self.folder = folder
        self.writable = writable

    def get_bucket(
        self, environment: Environment, name: str, filename: str | None, source: str
    ) -> Bucket:
        shape = _shape(environment, name)
        key = hashlib.sha256(f"{shape}\0{name}".encode()).hexdigest()[:40]
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            with (self.folder / f"{bucket.key}{SUFFIX}").open("rb") as file:
                bucket.load_bytecode(file)
        except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):
            bucket.reset()  # missing or damaged: Jinja compiles the source

    def dump_bytecode(self, bucket: Bucket) -> None:
        if not self.writable:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / f"{bucket.key}{SUFFIX}").write_bytes(bucket.bytecode_to_string())


def shipped_code(into: Path | None = None) -> ShippedCode:
    """The compiled templates of this install; or, given ``into``, a cache the packaging
    step writes them to."""
    if into is not None:
        return ShippedCode(into, writable=True)
    return ShippedCode(Path(__file__).parent / FOLDER)


def _shape(environment: Environment, name: str) -> str:
    """What a template's compiled code depends on besides its source and Python."""
    escape = environment.autoescape
    options = (
        jinja2.__version__,
        escape(name) if callable(escape) else escape,
        environment.is_async,
        environment.optimized,
        sorted(environment.extensions),
        *(getattr(environment, option) for option in SYNTAX),
    )
    return repr(options)


def page_environment(code_into: Path | None = None) -> Environment:
    """The environment of the page templates (``templates/``); ``code_into`` is where
    the packaging step writes them compiled."""
    return Environment(
        loader=PackageLoader("pizarra.render", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        bytecode_cache=shipped_code(code_into),
    )


def growth_environment(code_into: Path | None = None) -> Environment:
    """The environment of the explorers' templates (``explorers/*.html``): every value
    from a lesson is escaped; ``code_into`` as for :func:`page_environment`."""
    return Environment(
        loader=PackageLoader("pizarra.render", "explorers"),
        autoescape=True,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        bytecode_cache=shipped_code(code_into),
    )


def write_template_code(folder: Path) -> list[Path]:
    """Compile every template of pizarra's environments into ``folder`` (emptied first).

    Imports nothing of pizarra but this: the wheel's build environment has Jinja and
    little else."""
    shutil.rmtree(folder, ignore_errors=True)
    for make in (page_environment, growth_environment):
        load_all(make(folder))
    return sorted(folder.glob(f"*{SUFFIX}"))


def load_all(env: Environment) -> None:
    """Load (compiling or taking the compiled code of) every template of ``env``."""
    for name in env.list_templates(extensions=["html"]):
        env.get_template(name)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / FOLDER
    for path in write_template_code(target):
        print(f"pizarra: wrote {path}")
