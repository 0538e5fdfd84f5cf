"""Keeps participant links out of the logs.

A participant's link (`/d/<secret>`, `/api/d/<secret>/...`) is their credential, and the
path is what an access log writes: uvicorn logs every request line (`GET /api/d/<secret>`)
and every socket handshake. Anyone who can read the log (or `portal.log` of a portal that
`choice mcp` started) would hold every link. A filter on the loggers that write request
paths replaces the secret with `<link>` before any handler formats the record.

Owns only the redaction; what a link looks like is `team/links.py`'s.
"""

from __future__ import annotations

import logging
import re
from typing import Any

SECRET_IN_PATH = re.compile(r"(?<=/d/)[^/?#\s\"']+")
"""The path segment after `/d/`, in any route that carries a link (page, JSON, socket)."""
REDACTED = "<link>"
LOGGERS = ("uvicorn.access", "uvicorn.error", "choice.web", "litestar")
"""Where a request path is written: uvicorn's request lines and socket handshakes, the
portal's own unexpected-error line, Litestar's exception logging."""


def redact(text: str) -> str:
    """`GET /api/d/Ab3.../vote` -> `GET /api/d/<link>/vote`."""
    return SECRET_IN_PATH.sub(REDACTED, text)


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactLinks(logging.Filter):
    """Rewrites the record in place (message and arguments), so every handler, whatever
    its format, sees the redacted text; keeps the arguments' shape (uvicorn's access
    formatter unpacks a tuple of five)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _redacted(value) for key, value in record.args.items()}
        return True


def install() -> None:
    """Add the filter to each logger that writes request paths, once per process (an app
    factory may run many times: tests, `choice ask`'s background portal)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactLinks) for existing in logger.filters):
            logger.addFilter(RedactLinks())
