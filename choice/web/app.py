"""The Litestar application factory: wiring only (lifespan, routes, security, errors).

`create_app()` reads the settings once; the lifespan opens the store, makes sure the API
token exists, and starts the `InteractionService` (which brings back pending interactions).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar
from litestar.datastructures import State
from litestar.di import Provide
from litestar.middleware import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin

from choice.api_token import ensure_token
from choice.config import Settings
from choice.service import InteractionService
from choice.store import Store
from choice.web.api_interactions import InteractionController
from choice.web.api_settings import SettingsController
from choice.web.deps import provide_service
from choice.web.errors import EXCEPTION_HANDLERS
from choice.web.health import VERSION, healthz
from choice.web.security import RequestGuard
from choice.web.stream import stream

log = logging.getLogger("choice")


def create_app(settings: Settings | None = None) -> Litestar:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        settings.prepare_data_dir()
        app.state.token = ensure_token(settings.token_path)
        store = Store(settings.db_url)
        service = InteractionService(store, settings)
        await service.start()
        app.state.service = service
        try:
            yield
        finally:
            await service.stop()
            store.close()

    return Litestar(
        route_handlers=[InteractionController, SettingsController, stream, healthz],
        lifespan=[lifespan],
        dependencies={"service": Provide(provide_service, sync_to_thread=False)},
        middleware=[DefineMiddleware(RequestGuard, allowed_hosts=settings.allowed_hosts)],
        exception_handlers=EXCEPTION_HANDLERS,
        request_max_body_size=settings.max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="choice portal", version=VERSION, path="/schema",
            render_plugins=[SwaggerRenderPlugin()],
        ),
        state=State({"settings": settings}),
        debug=False,
    )


__all__ = ["create_app"]
