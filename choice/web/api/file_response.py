"""A stored file as an HTTP response: the one way every route serves one (the owner's
`/api/interactions/{id}/attachments/{attachment_id}`, a participant's
`/api/d/<secret>/attachments/{attachment_id}`, a member's
`/api/widened/{id}/attachments/{attachment_id}`).

Streamed a chunk at a time, never held whole; an image (PNG, JPEG, GIF, WebP) inline and
anything else a download, under the name made safe for saving (`safe_file_name`);
`nosniff` and a sandboxing CSP, so a browser never runs what it holds.

Cached `private, no-cache`: a browser may keep the file but asks again before each use,
sending the ETag (the file's SHA-256) back as `If-None-Match`; the route checks who asks
first, so a withdrawn link, a revoked member or a signed-out owner gets its 404 or 401, and
only someone still allowed gets the empty 304. A `max-age` would let the browser show the
file from its cache, without asking, after the access that fetched it has ended.
Must not decide who may have the file: each route has done that before it calls this.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from litestar import Response
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter
from litestar.response import Stream

from choice.contract.attachments import INLINE_TYPES, safe_file_name
from choice.core.attachments import attachment_bytes
from choice.store import Store
from choice.store.records import StoredFile

CACHE_CONTROL = "private, no-cache"
"""Keep it if you like, but ask before every use (see the module's docstring)."""

IfNoneMatch = Annotated[str | None, HeaderParameter(
    name="if-none-match", required=False,
    description="The ETag of a copy the caller holds: 304 with no body when it is still the "
                "file and the caller may still have it.")]
"""The browser's validator, as a route's parameter."""

NOT_MODIFIED = {304: ResponseSpec(data_container=None, description=(
    "The copy named by `If-None-Match` is still the file, and the caller may still have "
    "it: no body. The browser asks again before every use (`Cache-Control: private, "
    "no-cache`)."))}
"""The extra answer of every file route, for its `responses=`."""


def file_response(store: Store, file: StoredFile,
                  if_none_match: str | None = None) -> Response[Any]:
    etag = f'"{file.sha256}"'
    cache = {"Cache-Control": CACHE_CONTROL, "ETag": etag}
    if if_none_match is not None and holds(if_none_match, etag):
        return Response(b"", status_code=304, headers=cache)
    disposition = "inline" if file.mime_type in INLINE_TYPES else "attachment"
    safe_name = safe_file_name(file.name, file.mime_type)  # a row stored before the rule
    return Stream(attachment_bytes(store, file), media_type=file.mime_type, headers={
        "Content-Length": str(file.size), "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Content-Disposition": f"{disposition}; filename*=UTF-8''{quote(safe_name)}",
        **cache})


def holds(if_none_match: str, etag: str) -> bool:
    """Whether an `If-None-Match` value names `etag` (`*`, or a list of tags compared weakly,
    RFC 9110 13.1.2)."""
    tags = [tag.strip() for tag in if_none_match.split(",")]
    return "*" in tags or etag in (tag.removeprefix("W/") for tag in tags)
