"""The owner's view of one question: the question with its team panel (a widened one) and
its decision panel (an undecided one), read from the core and the features the app was
built with. Handlers get it by injection (`owner: Owner`).

Shaping only: the team and the decision features own every rule; the templates own the
markup.
"""

from __future__ import annotations

from choice.contract import UNRESOLVED_STATUSES, FieldError
from choice.contract.attachments import SentFile
from choice.core.service import InteractionService
from choice.decision.service import DecisionService
from choice.store.records import Interaction
from choice.team.service import TeamService
from choice.team.thread import NEWEST, Window
from choice.web.views.decision import DecisionForm, DecisionView
from choice.web.views.interactions import (
    Draft,
    InteractionView,
    Stage,
    interaction_view,
    soonest_first,
)
from choice.web.views.team import DiscussionView, owner_view


class OwnerViews:
    def __init__(self, service: InteractionService, team: TeamService,
                 decision: DecisionService) -> None:
        self.service, self.team, self.decision = service, team, decision

    async def team_view(self, row: Interaction, window: Window = NEWEST) -> DiscussionView | None:
        """The team panel of the owner's page (`window`: which comments it shows), or None
        for a question never widened (a pending one never was: widening moves it to
        `widened` in the same transaction)."""
        if row.status == "pending":
            return None
        discussion = await self.team.discussion(row.id, window=window)
        if discussion.widening is None:
            return None
        return owner_view(discussion, window=window.before is not None)

    async def decision_view(self, row: Interaction, team: DiscussionView | None,
                            form: DecisionForm | None = None) -> DecisionView | None:
        """The decision side of an undecided question (the panel, or for a pending one only
        its Defer form); None once it is decided."""
        if row.status not in UNRESOLVED_STATUSES:
            return None
        review = await self.decision.review(row.id)
        audience = len(team.people) if team is not None else 0
        return DecisionView(status=row.status, review=review, audience=audience,
                            widened=team is not None, form=form or DecisionForm())

    async def page_view(self, row: Interaction, *, stage: Stage | None = None,
                        draft: Draft | None = None, errors: list[FieldError] | None = None,
                        notice: str | None = None, form: DecisionForm | None = None,
                        focus: str | None = None, window: Window = NEWEST) -> InteractionView:
        """The owner's `/choice/{id}`: the question with its team panel and decision panel."""
        team = await self.team_view(row, window)
        return interaction_view(row, await self.service.owners_preferences(row), stage=stage,
                                draft=draft, errors=errors, notice=notice, team=team,
                                decision=await self.decision_view(row, team, form),
                                focus=focus, waiting=await self.others_waiting(row),
                                answer_files=await self.answer_files(row))

    async def answer_files(self, row: Interaction) -> list[SentFile]:
        """The files attached to the answer being written; none once it is decided."""
        if row.status not in UNRESOLVED_STATUSES:
            return []
        return await self.service.answer_files.listed(row.id)

    async def others_waiting(self, row: Interaction) -> list[Interaction]:
        """Once `row` is decided: the other questions still open, soonest deadline first
        (what "Next question" leads to); nothing while `row` itself is open."""
        if row.status in UNRESOLVED_STATUSES:
            return []
        return soonest_first(await self.service.recent("active", 100, row.member_id),
                             but=row.id)
