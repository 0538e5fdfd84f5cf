"""Open portal tabs, and opening the browser when there is none.

A new web interaction either goes to a tab that is already open (its socket hears
`interaction.created` and shows it) or, when no tab is connected, opens the default
browser on a one-time sign-in link. `CHOICE_OPEN_BROWSER=0` (and CI) never opens one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import webbrowser
from collections.abc import Callable, Iterator

from choice.config import Settings
from choice.notifier import LocalNotifier
from choice.web.auth import LoginCodes

log = logging.getLogger("choice.web")


class Tabs:
    def __init__(self) -> None:
        self.count = 0

    @contextlib.contextmanager
    def connected(self) -> Iterator[None]:
        self.count += 1
        try:
            yield
        finally:
            self.count -= 1


def login_link(settings: Settings, codes: LoginCodes, path: str) -> str:
    return f"{settings.base_url}/login?code={codes.issue()}&next={path}"


class BrowserOpener:
    def __init__(self, settings: Settings, notifier: LocalNotifier, tabs: Tabs,
                 codes: LoginCodes, open_url: Callable[[str], object] = webbrowser.open) -> None:
        self.settings, self.notifier, self.tabs, self.codes = settings, notifier, tabs, codes
        self.open_url = open_url
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="choice-browser-opener")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        with self.notifier.subscribe() as subscription:
            while (change := await subscription.queue.get()) is not None:
                if (change.kind == "interaction.created" and change.data.get("interface") == "web"
                        and self.tabs.count == 0 and self.settings.open_browser):
                    url = login_link(self.settings, self.codes, f"/choice/{change.interaction_id}")
                    try:
                        await asyncio.to_thread(self.open_url, url)
                    except Exception:  # no browser here: the agent still has the URL
                        log.warning("could not open a browser for %s", change.interaction_id)
