"""The human's side in client tests: a thread that waits (bounded) for a question to appear
on the real portal, then answers, widens or defers it through the HTTP API."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from choice.client.portal_client import PortalClient

APPEAR_TIMEOUT = 20.0
LIST_PACE = 0.02


def question_id(client: PortalClient, title: str, timeout: float = APPEAR_TIMEOUT) -> str:
    """The id of the active question titled `title`, once it exists (the list is the only
    place a new question shows up without a stream subscription)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for row in client.list("active", 100)["interactions"]:
            if row["title"] == title:
                return str(row["interaction_id"])
        time.sleep(LIST_PACE)
    raise AssertionError(f"no question titled {title!r} appeared within {timeout} s")


class Human:
    """Runs `act(client, interaction_id)` on its own thread once the question appears;
    `join()` re-raises whatever went wrong there."""

    def __init__(self, client: PortalClient, title: str,
                 act: Callable[[PortalClient, str], Any]) -> None:
        self.client, self.title, self.act = client, title, act
        self.error: BaseException | None = None
        self.interaction_id: str | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.interaction_id = question_id(self.client, self.title)
            self.act(self.client, self.interaction_id)
        except BaseException as exc:  # handed to the test thread by join()
            self.error = exc

    def join(self, timeout: float = 30.0) -> None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the human's thread did not finish"
        if self.error is not None:
            raise self.error


def answers(submission: dict[str, Any]) -> Callable[[PortalClient, str], Any]:
    return lambda client, iid: client.respond(iid, submission)
