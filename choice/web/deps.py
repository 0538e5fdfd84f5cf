"""Dependency injection: what the composition root built (the service, the team, the
decision's write-back, the drafts, the settings) and what the app factory builds once (the
credentials, the asset bundles, the rendered lists, the open tabs, the sign-in codes, the
participants' live feeds, the pages of no-script posts; in team mode the sign-in and
the members' agent tokens and the admins' view of the members), for every handler that names it.
Registered in `app.create_app`; nothing lives on `app.state`."""

from __future__ import annotations

from typing import Protocol, TypeAlias

from litestar.di import NamedDependency

from choice.core.config import Settings
from choice.core.service import InteractionService
from choice.decision.service import DecisionService
from choice.drafts.keeper import DraftKeeper
from choice.store import Store
from choice.team.service import TeamService
from choice.web.live.discussion_feed import DiscussionFeeds
from choice.web.live.tabs import Tabs
from choice.web.pages.after_post import KeptPosts
from choice.web.security.auth import Credentials, LoginCodes
from choice.web.security.member_admin import MemberAdmin
from choice.web.security.member_tokens import MemberTokens
from choice.web.security.team_sign_in import TeamSignIn
from choice.web.views.assets import Assets
from choice.web.views.list_cache import ListCache
from choice.web.views.owner import OwnerViews


class PortalParts(Protocol):
    """What the web app is built from (`choice.portal.Portal` has these)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def store(self) -> Store: ...
    @property
    def service(self) -> InteractionService: ...
    @property
    def team(self) -> TeamService: ...
    @property
    def decision(self) -> DecisionService: ...
    @property
    def drafts(self) -> DraftKeeper: ...


Service: TypeAlias = NamedDependency[InteractionService]
"""Annotate a handler parameter `service: Service` to receive the service."""
Team: TypeAlias = NamedDependency[TeamService]
Decision: TypeAlias = NamedDependency[DecisionService]
Drafts: TypeAlias = NamedDependency[DraftKeeper]
Owner: TypeAlias = NamedDependency[OwnerViews]
"""The owner's view of a question (its team and decision panels)."""
PortalSettings: TypeAlias = NamedDependency[Settings]
PortalCredentials: TypeAlias = NamedDependency[Credentials]
WebAssets: TypeAlias = NamedDependency[Assets]
QuestionLists: TypeAlias = NamedDependency[ListCache]
OpenTabs: TypeAlias = NamedDependency[Tabs]
SignInCodes: TypeAlias = NamedDependency[LoginCodes]
Feeds: TypeAlias = NamedDependency[DiscussionFeeds]
TeamSignInFlow: TypeAlias = NamedDependency[TeamSignIn]
"""Team mode's sign-in through the OpenID provider (registered in team mode only)."""
AgentTokens: TypeAlias = NamedDependency[MemberTokens]
"""Team mode's personal agent tokens, as `member_tokens` (registered in team mode only)."""
Admins: TypeAlias = NamedDependency[MemberAdmin]
"""Team mode's admin acts over the members, as `admins` (registered in team mode only)."""
Kept: TypeAlias = NamedDependency[KeptPosts]
"""What the owner's form posts without script showed, for the page they redirect to."""
