"""`GET/PUT /api/settings`: the saved preferences every interface starts from."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Request, get, put

from choice.contract import Preferences, PreferencesPatch
from choice.field_errors import parse_model
from choice.web.body import json_body
from choice.web.deps import Service
from choice.web.openapi import BODY_ERRORS, body_of, errors
from choice.web.security import BEARER, bearer_token_guard


class SettingsController(Controller):
    path = "/api/settings"
    guards = [bearer_token_guard]  # noqa: RUF012
    security = BEARER
    tags = ["settings"]  # noqa: RUF012

    @get("/", responses=errors())
    async def read(self, service: Service) -> Preferences:
        return await service.preferences()

    @put("/", operation_class=body_of(PreferencesPatch), responses=errors(*BODY_ERRORS))
    async def update(self, request: Request[Any, Any, Any],
                     service: Service) -> Preferences:
        """Change any subset; the rest stay as they are. Survives restarts."""
        patch = parse_model(PreferencesPatch, await json_body(request))
        return await service.update_preferences(patch)
