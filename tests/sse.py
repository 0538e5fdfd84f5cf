"""Reading a real portal's `GET /api/stream` in tests: each server-sent event as
`(kind, data)`, in order, for as long as the caller keeps iterating."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx

from tests.portal_process import PortalProcess


def sse_events(portal: PortalProcess, query: str = "",
               timeout: float = 20) -> Iterator[tuple[str, dict[str, Any]]]:
    headers = {"Authorization": f"Bearer {portal.token}"}
    url = f"{portal.base_url}/api/stream" + (f"?{query}" if query else "")
    with httpx.stream("GET", url, headers=headers, timeout=timeout) as response:
        kind = ""
        for line in response.iter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                yield kind, json.loads(line.removeprefix("data: "))
