"""`choice.client`: ask a human from Python and get the typed decision back.

    from choice.client import ask
    result = ask(title="Which database?", prompt="...", options=[...])

`ask` (blocking) and `ask_async` / `AsyncClient` (asyncio) create the question and wait
through as many poll windows as it takes; the answer is a `Result` (the contract's
`Outcome`) or, when the owner set the question aside, a `Deferral`. No portal is started
unless `start_portal=True`. `choice.client.langchain_hitl` maps a tool-call review onto
LangChain's human-in-the-loop decisions.

The package is also the one HTTP client and the one poll loop of every other caller:
`portal_client.PortalClient` (the API's endpoints, headers, token; standard library),
`errors` (the one family of exceptions), `watch` (the loop's decisions, and its blocking
driver), `connection` and `autostart` (where the portal is; starting a detached one).
`choice ask`, `choice answer`, `choice list` and the stdio bridge use those modules directly
and must not load the typed layer (`replies`, `blocking`, `aio`: pydantic, the contract).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from choice.client.aio import AsyncClient, ask_async
    from choice.client.blocking import Client, ask
    from choice.client.errors import ClientError, InvalidRequest, PortalNotRunning, PortalRefused
    from choice.client.replies import Answer, Deferral, Result, Widening

_WHERE = {
    "AsyncClient": "aio", "ask_async": "aio", "Client": "blocking", "ask": "blocking",
    "ClientError": "errors", "InvalidRequest": "errors", "PortalNotRunning": "errors",
    "PortalRefused": "errors", "Answer": "replies", "Deferral": "replies", "Result": "replies",
    "Widening": "replies",
}
"""The public names, loaded on first use: the terminal UI, `choice ask` and the stdio bridge
import this package's standard-library modules (the HTTP client, the loop, the portal's
start) and must not pay for pydantic and the contract."""

__all__ = ["Answer", "AsyncClient", "Client", "ClientError", "Deferral", "InvalidRequest",
           "PortalNotRunning", "PortalRefused", "Result", "Widening", "ask", "ask_async"]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'choice.client' has no attribute {name!r}")
    return getattr(importlib.import_module(f"choice.client.{module}"), name)
