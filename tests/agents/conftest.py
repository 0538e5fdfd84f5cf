"""The agents tier's fixtures: the CLIs installed once per run, one real portal per run
(each test's agent works in a folder of its own name, so the portal lists its questions
under that project), the owner's client, and `claude`, which starts Claude Code agents for
a test and stops them after it (a module narrows it: MCP on, the TUI, ...)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from choice.client.portal_client import PortalClient
from tests.agents.claude_code import ClaudeCode
from tests.agents.clis import AgentClis, installed
from tests.agents.fake_model import AnthropicModel
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


StartClaude = Callable[..., ClaudeCode]


@pytest.fixture
def claude(clis: AgentClis, portal: PortalProcess, tmp_path: Path) -> Iterator[StartClaude]:
    """`claude(model, **options)`: a `ClaudeCode` (its options) in a folder of its own,
    talking to `model` and this run's portal; every one is stopped after the test."""
    agents: list[ClaudeCode] = []

    def start(model: AnthropicModel, **options: Any) -> ClaudeCode:
        agent = ClaudeCode(clis, tmp_path / f"c{len(agents)}", model.base_url, portal=portal,
                           **options)
        agents.append(agent)
        return agent
    yield start
    for agent in agents:
        agent.stop()
