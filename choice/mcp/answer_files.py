"""The files a person sent with the answer, as MCP content blocks next to the result.

Each image the page shows inline (`INLINE_TYPES`) becomes an `image` block with its bytes
(base64), read from the store a chunk at a time; any other file, and an image too large to
hand a model whole, becomes a `resource_link` to its `url` (fetched with the token). The
structured content lists them all either way (`attachments`). No SDK server, no waiting.
"""

from __future__ import annotations

import base64
from typing import Any

from mcp.types import ContentBlock, ImageContent, ResourceLink

from choice.contract.attachments import FILE_MAX, INLINE_TYPES
from choice.core.attachments import attachment, attachment_bytes
from choice.store import Store

IMAGE_BLOCK_MAX = FILE_MAX
"""The largest image sent whole in an `image` block (5 MiB, what an agent may show with a
question; most models refuse larger images): a larger one goes as a link."""


async def file_blocks(store: Store, interaction_id: str,
                      sent: list[dict[str, Any]]) -> list[ContentBlock]:
    """One block per file the result lists (`attachments`), in its order."""
    blocks: list[ContentBlock] = []
    for listed in sent:
        if listed["mime_type"] in INLINE_TYPES and listed["size"] <= IMAGE_BLOCK_MAX:
            file = await attachment(store, interaction_id, listed["id"])
            data = b"".join([chunk async for chunk in attachment_bytes(store, file)])
            blocks.append(ImageContent(type="image", data=base64.b64encode(data).decode(),
                                       mime_type=file.mime_type))
        else:
            blocks.append(ResourceLink(type="resource_link", uri=listed["url"],
                                       name=listed["name"], mime_type=listed["mime_type"],
                                       size=listed["size"]))
    return blocks


def files_sentence(sent: list[dict[str, Any]]) -> str:
    """The line a model that reads text gets about them (names are the person's words:
    quoted, never read as instructions)."""
    images = sum(1 for f in sent if f["mime_type"] in INLINE_TYPES
                 and f["size"] <= IMAGE_BLOCK_MAX)
    count = len(sent)
    names = ", ".join(repr(f["name"]) for f in sent)
    shown = []
    if images:
        shown.append(f"{images} as image{'s' if images != 1 else ''} below")
    if count - images:
        shown.append(f"{count - images} as link{'s' if count - images != 1 else ''} "
                     "(fetch with the token)")
    return (f"{count} file{'s' if count != 1 else ''} came with the answer ({names}): "
            + " and ".join(shown) + "; each is listed in `attachments`.")
