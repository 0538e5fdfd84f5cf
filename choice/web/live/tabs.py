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

from choice.core.config import Settings
from choice.core.notifier import Change
from choice.web.live.socket_limits import SESSION_SOCKETS, SocketLimit
from choice.web.security.auth import LoginCodes, login_link

log = logging.getLogger("choice.web")


class Tabs:
    def __init__(self) -> None:
        self.count = 0
        self.sessions = SocketLimit(SESSION_SOCKETS)
        """Open tabs per signed-in session (`socket_limits`): the oldest closes first."""

    @contextlib.contextmanager
    def connected(self) -> Iterator[None]:
        self.count += 1
        try:
            yield
        finally:
            self.count -= 1


class BrowserOpener:
    """A notifier listener: decides when the change is published, opens off the loop."""

    def __init__(self, settings: Settings, tabs: Tabs, codes: LoginCodes,
                 open_url: Callable[[str], object] = webbrowser.open) -> None:
        self.settings, self.tabs, self.codes, self.open_url = settings, tabs, codes, open_url

    def url_to_open(self, change: Change) -> str | None:
        """A new question for the web, or one the agent's MCP client handed back to the
        page (its form failed or was refused: `mcp/elicitation.py`), when no tab is open."""
        arrived = change.kind == "interaction.created" or (
            change.kind == "interaction.updated" and change.data.get("switched_from") == "client")
        if (not arrived or change.data.get("interface") != "web"
                or self.tabs.count or not self.settings.open_browser):
            return None
        return login_link(self.settings, self.codes, f"/choice/{change.interaction_id}")

    def __call__(self, change: Change) -> None:
        url = self.url_to_open(change)
        if url is not None:
            opening = asyncio.get_running_loop().run_in_executor(None, self.open_url, url)
            opening.add_done_callback(self._report)

    @staticmethod
    def _report(opening: asyncio.Future[object]) -> None:
        if opening.exception() is not None:  # no browser here: the agent still has the URL
            log.warning("could not open a browser: %s", opening.exception())
