"""Suite-wide settings: selectable test ids, the Hypothesis profiles, and a home of its own.

Mutation testing (``make mutate``) re-runs single tests by id, so every id must be
plain ASCII that ``pytest 'file::test[id]'`` selects again. Parameters that are TeX
strings get a slug id here; explicit ids in the claim tests are checked at collection.
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

_HOME = tempfile.mkdtemp(prefix="pizarra-tests-home-")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")  # the cache key, made here
os.environ["XDG_CACHE_HOME"] = os.path.join(_HOME, "cache")  # the default cache, not ~/.cache

PLAIN_ID = re.compile(r"[A-Za-z0-9_.\-]+")
"""What a parameter id may contain so that the test can be selected by its node id."""
CLAIM_TESTS = re.compile(r"tests/test_(check_claims|exact_|soundness|claims)")
"""The claim tests, whose node ids mutation testing may select."""
with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as _file:
    _MUTMUT = tomllib.load(_file)["tool"]["mutmut"]
SELECTED = frozenset(_MUTMUT["pytest_add_cli_args_test_selection"])
"""The test files mutation testing runs (``[tool.mutmut]`` in pyproject.toml)."""

settings.register_profile(
    "short",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    derandomize=True,
)
settings.register_profile(
    "long",
    max_examples=int(os.environ.get("PIZARRA_HYPOTHESIS_EXAMPLES", "5000")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile(
    "mutate",
    max_examples=30,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
settings.load_profile(os.environ.get("PIZARRA_HYPOTHESIS", "short"))


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    """A plain slug for a string parameter (``\\sqrt[3]{-8}=-2`` -> ``sqrt_3_-8_-2``)."""
    if not isinstance(val, str) or PLAIN_ID.fullmatch(val):
        return None
    slug = re.sub(r"[^A-Za-z0-9.\-]+", "_", val).strip("_")[:40]
    return slug or argname


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Refuse a claim test whose id could not be selected again by mutmut; then put the
    tests marked ``slow`` first. Workers (``--dist worksteal``) take the queue from its
    end when they run dry, and each slow test takes 35-50 s: queued last, they ran one
    after the other on one worker while the other was idle (about 5 of 14 minutes)."""
    bad = [
        item.nodeid
        for item in items
        if (CLAIM_TESTS.match(item.nodeid) or item.nodeid.split("::", 1)[0] in SELECTED)
        and "[" in item.nodeid
        and not PLAIN_ID.fullmatch(item.nodeid.split("[", 1)[1].rstrip("]"))
    ]
    if bad:
        listed = "\n  ".join(bad[:10])
        raise pytest.UsageError(
            f"test ids must be plain (use pytest.param(..., id=...)):\n  {listed}"
        )
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
