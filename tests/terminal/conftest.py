"""Terminal fixtures: one real portal per module, questions asked through its API, and
`choice answer <id>` (or any `choice` command) running in its own tmux pane.

The portal gets its own data dir from `tmp_path_factory`: the autouse `isolated_env` is per
test, and a module's portal outlives it. Every tmux server a test starts is killed after it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any, Protocol

import pytest

from choice.client.portal_client import PortalClient
from tests.portal_process import PortalProcess
from tests.terminal.tmux import Pane, need_tmux

DATABASES = [
    {"id": "pg", "label": "PostgreSQL", "description": "A server; robust under concurrent writes."},
    {"id": "lite", "label": "SQLite", "description": "A file; nothing to run.", "recommended": True},
    {"id": "duck", "label": "DuckDB", "description": "Columnar; made for analytics."},
]


class Ask(Protocol):
    def __call__(self, title: str, **fields: Any) -> str: ...


class Run(Protocol):
    def __call__(self, *args: str, width: int = 100, height: int = 30,
                 env: dict[str, str] | None = None) -> Pane: ...


class Answer(Protocol):
    def __call__(self, interaction_id: str, *args: str, width: int = 100, height: int = 30,
                 env: dict[str, str] | None = None) -> Pane: ...


@pytest.fixture(scope="module")
def titles() -> set[str]:
    """The titles asked of this module's portal: each test asks its own question."""
    return set()


@pytest.fixture
def ask(client: PortalClient, titles: set[str]) -> Ask:
    """`ask("Unique title", selection_mode=..., ...)`: a pending terminal interaction's id.
    Three database options, a prompt and a five-minute deadline unless the test says else."""

    def ask_(title: str, **fields: Any) -> str:
        assert title not in titles, f"give each question its own title: {title!r}"
        titles.add(title)
        request = {"title": title, "prompt": "The service needs a store. Which one?",
                   "options": DATABASES, "timeout_seconds": 300, "interface": "terminal",
                   "context": {"agent": "test-agent"}, **fields}
        if request.get("selection_mode") == "text_input":
            request.pop("options")
        created = client.create(request)
        assert created["status"] == "pending", created
        return str(created["interaction_id"])

    return ask_


def terminal_env(portal: PortalProcess) -> dict[str, str]:
    return {"CHOICE_DATA_DIR": str(portal.data_dir), "CHOICE_PORT": str(portal.port),
            "CHOICE_OPEN_BROWSER": "0", "TERM": "xterm-256color", "LANG": "C.UTF-8"}


@pytest.fixture
def run(portal: PortalProcess) -> Iterator[Run]:
    """`run("answer", id)`: `python -m choice.cli answer <id>` in a fresh tmux pane."""
    need_tmux()
    panes: list[Pane] = []

    def run_(*args: str, width: int = 100, height: int = 30,
             env: dict[str, str] | None = None) -> Pane:
        command = [sys.executable, "-m", "choice.cli", *args]
        pane = Pane(command, {**terminal_env(portal), **(env or {})}, width=width, height=height)
        panes.append(pane)
        return pane.start()

    yield run_
    for pane in panes:
        pane.kill()


@pytest.fixture
def answer(run: Run) -> Answer:
    """`answer(id)`: `choice answer <id>` in a tmux pane, once its question is drawn."""

    def answer_(interaction_id: str, *args: str, width: int = 100, height: int = 30,
                env: dict[str, str] | None = None) -> Pane:
        pane = run("answer", interaction_id, *args, width=width, height=height, env=env)
        pane.wait_for("left", "asked at")  # the header with its countdown
        return pane

    return answer_


def events(client: PortalClient, interaction_id: str) -> list[tuple[str, str]]:
    """The audit trail as (kind, actor), oldest first."""
    reply = client.call("GET", f"/api/interactions/{interaction_id}/events")
    return [(event["kind"], event["actor"]) for event in reply["events"]]


def finished(client: PortalClient, interaction_id: str) -> dict[str, Any]:
    """The result the agent's poll returns (the interaction must be over)."""
    result = client.poll(interaction_id, 10)
    assert result["status"] != "pending", result
    return dict(result)
