"""The agents tier's fixtures: the CLIs installed once per run, one real portal per run
(each test's agent works in a folder of its own name, so the portal lists its questions
under that project), and the owner's client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from choice.client.portal_client import PortalClient
from tests.agents.clis import AgentClis, installed
from tests.conftest import seed_database
from tests.portal_process import PortalProcess

MCP_WAIT_SECONDS = "3"
"""One MCP call waits this long before it answers `pending`: short, so a test can answer
after the client's first wait without waiting 50 s for it."""


@pytest.fixture(scope="session")
def clis() -> AgentClis:
    return installed()


@pytest.fixture(scope="session")
def portal(tmp_path_factory: pytest.TempPathFactory,
           migrated_template: Path) -> Iterator[PortalProcess]:
    data_dir = tmp_path_factory.mktemp("agents-portal") / "data"
    seed_database(data_dir, migrated_template)
    process = PortalProcess(data_dir, CHOICE_MCP_WAIT_SECONDS=MCP_WAIT_SECONDS).start()
    yield process
    process.stop()


@pytest.fixture
def client(portal: PortalProcess) -> PortalClient:
    return portal.client()
