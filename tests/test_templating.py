"""Templates compiled at packaging time are used only when they are exactly the same.

A stale compiled template would put old markup on every page, silently; these tests
change each thing the compiled code depends on and expect Jinja to compile afresh.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from jinja2 import DictLoader, Environment

from pizarra.render.templating import (
    SUFFIX,
    ShippedCode,
    growth_environment,
    page_environment,
    write_template_code,
)


def env_of(source: str, code: ShippedCode, **options: Any) -> Environment:
    return Environment(loader=DictLoader({"t.html": source}), bytecode_cache=code, **options)


def shipped(env: Environment, name: str) -> bool:
    """Whether ``env`` takes ``name`` compiled from its code folder."""
    assert env.loader is not None and env.bytecode_cache is not None
    source, filename, _ = env.loader.get_source(env, name)
    return env.bytecode_cache.get_bucket(env, name, filename, source).code is not None


def test_every_template_is_written_and_then_taken(tmp_path: Path) -> None:
    written = write_template_code(tmp_path)
    for make in (page_environment, growth_environment):
        env = make()
        env.bytecode_cache = ShippedCode(tmp_path)
        names = env.list_templates(extensions=["html"])
        assert names and all(shipped(env, name) for name in names)
    explorers = growth_environment().list_templates(extensions=["html"])
    assert len(written) == len(page_environment().list_templates()) + len(explorers)
    (tmp_path / "stale.txt").write_text("left by an older build", encoding="utf-8")
    write_template_code(tmp_path)
    assert not (tmp_path / "stale.txt").exists(), "the folder is emptied first"


def test_an_edited_template_is_compiled_from_its_source(tmp_path: Path) -> None:
    env_of("old {{ x }}", ShippedCode(tmp_path, writable=True)).get_template("t.html")
    assert len(list(tmp_path.glob(f"*{SUFFIX}"))) == 1
    same = env_of("old {{ x }}", ShippedCode(tmp_path))
    assert shipped(same, "t.html")
    edited = env_of("new {{ x }}", ShippedCode(tmp_path))
    assert not shipped(edited, "t.html")
    assert edited.get_template("t.html").render(x=1) == "new 1"


@pytest.mark.parametrize(
    "option",
    [
        {"trim_blocks": True},
        {"lstrip_blocks": True},
        {"keep_trailing_newline": True},
        {"autoescape": True},
        {"block_start_string": "<%", "block_end_string": "%>"},
    ],
)
def test_code_made_under_other_options_is_not_taken(tmp_path: Path, option: dict[str, Any]) -> None:
    source = "{% if x %}\n  <b>{{ x }}</b>\n{% endif %}\n"
    made = env_of(source, ShippedCode(tmp_path, writable=True))
    assert made.get_template("t.html").render(x="&") == "\n  <b>&</b>\n"
    other = env_of(source, ShippedCode(tmp_path), **option)
    assert not shipped(other, "t.html")
    fresh = Environment(loader=DictLoader({"t.html": source}), **option)
    assert other.get_template("t.html").render(x="&") == fresh.get_template("t.html").render(x="&")


def test_a_build_never_writes_compiled_templates(tmp_path: Path) -> None:
    env = env_of("{{ x }}", ShippedCode(tmp_path))
    assert env.get_template("t.html").render(x=2) == "2"
    assert not list(tmp_path.iterdir())


def test_a_damaged_file_is_compiled_afresh(tmp_path: Path) -> None:
    env_of("{{ x }}!", ShippedCode(tmp_path, writable=True)).get_template("t.html")
    [file] = tmp_path.glob(f"*{SUFFIX}")
    file.write_bytes(file.read_bytes()[:20])
    assert env_of("{{ x }}!", ShippedCode(tmp_path)).get_template("t.html").render(x=3) == "3!"
