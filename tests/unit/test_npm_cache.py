"""Without node and npm the TypeScript-client and axe-core tests skip, except under CI,
where they fail as a missing PostgreSQL does (`tests/npm_cache.py`)."""

from __future__ import annotations

import pytest

from tests import npm_cache


@pytest.fixture(autouse=True)
def no_node(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(npm_cache.shutil, "which", lambda name: None)


def test_without_node_a_developer_run_skips_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y nodejs npm"):
        npm_cache.npm_package("axe-core", "4.14.1", "the accessibility scans")


def test_without_node_a_ci_run_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="broken run"):
        npm_cache.npm_package("axe-core", "4.14.1", "the accessibility scans")
