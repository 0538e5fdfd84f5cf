"""Dependency injection: what the app factory builds once (the service, the settings, the
credentials, the asset bundles, the rendered lists, the open tabs, the sign-in codes, the
participants' live feeds) for
every handler that names it. Registered in `app.create_app`; nothing lives on `app.state`."""

from __future__ import annotations

from typing import TypeAlias

from litestar.di import NamedDependency

from choice.core.config import Settings
from choice.core.service import InteractionService
from choice.web.live.discussion_feed import DiscussionFeeds
from choice.web.live.tabs import Tabs
from choice.web.security.auth import Credentials, LoginCodes
from choice.web.views.assets import Assets
from choice.web.views.list_cache import ListCache

Service: TypeAlias = NamedDependency[InteractionService]
"""Annotate a handler parameter `service: Service` to receive the service."""
PortalSettings: TypeAlias = NamedDependency[Settings]
PortalCredentials: TypeAlias = NamedDependency[Credentials]
WebAssets: TypeAlias = NamedDependency[Assets]
QuestionLists: TypeAlias = NamedDependency[ListCache]
OpenTabs: TypeAlias = NamedDependency[Tabs]
SignInCodes: TypeAlias = NamedDependency[LoginCodes]
Feeds: TypeAlias = NamedDependency[DiscussionFeeds]
