"""The portal's HTML responses: a whole page (`Page`) and the fragment an HTMX swap asks
for (`Fragment`), both said to be HTML.

Without it, Litestar guesses a template's type from its `.html` suffix with `mimetypes`,
whose first use reads the system's whole table (`/etc/mime.types`, kept in memory for as
long as the portal runs) to answer that one question.
"""

from __future__ import annotations

from typing import Any

from litestar.enums import MediaType
from litestar.plugins.htmx import HTMXTemplate
from litestar.response import Template


class Page(Template):
    def __init__(self, template_name: str, **options: Any) -> None:
        options.setdefault("media_type", MediaType.HTML)
        super().__init__(template_name=template_name, **options)


class Fragment(HTMXTemplate):
    def __init__(self, template_name: str, **options: Any) -> None:
        options.setdefault("media_type", MediaType.HTML)
        super().__init__(template_name=template_name, **options)
