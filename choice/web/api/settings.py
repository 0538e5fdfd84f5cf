"""`GET/PUT /api/settings`: the saved preferences every interface starts from."""

from __future__ import annotations

from litestar import Controller, get, put
from litestar.params import JSONBody

from choice.contract import Preferences, PreferencesPatch
from choice.web.api.body import check_json_data
from choice.web.api.openapi import BODY_ERRORS, errors
from choice.web.deps import Service
from choice.web.security.guards import BEARER, bearer_token_guard


class SettingsController(Controller):
    path = "/api/settings"
    guards = [bearer_token_guard]  # noqa: RUF012
    security = BEARER
    tags = ["settings"]  # noqa: RUF012

    @get("/", responses=errors())
    async def read(self, service: Service) -> Preferences:
        return await service.preferences()

    @put("/", before_request=check_json_data, responses=errors(*BODY_ERRORS))
    async def update(self, data: JSONBody[PreferencesPatch], service: Service) -> Preferences:
        """Change any subset; the rest stay as they are. Survives restarts."""
        return await service.update_preferences(data)
