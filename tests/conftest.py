"""Shared fixtures: every test gets its own data dir, and never opens a browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    data_dir = tmp_path / "data"
    monkeypatch.setenv("CHOICE_DATA_DIR", str(data_dir))
    monkeypatch.setenv("CHOICE_OPEN_BROWSER", "0")
    for name in ("CHOICE_DB_URL", "CHOICE_PORT", "CHOICE_HOST", "CHOICE_LANG",
                 "CHOICE_RETENTION_DAYS", "CHOICE_MAX_SESSIONS", "CHOICE_ALLOWED_HOSTS"):
        monkeypatch.delenv(name, raising=False)
    yield data_dir
