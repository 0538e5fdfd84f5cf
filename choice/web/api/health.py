"""`GET /healthz`: is a choice portal answering here? No token needed, no secrets shown."""

from __future__ import annotations

import os
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from litestar import get

from choice.web.deps import Service

try:
    VERSION = version("choice-portal")
except PackageNotFoundError:  # running from a source tree
    VERSION = "0.0.0"


@get("/healthz", tags=["health"])
async def healthz(service: Service) -> dict[str, Any]:
    store: dict[str, Any] = {"kind": service.store.engine.dialect.name}
    relay = service.notifier.relay
    if relay is not None:  # other instances' changes reach this one
        store["listening"] = relay.listening
        store["reconnects"] = relay.reconnects
    return {"status": "ok", "portal": "choice", "version": VERSION, "pid": os.getpid(),
            "pending": len(service.deadlines), "waiting": service.notifier.waiting,
            "store": store}
