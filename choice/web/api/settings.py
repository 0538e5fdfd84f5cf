"""`GET/PUT /api/settings`: the saved preferences every interface starts from (in team mode,
the calling member's own)."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, get, put
from litestar.params import JSONBody

from choice.contract import Preferences, PreferencesPatch
from choice.web.api.body import check_json_data
from choice.web.api.openapi import BODY_ERRORS, errors
from choice.web.deps import Service
from choice.web.security.guards import BEARER, bearer_token_guard
from choice.web.security.ownership import member_of


class SettingsController(Controller):
    path = "/api/settings"
    guards = [bearer_token_guard]  # noqa: RUF012
    security = BEARER
    tags = ["settings"]  # noqa: RUF012

    @get("/", responses=errors())
    async def read(self, request: Request[Any, Any, Any], service: Service) -> Preferences:
        """The caller's preferences: in team mode their member's own."""
        return await service.preferences(member_of(request, service.settings.team_mode))

    @put("/", before_request=check_json_data, responses=errors(*BODY_ERRORS))
    async def update(self, request: Request[Any, Any, Any], data: JSONBody[PreferencesPatch],
                     service: Service) -> Preferences:
        """Change any subset; the rest stay as they are. Survives restarts. In team mode
        only the caller's member's change."""
        return await service.update_preferences(
            data, member_of(request, service.settings.team_mode))
