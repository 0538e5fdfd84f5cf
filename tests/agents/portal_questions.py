"""Finding, on the portal, the question an agent asked: by its project (the agent's working
folder's name) or its title, polled with a bound, failing at once when the agent ended
first."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from typing import Any

from choice.client.portal_client import PortalClient

FIND_SECONDS = 60.0


def question_for(client: PortalClient, alive: Callable[[], bool], *, project: str | None = None,
                 title: str | None = None, after: Collection[str] = (),
                 timeout: float = FIND_SECONDS) -> dict[str, Any]:
    """The first active question of `project` (or with `title`) not in `after`, once the
    portal lists it; an agent that ends first (`alive()` false) fails it at once."""
    deadline = time.monotonic() + timeout
    while True:
        for item in client.list("active", 100)["interactions"]:
            if item["interaction_id"] in after:
                continue
            if (project is None or item.get("project") == project) and (
                    title is None or item.get("title") == title):
                return dict(item)
        if not alive():
            raise AssertionError(f"the agent ended before the portal listed a question of "
                                 f"{project or title!r}")
        if time.monotonic() > deadline:
            raise AssertionError(f"no question of {project or title!r} within {timeout:.0f} s")
        time.sleep(0.02)  # a polling interval, not a synchronization


def questions_of(client: PortalClient, project: str) -> list[dict[str, Any]]:
    """Every question of `project`, whatever its status."""
    return [item for item in client.list("all", 100)["interactions"]
            if item.get("project") == project]
