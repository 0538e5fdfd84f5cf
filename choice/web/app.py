"""The Litestar application factory: wiring only (lifespan, routes, security, errors).

`create_app()` reads the settings once; the lifespan opens the store, makes sure the API
token exists, starts the `InteractionService` (which brings back pending interactions) and
the browser opener.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar, asgi
from litestar.config.compression import CompressionConfig
from litestar.datastructures import State
from litestar.di import Provide
from litestar.middleware import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme
from litestar.plugins.htmx import HTMXPlugin
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.template import TemplateConfig

from choice.api_token import ensure_token
from choice.config import Settings
from choice.i18n import SUPPORTED, catalog
from choice.resources import RESOURCES
from choice.service import InteractionService
from choice.store import Store
from choice.web.actions import InteractionActions, save_settings
from choice.web.api_interactions import InteractionController
from choice.web.api_login_links import create_login_link
from choice.web.api_settings import SettingsController
from choice.web.assets import SKIP_COMPRESSION, Assets, bundle
from choice.web.auth import LoginCodes, LoginRequired
from choice.web.deps import provide_service
from choice.web.errors import exception_handlers
from choice.web.health import VERSION, healthz
from choice.web.idle import Activity, exit_when_idle
from choice.web.js_messages import js_catalog
from choice.web.list_cache import ListCache
from choice.web.login import login, login_form, login_required_handler
from choice.web.mcp_mount import McpMount
from choice.web.pages import PageController
from choice.web.security import RequestGuard, bearer_token_guard
from choice.web.sockets import choice_socket, portal_socket
from choice.web.stream import stream
from choice.web.tabs import BrowserOpener, Tabs
from choice.web.templating import make_environment

log = logging.getLogger("choice")


def create_app(settings: Settings | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    RESOURCES.check(SUPPORTED)
    for language in SUPPORTED:
        catalog(language)  # read now: a broken catalog stops the start, not a page later
        js_catalog(language)  # and the scripts' messages, extracted from their sources
    assets, tabs, codes, activity = Assets.build(), Tabs(), LoginCodes(), Activity()
    list_cache = ListCache()
    services: list[InteractionService] = []  # filled by the lifespan, read by the MCP tools
    mcp = McpMount(lambda: services[0], settings)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        settings.prepare_data_dir()
        app.state.token = ensure_token(settings.token_path)
        store = Store(settings.db_url)
        service = InteractionService(store, settings)
        await service.start()
        app.state.service = service
        services.append(service)
        service.notifier.listen(BrowserOpener(settings, tabs, codes))
        service.notifier.listen(list_cache)
        idle = None
        if settings.idle_exit_seconds:
            idle = asyncio.create_task(exit_when_idle(
                settings.idle_exit_seconds, activity, lambda: len(service.deadlines) + tabs.count))
        try:
            async with mcp.running():
                yield
        finally:
            if idle is not None:
                idle.cancel()
            services.clear()
            await service.stop()
            store.close()

    def constant(value: object) -> Provide:
        return Provide(lambda: value, sync_to_thread=False)

    return Litestar(
        route_handlers=[
            InteractionController, SettingsController, create_login_link, stream, healthz,
            PageController, InteractionActions, save_settings, login, login_form,
            choice_socket, portal_socket, bundle,
            asgi("/mcp", is_mount=True, copy_scope=True, guards=[bearer_token_guard])(mcp),
        ],
        lifespan=[lifespan],
        dependencies={"service": Provide(provide_service, sync_to_thread=False),
                      "assets": constant(assets), "tabs": constant(tabs),
                      "codes": constant(codes)},
        middleware=[DefineMiddleware(RequestGuard, allowed_hosts=settings.allowed_hosts,
                                     activity=activity)],
        exception_handlers={**exception_handlers(settings.max_body_bytes),
                            LoginRequired: login_required_handler},
        request_max_body_size=settings.max_body_bytes,
        template_config=TemplateConfig(
            engine=JinjaTemplateEngine.from_environment(make_environment())),
        plugins=[HTMXPlugin()],
        compression_config=CompressionConfig(backend="gzip", minimum_size=500, gzip_compress_level=6,
                                             exclude_opt_key=SKIP_COMPRESSION),
        openapi_config=OpenAPIConfig(
            title="choice portal", version=VERSION, path="/schema",
            components=Components(security_schemes={"bearer": SecurityScheme(
                type="http", scheme="bearer",
                description="The API token: `choice token` prints it (`<data dir>/token`).")}),
            render_plugins=[SwaggerRenderPlugin()],
        ),
        state=State({"settings": settings, "assets": assets, "tabs": tabs, "codes": codes,
                     "list_cache": list_cache}),
        debug=False,
    )
