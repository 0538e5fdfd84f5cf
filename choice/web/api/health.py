"""`GET /healthz`: is a choice portal answering here?

Without credentials it says only that: `{"status": "ok", "portal": "choice"}`. The `portal`
key stays because `PortalClient.is_portal` needs it (`choice serve` refusing a second
portal, `choice ask`, `choice mcp`'s autostart and the Python API's discovery ask before
they have a token), and a load balancer's health check needs only the 200. With the API
token (or the owner's signed-in cookie) it adds what an operator and the test suites read:
the version, the pid, the pending and waiting counts, and the store and its listener. Those
are nobody else's business: the pid and the counts say when the owner is busy.
"""

from __future__ import annotations

import os
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from litestar import Request, get

from choice.web.deps import Service
from choice.web.security.auth import Access

try:
    VERSION = version("choice-portal")
except PackageNotFoundError:  # running from a source tree
    VERSION = "0.0.0"


@get("/healthz", tags=["health"])
async def healthz(service: Service, request: Request[Any, Any, Any]) -> dict[str, Any]:
    access: Access = request.auth
    if not access.token and not access.session:
        return {"status": "ok", "portal": "choice"}
    store: dict[str, Any] = {"kind": service.store.engine.dialect.name}
    relay = service.notifier.relay
    if relay is not None:  # other instances' changes reach this one
        store["listening"] = relay.listening
        store["reconnects"] = relay.reconnects
    return {"status": "ok", "portal": "choice", "version": VERSION, "pid": os.getpid(),
            "pending": len(service.deadlines), "waiting": service.notifier.waiting,
            "store": store}
