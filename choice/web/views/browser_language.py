"""The language a person's browser asks for: its `Accept-Language` header read into one of
the portal's languages (en or zh), for a page whose language nobody chose.

Whoever chose wins over the browser (`choice.core.i18n.resolve_language`): a participant's
`?lang=`, the agent's `language`, the saved setting, `CHOICE_LANG`. Only then does the header
speak, and only for a language we have: `zh-CN, en;q=0.8` is Chinese, `fr, zh;q=0.5` is
Chinese too (French is not offered), `fr` alone, `*` or no header is none (the caller's
English).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from choice.core.i18n import SUPPORTED
from choice.web.security.ownership import signed_in_member

if TYPE_CHECKING:
    from litestar.connection import ASGIConnection

    from choice.core.service import InteractionService
    from choice.store.records import Interaction

HEADER = "accept-language"
MAX_RANGES = 32
"""A header longer than this many language ranges is read up to there: no browser sends
more, and a forged one costs nothing."""


def browser_language(headers: Mapping[str, str]) -> str | None:
    """The supported language the header ranks first (by `q`, then by order), or None."""
    ranked: list[tuple[float, int, str]] = []
    for position, entry in enumerate(headers.get(HEADER, "").split(",")[:MAX_RANGES]):
        tag, _, params = entry.strip().partition(";")
        language = tag.strip().lower().split("-", 1)[0]
        if language not in SUPPORTED:
            continue
        quality = _quality(params)
        if quality > 0:
            ranked.append((-quality, position, language))
    return min(ranked)[2] if ranked else None


def _quality(params: str) -> float:
    """`q=0.8` -> 0.8; absent -> 1; malformed or out of range -> 0 (the range is ignored)."""
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                quality = float(value.strip())
            except ValueError:
                return 0.0
            return quality if 0.0 <= quality <= 1.0 else 0.0
    return 1.0


def page_language(service: InteractionService, request: ASGIConnection[Any, Any, Any, Any],
                  row: Interaction | None = None) -> str:
    """The language of a page (or fragment, or socket) about `row` for this browser (in team
    mode, with its signed-in member's saved language)."""
    return service.language_for(row, browser_language(request.headers),
                                signed_in_member(request))
