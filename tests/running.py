"""A built portal as the integration tests drive it: the core service's methods and state,
and each feature by its name (`running.team.widen(...)`, `running.decision.resolve(...)`).

Production code reaches the features through the composition root (`choice/portal.py`) and
dependency injection; the tests keep one handle on all of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from choice.contract.clock import now
from choice.core.config import Settings
from choice.decision.service import DecisionService
from choice.drafts.keeper import DraftKeeper
from choice.portal import Portal, build
from choice.team.service import TeamService


class Running:
    def __init__(self, parts: Portal) -> None:
        self.parts = parts

    @property
    def team(self) -> TeamService:
        return self.parts.team

    @property
    def decision(self) -> DecisionService:
        return self.parts.decision

    @property
    def drafts(self) -> DraftKeeper:
        return self.parts.drafts

    def __getattr__(self, name: str) -> Any:
        return getattr(self.parts.service, name)


def built(settings: Settings, clock: Callable[[], float] = now) -> Running:
    """The portal as `choice serve` builds it, not started."""
    return Running(build(settings, clock))
