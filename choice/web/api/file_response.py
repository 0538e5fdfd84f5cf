"""A stored file as an HTTP response: the one way every route serves one (the owner's
`/api/interactions/{id}/attachments/{attachment_id}`, a participant's
`/api/d/<secret>/attachments/{attachment_id}`).

Streamed a chunk at a time, never held whole; an image (PNG, JPEG, GIF, WebP) inline and
anything else a download, under the name made safe for saving (`safe_file_name`);
`nosniff` and a sandboxing CSP, so a browser never runs what it holds; cached privately.
Must not decide who may have the file: each route has done that before it calls this.
"""

from __future__ import annotations

from urllib.parse import quote

from litestar.response import Stream

from choice.contract.attachments import INLINE_TYPES, safe_file_name
from choice.core.attachments import attachment_bytes
from choice.store import Store
from choice.store.records import StoredFile


def file_response(store: Store, file: StoredFile) -> Stream:
    disposition = "inline" if file.mime_type in INLINE_TYPES else "attachment"
    safe_name = safe_file_name(file.name, file.mime_type)  # a row stored before the rule
    return Stream(attachment_bytes(store, file), media_type=file.mime_type, headers={
        "Content-Length": str(file.size), "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Content-Disposition": f"{disposition}; filename*=UTF-8''{quote(safe_name)}",
        "Cache-Control": "private, max-age=3600", "ETag": f'"{file.sha256}"'})
