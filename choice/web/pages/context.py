"""The context every page shares: language, assets, the sidebar list, the JS config and the
JS message catalog (`js_messages.py`: what the JS modules look up, translated), and for a
question's page the settings panel's "Use as default" offer. Handlers add
their own part (the interaction, the settings form).
"""

from __future__ import annotations

from typing import Any

from litestar.connection import ASGIConnection
from markupsafe import Markup

from choice.contract.clock import now
from choice.core.service import InteractionService
from choice.core.time_defaults import TimeDefault, time_default
from choice.store.records import Interaction
from choice.web.security.ownership import member_of, signed_in_member
from choice.web.views.assets import Assets
from choice.web.views.browser_language import page_language
from choice.web.views.js_messages import js_catalog
from choice.web.views.list_cache import ListCache


async def base_context(request: ASGIConnection[Any, Any, Any, Any], service: InteractionService,
                       assets: Assets, lists: ListCache, row: Interaction | None = None,
                       which: str = "all") -> dict[str, Any]:
    prefs = await service.preferences(signed_in_member(request))  # first: the page's language
    locale = page_language(service, request, row)
    ws_path = f"/ws/choice/{row.id}" if row else "/ws/portal"
    return {
        "locale": locale,
        "assets": assets,
        "fallback_script": Markup(assets.fallback_script),
        "prefs": prefs,
        "list": await lists.render(service, which, row.id if row else None, locale,
                                   member_of(request, service.settings.team_mode)),
        "page_config": {
            "ws_path": ws_path,
            "interaction_id": row.id if row else None,
            "files_script": assets.files.url,
            "server_now_ms": round(now() * 1000),
            "notifications": prefs.notifications,
            "sound": prefs.sound_volume if prefs.sound else 0,
        },
        "js_catalog": js_catalog(locale),
        "time_default": await time_default_of(service, row) if row else None,
    }


async def time_default_of(service: InteractionService, row: Interaction) -> TimeDefault | None:
    """The settings panel's "Use as default" for this question, once a person changed its
    time (None before, or when it is no longer open)."""
    if row.status != "pending":
        return None
    prefs = await service.owners_preferences(row)
    return time_default(await service.events(row.id), prefs.timeout_seconds)
