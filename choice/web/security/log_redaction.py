"""Keeps secrets in URLs out of the logs: participant links, the API token, sign-in codes.

A participant's link (`/d/<secret>`, `/api/d/<secret>/...`) is their credential, and the
path is what an access log writes: uvicorn logs every request line (`GET /api/d/<secret>`)
and every socket handshake. So is a sign-in's query: `/login?token=<the API token>` (what
scripts and tests use) and `/login?code=<a one-time code>`. Anyone who can read the log (or
`portal.log` of a portal that `choice mcp` started) would hold them. A filter on the loggers
that write request paths replaces each secret before any handler formats the record: a link
with `<link>`, a `token=` or `code=` value with `<secret>` (whatever the parameter's case or
percent-encoding, as long as it decodes to one of those names).

Owns only the redaction; what a link looks like is `team/links.py`'s.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import unquote_plus

SECRET_IN_PATH = re.compile(r"(?<=/d/)[^/?#\s\"']+")
"""The path segment after `/d/`, in any route that carries a link (page, JSON, socket)."""
REDACTED = "<link>"
QUERY_PARAMETER = re.compile(r"(?<=[?&])([^=&#\s\"'?]+)=([^&#\s\"']*)")
"""`name=value` in a query string: what follows a `?` or `&`, up to the next `&`."""
SECRET_PARAMETERS = {"token", "code"}
"""Query parameters whose value signs a browser in (`/login`)."""
REDACTED_VALUE = "<secret>"
LOGGERS = ("uvicorn.access", "uvicorn.error", "choice.web", "litestar")
"""Where a request path is written: uvicorn's request lines and socket handshakes, the
portal's own unexpected-error line, Litestar's exception logging."""


def redact(text: str) -> str:
    """`GET /api/d/Ab3.../vote` -> `GET /api/d/<link>/vote`;
    `GET /login?token=Xy...&next=/` -> `GET /login?token=<secret>&next=/`."""
    return QUERY_PARAMETER.sub(_parameter, SECRET_IN_PATH.sub(REDACTED, text))


def _parameter(match: re.Match[str]) -> str:
    name = match.group(1)
    if unquote_plus(name).strip().lower() in SECRET_PARAMETERS:
        return f"{name}={REDACTED_VALUE}"
    return match.group(0)


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactSecrets(logging.Filter):
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
        if not any(isinstance(existing, RedactSecrets) for existing in logger.filters):
            logger.addFilter(RedactSecrets())
