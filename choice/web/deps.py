"""Dependency injection: the one `InteractionService` of the app, for every handler."""

from __future__ import annotations

from typing import TypeAlias

from litestar.datastructures import State
from litestar.di import NamedDependency

from choice.service import InteractionService

Service: TypeAlias = NamedDependency[InteractionService]
"""Annotate a handler parameter `service: Service` to receive the service."""


def provide_service(state: State) -> InteractionService:
    service: InteractionService = state.service
    return service
