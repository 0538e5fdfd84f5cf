"""The owner's `/choice/{id}` as one view: the question (`interactions`), and once it was
widened or deferred its team panel (`team`) and decision panel (`decision`).

The one module that puts the three together, so that each of them stays ignorant of the
others' pages. Shaping only: the reads go through the service, the markup is the templates'.
"""

from __future__ import annotations

from choice.contract import FieldError
from choice.core.service import InteractionService
from choice.store.records import Interaction
from choice.web.views.decision import DecisionForm, owner_decision
from choice.web.views.interactions import Draft, InteractionView, Stage, interaction_view
from choice.web.views.team import owner_team


async def owner_page_view(service: InteractionService, row: Interaction, *,
                          stage: Stage | None = None, draft: Draft | None = None,
                          errors: list[FieldError] | None = None, notice: str | None = None,
                          form: DecisionForm | None = None,
                          focus: str | None = None) -> InteractionView:
    """The owner's `/choice/{id}`: the question with its team panel and decision panel."""
    team = await owner_team(service, row)
    return interaction_view(row, await service.preferences(), stage=stage, draft=draft,
                            errors=errors, notice=notice, team=team,
                            decision=await owner_decision(service, row, team, form),
                            focus=focus)
