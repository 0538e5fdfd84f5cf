"""`GET /static/bundle.<hash>.js|css|files.js`: the pages' assembled scripts and styles
(`views/assets.py` builds them once at start), with immutable cache headers and gzip
compressed once, not per request.
"""

from __future__ import annotations

from typing import Annotated

from litestar import Response, get
from litestar.exceptions import NotFoundException
from litestar.params import FromPath, HeaderParameter

from choice.web.deps import WebAssets

IMMUTABLE = "public, max-age=31536000, immutable"
MEDIA_TYPES = {"js": "text/javascript", "css": "text/css",  # Litestar adds the charset
               "files.js": "text/javascript"}
SKIP_COMPRESSION = "skip_compression"
"""The route option that keeps the app's gzip middleware off a bundle (it is sent
compressed already)."""


@get("/static/{filename:str}", include_in_schema=False, sync_to_thread=False,
     opt={SKIP_COMPRESSION: True})
def bundle(filename: FromPath[str], assets: WebAssets,
           accept_encoding: Annotated[str, HeaderParameter(name="accept-encoding")] = ""
           ) -> Response[bytes]:
    """`/static/bundle.<hash>.js|css`: a stale hash is a 404, never another version's content."""
    prefix, _, rest = filename.partition(".")
    digest, _, kind = rest.partition(".")
    wanted = {"js": assets.js, "css": assets.css, "files.js": assets.files}.get(kind)
    if prefix != "bundle" or wanted is None or wanted.digest != digest:
        raise NotFoundException()
    headers = {"Cache-Control": IMMUTABLE, "ETag": f'"{digest}"', "Vary": "Accept-Encoding"}
    if "gzip" in accept_encoding:
        return Response(wanted.gzipped, media_type=MEDIA_TYPES[kind],
                        headers={**headers, "Content-Encoding": "gzip"})
    return Response(wanted.content, media_type=MEDIA_TYPES[kind], headers=headers)
