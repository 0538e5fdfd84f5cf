"""A tool a test needs is not installed (PostgreSQL, tmux, node and npm, a CJK font): the
test is skipped with the command that installs it; under CI (`CI` set, as `.ci/run` does)
it fails instead, since `scripts/test` installs them all and a skip there would hide a
whole tier behind a green run."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def unavailable(message: str) -> NoReturn:
    """Skip, or fail under CI."""
    if os.environ.get("CI"):
        pytest.fail(f"{message} (under CI this is a broken run, not a skip)")
    pytest.skip(message)
