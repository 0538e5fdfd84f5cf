"""Dependency injection: the one service, the asset bundles, the open tabs and the sign-in
codes of the app, for every handler that names them."""

from __future__ import annotations

from typing import TypeAlias

from litestar.datastructures import State
from litestar.di import NamedDependency

from choice.service import InteractionService
from choice.web.assets import Assets
from choice.web.auth import LoginCodes
from choice.web.tabs import Tabs

Service: TypeAlias = NamedDependency[InteractionService]
"""Annotate a handler parameter `service: Service` to receive the service."""
WebAssets: TypeAlias = NamedDependency[Assets]
OpenTabs: TypeAlias = NamedDependency[Tabs]
SignInCodes: TypeAlias = NamedDependency[LoginCodes]


def provide_service(state: State) -> InteractionService:
    service: InteractionService = state.service
    return service
