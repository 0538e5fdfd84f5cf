"""The Litestar application factory: wiring only (routes, security, errors, what handlers get).

`create_app(portal)` takes the core and the features the composition root built
(`choice/portal.py`) and adds the web's own long-lived objects: the credentials (the API
token and the browser sessions), the pages' templates (made at the first page), the asset
bundles, the rendered-list cache, the open tabs.
Handlers receive them through dependency injection (`web/deps.py`); the request checks and
the exception handlers (the sign-in page, the error pages) get theirs from here. The
lifespan starts the service (which brings back pending interactions and starts every
feature) and the MCP mount, and stops them and closes the store at shutdown.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar, Response, Router, asgi
from litestar.config.compression import CompressionConfig
from litestar.di import Provide
from litestar.logging.config import LoggingConfig
from litestar.middleware import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme
from litestar.plugins.htmx import HTMXPlugin
from litestar.plugins.pydantic import PydanticPlugin
from litestar.template import TemplateConfig
from litestar.types import Guard

from choice.core.i18n import SUPPORTED
from choice.core.resources import RESOURCES
from choice.core.token import TokenFile
from choice.store.login_codes import spend_login_code
from choice.web.api.answer_files import AnswerFileController
from choice.web.api.decision import DecisionController
from choice.web.api.drafts import DraftController
from choice.web.api.health import VERSION, healthz
from choice.web.api.interactions import InteractionController
from choice.web.api.login_links import create_login_link
from choice.web.api.me import me
from choice.web.api.members import MemberController
from choice.web.api.notices import agent_moved_on, agent_waiting
from choice.web.api.participant import ParticipantController
from choice.web.api.settings import SettingsController
from choice.web.api.stream import stream
from choice.web.api.team import TeamController
from choice.web.api.tokens import TokenController
from choice.web.api.widened import WidenedToMeController
from choice.web.deps import PortalParts
from choice.web.errors import exception_handlers
from choice.web.idle import Activity, exit_when_idle
from choice.web.live.discussion_feed import DiscussionFeeds
from choice.web.live.participant_socket import member_participant_socket, participant_socket
from choice.web.live.sockets import choice_socket, portal_socket
from choice.web.live.tabs import BrowserOpener, Tabs
from choice.web.mcp_mount import McpFactory, McpMount
from choice.web.pages.actions import InteractionActions, save_settings, save_team
from choice.web.pages.after_post import KeptPosts
from choice.web.pages.bundles import SKIP_COMPRESSION, bundle
from choice.web.pages.decision_actions import DecisionActions
from choice.web.pages.error_pages import ErrorPages
from choice.web.pages.login import login, login_form, login_required_handler, logout
from choice.web.pages.member_pages import MEMBER_PAGES
from choice.web.pages.option_visibility import save_hidden_options
from choice.web.pages.participant import MemberParticipantPages, ParticipantPages
from choice.web.pages.routes import PageController
from choice.web.pages.team_actions import TeamActions
from choice.web.pages.team_sign_in import auth_callback, signed_out, team_login
from choice.web.pages.time_default_actions import use_time_as_default
from choice.web.pages.token_pages import TOKEN_PAGES
from choice.web.security.auth import Credentials, LoginCodes, LoginRequired, session_guard
from choice.web.security.guards import (
    ActivityCount,
    Authentication,
    BodyTime,
    GuestTurns,
    HostCheck,
    OriginCheck,
    bearer_token_guard,
    protective_headers,
    refuse_busy,
)
from choice.web.security.guest_budget import GuestBudget
from choice.web.security.large_bodies import LargeBodies, Places
from choice.web.security.log_redaction import install as keep_secrets_out_of_logs
from choice.web.security.member_admin import MemberAdmin, admin_only
from choice.web.security.member_tokens import MemberTokens
from choice.web.security.ownership import owned_only
from choice.web.security.sessions import Sessions
from choice.web.security.team_sign_in import TeamSignIn
from choice.web.views.assets import Assets
from choice.web.views.list_cache import ListCache
from choice.web.views.owner import OwnerViews
from choice.web.views.templates import Templates

log = logging.getLogger("choice")
BEARER_LOCAL = "The API token: `choice token` prints it (`<data dir>/token`)."
BEARER_TEAM = ("A member's personal agent token (`chp_...`): make one on the portal's "
               "/settings/tokens page or with `POST /api/tokens` while signed in.")


def _constant(value: object) -> Provide:
    return Provide(lambda: value, sync_to_thread=False)


def create_app(portal: PortalParts, mcp: McpFactory, *, log_level: str = "INFO") -> Litestar:
    """The portal's web app. `mcp` builds what `/mcp` serves (called once, on a worker
    thread, when `/mcp` is first asked for); `log_level` WARNING keeps a portal inside `choice ask` from
    printing its start-up."""
    settings, store, service = portal.settings, portal.store, portal.service
    keep_secrets_out_of_logs()
    RESOURCES.check(SUPPORTED)  # a missing catalog stops the start; each is read on first use
    settings.check_team_mode()
    settings.prepare_data_dir()
    token = TokenFile(settings.token_path).current
    credentials = Credentials(token, Sessions(store, token, settings.public_url),
                              MemberTokens(store) if settings.team_mode else None)
    templates = Templates(settings.compiled_templates)
    codes = LoginCodes(token, lambda nonce, expires: store.write(
        spend_login_code, store.engine, nonce, expires, time.time()))
    assets, tabs, activity = Assets.build(), Tabs(), Activity()
    lists = ListCache(templates, portal.team.widened_to if settings.team_mode else None)
    feeds = DiscussionFeeds(portal.team, templates)
    service.notifier.listen(BrowserOpener(settings, tabs, codes))
    service.notifier.listen(lists, remote=True)
    service.notifier.listen(feeds, remote=True)
    mcp_mount = McpMount(mcp, portal, settings, codes, credentials)

    async def announced(response: Response[Any]) -> Response[Any]:
        """What a reply acknowledges, the other instances have heard (PostgreSQL only)."""
        await service.notifier.announced()
        return response

    @asynccontextmanager
    async def lifespan(_app: Litestar) -> AsyncIterator[None]:
        await service.start()
        idle = None
        if settings.idle_exit_seconds:
            idle = asyncio.create_task(exit_when_idle(
                settings.idle_exit_seconds, activity, lambda: len(service.deadlines) + tabs.count))
        try:
            async with mcp_mount.running():
                yield
        finally:
            if idle is not None:
                idle.cancel()
            await service.stop()
            store.close()

    errors = ErrorPages(service, assets, exception_handlers(settings.max_body_bytes),
                        settings.max_body_bytes)
    # Team mode swaps the token's sign-in for the OpenID provider's, and adds `/api/me`,
    # `/api/tokens` and the page of a member's agent tokens, and for admins `/api/members`
    # and the members' page.
    sign_in_pages: list[Any] = [login, login_form]
    team_routes: list[Any] = []
    admin_pages: list[Any] = []
    team_dependencies: dict[str, Provide] = {}
    team_guards: list[Guard] = []
    if settings.team_mode:
        assert settings.oidc_issuer and settings.oidc_client_id and settings.oidc_client_secret
        # Here, not at the top: a local-mode portal never loads the OpenID libraries.
        from choice.web.security.oidc_client import OidcClient
        oidc = OidcClient(settings.oidc_issuer, settings.oidc_client_id,
                          settings.oidc_client_secret, settings.redirect_uri)
        sign_in_pages = [team_login, auth_callback, signed_out, *TOKEN_PAGES]
        team_routes = [me, TokenController, MemberController, WidenedToMeController,
                       member_participant_socket,
                       Router("/", exception_handlers=errors.for_participant(),
                              route_handlers=[MemberParticipantPages])]
        admin_pages = MEMBER_PAGES
        team_guards = [owned_only(store)]
        team_dependencies = {"team_sign_in": _constant(TeamSignIn(
            settings, store, oidc, credentials.sessions.secure)),
            "member_tokens": _constant(credentials.member_tokens),
            "admins": _constant(MemberAdmin(store))}

    # A page's error is a page: the owner's and the participants' routers answer their
    # errors themselves; the API and the rest keep the app's JSON errors.
    owner_pages = Router("/", exception_handlers=errors.for_owner(), route_handlers=[
        PageController, InteractionActions, TeamActions, DecisionActions, save_settings, save_team,
        use_time_as_default, save_hidden_options, *sign_in_pages, logout])
    participant_pages = Router("/", exception_handlers=errors.for_participant(),
                               route_handlers=[ParticipantPages])
    # The members' page: an admin's session only; anyone else gets the sign-in or the 403 page.
    members_pages = [Router("/", exception_handlers=errors.for_owner(),
                            guards=[session_guard, admin_only], route_handlers=admin_pages)
                     ] if admin_pages else []

    return Litestar(
        logging_config=LoggingConfig(root={"level": log_level, "handlers": ["queue_listener"]}),
        route_handlers=[
            InteractionController, TeamController, DecisionController, ParticipantController,
            SettingsController, DraftController, AnswerFileController,
            create_login_link, agent_waiting, agent_moved_on, stream, healthz, *team_routes,
            owner_pages, participant_pages, *members_pages,
            choice_socket, portal_socket, participant_socket, bundle,
            asgi("/mcp", is_mount=True, copy_scope=True, guards=[bearer_token_guard])(mcp_mount),
        ],
        lifespan=[lifespan],
        guards=team_guards,
        dependencies={"service": _constant(service), "settings": _constant(settings),
                      "team": _constant(portal.team), "decision": _constant(portal.decision),
                      "drafts": _constant(portal.drafts),
                      "owner": _constant(OwnerViews(service, portal.team, portal.decision)),
                      "credentials": _constant(credentials), "assets": _constant(assets),
                      "lists": _constant(lists), "tabs": _constant(tabs),
                      "codes": _constant(codes), "feeds": _constant(feeds),
                      "kept": _constant(KeptPosts()), **team_dependencies},
        middleware=[DefineMiddleware(HostCheck, allowed_hosts=settings.allowed_hosts),
                    DefineMiddleware(OriginCheck, allowed_hosts=settings.allowed_hosts,
                                     public_url=settings.public_url),
                    DefineMiddleware(Authentication, credentials=credentials),
                    DefineMiddleware(GuestTurns, guests=GuestBudget(refuse_busy)),
                    DefineMiddleware(ActivityCount, activity=activity),
                    DefineMiddleware(BodyTime),
                    DefineMiddleware(LargeBodies, max_body_bytes=settings.max_body_bytes,
                                     places=Places())],
        before_send=[protective_headers(assets.content_security_policy()), credentials.renewal()],
        after_request=announced,
        exception_handlers={**errors.unrouted(),
                            LoginRequired: login_required_handler(service, assets,
                                                                  settings.team_mode)},
        request_max_body_size=settings.max_body_bytes,
        template_config=TemplateConfig(engine=templates),
        plugins=[HTMXPlugin(), PydanticPlugin()],
        compression_config=CompressionConfig(backend="gzip", minimum_size=500, gzip_compress_level=6,
                                             exclude_opt_key=SKIP_COMPRESSION),
        openapi_config=OpenAPIConfig(
            title="choice portal", version=VERSION, path="/schema",
            components=Components(security_schemes={"bearer": SecurityScheme(
                type="http", scheme="bearer",
                description=BEARER_TEAM if settings.team_mode else BEARER_LOCAL)}),
            render_plugins=[SwaggerRenderPlugin()],
        ),
        debug=False,
    )
