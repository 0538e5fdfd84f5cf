"""The composition root: the one place that builds the portal from its parts, for `choice
serve`, the ASGI app (`server.py`) and the tests.

`build` makes the store and the core (`InteractionService`), then the features, and
registers each on the core in order: other instances' changes first (the relay is in place
before any feature publishes), the team's webhook next (stopped after every feature it hears
from), then team, decision, drafts, reminders. `create_app` adds the web app (pages, API,
sockets) with the MCP endpoint mounted in it. Nothing else constructs a feature; nothing
below imports this module.
"""

from __future__ import annotations

from collections.abc import Callable

from litestar import Litestar
from msgspec import Struct

from choice.contract.clock import now
from choice.core.actors import MEMBER_ACTORS
from choice.core.config import Settings
from choice.core.service import InteractionService
from choice.decision.service import DecisionService
from choice.drafts.keeper import DraftKeeper
from choice.reminders.waiting import WaitingReminders
from choice.store import Store
from choice.team.service import TeamService


class Portal(Struct, frozen=True):
    """The core and the features, built and registered (not started: the app's lifespan,
    or a test, starts `service`, which starts every feature)."""

    settings: Settings
    store: Store
    service: InteractionService
    team: TeamService
    decision: DecisionService
    drafts: DraftKeeper


def build(settings: Settings, clock: Callable[[], float] = now) -> Portal:
    store = Store(settings.db_url)
    if settings.team_mode:  # every owner's and agent's audit event names the member, and
        store.repo.name_members(MEMBER_ACTORS)  # retention's count limit is each member's
        store.repo.limit_per_member()
    service = InteractionService(store, settings, clock=clock)
    if store.shared:  # psycopg is the `postgres` extra: imported only when used
        from choice.instances.remote_changes import RemoteChanges

        service.register(RemoteChanges(service))
    team, decision, drafts = TeamService(service), DecisionService(service), DraftKeeper(service)
    # Each shows what the other owns, read through the other's service (features never
    # build each other's repositories): the deferral in the discussion, the quorum in the review.
    team.read_decision, decision.read_quorum = decision.decision, team.quorum.min_votes
    if settings.webhook_url:  # imported only when configured: it would slow every start
        from choice.webhooks.listener import webhooks_for

        webhooks = webhooks_for(service, team, settings)
        if webhooks is not None:  # first: it stops last, after what it hears from
            service.register(webhooks)
    for feature in (team, decision, drafts, WaitingReminders(service)):
        service.register(feature)
    return Portal(settings, store, service, team, decision, drafts)


def create_app(settings: Settings | None = None, *, clock: Callable[[], float] = now,
               log_level: str = "INFO") -> Litestar:
    """The portal as an ASGI app. `clock` is the service's time (tests move it past a
    deadline); `log_level` WARNING keeps a portal inside `choice ask` from printing its
    start-up."""
    from choice.mcp.asgi import portal_mcp_app
    from choice.web.app import create_app as web_app

    settings = settings or Settings.from_env()
    return web_app(build(settings, clock), portal_mcp_app, log_level=log_level)
