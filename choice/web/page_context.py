"""The context every page shares: language, assets, the sidebar list, the JS config and the
JS message catalog (`js_messages.py`: what the JS modules look up, translated). Handlers add
their own part (the interaction, the settings form).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from jinja2 import Environment
from litestar import Request
from markupsafe import Markup

from choice.clock import now
from choice.service import InteractionService
from choice.store.records import Interaction
from choice.web.assets import Assets
from choice.web.js_messages import js_catalog
from choice.web.list_cache import ListCache, RenderedList


def rendered_list(request: Request[Any, Any, Any], service: InteractionService, which: str,
                  current_id: str | None, locale: str) -> Awaitable[RenderedList]:
    cache: ListCache = request.app.state.list_cache
    env: Environment = request.app.template_engine.engine  # type: ignore[union-attr]
    return cache.render(service, env, which, current_id, locale)


async def base_context(request: Request[Any, Any, Any], service: InteractionService,
                       assets: Assets, row: Interaction | None = None,
                       which: str = "all") -> dict[str, Any]:
    prefs = await service.preferences()
    locale = service.language_for(row)
    ws_path = f"/ws/choice/{row.id}" if row else "/ws/portal"
    return {
        "locale": locale,
        "assets": assets,
        "fallback_script": Markup(assets.fallback_script),
        "prefs": prefs,
        "list": await rendered_list(request, service, which, row.id if row else None, locale),
        "page_config": {
            "ws_path": ws_path,
            "interaction_id": row.id if row else None,
            "server_now_ms": round(now() * 1000),
            "notifications": prefs.notifications,
        },
        "js_catalog": js_catalog(locale),
    }
